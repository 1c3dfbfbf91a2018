import Foundation
import Testing
import TestSupport

/// The command line as scripts use it: exit statuses, one JSON object, clear errors.
@Suite struct CLIContractTests {
    let directory = TemporaryDirectory()

    func fake(_ script: String) throws -> String {
        let path = directory.file("script-\(UUID().uuidString.prefix(6)).txt")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        return "fake:" + path
    }

    func run(_ arguments: [String], reader: String, input: String = "") async throws -> CommandResult {
        try await Fpbridge.run(["--json", "--reader", reader, "--state-dir", directory.file("state"), "--user", "alice"] + arguments,
                               input: input)
    }

    /// Enrolls on the fake reader as a user does: passcode 2468 (set first if needed), then the script.
    func enroll(_ finger: String, script: String) async throws -> CommandResult {
        if !FileManager.default.fileExists(atPath: directory.file("state/passcodes/alice.json")) {
            #expect(try await run(["passcode", "set", "--passcode-stdin"], reader: "fake", input: "2468\n").status == 0)
        }
        return try await run(["enroll", "--finger", finger, "--passcode-stdin"], reader: fake(script), input: "2468\n")
    }

    @Test func demoRunsWithoutHardwareAndShowsLockoutAndRecovery() async throws {
        let result = try await Fpbridge.run(["demo", "--json"])
        #expect(result.status == 0)
        let steps = try #require(result.json["steps"] as? [[String: Any]])
        let outcomes = steps.map { ($0["step"] as! String, $0["code"] as? Int) }
        #expect(outcomes.map(\.0).contains("auth-lockout"))
        #expect(outcomes.first { $0.0 == "auth-lockout" }?.1 == -8)
        #expect(outcomes.first { $0.0 == "verify-no-match" }?.1 == -1)
        #expect(steps.last?["ok"] as? Bool == true)
    }

    @Test func enrollVerifyListDeleteOnTheFakeReader() async throws {
        let enrolled = try await enroll("left-thumb", script: String(repeating: "scan a\n", count: 5))
        #expect(enrolled.status == 0 && enrolled.ok)
        #expect(enrolled.json["finger"] as? String == "left-thumb")
        let again = try await enroll("left-thumb", script: "scan a")
        #expect(again.status == 2 && again.errorCode == -2008)
        #expect(try await run(["verify", "--finger", "left-thumb"], reader: fake("scan a")).status == 0)
        let miss = try await run(["verify"], reader: fake("scan b"))
        #expect(miss.status == 1 && miss.errorCode == -1)
        let list = try await run(["list"], reader: "fake")
        #expect((list.json["prints"] as? [Any])?.count == 1)
        #expect(try await run(["delete", "--finger", "left-thumb"], reader: "fake").status == 0)
        let gone = try await run(["verify"], reader: fake("scan a"))
        #expect(gone.status == 3 && gone.errorCode == -7)
    }

    /// Issue 25: a scan timeout under a second is told as it is, not "within 0 seconds".
    @Test func aTimeoutUnderASecondIsToldAsItIs() async throws {
        let directory = TemporaryDirectory()
        try directory.privateDirectory("state")
        let state = directory.file("state")
        try Data(#"{"scanTimeoutSeconds": 0.5}"#.utf8).write(to: URL(fileURLWithPath: state + "/config.json"))
        let enrollScript = directory.file("enroll.txt"), waitScript = directory.file("wait.txt")
        try String(repeating: "scan a\n", count: 5).write(toFile: enrollScript, atomically: true, encoding: .utf8)
        try "wait 3000\nscan a\n".write(toFile: waitScript, atomically: true, encoding: .utf8)
        let base = ["--json", "--service", "off", "--state-dir", state, "--user", "alice"]
        #expect(try await Fpbridge.run(base + ["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        #expect(try await Fpbridge.run(base + ["--reader", "fake:" + enrollScript, "enroll", "--finger", "right-index", "--passcode-stdin"],
                                       input: "2468\n").status == 0)
        let late = try await Fpbridge.run(base + ["--reader", "fake:" + waitScript, "verify"])
        #expect(late.errorCode == -2003 && late.errorMessage.contains("within 0.5 seconds"), "\(late.stdout)")
    }

    @Test func badInputIsExitTwoWithAClearMessage() async throws {
        let finger = try await run(["enroll", "--finger", "left-toe"], reader: "fake")
        #expect(finger.status == 2 && finger.errorCode == -2007)
        #expect(finger.stderr.contains("left-toe") && finger.stderr.contains("right-little"))
        let script = try await run(["verify"], reader: fake("scan a\nswipe b"))
        #expect(script.status == 2 && script.stderr.contains("line 2"))
        let option = try await Fpbridge.run(["verify", "--bogus"])
        #expect(option.status == 2)
        let reader = try await run(["readers"], reader: "usb")
        #expect(reader.status == 2)
        // A group that would break out of the rule's quotes is refused, no rule printed.
        let group = try await Fpbridge.run(["udev-rules", "--group", #"x", MODE="0666"#])
        #expect(group.status == 2 && group.stdout.isEmpty && group.stderr.contains("not a valid group name"),
                "\(group.status) \(group.stdout) \(group.stderr)")
        #expect(try await Fpbridge.run(["udev-rules", "--group", "kiosk_users"]).stdout.contains(#"GROUP="kiosk_users""#))
    }

    @Test func anExhaustedScriptIsAnErrorNotAHang() async throws {
        _ = try await enroll("left-thumb", script: String(repeating: "scan a\n", count: 5))
        let result = try await run(["verify"], reader: fake("# nothing"))
        #expect(result.status == 3 && result.errorCode == -2011)
    }

    @Test func aCorruptPrintFileIsNamedAndLeftAsItWas() async throws {
        _ = try await enroll("right-index", script: String(repeating: "scan a\n", count: 5))
        let path = directory.file("state/prints/alice/fake/0/right-index.json")
        let original = try #require(FileManager.default.contents(atPath: path))
        for damage in [original.prefix(40), Data("FP3".utf8)] {
            try damage.write(to: URL(fileURLWithPath: path))
            let result = try await run(["verify"], reader: fake("scan a"))
            #expect(result.status == 3)
            #expect(result.errorCode == -2005)
            #expect(result.stderr.contains(path))
            #expect(FileManager.default.contents(atPath: path) == damage)
        }
    }

    @Test func passcodeChangeAndRemoveNeedTheCurrentOne() async throws {
        #expect(try await run(["passcode", "set", "--passcode-stdin"], reader: "fake", input: "2468\n").status == 0)
        let again = try await run(["passcode", "set", "--passcode-stdin"], reader: "fake", input: "1357\n")
        #expect(again.status != 0, "set must not replace an existing passcode without the current one: \(again.stdout)")
        let guessed = try await run(["passcode", "set", "--passcode-stdin"], reader: "fake", input: "0000\n1357\n")
        #expect(guessed.errorCode == -1, "\(guessed.stdout)")
        let wrong = try await run(["passcode", "change", "--passcode-stdin"], reader: "fake", input: "0000\n1357\n")
        #expect(wrong.errorCode == -1, "\(wrong.stdout)")
        #expect(try await run(["passcode", "change", "--passcode-stdin"], reader: "fake", input: "2468\n1357\n").status == 0)
        #expect(try await run(["unlock", "--passcode-stdin"], reader: "fake", input: "1357\n").status == 0)
        let folder = directory.file("state/passcodes")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.count == 1)
        for file in files {
            let stored = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            #expect(!stored.contains("1357") && !stored.contains("2468"), "passcodes are stored only as hashes")
        }
        #expect(try await run(["passcode", "remove", "--passcode-stdin"], reader: "fake", input: "2468\n").errorCode == -1)
        #expect(try await run(["passcode", "remove", "--passcode-stdin"], reader: "fake", input: "1357\n").status == 0)
        #expect(try await run(["unlock", "--passcode-stdin"], reader: "fake", input: "1357\n").errorCode == -5)
    }

    // Apple's rules: no finger without a passcode set and entered; no passcode, no prints.
    @Test func enrollingNeedsThePasscodeAndRemovingItRemovesThePrints() async throws {
        let noPasscode = try await run(["enroll", "--finger", "left-thumb", "--passcode-stdin"],
                                       reader: fake(String(repeating: "scan a\n", count: 5)), input: "2468\n")
        #expect(noPasscode.errorCode == -5 && noPasscode.status == 3, "\(noPasscode.stdout)")
        #expect(try await run(["passcode", "set", "--passcode-stdin"], reader: "fake", input: "2468\n").status == 0)
        let wrong = try await run(["enroll", "--finger", "left-thumb", "--passcode-stdin"],
                                  reader: fake(String(repeating: "scan a\n", count: 5)), input: "1111\n")
        #expect(wrong.errorCode == -1, "\(wrong.stdout)")
        #expect((try await run(["list"], reader: "fake").json["prints"] as? [Any])?.isEmpty == true, "nothing was enrolled")
        #expect(try await enroll("left-thumb", script: String(repeating: "scan a\n", count: 5)).status == 0)
        #expect(try await enroll("right-index", script: String(repeating: "scan b\n", count: 5)).status == 0)
        let removed = try await run(["passcode", "remove", "--passcode-stdin"], reader: "fake", input: "2468\n")
        #expect(removed.status == 0 && (removed.json["printsRemoved"] as? [Any])?.count == 2, "\(removed.stdout)")
        #expect((try await run(["list"], reader: "fake").json["prints"] as? [Any])?.isEmpty == true)
        // With no passcode and no prints, a new passcode gives nothing back.
        #expect(try await run(["verify"], reader: fake("scan a")).errorCode == -7)
    }

    @Test func canEvaluateAnswersWithoutTouchingTheUser() async throws {
        let none = try await run(["can-evaluate", "--policy", "biometrics"], reader: "fake")
        #expect(none.json["available"] as? Bool == false && none.errorCode == -5)
        #expect(none.json["biometryType"] as? String == "fingerprint")
        _ = try await run(["passcode", "set", "--passcode-stdin"], reader: "fake", input: "2468\n")
        let owner = try await run(["can-evaluate", "--policy", "device-owner"], reader: "fake")
        #expect(owner.status == 0 && owner.json["available"] as? Bool == true)
    }

    @Test func statusHashChangesOnEnrollAndDelete() async throws {
        func hash() async throws -> String? {
            try await run(["status"], reader: "fake").json["enrollmentStateHash"] as? String
        }
        #expect(try await hash() == nil)
        _ = try await enroll("right-index", script: String(repeating: "scan a\n", count: 5))
        let one = try await hash()
        #expect(one != nil)
        _ = try await enroll("left-index", script: String(repeating: "scan b\n", count: 5))
        let two = try await hash()
        #expect(two != nil && two != one)
        _ = try await run(["delete", "--finger", "left-index"], reader: "fake")
        #expect(try await hash() == one)
    }

    /// The reader saying its data is invalid is the reader's fault: nothing on disk is damaged.
    @Test func theReaderReportingInvalidDataIsAReaderFaultNotDamagedState() async throws {
        #expect(try await enroll("left-thumb", script: String(repeating: "scan a\n", count: 5)).status == 0)
        let result = try await run(["verify"], reader: fake("error data-invalid"))
        #expect(result.errorCode == -2006 && result.status == 3, "\(result.stdout)")
    }

    @Test func helpDocumentsTheExitStatuses() async throws {
        let help = try await Fpbridge.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("EXIT STATUS") && help.stdout.contains("3  reader or environment problem"))
    }
}
