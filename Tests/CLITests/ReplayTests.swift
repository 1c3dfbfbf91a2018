import FPImaging
import Foundation
import Testing
import TestSupport

/// Real readers, replayed from USB recordings through umockdev (`../shared/replays`).
/// A replay is strict about the order of operations, so these pin down exactly which
/// libfprint calls each command makes.
@Suite(.serialized, .enabled(if: SharedData.available, "needs ../shared/replays"))
struct ReplayTests {
    let directory = TemporaryDirectory()

    @Test(arguments: ["elan", "aes3500"])
    func captureReproducesTheRecordedImage(recording: String) async throws {
        let expected = try ImageFile.read(SharedData.root! + "/replays/\(recording)/capture.png")
        for format in ["png", "pgm"] {
            let out = directory.file("\(recording).\(format)")
            let result = try await Fpbridge.replay(recording, ["--json", "--reader", "libfprint:\(recording)",
                                                               "--state-dir", directory.file("state"), "capture", "--out", out])
            #expect(result.status == 0, "\(recording): \(result.stderr)")
            #expect(result.json["width"] as? Int == expected.width && result.json["height"] as? Int == expected.height)
            let captured = try ImageFile.read(out)
            #expect(captured == expected, "\(recording) .\(format): the captured pixels differ from capture.png")
        }
    }
}
