import Foundation
import Testing
import TestSupport

/// Issue 36, finding 4, end to end: stored prints libfprint could never have made (angles out
/// of its range, more samples than any reader enrolls) are left out of an identification as
/// damaged, each named by its file, and the other prints still identify.
@Suite(.serialized) struct CraftedPrintIdentifyTests: VirtualReaderHarness {
    let directory = TemporaryDirectory()

    /// A sample of 40 minutiae spread over an image, angles from `firstAngle` on.
    static func sample(firstAngle: Int32) -> [CraftedPrint.Minutia] {
        (0..<40).map { (x: 10 + 7 * $0, y: 50 + ($0 * 37) % 300, theta: firstAngle + $0) }
    }

    /// Writes `user`'s left ring finger as alice's print file with `samples` in its print.
    func plant(_ user: String, samples: [[CraftedPrint.Minutia]]) throws -> String {
        let source = directory.file("state/prints/alice/virtual_image/0/right-thumb.json")
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source))) as? [String: Any])
        let encoded = try #require(record["print"] as? String)
        let print = try #require(Data(base64Encoded: encoded))
        let crafted = try #require(CraftedPrint.replacingSamples(of: Array(print), with: samples))
        record["user"] = user
        record["finger"] = "left-ring"
        record["print"] = Data(crafted).base64EncodedString()
        let folder = try directory.privateDirectory("state/prints/\(user)/virtual_image/0")
        let path = "\(folder)/left-ring.json"
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"))
    func craftedPrintsAreLeftOutByNameAndTheOthersIdentify() async throws {
        let socket = TemporaryDirectory.socketPath()
        let alice = try await run("virtual_image", socket: socket, ["enroll", "--finger", "right-thumb"],
                                  images: Array(repeating: SharedData.print("whorl"), count: 5))
        #expect(alice.status == 0, "\(alice.stderr)")
        let bob = try await run("virtual_image", socket: socket, ["enroll", "--finger", "left-index"], user: "bob",
                                images: Array(repeating: SharedData.print("arch"), count: 5))
        #expect(bob.status == 0, "\(bob.stderr)")
        // Gallery order: alice, bob, mallory, zed.
        let angles = try plant("zed", samples: [Self.sample(firstAngle: 400)])
        let samples = try plant("mallory", samples: Array(repeating: Self.sample(firstAngle: -20), count: 8))

        let identified = try await run("virtual_image", socket: socket, ["identify"], images: [SharedData.print("arch")])
        #expect(identified.json["user"] as? String == "bob", "\(identified.stderr)")
        #expect(identified.stderr.contains(angles) && identified.stderr.contains("angle is 400 degrees"), "\(identified.stderr)")
        #expect(identified.stderr.contains(samples) && identified.stderr.contains("8 samples"), "\(identified.stderr)")
        #expect(identified.stderr.contains(/Compared with [12] of 2 enrolled prints\./), "\(identified.stderr)")
    }
}
