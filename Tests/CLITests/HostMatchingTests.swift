import Foundation
import Testing
import TestSupport

/// Identification on an image reader matches on the host with fpbridge's bozorth3 (issue
/// 26): the same scores as libfprint's own identify, decided by fpbridge's 1:N rule (issue 50):
/// the same answers where one person stands out, and nobody where libfprint takes the first of
/// two people the finger matches alike; and it says how many prints it compared and how sure it was.
@Suite(.serialized) struct HostMatchingTests: VirtualReaderHarness {
    let directory = TemporaryDirectory()
    static let libfprintMatches = ["FPBRIDGE_HOST_MATCHING": "0"]

    /// alice's whorl on her right thumb, copied to users before and after her in gallery
    /// order under other fingers, and bob's arch.
    func enrollGallery(socket: String) async throws {
        let whorl = SharedData.print("whorl"), arch = SharedData.print("arch")
        let alice = try await run("virtual_image", socket: socket, ["enroll", "--finger", "right-thumb"],
                                  images: Array(repeating: whorl, count: 5))
        #expect(alice.status == 0, "\(alice.stderr)")
        let bob = try await run("virtual_image", socket: socket, ["enroll", "--finger", "left-index"], user: "bob",
                                images: Array(repeating: arch, count: 5))
        #expect(bob.status == 0, "\(bob.stderr)")
        let state = directory.file("state")
        let source = state + "/prints/alice/virtual_image/0/right-thumb.json"
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source))) as? [String: Any])
        for user in ["zed"] {
            let folder = try directory.privateDirectory("state/prints/\(user)/virtual_image/0")
            record["user"] = user
            record["finger"] = "left-ring"
            try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: "\(folder)/left-ring.json"))
        }
    }

    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"))
    func theHostFindsWhomLibfprintFindsAndSaysWhatItCompared() async throws {
        let socket = TemporaryDirectory.socketPath()
        try await enrollGallery(socket: socket)
        for probe in ["arch", "tented_arch"] {
            let image = [SharedData.print(probe)]
            let host = try await run("virtual_image", socket: socket, ["--verbose", "identify"], images: image)
            let libfprint = try await run("virtual_image", socket: socket, ["--verbose", "identify"], images: image,
                                          environment: Self.libfprintMatches)
            #expect(host.status == libfprint.status, "\(probe): \(host.stderr)\n---\n\(libfprint.stderr)")
            #expect(host.json["user"] as? String == libfprint.json["user"] as? String, "\(probe)")
            #expect(host.errorCode == libfprint.errorCode, "\(probe)")
            // The host compares every print and times it; libfprint's are not timed.
            #expect(host.stderr.contains(/Compared with 3 of 3 enrolled prints in \d+ ms\./), "\(host.stderr)")
            #expect(host.stderr.contains(/Best score \d+ \(40 needed\)/), "\(host.stderr)")
            #expect(libfprint.stderr.contains(/Compared with \d of 3 enrolled prints \(by libfprint, not timed\)\./), "\(libfprint.stderr)")
            #expect(!libfprint.stderr.contains("Best score"), "libfprint's decision has no scores: \(libfprint.stderr)")
        }
        #expect(try await run("virtual_image", socket: socket, ["identify"], images: [SharedData.print("arch")]).json["user"] as? String == "bob")
        // alice and zed hold the same print: libfprint answers the first in gallery order; fpbridge
        // cannot tell them apart, asks for the finger again, and then answers nobody.
        let first = try await run("virtual_image", socket: socket, ["identify"], images: [SharedData.print("whorl")],
                                  environment: Self.libfprintMatches)
        #expect(first.json["user"] as? String == "alice", "\(first.stderr)")
        let twice = Array(repeating: SharedData.print("whorl"), count: 2)
        let host = try await run("virtual_image", socket: socket, ["identify"], images: twice)
        #expect(host.errorCode == -1 && host.json["user"] == nil, "\(host.stderr)")
        #expect(host.stderr.contains("Too close to tell: touch the reader once more with the same finger."), "\(host.stderr)")
        #expect(host.stderr.contains(/touch 2: close-runner-up\./), "\(host.stderr)")
        let none = try await run("virtual_image", socket: socket, ["identify"], images: [SharedData.print("tented_arch")])
        #expect(none.errorCode == -1)
        #expect(none.stderr.contains("Compared with 3 of 3 enrolled prints."), "\(none.stderr)")

        // A damaged print is left out (its file named) by the host path as by libfprint's,
        // and the rest of the gallery still identifies: alice alone holds the whorl now.
        let path = directory.file("state/prints/zed/virtual_image/0/left-ring.json")
        var damaged = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        damaged["print"] = Data("FP3 not a print".utf8).base64EncodedString()
        try JSONSerialization.data(withJSONObject: damaged).write(to: URL(fileURLWithPath: path))
        let bob = try await run("virtual_image", socket: socket, ["identify"], images: [SharedData.print("arch")])
        #expect(bob.json["user"] as? String == "bob", "\(bob.stderr)")
        #expect(bob.stderr.contains("left-ring.json"), "\(bob.stderr)")
        #expect(bob.stderr.contains(/Compared with 2 of 2 enrolled prints\./), "\(bob.stderr)")
        let alice = try await run("virtual_image", socket: socket, ["identify"], images: [SharedData.print("whorl")])
        #expect(alice.json["user"] as? String == "alice", "\(alice.stderr)")
    }
}
