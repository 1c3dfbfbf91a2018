import FPAuthentication
import FPLocalAPI
import FPReaders
import FPStore
import FPVocabulary
import Foundation
import Testing
import TestSupport

/// The engine decides an identification among the reader's users with the project's own 1:N
/// rule (issue 50) wherever the reader lets fpbridge score (the fake reader here, image readers
/// through libfprint): the best person, another touch when it is close, and how sure it was in
/// the events. Each case fails under libfprint's first-above-threshold rule.
@Suite struct IdentificationDecisionTests {
    /// bob enrolled before alice: libfprint's rule offers his print first.
    func harness() async throws -> EngineHarness {
        let harness = EngineHarness()
        try await harness.enroll(id: "bob-1", user: "bob")
        try await harness.enroll(id: "alice-1", user: "alice")
        return harness
    }

    /// Identifies with `script`: who (or the error's code) and every event.
    func identify(_ harness: EngineHarness, _ script: String) async throws -> (Outcome, [AuthEvent]) {
        let context = try await harness.context(script)
        let result: Outcome
        do throws(AuthError) {
            result = .identified(try await context.identify(reason: "x", options: BiometricOptions(maxFailedMatches: 1)).user)
        } catch {
            result = .failed(error.code)
        }
        context.invalidate()
        var events: [AuthEvent] = []
        for await event in context.events { events.append(event) }
        return (result, events)
    }

    enum Outcome: Equatable {
        case identified(String)
        case failed(AuthErrorCode)
    }

    static func scored(_ events: [AuthEvent]) -> [MatchConfidence] {
        events.compactMap { if case .identificationScored(let confidence) = $0 { confidence } else { nil } }
    }

    @Test func herFingerIsHersThoughAnotherScoredAboveTheReadersThresholdFirst() async throws {
        let harness = try await harness()
        // bob's print, first in the gallery, scores 45 (libfprint's rule: bob); with two
        // prints the threshold is the reader's 40, so bob is a runner-up above it: another touch.
        let (result, events) = try await identify(harness, "scan alice-1 bob-1=45\nscan alice-1")
        #expect(result == .identified("alice"), "\(events)")
        let scored = Self.scored(events)
        #expect(scored.map { $0.rule } == ["close-runner-up", "clear-lead"], "\(events)")
        #expect(scored.first?.bestScore == FakeReader.genuineScore && scored.first?.runnerUpScore == 45)
        #expect(scored.first?.threshold == 40 && scored.last?.touches == 2)
        #expect(events.contains(.anotherTouch))
        // The touch asked again is no failure: nothing counted against the reader.
        #expect(harness.readerCounter().biometricFailures == 0)
    }

    @Test func aLowRunnerUpLeavesAClearLead() async throws {
        let harness = try await harness()
        let (result, events) = try await identify(harness, "scan alice-1 bob-1=12")
        #expect(result == .identified("alice"))
        #expect(Self.scored(events) == [MatchConfidence(bestScore: 300, runnerUpScore: 12, threshold: 40, rule: "clear-lead",
                                                        touches: 1, uncomparable: 0)])
        #expect(!events.contains(.anotherTouch))
    }

    @Test func aStrangerJustAboveTheThresholdIsAskedAgainAndThenRefused() async throws {
        let harness = try await harness()
        // libfprint's rule welcomes this stranger as bob at once.
        let (result, events) = try await identify(harness, "scan mallory bob-1=44\nscan mallory bob-1=20")
        #expect(result == .failed(.authenticationFailed), "\(events)")
        #expect(Self.scored(events).map { $0.rule } == ["near-threshold", "below-threshold"])
        #expect(!events.contains { if case .matched = $0 { true } else { false } })
        // One identification, one failure, however many touches it took.
        #expect(harness.readerCounter().biometricFailures == 1)
    }

    @Test func oneFingerEnrolledUnderTwoNamesIdentifiesNeither() async throws {
        let harness = try await harness()
        let (result, events) = try await identify(harness, "scan alice-1 bob-1=300\nscan alice-1 bob-1=300")
        #expect(result == .failed(.authenticationFailed), "\(events)")
        #expect(Self.scored(events).map { $0.rule } == ["close-runner-up", "close-runner-up"])
    }

    @Test func aOneTouchConfigurationRefusesWhatIsTooClose() async throws {
        var configuration = try await harness().configuration
        configuration.identificationTouches = 1
        let harness = try await harness().with(configuration)
        let (result, events) = try await identify(harness, "scan alice-1 bob-1=45\nscan alice-1")
        #expect(result == .failed(.authenticationFailed), "\(events)")
        #expect(!events.contains(.anotherTouch))
    }

    @Test func aStricterTargetRaisesTheThreshold() async throws {
        var configuration = try await harness().configuration
        configuration.identificationStrangerRate = 1e-7
        let harness = try await harness().with(configuration)
        let (result, events) = try await identify(harness, "scan mallory bob-1=55")
        #expect(result == .failed(.authenticationFailed))
        let threshold = try #require(Self.scored(events).first?.threshold)
        // 40 + 7.77 × log10(2.5e-5 × 2 comparisons × 3 (safety) ÷ 1e-7) = 64.7: the model, rounded up.
        #expect(threshold == 65)
    }

    @Test func theSettingsAreCheckedWhenRead() throws {
        let directory = TemporaryDirectory()
        let state = StateDirectory(path: directory.file("state"))
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let config = URL(fileURLWithPath: ConfigFile.path(in: state))
        for (json, named) in [(#"{"identificationStrangerRate": 0.5}"#, "identificationStrangerRate"),
                              (#"{"identificationStrangerRate": 0}"#, "identificationStrangerRate"),
                              (#"{"identificationTouches": 3}"#, "identificationTouches")] {
            try Data(json.utf8).write(to: config)
            #expect { try AuthConfiguration.load(from: state) } throws: {
                ($0 as? AuthError)?.code == .invalidInput && "\($0)".contains(named)
            }
        }
        try Data(#"{"identificationStrangerRate": 0.0001, "identificationTouches": 1}"#.utf8).write(to: config)
        let loaded = try AuthConfiguration.load(from: state)
        #expect(loaded.identificationStrangerRate == 0.0001 && loaded.identificationTouches == 1)
    }

    @Test func howSureItWasCrossesTheWire() throws {
        for event in [AuthEvent.identificationScored(MatchConfidence(bestScore: 300, runnerUpScore: nil, threshold: 63,
                                                                     rule: "clear-lead", touches: 1, uncomparable: 2)),
                      .anotherTouch] {
            let wire = try JSONDecoder().decode(WireEvent.self, from: JSONEncoder().encode(WireEvent(event)))
            #expect(wire.event == event)
        }
        let json = try #require(String(data: JSONEncoder().encode(WireEvent(.identificationScored(
            MatchConfidence(bestScore: 70, runnerUpScore: 12, threshold: 63, rule: "near-threshold", touches: 1, uncomparable: 0)))),
            encoding: .utf8))
        #expect(json.contains(#""kind":"identificationScored""#) && json.contains(#""threshold":63"#), "\(json)")
    }
}
