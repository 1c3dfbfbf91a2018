import Foundation

/// An emulated `/sys` and `/dev` (umockdev) into which a test plugs recorded real readers
/// from `../shared/replays` while programs run, and pulls them out again: hot-plug without
/// hardware. A program sees the testbed when started with ``environment``; the reader's USB
/// requests are answered from its recording. Stopped when the value goes away.
public final class USBTestbed: Sendable {
    private static let helper = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Helpers/usb-testbed.py").path

    /// umockdev and its GObject bindings are installed (`scripts/setup.sh` installs them).
    public static let available: Bool = Spawn.shell(["/usr/bin/python3", "-c",
        "import gi; gi.require_version('UMockdev', '1.0')"]).status == 0
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/umockdev-wrapper")

    /// What a program needs in its environment to see the testbed.
    public let environment: [String: String]
    private let process: Process
    private let commands: FileHandle
    private let answers: Pipe

    public init() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/umockdev-wrapper")
        process.arguments = ["/usr/bin/python3", Self.helper]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        commands = input.fileHandleForWriting
        answers = output
        let root = try await firstLine(of: output)
        guard root.hasPrefix("/") else { throw ServiceProcessError(message: "umockdev testbed did not start: \(root)") }
        environment = ["UMOCKDEV_DIR": root, "LD_PRELOAD": "libumockdev-preload.so.0"]
    }

    deinit {
        try? commands.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Plugs in the reader recorded in `replays/NAME` (its hub first, as a kernel would).
    public func plug(_ recording: String) async throws {
        try await send("plug", recording)
    }

    /// Pulls the reader out.
    public func unplug(_ recording: String) async throws {
        try await send("unplug", recording)
    }

    private func send(_ command: String, _ recording: String) async throws {
        guard let shared = SharedData.root else { throw ServiceProcessError(message: "no ../shared/replays to plug in") }
        try commands.write(contentsOf: Data("\(command) \(shared)/replays/\(recording)\n".utf8))
        let answer = try await firstLine(of: answers)
        guard answer == "ok" else { throw ServiceProcessError(message: "testbed \(command) \(recording): \(answer)") }
    }
}
