import Foundation
import Testing
import TestSupport

/// systemd/fpbridge-kiosk.service as `make install` installs it, checked by systemd's tools:
/// it parses, its options are the kiosk's own, and its sandbox stays tight.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") || SharedData.isCI,
                "needs systemd-analyze (Debian's systemd)"))
struct KioskUnitTests {
    let directory = TemporaryDirectory()

    /// The unit with ExecStart at the kiosk under test (through a link: a checkout path is not what is tested).
    func installed() throws -> (path: String, execStart: Substring) {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("systemd/fpbridge-kiosk.service").path
        let link = directory.file("fpbridge-kiosk")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: KioskProcess.executable)
        let text = try String(contentsOfFile: source, encoding: .utf8).replacingOccurrences(of: "/usr/local/bin/fpbridge-kiosk", with: link)
        let path = directory.file("fpbridge-kiosk.service")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        return (path, try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }))
    }

    @Test func theUnitParsesRunsTheKioskAsItsOwnUserAndStaysSandboxed() throws {
        let (path, execStart) = try installed()
        // --man=no: the unit names its man page (Documentation=), which only the package installs.
        let verified = Spawn.shell(["/usr/bin/systemd-analyze", "verify", "--man=no", path])
        #expect(verified.status == 0 && !verified.output.contains("fpbridge-kiosk.service"), "\(verified.output)")
        let help = Spawn.shell([KioskProcess.executable, "--help"]).output
        let options = execStart.split(separator: " ").filter { $0.hasPrefix("--") }
        #expect(!options.isEmpty && options.allSatisfy { help.contains($0 + " ") }, "\(options) in \(help)")
        let security = Spawn.shell(["/usr/bin/systemd-analyze", "security", "--offline=true", "--no-pager", path]).output
        let exposure = security.split(separator: "\n").first { $0.contains("Overall exposure level") }
        let score = exposure?.split(separator: " ").lazy.compactMap { Double($0) }.first
        // 1.4 when written (0 is tight, 10 exposed).
        #expect(score.map { $0 <= 2.0 } == true, "\(exposure ?? Substring(security))")
    }
}
