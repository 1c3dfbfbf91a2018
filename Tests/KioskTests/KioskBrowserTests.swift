import Foundation
import Testing
import TestSupport

/// Headless Chromium (Debian's chromium and chromium-driver, driven by python3-selenium)
/// against the real fpbridge-kiosk and fpbridged: every state of the page, one phase of
/// `Tests/Helpers/kiosk-browser.py` at a time, with a screenshot of each kept in a directory
/// printed in the output (look at them).
@Suite(.serialized, .enabled(if: (KioskBrowser.available && SharedData.available) || SharedData.isCI,
                             "needs chromium, chromium-driver, python3-selenium and ../shared/prints"))
struct KioskBrowserTests {
    @Test func aVisitThroughThePageShowsEveryStateInWords() async throws {
        let rig = try KioskRig()
        try await rig.startService()
        try await rig.enroll("alice", image: SharedData.print("whorl"))
        try await rig.enroll("bob", image: SharedData.print("loop-right"))
        let kiosk = try await KioskProcess(service: rig.socket, launcher: KioskRig.asKioskMember)
        for phase in ["ready", "welcome", "forget", "lockout", "pin", "unplug"] {
            let run = try await KioskBrowser.run(phase, kiosk: kiosk, rig: rig)
            #expect(run.status == 0, "phase \(phase):\n\(run.stdout)\(run.stderr)\n\(kiosk.log.suffix(3000))\n\(rig.serviceLog.suffix(3000))")
        }
        // The reader back (to libfprint, a new device once fpbridged starts again): ready again.
        rig.stopService()
        try await rig.startService()
        let back = try await KioskBrowser.run("back", kiosk: kiosk, rig: rig)
        #expect(back.status == 0, "phase back:\n\(back.stdout)\(back.stderr)")
    }

    @Test func aTouchSignsInAtTheLoginServerAndThePageHoldsTheSession() async throws {
        let me = try await Self.sessionThroughThePage("session")
        #expect(me.status == 200 && me.json["username"] as? String == "alice" && me.json["kind"] as? String == "kiosk",
                "the page's session: \(me.body)")
    }

    /// A kiosk with no keyboard (`cage`): a badge number and a PIN typed on the on-screen pad
    /// alone end in a login-server session of kind `kiosk-pin`, as a finger ends in one of kind `kiosk`.
    @Test func thePadAloneSignsInByBadgeAndPINAtTheLoginServer() async throws {
        let me = try await Self.sessionThroughThePage("pad", badges: "# badge user\n1001 alice\n")
        #expect(me.status == 200 && me.json["username"] as? String == "alice" && me.json["kind"] as? String == "kiosk-pin",
                "the page's session: \(me.body)")
    }

    /// alice enrolled and bound to a login server, a kiosk with `--server` (and `--badges`
    /// holding `badges`), the browser's `phase`; then `GET /v1/me` with the session it printed.
    static func sessionThroughThePage(_ phase: String, badges: String? = nil) async throws -> LoginServerProcess.Answer {
        let rig = try KioskRig()
        try await rig.startService()
        try await rig.enroll("alice", image: SharedData.print("whorl"))
        let server = try await LoginServerProcess()
        try await rig.bind("alice", to: server)
        var arguments = ["--server", server.address]
        if let badges {
            let file = rig.directory.file("badges")
            try badges.write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o644)
            arguments += ["--badges", file]
        }
        let kiosk = try await KioskProcess(service: rig.socket, arguments: arguments, launcher: KioskRig.asKioskMember)
        let run = try await KioskBrowser.run(phase, kiosk: kiosk, rig: rig)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(kiosk.log)")
        let token = run.stdout.split(separator: "\n").first { $0.hasPrefix("session ") }?.dropFirst(8)
        return try await server.request("GET", "/v1/me", token: String(token ?? ""))
    }

    /// `systemctl restart fpbridged` under a running kiosk: SIGTERM ends the armed identify at
    /// once, the page says the reader is restarting (English and Chinese), and it is ready again
    /// by itself once fpbridged is back.
    @Test func fpbridgedRestartedUnderThePageSaysRestartingAndComesBack() async throws {
        let rig = try KioskRig()
        try await rig.startService()
        try await rig.enroll("alice", image: SharedData.print("whorl"))
        let kiosk = try await KioskProcess(service: rig.socket, launcher: KioskRig.asKioskMember)
        let handshake = TemporaryDirectory()
        async let page = KioskBrowser.run("restart", kiosk: kiosk, rig: rig, handshake: handshake.path)
        try await KioskBrowser.waitFor(handshake.file("armed"))
        let stopping = Date()
        rig.stopService()
        // SIGKILL comes after 5 s: a stop that took that long was not the service's own.
        let seconds = Date().timeIntervalSince(stopping)
        print(String(format: "fpbridged stopped %.0f ms after SIGTERM under the armed kiosk", seconds * 1000))
        #expect(seconds < 5, "fpbridged did not stop by itself after SIGTERM:\n\(rig.serviceLog.suffix(3000))")
        try await KioskBrowser.waitFor(handshake.file("seen"))
        try await rig.startService()
        let run = try await page
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(kiosk.log.suffix(3000))")
    }

    /// 800x480, 1024x600, 1280x800 and portrait 1080x1920: the pad and its answer on screen,
    /// nothing to scroll, in both languages (screenshots kept).
    @Test func thePageFitsTheScreensKiosksHave() async throws {
        let kiosk = try await KioskProcess(service: "/nonexistent/fpbridged.sock")
        let run = try await KioskBrowser.run("layouts", kiosk: kiosk, rig: nil)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test func aReaderTooWarmToArmRestsAndThePageSaysUseYourPin() async throws {
        // The fake reader reports the heat its script sets: 7 s of scanning left, under the kiosk's margin.
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        let script = directory.file("warm.txt")
        try "set heat 0.72\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o644)
        let service = try await ServiceProcess(arguments: ["--reader", "fake:" + script, "--kiosk-group", "nogroup"])
        let kiosk = try await KioskProcess(service: service.socket, launcher: KioskRig.asKioskMember)
        let run = try await KioskBrowser.run("resting", kiosk: kiosk, rig: nil)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(kiosk.log)")
        // The tap armed a scan the heat allowed only for someone at the screen (7 s left, under the margin of 15).
        #expect(kiosk.log.contains("wakeable: true)") && kiosk.log.contains("scan(timeout: 4.3)"), "\(kiosk.log)")
    }
}

/// The browser script, and where its screenshots go.
enum KioskBrowser {
    static let available = ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    } && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/selenium")

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Helpers/kiosk-browser.py").path

    /// Kept after the run: the screenshots are the test's artefact.
    static let screenshots: String = {
        var template = Array("/tmp/fpbridge-kiosk-screenshots-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        print("kiosk screenshots: \(path)")
        return path
    }()

    static func run(_ phase: String, kiosk: KioskProcess, rig: KioskRig?, handshake: String? = nil) async throws -> CommandResult {
        var arguments = ["/usr/bin/python3", script, "--url", kiosk.url, "--phase", phase, "--shots", screenshots]
        if let rig { arguments += ["--reader-socket", rig.readerSocket, "--prints", SharedData.root! + "/prints"] }
        if let handshake { arguments += ["--handshake", handshake] }
        let result = try await Fpbridge.runCommand(arguments, environment: ProcessInfo.processInfo.environment, timeout: 240)
        print(result.stdout, terminator: "")
        return result
    }

    /// Waits for the browser script to say it got this far (a file it makes); a deadline, not a measurement.
    static func waitFor(_ file: String, seconds: TimeInterval = 90) async throws {
        guard try await eventually(within: seconds, every: .milliseconds(50), { FileManager.default.fileExists(atPath: file) })
        else { throw PageNotThere(file: file) }
    }
}

/// The browser script never said it got to a step.
struct PageNotThere: Error, CustomStringConvertible {
    let file: String
    var description: String { "the page never got to \(file)" }
}
