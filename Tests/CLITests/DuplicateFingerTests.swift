import Foundation
import Testing
import TestSupport

/// Issue 37 §3: one finger is enrolled once. A finger already enrolled (as the same user's
/// other finger, or by another user) is refused at the first scan with nothing saved, on
/// `virtual_image` with the project's print images, through the command line and the
/// fprintd face (`enroll-duplicate`, as fprintd answers).
@Suite(.serialized, .enabled(if: SharedData.available, "needs ../shared/prints"))
struct DuplicateFingerTests: VirtualReaderHarness {
    let directory = TemporaryDirectory()

    func prints(_ socket: String, user: String) async throws -> [String] {
        let list = try await run("virtual_image", socket: socket, ["list"], user: user)
        return ((list.json["prints"] as? [[String: Any]]) ?? []).compactMap { $0["finger"] as? String }.sorted()
    }

    @Test func theSameFingerIsRefusedAsASecondFingerAndForAnotherUserAtTheFirstScan() async throws {
        let socket = TemporaryDirectory.socketPath()
        let whorl = SharedData.print("whorl")
        try await enrollRightIndex("virtual_image", socket: socket)

        // One scan is all it takes: the refusal comes at the first one.
        let second = try await run("virtual_image", socket: socket, ["enroll", "--finger", "left-index"], images: [whorl])
        #expect(second.errorCode == -2008, "\(second.stdout)\(second.stderr)")
        #expect(second.errorMessage.contains("already enrolled on virtual_image/0 as alice's right-index"), "\(second.errorMessage)")
        #expect(second.errorMessage.contains("nothing was saved"), "\(second.errorMessage)")
        #expect(try await prints(socket, user: "alice") == ["right-index"])

        // The command line reads the state directory itself, so it may say whose finger it is.
        let bob = try await run("virtual_image", socket: socket, ["enroll", "--finger", "right-thumb"], user: "bob", images: [whorl])
        #expect(bob.errorCode == -2008, "\(bob.stdout)\(bob.stderr)")
        #expect(bob.errorMessage.contains("as alice's right-index"), "\(bob.errorMessage)")
        #expect(try await prints(socket, user: "bob").isEmpty)

        // Another finger enrolls, and the finger replacing its own print is not its duplicate.
        let arch = try await run("virtual_image", socket: socket, ["enroll", "--finger", "right-thumb"], user: "bob",
                                 images: Array(repeating: SharedData.print("arch"), count: 5))
        #expect(arch.status == 0, "\(arch.stdout)\(arch.stderr)")
        let again = try await run("virtual_image", socket: socket, ["enroll", "--finger", "right-index", "--replace"],
                                  images: Array(repeating: whorl, count: 5))
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try await prints(socket, user: "alice") == ["right-index"])
        #expect(try await prints(socket, user: "bob") == ["right-thumb"])
    }

    @Test func theFprintdFaceAnswersEnrollDuplicateAtTheFirstScanForTheSameUserAndAnother() async throws {
        let socket = TemporaryDirectory.socketPath()
        let whorl = SharedData.print("whorl")
        let bus = try await FprintdBus.virtualImage(socket)
        try await bus.enrollOnVirtualImage(socket, image: whorl)

        for (user, finger) in [("root", "left-index-finger"), ("nobody", "right-index-finger")] {
            let duplicate = try bus.startClient(["call:Claim:\(user)", "call:EnrollStart:\(finger)",
                                                 "wait:EnrollStatus", "call:ListEnrolledFingers:\(user)", "call:Release"])
            #expect(try await duplicate.waitFor("EnrollStart ok"))
            try await VirtualReaderDriver.sendImages(socket, [whorl], lead: 0.5)
            let refused = try await duplicate.waitFor("signal EnrollStatus", timeout: 20)
            _ = try await duplicate.finish()
            let output = duplicate.output
            #expect(refused, "\(user): \(output)")
            // The first status is the refusal: no stage passed before it, and only the status is told.
            let statuses = output.split(separator: "\n").filter { $0.hasPrefix("signal EnrollStatus") }
            #expect(statuses == ["signal EnrollStatus enroll-duplicate True"], "\(user): \(output)")
            #expect(output.contains(user == "root" ? "ListEnrolledFingers ok [right-index-finger]"
                                                   : "ListEnrolledFingers error net.reactivated.Fprint.Error.NoEnrolledPrints"),
                    "\(user): nothing was saved: \(output)")
        }
    }
}
