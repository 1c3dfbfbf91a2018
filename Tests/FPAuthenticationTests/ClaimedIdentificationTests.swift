@testable import FPAuthentication
import FPMatching
import FPStore
import FPVocabulary
import Foundation
import Testing

/// Badge and finger (issue 50): past `identificationOpenGalleryLimit` prints an identification
/// among everyone is refused before any scan, and a touch of a person who named themselves (the
/// kiosk's badge) is compared with that person's prints only, at that small gallery's threshold,
/// its failures counted on the reader's identification count and never on the named person's.
@Suite struct ClaimedIdentificationTests {
    /// One identification: who, or the error, and the thresholds its touches were decided at.
    func identify(_ harness: EngineHarness, _ script: String, claimed: String? = nil)
        async throws -> (user: String?, error: AuthError?, thresholds: [Int]) {
        let context = try await harness.context(script)
        var user: String?, failure: AuthError?
        do throws(AuthError) {
            user = try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1, claimedUser: claimed)).user
        } catch {
            failure = error
        }
        context.invalidate()
        var thresholds: [Int] = []
        for await event in context.events { if case .identificationScored(let confidence) = event { thresholds.append(confidence.threshold) } }
        return (user, failure, thresholds)
    }

    func aliceAndBob() async throws -> EngineHarness {
        let harness = EngineHarness()
        try await harness.enroll(id: "bob-1", user: "bob")
        try await harness.enroll(id: "alice-1", user: "alice")
        return harness
    }

    @Test func onlyTheNamedPersonsPrintsAreCompared() async throws {
        let harness = try await aliceAndBob()
        #expect(try await identify(harness, "scan alice-1").user == "alice", "among everyone")
        let asBob = try await identify(harness, "scan alice-1", claimed: "bob")
        #expect(asBob.user == nil && asBob.error?.code == .authenticationFailed,
                "alice's finger under bob's badge: her own print is not compared: \(asBob)")
        #expect(try await identify(harness, "scan alice-1", claimed: "alice").user == "alice")
        // A near twin ahead of her in the gallery (bob-1 scores 90 against her finger) never
        // competes under her badge, and never wins under his own rule either: the old rule
        // took the first print at 40 or more, bob's.
        #expect(try await identify(harness, "scan alice-1 bob-1=90", claimed: "alice").user == "alice")
    }

    @Test func aFailedNamedTouchCountsOnTheReaderNeverOnTheNamedPerson() async throws {
        let harness = try await aliceAndBob()
        for _ in 0..<4 {
            #expect(try await identify(harness, "scan mallory", claimed: "alice").error?.code == .authenticationFailed)
        }
        #expect(harness.counter("alice").biometricFailures == 0, "a bystander with alice's badge spends none of her attempts")
        #expect(harness.readerCounter().biometricFailures == 4)
        #expect(harness.readerCounter().strangerTouches > 3.9, "they are the reader's failed identifications of the hour")
        // The fifth locks identification at this reader for a while, as any five do; alice's own
        // finger at her desk (a verify) is untouched.
        let fifth = try await identify(harness, "scan mallory", claimed: "alice")
        #expect(fifth.user == nil && fifth.error?.code == .biometryLockout, "the fifth failure locks: \(fifth)")
        #expect(try await identify(harness, "scan alice-1", claimed: "alice").error?.code == .biometryLockout)
        let desk = try await harness.context("scan alice-1")
        #expect(try await desk.verifyFinger(reason: "desk").user == "alice")
    }

    @Test func pastTheOpenGalleryLimitEveryoneIsRefusedBeforeAnyScanAndANamedTouchIsNot() async throws {
        var configuration = try await aliceAndBob().configuration
        configuration.identificationOpenGalleryLimit = 1
        let harness = try await aliceAndBob().with(configuration)
        let open = try await identify(harness, "scan alice-1")
        #expect(open.error?.code == .notPermitted && open.error?.cause == .claimNeeded, "\(String(describing: open.error))")
        #expect(open.error?.message.contains("2 prints") == true && open.error?.message.contains("(1)") == true,
                "it says how many prints and the limit: \(open.error?.message ?? "")")
        #expect(open.thresholds.isEmpty, "no touch was scored")
        #expect(harness.readerCounter().biometricFailures == 0 && harness.readerCounter().strangerTouches == 0, "nothing counted")
        #expect(try await identify(harness, "scan alice-1", claimed: "alice").user == "alice")
        configuration.identificationOpenGalleryLimit = 0
        #expect(try await identify(harness.with(configuration), "scan alice-1").error?.cause == .claimNeeded, "0: always named")
        configuration.identificationOpenGalleryLimit = 2
        #expect(try await identify(harness.with(configuration), "scan alice-1").user == "alice", "at the limit: allowed")
    }

    @Test func aNameWithNoUsablePrintIsNotEnrolledBeforeAnyScan() async throws {
        let harness = try await aliceAndBob()
        for name in ["carol", "nobody-at-all"] {
            let result = try await identify(harness, "scan alice-1", claimed: name)
            #expect(result.error?.code == .biometryNotEnrolled && result.error?.message.contains(name) == true, "\(String(describing: result.error))")
            #expect(result.thresholds.isEmpty)
        }
        #expect(harness.readerCounter().biometricFailures == 0)
    }

    /// The badge's point at a large gallery: the right person's weaker touch clears the
    /// threshold of her own few prints where the gallery's would refuse it.
    @Test func aNamedTouchIsDecidedAtItsOwnGallerysThreshold() async throws {
        let harness = EngineHarness()
        try await harness.enroll(id: "alice-1", user: "alice")
        let fingers: [Finger] = [.leftThumb, .leftIndex, .leftMiddle, .leftRing, .leftLittle,
                                 .rightThumb, .rightIndex, .rightMiddle, .rightRing, .rightLittle]
        for crowd in 0..<3 {
            for (index, finger) in fingers.enumerated() { try await harness.enroll(finger, id: "c\(crowd)-\(index)", user: "crowd\(crowd)") }
        }
        var configuration = harness.configuration
        configuration.identificationStrangerRate = 1e-6
        configuration.identificationTouches = 1
        let strict = harness.with(configuration)
        let openThreshold = try #require(try await identify(strict, "scan mallory").thresholds.first)
        let namedThreshold = try #require(try await identify(strict, "scan mallory", claimed: "alice").thresholds.first)
        let score = namedThreshold + IdentificationPolicy().confirmationBand
        try #require(score < openThreshold, "31 prints against 1 should be more than the band apart: \(namedThreshold), \(openThreshold)")
        let open = try await identify(strict, "scan mallory alice-1=\(score)")
        #expect(open.error?.code == .authenticationFailed, "among everyone \(score) is under \(openThreshold): \(open)")
        #expect(try await identify(strict, "scan mallory alice-1=\(score)", claimed: "alice").user == "alice")
    }
}
