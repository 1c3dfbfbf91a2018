@testable import FPPasskeys
import Foundation
import Testing
import TestSupport

/// python-fido2 (Tests/Helpers/fido2-host.py) as the host of alice's authenticator, over
/// CTAPHID reports on a socket.
enum Fido2Host {
    static let helper = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Helpers/fido2-host.py").path

    /// Runs the host's `steps` against alice's authenticator on a reader playing `script`, with
    /// a new device state (the device's power-up); one JSON object a step.
    static func run(_ harness: PasskeyHarness, script: String, _ steps: [String]) async throws -> [[String: Any]] {
        // A socket of its own for each run: a harness's state outlives one power-up.
        let socket = try ReportSocket(path: harness.directory.file("hid-\(UInt32.random(in: 0...UInt32.max)).sock"))
        let device = CTAPHIDDevice(authenticator: try await harness.authenticator(script))
        let serving = Task { try await socket.serve(device) }
        let host = Process()
        host.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        host.arguments = [helper, socket.path] + steps
        let output = Pipe(), errors = Pipe()
        host.standardOutput = output
        host.standardError = errors
        try host.run()
        let text = try await blocking { String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        let log = try await blocking { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        host.waitUntilExit()
        try await serving.value
        #expect(host.terminationStatus == 0, "fido2-host.py: \(log)")
        return text.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? ["unparsed": String(line)]
        }
    }
}
