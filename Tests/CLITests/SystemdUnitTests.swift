import Foundation
import Testing
import TestSupport

/// The unit `make install` installs (systemd/fpbridged.service), checked by systemd's own
/// tools: it parses, its command line is one fpbridged accepts, and its sandbox does not
/// loosen. (Booting systemd itself is not possible in the test container.)
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") || SharedData.isCI,
                "needs systemd-analyze (Debian's systemd)"))
struct SystemdUnitTests {
    let directory = TemporaryDirectory()
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The unit with ExecStart pointing at the fpbridged under test, as `make install` rewrites it.
    /// The path is a link in the temporary directory: a checkout path with a space or a `%`
    /// would need quoting in ExecStart, which is not what is under test.
    func unit() throws -> String {
        let text = try String(contentsOfFile: Self.root + "/systemd/fpbridged.service", encoding: .utf8)
        let executable = directory.file("fpbridged")
        try FileManager.default.createSymbolicLink(atPath: executable, withDestinationPath: ServiceProcess.executable)
        let path = directory.file("fpbridged.service")
        try text.replacingOccurrences(of: "/usr/local/bin/fpbridged", with: executable)
            .write(toFile: path, atomically: true, encoding: .utf8)
        // As `make install` leaves it, whatever the umask: systemd warns of a world-writable unit.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        return path
    }

    @Test func theUnitParsesAndItsCommandLineIsOneTheServiceAccepts() throws {
        let path = try unit()
        // --man=no: the unit names its man page (Documentation=), which only the package installs.
        let verified = Spawn.shell(["/usr/bin/systemd-analyze", "verify", "--man=no", path])
        // What systemd says of other units on the machine (the targets this one names) is not ours.
        let aboutThisUnit = verified.output.split(separator: "\n").filter { $0.contains("fpbridged") }
        #expect(verified.status == 0 && aboutThisUnit.isEmpty, "\(verified.output)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let command = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let options = command.split(separator: " ").filter { $0.hasPrefix("--") }
        let help = Spawn.shell([ServiceProcess.executable, "--help"]).output
        #expect(!options.isEmpty && options.allSatisfy { help.contains($0 + " ") }, "\(options) in \(help)")
    }

    @Test func theSandboxStaysTight() throws {
        let report = Spawn.shell(["/usr/bin/systemd-analyze", "security", "--offline=true", "--no-pager", try unit()]).output
        let line = try #require(report.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(report)")
        // "→ Overall exposure level for fpbridged.service: 1.3 OK 🙂", or "… 1.3 OK :-)" in the C locale.
        let score = line.split(separator: " ").lazy.compactMap { Double($0) }.first
        // 1.3 when written; systemd's scale runs from 0 (tight) to 10 (exposed).
        #expect(score != nil && score! <= 2.0, "\(line)")
    }
}
