import Foundation
import Testing
import TestSupport

/// Runs a client as `nobody`, whom the service knows only from the socket's peer credentials.
private let asNobody = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

/// The real `fpbridged`, driven through the CLI and its API: who may do what (clients run as
/// another uid), clients that go away, a service killed mid-write, one operation per reader,
/// and test paths refused outside test mode.
@Suite(.serialized) struct ServiceTests {
    let directory = TemporaryDirectory()
    var state: String { directory.file("state") }

    func fake(_ script: String) throws -> String {
        let path = directory.file("script-\(UUID().uuidString.prefix(6)).txt")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        return "fake:" + path
    }

    /// `fpbridge --json` through `service`, for `user` unless nil (the caller's own user). The
    /// service's own state directory is `state`: clients of another uid may not choose one.
    func run(_ service: ServiceProcess, _ arguments: [String], user: String? = "alice", reader: String = "fake",
             input: String = "", launcher: [String] = []) async throws -> CommandResult {
        try await Fpbridge.run(["--json", "--reader", reader] + (user.map { ["--user", $0] } ?? []) + arguments,
                               environment: service.clientEnvironment, input: input, launcher: launcher)
    }

    /// A user with the passcode 2468 and the right index finger `print` enrolled.
    func enroll(_ service: ServiceProcess, user: String = "alice", print: String = "a") async throws {
        #expect(try await run(service, ["passcode", "set", "--passcode-stdin"], user: user, input: "2468\n").status == 0)
        let enrolled = try await run(service, ["enroll", "--finger", "right-index", "--passcode-stdin"], user: user,
                                     reader: fake(String(repeating: "scan \(print)\n", count: 5)), input: "2468\n")
        #expect(enrolled.status == 0, "\(enrolled.stdout)\(enrolled.stderr)")
    }

    init() {
        _ = try? directory.privateDirectory("state")
        chmod(directory.path, 0o755)
    }

    @Test func aCallerActsOnlyForItselfAndNeverForAnotherUser() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        try await enroll(service, user: "alice")
        for command in [["list"], ["status"], ["key", "list"], ["unlock", "--passcode-stdin"], ["verify"],
                        ["delete", "--all"], ["passcode", "remove", "--passcode-stdin"]] {
            let refused = try await run(service, command, user: "alice", reader: fake("scan a"), input: "2468\n",
                                        launcher: asNobody)
            #expect(refused.status == 2 && refused.errorCode == -2013 && refused.errorMessage.contains("may act only for itself"),
                    "nobody \(command): \(refused.stdout)\(refused.stderr)")
        }
        let identify = try await run(service, ["identify"], user: nil, reader: fake("scan a"), launcher: asNobody)
        #expect(identify.status == 2 && identify.errorMessage.contains("may not identify"), "\(identify.stdout)")
        // Its own state, nobody may read and change.
        let own = try await run(service, ["list"], user: nil, launcher: asNobody)
        #expect(own.status == 0 && own.json["user"] as? String == "nobody", "\(own.stdout)\(own.stderr)")
        // Alice's print and passcode are still there, and her finger still matches.
        let alice = try await run(service, ["verify"], reader: fake("scan a"))
        #expect(alice.status == 0 && alice.json["user"] as? String == "alice", "\(alice.stdout)")
        // The raw API says the same, with 403.
        let raw = try await service.request("GET", "/v1/prints?user=alice&stateDirectory=\(state)", launcher: asNobody)
        #expect(raw.status == 403 && raw.json["ok"] as? Bool == false && raw.errorCode == -2013 && raw.json["error"].map { ($0 as? [String: Any])?["name"] as? String } == "notPermitted", "\(raw.body)")
    }

    /// The kiosk and admin groups, with a real non-root member: `nobody`, whose primary group
    /// (`nogroup` on Debian) is named as the group.
    @Test func aKioskMemberIdentifiesAndChecksAPasscodeButNothingElseForOthers() async throws {
        let service = try await ServiceProcess(arguments: ["--kiosk-group", "nogroup"], stateDirectory: state)
        try await enroll(service, user: "alice")
        let identified = try await run(service, ["identify"], user: nil, reader: fake("scan a"), launcher: asNobody)
        #expect(identified.status == 0 && identified.json["user"] as? String == "alice", "\(identified.stdout)\(identified.stderr)")
        // The PIN pad: alice's passcode, checked for her.
        let pin = try await service.request("POST", "/v1/passcode-check", body: #"{"user":"alice","passcode":"2468"}"#,
                                            launcher: asNobody)
        #expect(pin.status == 200 && pin.json["user"] as? String == "alice", "\(pin.body)")
        // Issue 25 §4: a kiosk account could lock out anyone's fingerprint with five wrong
        // fingers through verify; a verify, evaluation or can-evaluate for another user is refused.
        // So is `unlock`, the passcode through a prompt: it answers a name with no passcode at
        // once with passcodeNotSet (issue 25 §3), where the PIN pad answers it as a wrong PIN.
        for command in [["verify"], ["auth"], ["can-evaluate"], ["list"], ["status"], ["key", "list"], ["delete", "--all"],
                        ["passcode", "remove", "--passcode-stdin"], ["unlock", "--passcode-stdin"]] {
            let refused = try await run(service, command, user: "alice", input: "2468\n", launcher: asNobody)
            #expect(refused.status == 2 && refused.errorCode == -2013, "kiosk \(command): \(refused.stdout)\(refused.stderr)")
        }
        #expect(try await run(service, ["verify"], reader: fake("scan a")).status == 0, "alice's print is still there")
    }

    @Test func anAdminGroupMemberActsForAnyUser() async throws {
        let service = try await ServiceProcess(arguments: ["--admin-group", "nogroup"], stateDirectory: state)
        try await enroll(service, user: "alice")
        let listed = try await run(service, ["list"], user: "alice", launcher: asNobody)
        #expect(listed.status == 0 && listed.json["user"] as? String == "alice", "\(listed.stdout)\(listed.stderr)")
        let identified = try await run(service, ["identify"], user: nil, reader: fake("scan a"), launcher: asNobody)
        #expect(identified.status == 0 && identified.json["user"] as? String == "alice", "\(identified.stdout)")
    }

    @Test func aLockedOutUserStaysLockedOutWhateverItsClientSends() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        try await enroll(service, user: "nobody")
        for _ in 0..<5 {
            _ = try await run(service, ["verify"], user: nil, reader: fake("scan x"), launcher: asNobody)
        }
        let locked = try await run(service, ["auth"], user: nil, reader: fake("scan a"), launcher: asNobody)
        #expect(locked.errorCode == -8, "\(locked.stdout)")
        let attempts: [String] = [
            #"{"operation":"verify","reader":"\#(try fake("scan a"))","attempts":0}"#,
            #"{"operation":"verify","reader":"\#(try fake("scan a"))","failures":0}"#,
            #"{"operation":"identify","reader":"\#(try fake("scan a"))"}"#,
            #"{"operation":"verify","user":"root","reader":"\#(try fake("scan a"))"}"#,
            #"{"operation":"evaluate","policy":"biometrics","reader":"\#(try fake("scan a"))"}"#,
        ]
        for body in attempts {
            let answer = try await service.request("POST", "/v1/evaluations", body: body, launcher: asNobody)
            let result = answer.lines.last ?? [:]
            #expect(answer.status >= 400 || result["ok"] as? Bool == false, "\(body): \(answer.body)")
        }
        let wrong = try await run(service, ["unlock", "--passcode-stdin"], user: nil, input: "1111\n", launcher: asNobody)
        #expect(wrong.status == 1)
        let status = try await run(service, ["status"], user: nil, launcher: asNobody)
        #expect((status.json["biometry"] as? [String: Any])?["lockedOut"] as? Bool == true, "\(status.stdout)")
        // Only the passcode lifts it.
        #expect(try await run(service, ["unlock", "--passcode-stdin"], user: nil, input: "2468\n", launcher: asNobody).status == 0)
        #expect(try await run(service, ["verify"], user: nil, reader: fake("scan a"), launcher: asNobody).status == 0)
    }

    @Test func aClientThatGoesAwayEndsItsEvaluationAtOnceAndNothingIsCounted() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        try await enroll(service)
        let pid = PIDBox()
        let begun = Date()
        async let waiting = Fpbridge.run(["--json", "--reader", try fake("wait 30000\nscan x"), "--state-dir", state,
                                          "--user", "alice", "auth"], environment: service.clientEnvironment,
                                         onStart: { pid.set($0) })
        try await waitFor { try await service.request("GET", "/v1/service").json["operations"] as? Int == 1 }
        kill(pid.value, SIGKILL)
        _ = await (try? waiting)
        try await waitFor(seconds: 2) { try await service.request("GET", "/v1/service").json["operations"] as? Int == 0 }
        let status = try await run(service, ["status"])
        #expect((status.json["biometry"] as? [String: Any])?["failures"] as? Int == 0, "\(status.stdout)")
        // The reader is free again: had the killed client's scan gone on, it would hold the
        // reader until its touch 30 s after it began.
        #expect(try await run(service, ["auth"], reader: fake("scan a")).status == 0)
        #expect(Date().timeIntervalSince(begun) < 25, "the reader stayed busy with the killed client's scan")
    }

    @Test func oneOperationPerReaderTheNextWaitsOrIsToldBusy() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        try await enroll(service)
        async let first = run(service, ["auth"], reader: fake("wait 1500\nscan a"))
        try await waitFor { try await service.request("GET", "/v1/service").json["operations"] as? Int == 1 }
        let busy = try await service.request("POST", "/v1/evaluations", body: """
            {"operation":"evaluate","wait":false,"user":"alice","reader":"\(try fake("scan a"))","stateDirectory":"\(state)"}
            """)
        #expect(busy.lines.last?["ok"] as? Bool == false
                && (busy.lines.last?["error"] as? [String: Any])?["code"] as? Int == -2002, "\(busy.body)")
        let waited = try await run(service, ["auth"], reader: fake("scan a"))
        #expect(waited.status == 0, "\(waited.stdout)")
        #expect(try await first.status == 0)
    }

    /// Issue 27 §2: a step that needs no scan holds no reader. An unlock whose passcode prompt
    /// waits used to take the reader for as long as the prompt (60 s), so root waited or got
    /// readerBusy.
    @Test func aWaitingPasscodePromptHoldsNoReader() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        try await enroll(service)
        async let unlocking = service.request("POST", "/v1/evaluations", body: """
            {"operation":"unlock","user":"alice","reader":"\(try fake("scan a"))","stateDirectory":"\(state)"}
            """, timeout: 6)
        try await waitFor { try await service.request("GET", "/v1/service").json["operations"] as? Int == 1 }
        let verified = try await service.request("POST", "/v1/evaluations", body: """
            {"operation":"verify","wait":false,"user":"alice","reader":"\(try fake("scan a"))","stateDirectory":"\(state)"}
            """)
        #expect(verified.lines.last?["ok"] as? Bool == true, "the reader was held by a passcode prompt: \(verified.body)")
        _ = try? await unlocking
        // Nor does removing the passcode while it asks for the current one.
        async let removing = service.request("POST", "/v1/passcode", body: """
            {"action":"remove","user":"alice","reader":"\(try fake("scan a"))"}
            """, timeout: 6)
        try await waitFor { try await service.request("GET", "/v1/service").json["operations"] as? Int == 1 }
        let again = try await service.request("POST", "/v1/evaluations", body: """
            {"operation":"verify","wait":false,"user":"alice","reader":"\(try fake("scan a"))"}
            """)
        #expect(again.lines.last?["ok"] as? Bool == true, "the reader was held by a passcode removal's prompt: \(again.body)")
        _ = try? await removing
    }

    @Test func aServiceKilledMidEnrollmentOrMidSignatureLeavesTheOldState() async throws {
        let first = try await ServiceProcess(stateDirectory: state)
        try await enroll(first)
        #expect(try await run(first, ["key", "create", "--label", "login", "--access-control", "biometry-any"]).status == 0)
        let enrollScript = try fake("scan b\nscan b\nwait 30000")
        async let enrolling = run(first, ["enroll", "--finger", "left-index", "--passcode-stdin"], reader: enrollScript, input: "2468\n")
        try await waitFor { try await first.request("GET", "/v1/service").json["operations"] as? Int == 1 }
        // Real time: lets the enrollment reach its 30 s wait after the two scans before the kill (no event marks it); a kill sooner cuts an earlier step, which must leave the old state as well.
        try await Task.sleep(for: .milliseconds(300))
        kill(first.pid, SIGKILL)
        let cut = try await enrolling
        #expect(cut.status != 0, "\(cut.stdout)")
        let second = try await ServiceProcess(stateDirectory: state)
        let list = try await run(second, ["list"])
        #expect((list.json["prints"] as? [[String: Any]])?.map { $0["finger"] as? String } == ["right-index"], "\(list.stdout)")
        #expect((list.json["damaged"] as? [Any])?.isEmpty == true)
        let signScript = try fake("wait 30000")
        async let signing = run(second, ["key", "sign", "--label", "login", "--data-base64", "aGk="], reader: signScript)
        try await waitFor { try await second.request("GET", "/v1/service").json["operations"] as? Int == 1 }
        kill(second.pid, SIGKILL)
        _ = try await signing
        let service = try await ServiceProcess(stateDirectory: state)
        let keys = try await run(service, ["key", "list"])
        #expect((keys.json["keys"] as? [[String: Any]])?.first?["counter"] as? Int == 0, "\(keys.stdout)")
        let signed = try await run(service, ["key", "sign", "--label", "login", "--data-base64", "aGk="], reader: fake("scan a"))
        #expect(signed.status == 0 && signed.json["counter"] as? Int == 1, "\(signed.stdout)")
        let again = try await run(service, ["enroll", "--finger", "left-index", "--passcode-stdin"],
                                  reader: fake(String(repeating: "scan b\n", count: 5)), input: "2468\n")
        #expect(again.status == 0, "\(again.stdout)")
    }

    @Test func outsideTestModeTheFakeReaderAndClientStateAreRefused() async throws {
        let service = try await ServiceProcess(arguments: ["--reader", "auto"], testMode: false, stateDirectory: state)
        let fakeReader = try await Fpbridge.run(["--json", "--reader", "fake", "status"], environment: service.clientEnvironment)
        #expect(fakeReader.status == 2 && fakeReader.errorMessage.contains("not started with --test-mode"), "\(fakeReader.stdout)")
        let ownState = try await Fpbridge.run(["--json", "--state-dir", state, "status"], environment: service.clientEnvironment)
        #expect(ownState.status == 2 && ownState.errorMessage.contains("not started with --test-mode"), "\(ownState.stdout)")
        let status = try await Fpbridge.run(["--json", "status"], environment: service.clientEnvironment)
        #expect(status.status == 0 && status.json["mode"] as? String == "service", "\(status.stdout)\(status.stderr)")
        let inProcess = try await Fpbridge.run(["--json", "--service", "off", "--state-dir", state, "status"])
        #expect(inProcess.json["mode"] as? String == "in-process")
        // Nor does the service start with them.
        for (arguments, environment) in [(["--reader", "fake"], [String: String]()), ([], ["FPBRIDGE_READER": "fake"])] {
            let refused = try await ServiceProcess.runToEnd(["--socket", directory.file("x.sock"), "--state-dir", state] + arguments,
                                                            environment: environment)
            #expect(refused.status == 2 && refused.stderr.contains("--test-mode"), "\(refused.stderr)")
        }
    }

    /// Issue 25: an unknown path or method is a 404 with a body that names it, as every 4xx.
    @Test func anUnknownEndpointIsA404WithAnErrorBody() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        for (method, path) in [("GET", "/v1/nonexistent"), ("POST", "/v1/service"), ("GET", "/")] {
            let answer = try await service.request(method, path)
            #expect(answer.status == 404 && answer.json["ok"] as? Bool == false, "\(method) \(path): \(answer.status) \(answer.body)")
            let message = (answer.json["error"] as? [String: Any])?["message"] as? String
            #expect(message?.contains("no such endpoint: \(method) \(path)") == true, "\(answer.body)")
        }
    }

    /// Issue 25: enrolling without a passcode is a 409 before any stream, as the OpenAPI says.
    @Test func enrollingWithoutAPasscodeIsA409() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        let answer = try await service.request("POST", "/v1/enrollments", body: #"{"finger":"right-index","user":"nopass","reader":"\#(try fake("scan a"))"}"#)
        #expect(answer.status == 409 && answer.errorCode == -5, "\(answer.status) \(answer.body)")
        #expect(answer.body.split(separator: "\n").count == 1, "one JSON answer, not a stream")
    }

    /// Issue 25: `--verbose` logs each request (method, path, the caller's uid, status), never a body.
    @Test func verboseLogsEachRequestAndNoSecret() async throws {
        let service = try await ServiceProcess(arguments: ["--verbose"], stateDirectory: state)
        #expect(try await run(service, ["passcode", "set", "--passcode-stdin"], input: "97531\n").status == 0)
        _ = try await service.request("GET", "/v1/nonexistent")
        try await waitFor { service.output.contains("GET /v1/nonexistent from uid 0: 404") }
        #expect(service.output.contains("POST /v1/passcode"), "\(service.output)")
        #expect(!service.output.contains("97531"), "a passcode in the log")
    }

    /// Issue 25: a passcode question reaches a client of the stream once: one
    /// `passcodeRequested` line, no `event` line saying the same.
    @Test func aPasscodeQuestionIsOneLine() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        #expect(try await run(service, ["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        let lines = try await service.stream("/v1/evaluations", body: #"{"operation":"unlock","user":"alice"}"#) { object, lines in
            if object["type"] as? String == "passcodeRequested", let operation = lines.first?["operation"] as? String {
                let answered = try await service.request("POST", "/v1/operations/\(operation)/passcode", body: #"{"passcode":"2468"}"#)
                #expect(answered.status == 200, "\(answered.body)")
            }
        }
        let questions = lines.filter { $0["type"] as? String == "passcodeRequested"
            || ($0["event"] as? [String: Any])?["kind"] as? String == "passcodeRequested" }
        #expect(questions.count == 1, "\(lines)")
        #expect(lines.last?["ok"] as? Bool == true, "\(lines)")
    }

    /// Polls `condition` every 20 ms until it holds, failing after `seconds`.
    func waitFor(seconds: Double = 10, _ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return }
            // A poll (the deadline above).
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the condition did not hold within \(seconds) s")
    }
}

extension ServiceTests {
    /// One user holding connections open (half a request each) is cut at its limit at once,
    /// and everyone else is still served.
    @Test func oneUserCannotHoldEnoughConnectionsToLockOthersOut() async throws {
        let service = try await ServiceProcess(arguments: ["--connections-per-user", "8"], stateDirectory: state)
        let script = directory.file("hold.py")
        try """
            import socket, sys, time
            held, closed = [], 0
            for _ in range(20):
                s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"GET /v1/service HTTP/1.1\\r\\nHo")
                held.append(s)
            time.sleep(1)
            for s in held:
                s.settimeout(0.05)
                try:
                    if s.recv(1) == b"": closed += 1
                except (socket.timeout, ConnectionResetError):
                    if isinstance(sys.exc_info()[1], ConnectionResetError): closed += 1
            print(closed, flush=True)
            time.sleep(3)
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o644)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: asNobody[0])
        holder.arguments = Array(asNobody.dropFirst()) + ["/usr/bin/python3", script, service.socket]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        let line = try await firstLine(of: output)
        #expect(line == "12", "connections cut beyond the limit: \(line)")
        // While nobody holds its 8, root is served.
        let answer = try await service.request("GET", "/v1/service")
        #expect(answer.status == 200 && answer.json["ok"] as? Bool == true)
        holder.terminate()
        try await blocking { holder.waitUntilExit() }
    }
}

extension ServiceTests {
    /// The service keeps print files decoded between requests, and every change on disk is
    /// seen: a re-enrolled finger matches as the new print only, a deleted one no longer at all.
    @Test func decodedPrintsAreReusedAndEveryChangeIsSeen() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        try await enroll(service, user: "alice")
        #expect(try await run(service, ["passcode", "set", "--passcode-stdin"], user: "bob", input: "1357\n").status == 0)
        #expect(try await run(service, ["enroll", "--finger", "left-index", "--passcode-stdin"], user: "bob",
                              reader: fake(String(repeating: "scan b\n", count: 5)), input: "1357\n").status == 0)
        func identify(_ finger: String) async throws -> CommandResult {
            try await run(service, ["identify"], user: nil, reader: fake("scan \(finger)"))
        }
        func saved() async throws -> Int { try await service.request("GET", "/v1/service").json["printReadsSaved"] as? Int ?? -1 }

        #expect(try await identify("b").json["user"] as? String == "bob")
        let before = try await saved()
        #expect(try await identify("b").json["user"] as? String == "bob")
        #expect(try await saved() >= before + 2, "both print files came from the cache")

        #expect(try await run(service, ["enroll", "--finger", "right-index", "--replace", "--passcode-stdin"],
                              reader: fake(String(repeating: "scan c\n", count: 5)), input: "2468\n").status == 0)
        #expect(try await identify("a").errorCode == -1, "the replaced print no longer matches")
        #expect(try await identify("c").json["user"] as? String == "alice")
        #expect(try await run(service, ["delete", "--all"], user: "bob").status == 0)
        let gone = try await identify("b")
        #expect(gone.status != 0 && gone.json["user"] == nil, "a deleted print no longer matches: \(gone.stdout)")
    }
}

extension ServiceTests {
    /// Damaged state is the administrator's to repair: refused to a user (even for itself),
    /// listed and repaired for root, with the same output as in-process.
    /// Issue 27 §3: in test mode, a fake reader's script named by a client is read with the
    /// client's rights, never the service's (root's): `fake:/etc/shadow` once came back with
    /// shadow's first line quoted in the error.
    @Test func aClientsScriptIsReadWithTheClientsRightsNotTheServices() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        let rootOnly = directory.file("root-only.txt")
        try "scan secret-line-1234\n".write(toFile: rootOnly, atomically: true, encoding: .utf8)
        chmod(rootOnly, 0o600)
        for path in [rootOnly, "/etc/shadow", "/proc/self/maps"] {
            let answer = try await run(service, ["verify"], user: nil, reader: "fake:" + path, launcher: asNobody)
            #expect(answer.errorCode == -2007 && answer.errorMessage.contains("cannot read script file '\(path)' as nobody"),
                    "\(answer.stdout)\(answer.stderr)")
            // Nothing of the file comes back: not a secret line, not shadow's, not the service's own memory map.
            #expect(!answer.stdout.contains("secret-line") && !answer.stdout.contains("root:") && !answer.stdout.contains("r-xp"),
                    "\(answer.stdout)")
        }
        // Readable by nobody, the same file is nobody's script (nobody has no print: -7).
        chmod(rootOnly, 0o644)
        let readable = try await run(service, ["verify"], user: nil, reader: "fake:" + rootOnly, launcher: asNobody)
        #expect(readable.errorCode == -7, "\(readable.stdout)\(readable.stderr)")
        // Root's own clients read with root's rights, as before.
        chmod(rootOnly, 0o600)
        #expect(try await run(service, ["verify"], user: "root", reader: "fake:" + rootOnly).errorCode == -7)
    }

    /// Issue 27 §3: a root service in test mode made folders at any path a client named. A
    /// client of another uid uses the service's own state directory; root's clients may still name one.
    @Test func onlyRootOrTheServicesOwnUserNamesAStateDirectory() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        let elsewhere = directory.file("nobody-chose-this")
        let refused = try await Fpbridge.run(["--json", "--reader", "fake", "--state-dir", elsewhere, "passcode", "set", "--passcode-stdin"],
                                             environment: service.clientEnvironment, input: "2468\n", launcher: asNobody)
        #expect(refused.errorCode == -2013 && refused.errorMessage.contains("state directory chosen by the client"),
                "\(refused.stdout)\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: elsewhere), "the service made a folder where nobody said")
        let root = try await Fpbridge.run(["--json", "--reader", "fake", "--state-dir", elsewhere, "passcode", "set", "--passcode-stdin"],
                                          environment: service.clientEnvironment, input: "2468\n")
        #expect(root.status == 0, "\(root.stdout)\(root.stderr)")
    }

    @Test func onlyAnAdministratorRepairsStateThroughTheService() async throws {
        let service = try await ServiceProcess(stateDirectory: state)
        try await enroll(service, user: "nobody")
        _ = try await run(service, ["verify"], user: "nobody", reader: fake("scan x"))
        let counters = state + "/counters"
        let file = try #require(try FileManager.default.subpathsOfDirectory(atPath: counters).first { $0.hasPrefix("user-") && $0.hasSuffix(".json") })
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: counters + "/" + file))
        let refused = try await run(service, ["repair", "--yes"], user: nil, launcher: asNobody)
        #expect(refused.status == 2 && refused.errorMessage.contains("may not repair"), "\(refused.stdout)")
        let listed = try await run(service, ["repair"], user: nil)
        #expect(listed.status == 3 && listed.errorCode == -2005 && (listed.json["findings"] as? [Any])?.count == 1, "\(listed.stdout)")
        let repaired = try await run(service, ["repair", "--yes"], user: nil)
        #expect(repaired.status == 0 && repaired.json["repaired"] as? Bool == true, "\(repaired.stdout)")
        // The safest state: locked out until nobody's own passcode.
        #expect(try await run(service, ["verify"], user: "nobody", reader: fake("scan a")).errorCode == -8)
        #expect(try await run(service, ["unlock", "--passcode-stdin"], user: nil, input: "2468\n", launcher: asNobody).status == 0)
        #expect(try await run(service, ["repair"], user: nil).status == 0)
    }
}
