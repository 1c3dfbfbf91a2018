import FPAuthentication
import Foundation

/// A real `fpbridge-server` for the login demo: the executable next to this one, on a
/// free loopback port, with a SQLite file in the demo's directory.
struct DemoServer: @unchecked Sendable {
    let process: Process
    let origin: String
    var url: URL { URL(string: origin)! }

    static func start(directory: String) throws -> DemoServer {
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                             ?? CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fpbridge-server")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw AuthError(.notSupported, "fpbridge-server is not next to fpbridge (\(executable.path)); build it: swift build --product fpbridge-server")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let process = Process()
        process.executableURL = executable
        // Loopback HTTP and development keys: what the demo is, and what a deployment must not be.
        process.arguments = ["--port", "0", "--database", directory + "/login-demo.sqlite", "--password-cost", "12",
                             "--accept-development-keys"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        do { try process.run() } catch { throw AuthError(.notSupported, "cannot start \(executable.path): \(error)") }
        // The server's first line names its origin once it accepts connections.
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "listening on ") else {
            process.terminate()
            throw AuthError(.notSupported, "fpbridge-server did not start: \(text)")
        }
        let address = text[range.upperBound...].prefix { !$0.isWhitespace }
        return DemoServer(process: process, origin: String(address))
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
