import Foundation
import Testing
import TestSupport

/// Issue 40 §4: enrolling a user while the kiosk runs. Before, the kiosk took the
/// administrator's first enrollment scan as a stranger's and the enrollment then ran beside
/// it. Now an enrollment started elsewhere is refused at once while the kiosk's identification
/// is armed, and one at the kiosk (`fpbridge enroll --at-kiosk`, an administrator's) pauses
/// identification, shows its progress on the page, and the kiosk is ready again after it. The
/// real kiosk (as a kiosk-group member) against the real fpbridged on `virtual_image`.
@Suite(.serialized, .enabled(if: SharedData.available || SharedData.isCI, "needs ../shared/prints"))
struct KioskEnrollmentTests {
    @Test func anEnrollmentElsewhereIsRefusedAndOneAtTheKioskPausesItShowsItsScansAndEnds() async throws {
        let rig = try KioskRig()
        try await rig.startService()
        try await rig.enroll("alice", image: SharedData.print("whorl"))
        let kiosk = try await KioskProcess(service: rig.socket, launcher: KioskRig.asKioskMember)
        #expect(try await kiosk.next("ready") != nil, "\(kiosk.snapshots) \(kiosk.log)")

        let client = ["FPBRIDGE_SERVICE": rig.socket]
        let bob = ["--json", "--state-dir", rig.state, "--user", "bob"]
        let set = try await Fpbridge.run(bob + ["passcode", "set", "--passcode-stdin"], environment: client, input: "2468\n")
        #expect(set.status == 0, "\(set.stdout)\(set.stderr)")

        // Started elsewhere (the test runs as root, an administrator): refused at once, the
        // kiosk's identification left armed, and nothing counted by it.
        let mark = kiosk.snapshots.count
        let refused = try await Fpbridge.run(bob + ["enroll", "--finger", "right-index", "--passcode-stdin"],
                                             environment: client, input: "2468\n")
        let error = try #require(refused.json["error"] as? [String: Any], "\(refused.stdout)\(refused.stderr)")
        #expect(refused.status != 0 && error["cause"] as? String == "kiosk-holds-reader", "\(refused.stdout)")
        #expect((error["message"] as? String)?.contains("--at-kiosk") == true, "\(error)")
        #expect((error["hint"] as? String)?.contains("--at-kiosk") == true, "\(error)")

        // At the kiosk: the page shows the enrollment and its scans, never a stranger.
        async let enrolled = Fpbridge.run(bob + ["enroll", "--finger", "right-index", "--passcode-stdin", "--at-kiosk"],
                                          environment: client, input: "2468\n")
        let paused = try await kiosk.next("enrolling", skipping: mark)
        #expect(paused != nil, "the page shows the enrollment: \(kiosk.snapshots.dropFirst(mark)) \(kiosk.log)")
        // The passcode is checked (scrypt) before the first scan: frames sent sooner would reach the reader back to back.
        try await VirtualReaderDriver.sendImages(rig.readerSocket, Array(repeating: SharedData.print("loop-right"), count: 5), lead: 2)
        let result = try await enrolled
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")

        let during = Array(kiosk.snapshots.dropFirst(mark))
        let stages = during.compactMap { snapshot -> String? in
            guard snapshot["message"] as? String == "enrollingStage" else { return nil }
            return (snapshot["parameters"] as? [String: String])?["stage"]
        }
        #expect(stages.contains("1") && stages.contains { Int($0) ?? 0 >= 3 }, "the scans done, as they come: \(stages) \(during)")
        #expect(!during.contains { ["notRecognised", "welcome", "lockedOut"].contains($0["state"] as? String) },
                "no scan of the enrollment went to identification: \(during)")

        // Ready again by itself (after the last snapshot of the enrollment), and bob's new finger welcomes him.
        let lastEnrolling = kiosk.snapshots.lastIndex { $0["state"] as? String == "enrolling" } ?? mark
        #expect(try await kiosk.next("ready", skipping: lastEnrolling + 1) != nil, "\(kiosk.snapshots.dropFirst(lastEnrolling))")
        let back = kiosk.snapshots.count
        try await rig.touch(SharedData.print("loop-right"))
        let welcome = try await kiosk.next("welcome", skipping: back)
        #expect(welcome?["user"] as? String == "bob", "\(kiosk.snapshots.dropFirst(back)) \(rig.serviceLog)")
    }

    @Test func enrollingAtTheKioskIsAnAdministratorsOnly() async throws {
        let rig = try KioskRig()
        try await rig.startService()
        // nobody (in nogroup, the kiosk group here) for itself: the right to enroll its own
        // finger, but not to pause the kiosk for everyone.
        let refused = try await Fpbridge.run(["--json", "--service", rig.socket, "enroll", "--finger", "right-index",
                                              "--passcode-stdin", "--at-kiosk"], input: "2468\n", launcher: KioskRig.asKioskMember)
        #expect(refused.status != 0, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stdout.contains("may not enroll at the kiosk") && refused.stdout.contains("admin group"), "\(refused.stdout)\(refused.stderr)")
    }
}
