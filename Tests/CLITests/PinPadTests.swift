import Crypto
import FPKeyFormats
import Foundation
import Synchronization
import Testing
import TestSupport

/// A kiosk account: `nobody`, in the group the service is told is the kiosk group.
private let asKiosk = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

/// The PIN pad (`POST /v1/passcode-check`) through the real `fpbridged`, called as a kiosk
/// member of another uid: answered at once, never waiting for the reader; a name with no
/// passcode answered exactly as a wrong PIN, and locked after as many tries; a kiosk's wrong
/// PINs limited whatever names they are for (issue 25, "The PIN pad").
@Suite(.serialized) struct PinPadTests {
    let directory = TemporaryDirectory()
    var state: String { directory.file("state") }

    init() {
        _ = try? directory.privateDirectory("state")
        chmod(directory.path, 0o755)
    }

    func fake(_ script: String) throws -> String {
        let path = directory.file("script-\(UUID().uuidString.prefix(6)).txt")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        return "fake:" + path
    }

    func kioskService() async throws -> ServiceProcess {
        let service = try await ServiceProcess(arguments: ["--kiosk-group", "nogroup"], stateDirectory: state)
        #expect(try await Fpbridge.run(["--json", "--reader", "fake", "--user", "alice", "passcode", "set", "--passcode-stdin"],
                                       environment: service.clientEnvironment, input: "2468\n").status == 0)
        return service
    }

    func check(_ service: ServiceProcess, _ user: String, _ pin: String, as launcher: [String] = asKiosk) async throws -> APIAnswer {
        try await service.request("POST", "/v1/passcode-check", body: #"{"user":"\#(user)","passcode":"\#(pin)"}"#, launcher: launcher)
    }

    /// The error without the seconds a lockout still has (they tick between two answers).
    func shape(_ answer: APIAnswer) -> String {
        "\(answer.status) " + answer.body.replacingOccurrences(of: #"[0-9]+ seconds"#, with: "N seconds", options: .regularExpression)
            .replacingOccurrences(of: #""retryAfter":[0-9.]+"#, with: #""retryAfter":N"#, options: .regularExpression)
    }

    @Test func aNameWithNoPasscodeIsAnsweredAsAWrongPINAndLocksAlike() async throws {
        let service = try await kioskService()
        var known: [String] = []
        var unknown: [String] = []
        // As the kiosk, within its budget of wrong PINs: alike.
        for _ in 0..<3 {
            known.append(shape(try await check(service, "alice", "1111")))
            unknown.append(shape(try await check(service, "zed", "1111")))
        }
        // As root, which has no budget, on to each name's own lockout: six wrong PINs lock a
        // passcode for 60 s; the 6th answer and the 7th are lockouts.
        for _ in 3..<7 {
            known.append(shape(try await check(service, "alice", "1111", as: [])))
            unknown.append(shape(try await check(service, "zed", "1111", as: [])))
        }
        #expect(known == unknown, "alice: \(known)\nzed: \(unknown)")
        #expect(known[0].hasPrefix("422 ") && known[0].contains("wrong user or PIN") && !known[0].contains("attempts"), "\(known[0])")
        #expect(known[5].contains("passcodeLockout") && known[6].contains("passcodeLockout"), "\(known)")
        // Locked: alice's right PIN is refused too, and nothing was learned of zed.
        let locked = try await check(service, "alice", "2468")
        #expect(locked.status == 409 && locked.errorCode == -2004 || locked.body.contains("passcodeLockout"), "\(locked.body)")
    }

    @Test func theRightPINLogsInAndAnyoneElseIsRefused() async throws {
        let service = try await kioskService()
        let right = try await check(service, "alice", "2468")
        #expect(right.status == 200 && right.json["user"] as? String == "alice", "\(right.body)")
        // Without the kiosk group, alice's PIN pad is not nobody's to use.
        let plain = try await ServiceProcess(stateDirectory: directory.privateDirectory("other"))
        let refused = try await check(plain, "alice", "2468")
        #expect(refused.status == 403 && refused.errorCode == -2013, "\(refused.body)")
        // The passcode is never in the log, even with --verbose requests logged.
        #expect(!service.output.contains("2468"))
    }

    /// Issue 40 §2: past its burst, the pad slows rather than stops. It used to refuse every
    /// PIN, right ones included, for about a minute after eleven wrong ones.
    @Test func aKiosksWrongPINsAreLimitedWhateverNamesTheyAreForAndThePadSlowsRatherThanStops() async throws {
        let service = try await kioskService()
        var answers: [APIAnswer] = []
        // A different name each time: no name reaches its own limit of six.
        for index in 0..<13 {
            answers.append(try await check(service, "nobody-like-\(index)", "0000"))
        }
        let paced = answers.firstIndex { $0.errorCode == -2014 }
        #expect(paced != nil && paced! >= 10, "\(answers.map(\.body))")
        // Its own code (not a user's passcodeLockout), so a kiosk tells the two apart without reading prose.
        // (The budget refills while the PINs are checked, so the tenth wrong PIN may not be the last taken.)
        let rested = answers[(paced ?? 0)...]
        #expect(rested.allSatisfy { $0.status == 429 && $0.errorCode == -2014 }, "\(rested.map(\.body))")
        #expect(answers[0..<10].allSatisfy { $0.body.contains("wrong user or PIN") }, "\(answers.map(\.body))")
        // Alice's right PIN waits too (the budget is the kiosk's, not a name's), but a few seconds, not a minute.
        let alice = try await check(service, "alice", "2468")
        let wait = try #require((alice.json["error"] as? [String: Any])?["retryAfter"] as? Double, "\(alice.body)")
        #expect(alice.errorCode == -2014 && wait >= 1 && wait <= 5, "\(alice.body)")
        // Real time, at most five seconds: fpbridged's pace runs on the boot's clock, which a test
        // cannot move in another process (KioskPinPacingTests moves it in-process).
        try await Task.sleep(for: .seconds(wait))
        let later = try await check(service, "alice", "2468")
        #expect(later.status == 200 && later.json["user"] as? String == "alice", "\(later.body)")
    }

    /// A kiosk run by an administrator (the demo's, in both groups) is paced as any kiosk is:
    /// the pad is the lobby's, whoever runs it (issue 40: there 17 wrong PINs were never limited).
    @Test func aKioskInTheAdminGroupTooIsPacedAsAKiosk() async throws {
        let service = try await ServiceProcess(arguments: ["--kiosk-group", "nogroup", "--admin-group", "nogroup"], stateDirectory: state)
        var answers: [APIAnswer] = []
        for index in 0..<12 {
            answers.append(try await check(service, "nobody-like-\(index)", "0000"))
        }
        #expect(answers.contains { $0.status == 429 && $0.errorCode == -2014 }, "\(answers.map(\.body))")
    }

    /// A kiosk PIN challenge as a login server issues it, for the PIN pad's proof.
    static let origin = "https://bank.example"
    static let challenge = KeyIdentifiers.base64URL(Data(repeating: 5, count: 32))

    func checkWithProof(_ service: ServiceProcess, _ user: String, _ pin: String, purpose: String = "kiosk-pin-login",
                        extra: String = "", as launcher: [String] = asKiosk) async throws -> APIAnswer {
        let proof = #"{"purpose":"\#(purpose)","origin":"\#(Self.origin)","challenge":"\#(Self.challenge)"}"#
        return try await service.request("POST", "/v1/passcode-check",
                                         body: #"{"user":"\#(user)","passcode":"\#(pin)","proof":\#(proof)\#(extra)}"#, launcher: launcher)
    }

    /// `user`'s login key for ``origin``, after a finger (a `biometryCurrentSet` key needs one).
    func loginKey(_ service: ServiceProcess, _ user: String) async throws -> P256.Signing.PublicKey {
        let enrolled = try await Fpbridge.run(["--json", "--reader", try fake(String(repeating: "scan a\n", count: 5)), "--user", user,
                                               "enroll", "--finger", "right-index", "--passcode-stdin"],
                                              environment: service.clientEnvironment, input: "2468\n")
        #expect(enrolled.status == 0, "\(enrolled.stdout)\(enrolled.stderr)")
        let label = KeyIdentifiers.loginKeyLabel(origin: Self.origin, username: user)
        let key = try await service.request("POST", "/v1/keys",
                                            body: #"{"user":"\#(user)","label":"\#(label)","accessControl":"biometryCurrentSet"}"#)
        #expect(key.status == 200, "\(key.body)")
        let pem = try #require((key.json["key"] as? [String: Any])?["publicKeyPem"] as? String)
        return try P256.Signing.PublicKey(pemRepresentation: pem)
    }

    @Test func aRightPINSignsTheKioskPINChallengeAndAWrongOneSignsNothing() async throws {
        let service = try await kioskService()
        let alice = try await loginKey(service, "alice")
        let credential = KeyIdentifiers.credentialId(alice)
        let right = try await checkWithProof(service, "alice", "2468")
        #expect(right.status == 200 && right.json["user"] as? String == "alice", "\(right.body)")
        let proof = try #require(right.json["proof"] as? [String: Any], "\(right.body)")
        #expect(proof["purpose"] as? String == "kiosk-pin-login" && proof["credentialId"] as? String == credential
                && proof["counter"] as? Int == 1 && proof["accessControl"] as? String == "biometryCurrentSet")
        let signature = try #require(Data(base64Encoded: proof["signatureBase64"] as? String ?? ""))
        let pin = AssertionPayload.kioskPinLogin(origin: Self.origin, challenge: Self.challenge, credentialId: credential)
        #expect(SignatureFormat.verify(signature: signature, counter: 1, data: pin.bytes, key: alice))
        let finger = AssertionPayload.kioskLogin(origin: Self.origin, challenge: Self.challenge, credentialId: credential)
        #expect(!SignatureFormat.verify(signature: signature, counter: 1, data: finger.bytes, key: alice), "a PIN proof passed for a finger's")
        #expect(!service.output.contains("2468"))

        // A wrong PIN and an unknown name: the same answer as without a proof, and nothing signed.
        let wrong = try await checkWithProof(service, "alice", "1111")
        let unknown = try await checkWithProof(service, "zed", "1111")
        #expect(shape(wrong) == shape(unknown) && wrong.status == 422 && wrong.json["proof"] == nil, "\(wrong.body)\n\(unknown.body)")
        // A finger's purpose is not the PIN pad's to sign.
        let asFinger = try await checkWithProof(service, "alice", "2468", purpose: "kiosk-login")
        #expect(asFinger.status == 400 || asFinger.status == 422, "\(asFinger.body)")
        #expect(asFinger.json["proof"] == nil && asFinger.body.contains("kiosk-pin-login"), "\(asFinger.body)")
        let again = try await checkWithProof(service, "alice", "2468")
        #expect((again.json["proof"] as? [String: Any])?["counter"] as? Int == 2, "\(again.body)")

        // Without the kiosk right nobody gets a proof, not even for their own PIN.
        let plain = try await ServiceProcess(stateDirectory: directory.privateDirectory("plain"))
        for user in ["alice", "nobody"] {
            let refused = try await checkWithProof(plain, user, "2468")
            #expect(refused.status == 403 && refused.body.contains("kiosk PIN login"), "\(refused.body)")
        }
    }

    @Test func anUnmappedBadgeIsAWrongPINThatSpendsTheKiosksBudgetAndNeverChecksAPasscode() async throws {
        let service = try await kioskService()
        // alice's right PIN, sent as what the kiosk's badge list does not hold: wrong, whatever it is.
        let unmapped = try await service.request("POST", "/v1/passcode-check", body: #"{"user":"alice","passcode":"2468","unmapped":true}"#,
                                                 launcher: asKiosk)
        let wrong = try await check(service, "alice", "1111")
        #expect(shape(unmapped) == shape(wrong) && unmapped.status == 422, "\(unmapped.body)\n\(wrong.body)")
        // Each spends a guess of the kiosk's budget: ten in all, then the pad rests.
        var answers: [APIAnswer] = []
        for index in 0..<11 {
            answers.append(try await service.request("POST", "/v1/passcode-check",
                                                     body: #"{"user":"\#(1000 + index)","passcode":"2468","unmapped":true}"#, launcher: asKiosk))
        }
        #expect(answers.contains { $0.errorCode == -2014 }, "\(answers.map(\.body))")
    }

    @Test func thePINPadNeverWaitsForTheReader() async throws {
        let service = try await kioskService()
        // An identification holding the (fake) reader for 4 s, as a kiosk's armed identify does.
        let enrolled = try await Fpbridge.run(["--json", "--reader", try fake(String(repeating: "scan a\n", count: 5)), "--user",
                                               "alice", "enroll", "--finger", "right-index", "--passcode-stdin"],
                                              environment: service.clientEnvironment, input: "2468\n")
        #expect(enrolled.status == 0, "\(enrolled.stdout)")
        let reader = try fake("wait 4000\nscan a\n")
        let finished = Mutex(false)
        let identify = Task {
            let answer = try await service.request("POST", "/v1/evaluations", body: #"{"operation":"identify","reader":"\#(reader)"}"#)
            finished.withLock { $0 = true }
            return answer
        }
        // Real time: the identify must be armed, its fake reader in its 4 s wait, when the PIN is checked; the test then checks that it still ran, so a PIN checked too early fails it.
        try await Task.sleep(for: .milliseconds(500))
        let pin = try await check(service, "alice", "2468")
        let identifyWasRunning = !finished.withLock { $0 }
        #expect(pin.status == 200, "\(pin.body)")
        // The identification was still running when the PIN was answered; it ends as it would.
        let identified = try await identify.value
        #expect(identifyWasRunning && identified.lines.last?["ok"] as? Bool == true, "\(identified.body)")
    }
}
