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

extension ReplayTests {
    @Test(arguments: [("goodixmoc", ["clear", "enroll", "list", "verify", "identify", "delete"]),
                      ("synaptics", ["clear", "enroll", "verify", "delete"])])
    func selftestPassesEveryStep(recording: String, steps: [String]) async throws {
        var arguments = ["--json", "--reader", "libfprint:\(recording)", "--state-dir", directory.file("state"), "selftest", "--yes"]
        if recording == "synaptics" { arguments += ["--steps", steps.joined(separator: ",")] }
        let result = try await Fpbridge.replay(recording, arguments)
        #expect(result.status == 0 && result.ok, "\(recording): \(result.stdout)")
        let reported = result.json["steps"] as? [[String: Any]] ?? []
        #expect(reported.map { $0["step"] as? String ?? "" } == steps)
        #expect(reported.allSatisfy { $0["outcome"] as? String == "passed" }, "\(recording): \(reported)")
        // A self-test never writes to the user's store.
        #expect(!FileManager.default.fileExists(atPath: directory.file("state") + "/prints"))
    }

    @Test func selftestRefusesToClearWithoutYes() async throws {
        let result = try await Fpbridge.replay("goodixmoc", ["--json", "--reader", "libfprint:goodixmoc", "selftest"])
        #expect(result.status == 2 && result.errorCode == -2007, "\(result.stdout)")
        let message = (result.json["error"] as? [String: Any])?["message"] as? String
        #expect(message?.contains("--yes") == true)
    }
}

extension ReplayTests {
    @Test func doctorSeesTheRecordedReaderOnTheBus() async throws {
        let result = try await Fpbridge.replay("elan", ["--json", "doctor"])
        #expect(result.status == 0 && result.ok, "\(result.stdout)\(result.stderr)")
        let onBus = result.json["usbReaders"] as? [[String: Any]] ?? []
        #expect(onBus.count == 1)
        #expect(onBus.first?["id"] as? String == "04f3:0c26" && onBus.first?["driver"] as? String == "elan")
        #expect(onBus.first?["supported"] as? Bool == true && onBus.first?["accessible"] as? Bool == true)
        let readers = result.json["readers"] as? [[String: Any]] ?? []
        #expect(readers.first?["temperature"] as? String == "cold")
        #expect((result.json["environment"] as? [String: Any])?["FP_DEVICE_EMULATION"] as? String == "1")
    }
}
