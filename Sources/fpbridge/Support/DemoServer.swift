import FPAuthentication
import FoundationEssentials
import Glibc

/// A real `fpbridge-server` for the login demo: the executable next to this one, on a
/// free loopback port, with a SQLite file in the demo's directory.
struct DemoServer: Sendable {
    let process: SpawnedProcess
    let origin: String
    var url: URL { URL(string: origin)! }

    static func start(directory: String) throws -> DemoServer {
        let executable = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                             ?? CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fpbridge-server")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw AuthError(.notSupported, "fpbridge-server is not next to fpbridge (\(executable.path)); build it: swift build --product fpbridge-server")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // Loopback HTTP and development keys: what the demo is, and what a deployment must not be.
        let arguments = ["--port", "0", "--database", directory + "/login-demo.sqlite", "--password-cost", "12",
                         "--accept-development-keys"]
        let process: SpawnedProcess
        do { process = try SpawnedProcess(executable.path, arguments, quiet: false) } catch {
            throw AuthError(.notSupported, error.description)
        }
        // The server's first line names its origin once it accepts connections.
        let text = String(decoding: process.readLine(), as: UTF8.self)
        guard let range = text.firstRange(of: "listening on ") else {
            process.terminate()
            throw AuthError(.notSupported, "fpbridge-server did not start: \(text)")
        }
        let address = text[range.upperBound...].prefix { !$0.isWhitespace }
        return DemoServer(process: process, origin: String(address))
    }

    func stop() {
        process.terminate()
    }
}
