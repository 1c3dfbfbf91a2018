import Foundation
import Testing
import TestSupport

/// The real kiosk against the real fpbridged on libfprint's virtual_image (real NBIS matching,
/// the real thermal model), the kiosk running as a member of the service's kiosk group; what a
/// page sees on its event stream, and the PIN pad over HTTP.
@Suite(.serialized, .enabled(if: SharedData.available || SharedData.isCI, "needs ../shared/prints"))
struct KioskServiceTests {
    /// Waits until the kiosk is armed (the last snapshot is `ready`, or a later one is), then
    /// plays `image` on the reader and waits for `state`.
    func touch(_ rig: KioskRig, _ kiosk: KioskProcess, _ image: String, until state: String,
               where matches: @escaping @Sendable ([String: Any]) -> Bool = { _ in true }) async throws -> [String: Any]? {
        let mark = max(0, kiosk.snapshots.count - 1)
        guard try await kiosk.next("ready", skipping: mark) != nil else { return nil }
        let before = kiosk.snapshots.count
        try await rig.touch(SharedData.print(image))
        return try await kiosk.next(state, skipping: before, where: matches)
    }

    func canonical(_ object: [String: Any]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: .sortedKeys)) ?? Data(), as: UTF8.self)
    }

    @Test func aTouchWelcomesAStrangerIsRefusedFiveLockAndThePinWorksMeanwhile() async throws {
        let rig = try KioskRig()
        try await rig.startService()
        try await rig.enroll("alice", image: SharedData.print("whorl"))
        try await rig.enroll("bob", image: SharedData.print("loop-right"))
        let kiosk = try await KioskProcess(service: rig.socket, launcher: KioskRig.asKioskMember)

        // The PIN pad answers while identify is armed: it never waits for the reader.
        #expect(try await kiosk.next("ready") != nil, "\(kiosk.snapshots) \(kiosk.log)")
        let armedPin = try await kiosk.post("/pin", #"{"user": "alice", "pin": "2468"}"#)
        #expect(armedPin.status == 200 && armedPin.body["user"] as? String == "alice", "\(armedPin)")

        let mark = kiosk.snapshots.count
        let welcome = try await touch(rig, kiosk, "whorl", until: "welcome")
        #expect(welcome?["user"] as? String == "alice", "\(kiosk.snapshots) \(rig.serviceLog)")
        #expect(kiosk.snapshots.dropFirst(mark).contains { $0["state"] as? String == "reading" }, "Reading… before the welcome")

        // Four strangers: not recognised, with the attempts left before identification locks.
        for left in [4, 3, 2, 1] {
            let refused = try await touch(rig, kiosk, "arch", until: "notRecognised")
            #expect((refused?["parameters"] as? [String: String])?["left"] == String(left), "\(kiosk.snapshots)")
        }
        // The fifth locks identification, with a countdown from the service's retryAfter.
        let locked = try await touch(rig, kiosk, "tented_arch", until: "lockedOut")
        let countdown = try #require(locked?["countdown"] as? Double, "\(kiosk.snapshots)")
        #expect(countdown > 0 && countdown <= 30)

        // Meanwhile the PIN pad works; a wrong PIN and an unknown user get the same answer.
        let bob = try await kiosk.post("/pin", #"{"user": "bob", "pin": "2468"}"#)
        #expect(bob.status == 200 && bob.body["user"] as? String == "bob", "\(bob)")
        let wrong = try await kiosk.post("/pin", #"{"user": "bob", "pin": "1111"}"#)
        let unknown = try await kiosk.post("/pin", #"{"user": "zed", "pin": "1111"}"#)
        #expect(wrong.status == 401 && wrong.body["message"] as? String == "pinWrong", "\(wrong)")
        #expect(unknown.status == wrong.status && canonical(unknown.body) == canonical(wrong.body), "\(unknown) \(wrong)")
        #expect(kiosk.snapshots.last?["state"] as? String == "lockedOut", "a PIN does not lift identification's lockout")
        #expect(!kiosk.log.contains("2468") && !kiosk.log.contains("1111"), "no PIN in the kiosk's log")
    }

    /// Badge and finger (issue 50), end to end: fpbridged's state allows no identification among
    /// everyone (`identificationOpenGalleryLimit` 0), so the kiosk turns the page to badgeFirst
    /// from fpbridged's refusal; "Use finger" with a name arms a scan of that person's prints
    /// alone: alice's finger welcomes her, bob's finger under her name is refused (and counted
    /// on the reader, not on alice), and a name with no print is told so without a scan.
    @Test func pastTheOpenLimitThePageAsksForTheNameAndTheTouchIsComparedWithThatPersonAlone() async throws {
        let rig = try KioskRig()
        try Data(#"{"identificationOpenGalleryLimit": 0}"#.utf8).write(to: URL(fileURLWithPath: rig.state + "/config.json"))
        try await rig.startService()
        try await rig.enroll("alice", image: SharedData.print("whorl"))
        try await rig.enroll("bob", image: SharedData.print("loop-right"))
        let kiosk = try await KioskProcess(service: rig.socket, launcher: KioskRig.asKioskMember)
        #expect(try await kiosk.next("badgeFirst") != nil, "\(kiosk.snapshots) \(kiosk.log)")

        func named(_ user: String, touch image: String?, until state: String) async throws -> [String: Any]? {
            let mark = kiosk.snapshots.count
            let taken = try await kiosk.post("/badge", #"{"user": "\#(user)"}"#)
            #expect(taken.status == 202 && taken.body["message"] as? String == "touchReader", "\(taken)")
            if let image {
                guard try await kiosk.next("ready", skipping: mark) != nil else { return nil }
                try await rig.touch(SharedData.print(image))
            }
            let result = try await kiosk.next(state, skipping: mark)
            _ = try await kiosk.next("badgeFirst", skipping: mark)
            return result
        }
        let welcome = try await named("alice", touch: "whorl", until: "welcome")
        #expect(welcome?["user"] as? String == "alice", "\(kiosk.snapshots) \(rig.serviceLog)")
        let refused = try await named("alice", touch: "loop-right", until: "notRecognised")
        #expect(refused != nil, "bob's finger under alice's name: \(kiosk.snapshots)")
        let noPrint = try await named("carol", touch: nil, until: "notRecognised")
        #expect(noPrint?["message"] as? String == "badgeNoFinger", "\(String(describing: noPrint))")

        let status = try await Fpbridge.run(["--json", "--state-dir", rig.state, "--user", "alice", "status"],
                                            environment: ["FPBRIDGE_SERVICE": rig.socket])
        let biometry = status.json["biometry"] as? [String: Any]
        #expect(biometry?["failures"] as? Int == 0, "bob's touch under alice's name cost alice nothing: \(status.stdout)")
        let reader = status.json["reader"] as? [String: Any]
        let identification = reader?["identification"] as? [String: Any]
        #expect(identification?["failures"] as? Int == 1, "it counted on the reader: \(status.stdout)")
        let notNeeded = try await kiosk.post("/badge", #"{"user": ""}"#)
        #expect(notNeeded.status == 400 && notNeeded.body["message"] as? String == "badgeMissing", "\(notNeeded)")
    }

    @Test func aReaderPulledOutOrAServiceGoneIsUnavailableAndTheKioskComesBack() async throws {
        let rig = try KioskRig()
        try await rig.startService()
        try await rig.enroll("alice", image: SharedData.print("whorl"))
        let kiosk = try await KioskProcess(service: rig.socket, launcher: KioskRig.asKioskMember)
        #expect(try await kiosk.next("ready") != nil, "\(kiosk.snapshots) \(kiosk.log)")

        var mark = kiosk.snapshots.count
        try await rig.unplug()
        let pulled = try await kiosk.next("unavailable", skipping: mark)
        #expect(pulled?["message"] as? String == "noReader", "\(kiosk.snapshots)")

        // fpbridged stopped (SIGTERM, as systemctl restart does): the page says it is restarting.
        mark = kiosk.snapshots.count
        rig.stopService()
        let down = try await kiosk.next("unavailable", skipping: mark) { $0["message"] as? String == "serviceRestarting" }
        #expect(down != nil, "\(kiosk.snapshots)")

        // fpbridged again (the reader plugged in again, to libfprint a new device): ready, and it matches.
        mark = kiosk.snapshots.count
        try await rig.startService()
        #expect(try await kiosk.next("ready", skipping: mark) != nil, "\(kiosk.snapshots)")
        let welcome = try await touch(rig, kiosk, "whorl", until: "welcome")
        #expect(welcome?["user"] as? String == "alice", "\(kiosk.snapshots) \(rig.serviceLog)")
    }

    @Test func aTouchSignsAliceInAtTheLoginServerAndAnUnboundUserIsToldSo() async throws {
        let rig = try KioskRig()
        try await rig.startService()
        try await rig.enroll("alice", image: SharedData.print("whorl"))
        try await rig.enroll("bob", image: SharedData.print("loop-right"))
        // alice has an account at the login server and bound this machine to it; bob has none.
        let server = try await LoginServerProcess()
        try await rig.bind("alice", to: server)
        let kiosk = try await KioskProcess(service: rig.socket, arguments: ["--server", server.address],
                                           launcher: KioskRig.asKioskMember)

        // Another local user's process watches the event stream throughout (issue 36: it read
        // every session as it was issued, and with one, the account).
        let directory = TemporaryDirectory()
        let intruder = directory.file("intruder-events")
        let watching = try kiosk.startReadingEvents(launcher: KioskProcess.asUser(4242), into: intruder)
        defer { KioskProcess.stopReading(watching) }

        // One touch: identified, the server's challenge signed, and a session the server accepts.
        let welcome = try await touch(rig, kiosk, "whorl", until: "welcome")
        let token = try #require(welcome?["session"] as? String, "\(kiosk.snapshots)\n\(kiosk.log)")
        #expect(welcome?["user"] as? String == "alice")
        // A page that connects after the welcome (within its 4 s on the screen) gets the welcome, not the session.
        let late = try await kiosk.request("GET", "/events", seconds: 1.5)
        let first = late.body.split(separator: "\n").first { $0.hasPrefix("data: ") } ?? ""
        #expect(first.contains(#""state":"welcome""#) && first.contains(#""user":"alice""#), "\(late.body)")
        #expect(!late.body.contains(token) && !late.body.contains(#""session""#), "a late page got the session: \(late.body)")
        let me = try await server.request("GET", "/v1/me", token: token)
        #expect(me.status == 200 && me.json["username"] as? String == "alice" && me.json["kind"] as? String == "kiosk", "\(me.body)")
        KioskProcess.stopReading(watching)
        let seen = (try? String(contentsOfFile: intruder, encoding: .utf8)) ?? ""
        #expect(!seen.contains(token) && !seen.contains("data:"), "uid 4242 read the stream: \(seen)")
        #expect(seen.hasSuffix("403") && seen.contains("belongs to uid 4242;"), "\(seen)")

        // bob's finger is his, but he has no sign-in at this server: told so, not taken for a stranger.
        let bob = try await touch(rig, kiosk, "loop-right", until: "notRecognised")
        #expect(bob?["message"] as? String == "notBound" && (bob?["parameters"] as? [String: String])?["user"] == "bob",
                "\(kiosk.snapshots)\n\(kiosk.log)")

        // The PIN pad ends the same way: alice's right PIN in a session of kind kiosk-pin (in
        // the answer to the page that typed it), bob's right PIN told it has no sign-in here, a
        // wrong PIN signs nothing.
        let pin = try await kiosk.post("/pin", #"{"user":"alice","pin":"2468"}"#)
        let pinToken = try #require(pin.body["session"] as? String, "\(pin.body)\n\(kiosk.log)")
        #expect(pin.status == 200 && pin.body["user"] as? String == "alice")
        let pinMe = try await server.request("GET", "/v1/me", token: pinToken)
        #expect(pinMe.status == 200 && pinMe.json["username"] as? String == "alice" && pinMe.json["kind"] as? String == "kiosk-pin",
                "\(pinMe.body)")
        let bobPIN = try await kiosk.post("/pin", #"{"user":"bob","pin":"2468"}"#)
        #expect(bobPIN.body["message"] as? String == "pinNotBound" && bobPIN.body["session"] == nil, "\(bobPIN.body)")
        let wrong = try await kiosk.post("/pin", #"{"user":"alice","pin":"1111"}"#)
        #expect(wrong.status == 401 && wrong.body["message"] as? String == "pinWrong" && wrong.body["session"] == nil, "\(wrong.body)")
    }

    /// The kiosk runs as this test's user (root); uid 65534 is another local user. Every route
    /// refuses it, naming its uid, before anything else happens; `--page-user` lets it in.
    @Test func anotherLocalUserIsRefusedOnEveryRouteUnlessNamedAsThePagesUser() async throws {
        let kiosk = try await KioskProcess(service: "/nonexistent/fpbridged.sock", arguments: ["--demo-touch-socket", "/nonexistent/reader"])
        let nobody = KioskProcess.asUser(65534)
        for (method, path, json) in [("GET", "/", nil), ("GET", "/kiosk.js", nil), ("GET", "/events", nil),
                                     ("POST", "/pin", #"{"user": "alice", "pin": "2468"}"#), ("POST", "/wake", "{}"),
                                     ("POST", "/demo/touch", #"{"finger": "alice"}"#), ("GET", "/nothing", nil)] {
            let refused = try await kiosk.request(method, path, json: json, launcher: nobody, seconds: 5)
            #expect(refused.status == 403 && refused.body.contains("This connection belongs to uid 65534;")
                    && !refused.body.contains("data:"), "\(method) \(path): \(refused)")
        }
        let own = try await kiosk.request("GET", "/")
        #expect(own.status == 200 && own.body.contains("<html"), "the kiosk's own user: \(own.status)")

        let named = try await KioskProcess(service: "/nonexistent/fpbridged.sock", arguments: ["--page-user", "nobody"])
        #expect(try await named.request("GET", "/", launcher: nobody).status == 200)
        let unknown = try await Fpbridge.runCommand([KioskProcess.executable, "--page-user", "no-such-user-here"],
                                                   environment: ProcessInfo.processInfo.environment, timeout: 20)
        #expect(unknown.status == 2 && unknown.stderr.contains("--page-user no-such-user-here: no such user"), "\(unknown.stderr)")
    }

    @Test func theKioskRefusesAnAddressOffLoopbackAndAnswersInPlainWords() async throws {
        let refused = try await Fpbridge.runCommand([KioskProcess.executable, "--listen", "0.0.0.0:8080"],
                                                   environment: ProcessInfo.processInfo.environment, timeout: 20)
        #expect(refused.status == 2 && refused.stderr.contains("loopback only"), "\(refused.stderr)")

        // No service behind it: the page is told in words, and the PIN pad says it cannot check.
        let kiosk = try await KioskProcess(service: "/nonexistent/fpbridged.sock")
        let down = try await kiosk.next("unavailable")
        #expect(down?["message"] as? String == "serviceDown", "\(kiosk.snapshots)")
        let pin = try await kiosk.post("/pin", #"{"user": "alice", "pin": "2468"}"#)
        #expect(pin.status == 503 && pin.body["message"] as? String == "pinTrouble", "\(pin)")
        // The page gets plain words; whoever runs the kiosk gets the cause, in its log (never the PIN).
        #expect(kiosk.log.contains("the PIN pad cannot check PINs (pinTrouble): ") && kiosk.log.contains("/nonexistent/fpbridged.sock")
                && !kiosk.log.contains("2468"), "\(kiosk.log)")
        let missing = try await kiosk.post("/nothing", "{}")
        #expect(missing.status == 404 && (missing.body["message"] as? String)?.contains("There is no POST /nothing") == true, "\(missing)")
        // Another site's page may not type PINs here.
        let result = try await Fpbridge.runCommand(
            ["/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Origin: http://evil.example",
             "--data-binary", #"{"user":"a","pin":"1"}"#, kiosk.url + "pin"],
            environment: ProcessInfo.processInfo.environment, timeout: 20)
        #expect(result.stdout == "403")
    }
}
