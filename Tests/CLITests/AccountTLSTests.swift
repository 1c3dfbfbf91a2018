import Foundation
import Testing
import TestSupport

/// HTTPS: the server serves TLS with --tls-cert/--tls-key, the client trusts a CA given with
/// --ca-file (or the system's), and plain HTTP is refused anywhere but loopback.
@Suite struct AccountTLSTests {
    @Test func theClientTalksHTTPSToTheServerAndRefusesAnUntrustedCertificate() async throws {
        let directory = TemporaryDirectory()
        let certificate = directory.file("server.pem"), key = directory.file("server.key")
        let made = Spawn.shell(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1",
                                "-addext", "subjectAltName=IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:TRUE"])
        #expect(made.status == 0, "openssl: \(made.output)")
        let server = try await LoginServerProcess(arguments: ["--tls-cert", certificate, "--tls-key", key, "--accept-development-keys"])
        #expect(server.address.hasPrefix("https://127.0.0.1:"))

        let state = directory.file("state")
        let base = ["--json", "--reader", "fake", "--state-dir", state, "account", "register", "--password-stdin",
                    "--server", server.address, "--account"]
        let trusted = try await Fpbridge.run(base + ["alice", "--ca-file", certificate], input: "correct horse battery\n")
        #expect(trusted.ok, "\(trusted.stdout)\(trusted.stderr)")
        let untrusted = try await Fpbridge.run(base + ["bob"], input: "correct horse battery\n")
        #expect(untrusted.status == 3 && untrusted.errorMessage.contains("cannot reach the server"), "\(untrusted.stdout)")
        #expect(server.isRunning)
    }

    @Test func plainHTTPIsServedOnLoopbackOnly() async throws {
        let refused = Spawn.shell([LoginServerProcess.executable, "--host", "0.0.0.0", "--port", "0",
                                   "--database", TemporaryDirectory().file("x.sqlite")])
        #expect(refused.status != 0 && refused.output.contains("plain HTTP is served on loopback only"), "\(refused.output)")
        let halfTLS = Spawn.shell([LoginServerProcess.executable, "--tls-cert", "/nonexistent.pem", "--database", TemporaryDirectory().file("x.sqlite")])
        #expect(halfTLS.status != 0 && halfTLS.output.contains("give both --tls-cert and --tls-key"), "\(halfTLS.output)")
    }
}
