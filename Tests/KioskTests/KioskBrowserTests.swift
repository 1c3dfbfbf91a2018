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
        for phase in ["ready", "welcome", "enrolling", "forget", "lockout", "pin", "guesser", "unplug"] {
            let started = Date()
            let run = phase == "enrolling" ? try await Self.enrollingAtTheKiosk(rig, kiosk) : try await KioskBrowser.run(phase, kiosk: kiosk, rig: rig)
            print(String(format: "phase %@: %.1f s", phase, Date().timeIntervalSince(started)))
            #expect(run.status == 0, "phase \(phase):\n\(run.stdout)\(run.stderr)\n\(kiosk.log.suffix(3000))\n\(rig.serviceLog.suffix(3000))")
        }
        // The reader back (to libfprint, a new device once fpbridged starts again): ready again.
        rig.stopService()
        try await rig.startService()
        let back = try await KioskBrowser.run("back", kiosk: kiosk, rig: rig)
        #expect(back.status == 0, "phase back:\n\(back.stdout)\(back.stderr)")
    }

    /// Issue 40 §4 in the page: once it is armed, an administrator enrolls carol at the kiosk
    /// (`fpbridge enroll --at-kiosk`, five scans of tented_arch, a stranger's no more); the page shows the scans
    /// counting and is ready again after them (the browser script's `enrolling` phase).
    static func enrollingAtTheKiosk(_ rig: KioskRig, _ kiosk: KioskProcess) async throws -> CommandResult {
        let client = ["FPBRIDGE_SERVICE": rig.socket]
        let carol = ["--json", "--state-dir", rig.state, "--user", "carol"]
        let set = try await Fpbridge.run(carol + ["passcode", "set", "--passcode-stdin"], environment: client, input: "2468\n")
        #expect(set.status == 0, "\(set.stdout)\(set.stderr)")
        let handshake = TemporaryDirectory()
        async let page = KioskBrowser.run("enrolling", kiosk: kiosk, rig: rig, handshake: handshake.path)
        try await KioskBrowser.waitFor(handshake.file("armed"))
        let result = try await VirtualReaderDriver.playEnrollment(rig.readerSocket, image: SharedData.print("tented_arch")) { watcher in
            try await Fpbridge.run(carol + ["enroll", "--finger", "right-index", "--passcode-stdin", "--at-kiosk"],
                                   environment: client, input: "2468\n", onStderr: watcher)
        }
        #expect(result.status == 0, "fpbridge enroll --at-kiosk: \(result.stdout)\(result.stderr)")
        return try await page
    }

    /// A touch signs alice in and the page holds the session; with `--embed-origin`, an
    /// application's page framing the kiosk (served by the browser script on loopback) is handed
    /// her finger's and then her PIN's session and told when the kiosk forgot them, and the same
    /// page at another origin gets nothing. One kiosk for both phases: a second rig would cost
    /// its setup (an enrollment, a login server, a binding) again.
    @Test func aTouchSignsInAtTheLoginServerAndThePageHoldsTheSession() async throws {
        let port = try Self.freeLoopbackPort()
        let sessions = try await Self.sessionsThroughThePage(["session", "embed"], arguments: ["--embed-origin", "http://127.0.0.1:\(port)"],
                                                            embedPort: port)
        for (label, kind) in [("session", "kiosk"), ("finger-session", "kiosk"), ("pin-session", "kiosk-pin")] {
            let me = try #require(sessions[label], "no \(label) printed: \(sessions.keys.sorted())")
            #expect(me.status == 200 && me.json["username"] as? String == "alice" && me.json["kind"] as? String == kind,
                    "\(label): \(me.body)")
        }
    }

    /// A kiosk with no keyboard (`cage`): a badge number and a PIN typed on the on-screen pad
    /// alone end in a login-server session of kind `kiosk-pin`, as a finger ends in one of kind `kiosk`.
    @Test func thePadAloneSignsInByBadgeAndPINAtTheLoginServer() async throws {
        let me = try #require(try await Self.sessionsThroughThePage(["pad"], badges: "# badge user\n1001 alice\n")["session"])
        #expect(me.status == 200 && me.json["username"] as? String == "alice" && me.json["kind"] as? String == "kiosk-pin",
                "the page's session: \(me.body)")
    }

    /// Badge and finger (issue 50) in the browser: `--badge-first`, the badge number on the pad
    /// and "Use finger", then alice's finger: a login-server session of kind `kiosk` (a finger's),
    /// from identify-and-prove over her prints alone.
    @Test func theBadgeNumberAndUseFingerSignAliceInByHerFinger() async throws {
        let sessions = try await Self.sessionsThroughThePage(["badge"], badges: "# badge user\n1001 alice\n",
                                                            arguments: ["--badge-first"])
        let me = try #require(sessions["finger-session"], "no finger-session printed: \(sessions.keys.sorted())")
        #expect(me.status == 200 && me.json["username"] as? String == "alice" && me.json["kind"] as? String == "kiosk",
                "the page's session: \(me.body)")
    }

    /// alice enrolled and bound to a login server, a kiosk with `--server` (and `--badges`
    /// holding `badges`, and `arguments`), the browser's `phases` in turn; then `GET /v1/me` with
    /// each session they printed (`LABEL TOKEN`), by label.
    static func sessionsThroughThePage(_ phases: [String], badges: String? = nil, arguments extra: [String] = [],
                                       embedPort: Int? = nil) async throws -> [String: LoginServerProcess.Answer] {
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
        let kiosk = try await KioskProcess(service: rig.socket, arguments: arguments + extra, launcher: KioskRig.asKioskMember)
        var sessions: [String: LoginServerProcess.Answer] = [:]
        for phase in phases {
            let started = Date()
            let run = try await KioskBrowser.run(phase, kiosk: kiosk, rig: rig, embedPort: embedPort)
            print(String(format: "phase %@: %.1f s", phase, Date().timeIntervalSince(started)))
            #expect(run.status == 0, "phase \(phase): \(run.stdout)\(run.stderr)\n\(kiosk.log)")
            for line in run.stdout.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count == 2, words[0].hasSuffix("session") else { continue }
                sessions[String(words[0])] = try await server.request("GET", "/v1/me", token: String(words[1]))
            }
        }
        return sessions
    }

    /// A loopback port free a moment ago, for the application's page the browser script serves:
    /// the kiosk must be told its origin before the page exists.
    static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw PageNotThere(file: "a free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
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

    /// `--page-dir` from `--export-page`, changed as a kiosk maker would: a stylesheet, a logo,
    /// English words and a third language, shown by the page without a rebuild.
    @Test func thePageDirectoryBrandsThePageAndAddsALanguage() async throws {
        let directory = TemporaryDirectory()
        let page = directory.file("page")
        let export = try await Fpbridge.runCommand([KioskProcess.executable, "--export-page", page],
                                                   environment: ProcessInfo.processInfo.environment, timeout: 20)
        #expect(export.status == 0, "\(export.stdout)\(export.stderr)")
        let css = try String(contentsOfFile: page + "/kiosk.css", encoding: .utf8)
        try (css + "\nbody { background: #003; }\n").write(toFile: page + "/kiosk.css", atomically: true, encoding: .utf8)
        try ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="40" height="40"><circle cx="5" cy="5" r="5" fill="#fc0"/></svg>"##
            .write(toFile: page + "/logo.svg", atomically: true, encoding: .utf8)
        let read = { (file: String) throws -> [String: String] in
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: page + "/" + file))) as? [String: String] ?? [:]
        }
        var english = try read("strings.en.json"), french = english
        english["serviceDown"] = "Fingerprints are having a rest"
        french["serviceDown"] = "Le service ne répond pas"
        french["languageName"] = "Français"
        try JSONSerialization.data(withJSONObject: english).write(to: URL(fileURLWithPath: page + "/strings.en.json"))
        try JSONSerialization.data(withJSONObject: french).write(to: URL(fileURLWithPath: page + "/strings.fr.json"))
        let kiosk = try await KioskProcess(service: "/nonexistent/fpbridged.sock", arguments: ["--page-dir", page])
        let started = Date()
        let run = try await KioskBrowser.run("branded", kiosk: kiosk, rig: nil)
        print(String(format: "phase branded: %.1f s", Date().timeIntervalSince(started)))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(kiosk.log)")
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

    static func run(_ phase: String, kiosk: KioskProcess, rig: KioskRig?, handshake: String? = nil,
                    embedPort: Int? = nil) async throws -> CommandResult {
        var arguments = ["/usr/bin/python3", script, "--url", kiosk.url, "--phase", phase, "--shots", screenshots]
        if let rig { arguments += ["--reader-socket", rig.readerSocket, "--prints", SharedData.root! + "/prints"] }
        if let handshake { arguments += ["--handshake", handshake] }
        if let embedPort { arguments += ["--embed-port", String(embedPort)] }
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
