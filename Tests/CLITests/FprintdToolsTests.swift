import Foundation
import Testing
import TestSupport

/// Debian's own fprintd tools (`fprintd-enroll`, `-verify`, `-list`, `-delete`, from the
/// `fprintd` package) against the real fpbridged serving fprintd's D-Bus API, on a private
/// system bus with polkit and logind mocked and libfprint's `virtual_device` as the reader.
/// The same steps run against fprintd itself first: each command must print the same and exit
/// with the same status against both.
@Suite(.serialized) struct FprintdToolsTests {
    /// One step of the session: the tool, what to wait for before the finger, and the fingers.
    struct Step {
        let arguments: [String]
        var after = ""
        var scans: [String] = []
    }

    static let session: [Step] = [
        Step(arguments: ["/usr/bin/fprintd-list", "root"]),
        Step(arguments: ["/usr/bin/fprintd-enroll", "-f", "right-index-finger", "root"], after: "Enrolling",
             scans: ["p1", "p1", "p1", "p1", "p1"]),
        Step(arguments: ["/usr/bin/fprintd-list", "root"]),
        Step(arguments: ["/usr/bin/fprintd-verify", "root"], after: "Verify started", scans: ["p1"]),
        Step(arguments: ["/usr/bin/fprintd-verify", "-f", "right-index-finger", "root"], after: "Verify started", scans: ["p2"]),
        Step(arguments: ["/usr/bin/fprintd-verify", "-f", "left-thumb", "root"]),
        // Enrolling a finger again replaces its print, as fprintd does.
        Step(arguments: ["/usr/bin/fprintd-enroll", "-f", "right-index-finger", "root"], after: "Enrolling",
             scans: ["p3", "p3", "p3", "p3", "p3"]),
        Step(arguments: ["/usr/bin/fprintd-verify", "root"], after: "Verify started", scans: ["p3"]),
        Step(arguments: ["/usr/bin/fprintd-delete", "root"]),
        Step(arguments: ["/usr/bin/fprintd-list", "root"]),
        Step(arguments: ["/usr/bin/fprintd-delete", "root"]),
    ]

    func transcript(_ daemon: FprintdBus.Daemon) async throws -> [CommandResult] {
        let bus = try await FprintdBus(daemon)
        var results: [CommandResult] = []
        for step in Self.session {
            results.append(step.scans.isEmpty
                ? try await bus.run(step.arguments)
                : try await bus.withScans(step.arguments, after: step.after, scans: step.scans))
            // fprintd answers a claim that follows a release at once; so must the next tool.
        }
        return results
    }

    @Test func theToolsPrintAndExitAsTheyDoAgainstFprintd() async throws {
        let theirs = try await transcript(.fprintd)
        let ours = try await transcript(.fpbridged)
        for (index, step) in Self.session.enumerated() {
            let command = step.arguments.joined(separator: " ")
            #expect(ours[index].status == theirs[index].status, "\(command): exit \(ours[index].status), fprintd's \(theirs[index].status)")
            #expect(ours[index].stdout == theirs[index].stdout,
                    "\(command) prints\n\(ours[index].stdout)\nand against fprintd\n\(theirs[index].stdout)")
        }
        // And what they print is the session it should be, not two equal failures.
        #expect(ours[0].stdout.contains("User root has no fingers enrolled for Virtual device for debugging."))
        #expect(ours[1].status == 0 && ours[1].stdout.contains("Enroll result: enroll-completed"), "\(ours[1].stdout)")
        #expect(ours[2].stdout.contains(" - #0: right-index-finger"), "\(ours[2].stdout)")
        #expect(ours[3].status == 0 && ours[3].stdout.contains("Verify result: verify-match (done)"), "\(ours[3].stdout)")
        #expect(ours[4].status == 1 && ours[4].stdout.contains("Verify result: verify-no-match (done)"), "\(ours[4].stdout)")
        #expect(ours[6].status == 0 && ours[6].stdout.contains("Enroll result: enroll-completed"), "\(ours[6].stdout)")
        #expect(ours[7].status == 0 && ours[7].stdout.contains("Verify result: verify-match (done)"), "the new print: \(ours[7].stdout)")
        #expect(ours[8].status == 0 && ours[8].stdout.contains("Fingerprints of user root deleted on Virtual device for debugging"),
                "\(ours[8].stdout)")
        #expect(ours[9].stdout.contains("User root has no fingers enrolled"), "\(ours[9].stdout)")
    }
}
