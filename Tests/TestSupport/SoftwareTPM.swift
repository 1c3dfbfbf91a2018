import Foundation

/// A software TPM 2.0 for a test: `swtpm` on loopback, manufactured by `swtpm_setup` with an EK
/// certificate from a local CA made in a temporary directory (never the system's
/// /var/lib/swtpm-localca); stopped and removed when the value goes away.
public final class SoftwareTPM: Sendable {
    /// Whether swtpm, swtpm_setup and swtpm_localca are installed (Debian: swtpm, swtpm-tools).
    public static var isInstalled: Bool {
        ["/usr/bin/swtpm", "/usr/bin/swtpm_setup", "/usr/bin/swtpm_localca"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private let directory: TemporaryDirectory
    private let pid: pid_t
    /// The TCTI that reaches it (`swtpm:host=127.0.0.1,port=P`).
    public let tcti: String
    /// The local CA's root and issuing certificates (PEM), as an operator's `--tpm-ca` file.
    public let caFile: String

    /// Manufactures a TPM with its own new CA, and starts it.
    public init() async throws {
        directory = TemporaryDirectory()
        let ca = try directory.privateDirectory("ca")
        let state = try directory.privateDirectory("state")
        try Self.manufacture(state: state, ca: ca, in: directory)
        caFile = directory.file("tpm-ca.pem")
        let pem = try String(contentsOfFile: ca + "/swtpm-localca-rootca-cert.pem", encoding: .utf8)
            + String(contentsOfFile: ca + "/issuercert.pem", encoding: .utf8)
        try pem.write(toFile: caFile, atomically: true, encoding: .utf8)
        // A free pair of ports: swtpm refuses one in use, and then another pair is tried.
        for _ in 0..<10 {
            let port = Int.random(in: 20_000..<60_000) & ~1
            let pid = try Spawn.start(["/usr/bin/swtpm", "socket", "--tpm2", "--tpmstate", "dir=\(state)",
                                       "--server", "type=tcp,port=\(port),bindaddr=127.0.0.1",
                                       "--ctrl", "type=tcp,port=\(port + 1),bindaddr=127.0.0.1",
                                       "--flags", "not-need-init,startup-clear"],
                                      stdout: directory.file("swtpm.log"), stderr: directory.file("swtpm.err"))
            let deadline = Date().addingTimeInterval(10)
            while Spawn.isRunning(pid), !Self.listens(port), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            if Spawn.isRunning(pid), Self.listens(port) {
                self.pid = pid
                tcti = "swtpm:host=127.0.0.1,port=\(port)"
                return
            }
            Spawn.stop(pid)
        }
        throw ServiceProcessError(message: "swtpm did not start: \((try? String(contentsOfFile: directory.file("swtpm.err"), encoding: .utf8)) ?? "")")
    }

    deinit { Spawn.stop(pid) }

    /// Another CA of the same kind, which certified no TPM a test starts: `--tpm-ca` of a server that must refuse.
    public static func strangerCA(in directory: TemporaryDirectory) throws -> String {
        let ca = try directory.privateDirectory("stranger-ca")
        try manufacture(state: try directory.privateDirectory("stranger-state"), ca: ca, in: directory)
        let file = directory.file("stranger-ca.pem")
        let pem = try String(contentsOfFile: ca + "/swtpm-localca-rootca-cert.pem", encoding: .utf8)
            + String(contentsOfFile: ca + "/issuercert.pem", encoding: .utf8)
        try pem.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// `swtpm_setup` with EK and platform certificates signed by a CA it makes in `ca`, all configured in `directory`.
    private static func manufacture(state: String, ca: String, in directory: TemporaryDirectory) throws {
        let name = URL(fileURLWithPath: ca).lastPathComponent
        let localca = directory.file("\(name)-localca.conf")
        try "statedir = \(ca)\nsigningkey = \(ca)/signkey.pem\nissuercert = \(ca)/issuercert.pem\ncertserial = \(ca)/certserial\n"
            .write(toFile: localca, atomically: true, encoding: .utf8)
        let options = directory.file("\(name)-localca.options")
        try "--platform-manufacturer fpbridge-test\n--platform-version 2.1\n--platform-model swtpm\n"
            .write(toFile: options, atomically: true, encoding: .utf8)
        let setup = directory.file("\(name)-setup.conf")
        try "create_certs_tool = /usr/bin/swtpm_localca\ncreate_certs_tool_config = \(localca)\ncreate_certs_tool_options = \(options)\nactive_pcr_banks = sha256\n"
            .write(toFile: setup, atomically: true, encoding: .utf8)
        let result = Spawn.shell(["/usr/bin/swtpm_setup", "--tpm2", "--tpmstate", state, "--create-ek-cert", "--create-platform-cert",
                                  "--config", setup, "--overwrite"])
        guard result.status == 0 else { throw ServiceProcessError(message: "swtpm_setup failed: \(result.output)") }
    }

    /// Whether something accepts TCP connections on loopback `port`.
    private static func listens(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
