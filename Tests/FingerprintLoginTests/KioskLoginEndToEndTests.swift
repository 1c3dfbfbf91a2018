import FPAccountAPI
import FingerprintLogin
import Foundation
import Testing
import TestSupport

/// The kiosk login end to end (issue 25, "With the login server"): a real `fpbridged` on
/// libfprint's `virtual_device`, alice enrolled there and bound to a real `fpbridge-server`
/// with `fpbridge account bind`; the kiosk's client asks for a challenge, one touch
/// identifies alice and signs it (`identify-and-prove`), and the server's session is hers.
@Suite struct KioskLoginEndToEndTests {
    static let password = "correct horse battery\n"

    /// alice with passcode 2468 and her right index enrolled on a real fpbridged, registered at
    /// a real fpbridge-server and bound to it as she would do it herself.
    struct Bound {
        let service: ServiceProcess
        let server: LoginServerProcess
        let reader: String
        let environment: [String: String]
        var kiosk: KioskLogin { KioskLogin(server: URL(string: server.address)!, service: service.socket) }

        /// `fpbridge --json --user alice ARGUMENTS` against this fpbridged.
        func fpbridge(_ arguments: [String], input: String = "") async throws -> CommandResult {
            try await Fpbridge.run(["--json", "--user", "alice"] + arguments, environment: environment, input: input)
        }

        /// Five touches of alice's finger while `enrollment` runs.
        func enroll(_ enrollment: [String], input: String) async throws -> CommandResult {
            async let enrolled = fpbridge(enrollment, input: input)
            for _ in 0..<5 { _ = try await VirtualReaderDriver.send(reader, ["SCAN alice-1"]) }
            return try await enrolled
        }
    }

    /// fpbridged on virtual_device and a login server; alice has passcode 2468 and an account.
    static func rig() async throws -> Bound {
        let reader = TemporaryDirectory.socketPath()
        let readerEnvironment = ["FP_VIRTUAL_DEVICE": reader, "FP_DRIVERS_WHITELIST": "virtual_device"]
        // The reader stays open between operations, so that a finger played at once is not
        // dropped while the service closes an idle reader.
        let service = try await ServiceProcess(environment: readerEnvironment, arguments: ["--reader-idle-seconds", "60"])
        let server = try await LoginServerProcess()
        let rig = Bound(service: service, server: server, reader: reader,
                        environment: service.clientEnvironment.merging(readerEnvironment) { $1 })
        // alice as she would set herself up (root acting for her here): passcode, account.
        #expect(try await rig.fpbridge(["passcode", "set", "--passcode-stdin"], input: "2468\n").status == 0)
        let account = ["--server", server.address, "--account", "alice"]
        #expect(try await rig.fpbridge(["account", "register", "--password-stdin"] + account, input: Self.password).status == 0)
        return rig
    }

    /// ``rig()`` with alice's right index enrolled and this device bound, in two commands.
    static func aliceBound() async throws -> Bound {
        let rig = try await rig()
        #expect(try await rig.enroll(["enroll", "--finger", "right-index", "--passcode-stdin"], input: "2468\n").status == 0)
        let account = ["--server", rig.server.address, "--account", "alice"]
        let bound = try await rig.fpbridge(["account", "bind", "--password-stdin", "--device-name", "Kiosk 1"] + account, input: Self.password)
        #expect(bound.status == 0, "bind: \(bound.stdout)\(bound.stderr)")
        return rig
    }

    /// One kiosk touch of alice's finger: her session, or the device's refusal.
    static func touch(_ rig: Bound) async throws -> Result<SessionToken, FingerprintLoginError> {
        let kiosk = rig.kiosk
        let challenge = try await kiosk.challenge()
        async let proved = kiosk.identifyAndProve(challenge, timeoutSeconds: 20)
        _ = try await VirtualReaderDriver.send(rig.reader, ["SCAN alice-1"])
        do { return .success(try await kiosk.logIn(try await proved.request)) } catch let error as FingerprintLoginError { return .failure(error) }
    }

    /// Enrolling for a kiosk with a login server binds in the same command (issue 40), and a
    /// finger added later needs exactly that: without `--bind`, alice's key ended with it.
    @Test func anEnrollmentWithBindLeavesAliceWelcomedAtTheKioskAndAFingerAddedWithoutItEndsHerBinding() async throws {
        let rig = try await Self.rig()
        let input = "2468\n" + Self.password
        let first = try await rig.enroll(["enroll", "--finger", "right-index", "--passcode-stdin", "--bind", rig.server.address,
                                          "--password-stdin"], input: input)
        #expect(first.status == 0 && first.stdout.contains("\"device\""), "\(first.stdout)\(first.stderr)")
        #expect(first.stderr.contains("Enrolled alice's right-index"))
        #expect(try await Self.touch(rig).get().username == "alice")

        // Another finger, bound again in the same command: the kiosk still welcomes her.
        let second = try await rig.enroll(["enroll", "--finger", "left-index", "--passcode-stdin", "--bind", rig.server.address,
                                           "--password-stdin"], input: input)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(try await Self.touch(rig).get().username == "alice")

        // A third without --bind: her key answers to the fingers of its making, so no welcome.
        #expect(try await rig.enroll(["enroll", "--finger", "right-thumb", "--passcode-stdin"], input: "2468\n").status == 0)
        guard case .failure(.device(let error)) = try await Self.touch(rig) else { Issue.record("a key outlived a new finger"); return }
        #expect(error.code == .keyInvalidated)

        // --bind's other options alone, or a --bind that is no server, are refused before any scan.
        let alone = try await rig.fpbridge(["enroll", "--finger", "left-thumb", "--binding-code"])
        #expect(alone.status != 0 && alone.stderr.contains("go with --bind URL"), "\(alone.stderr)")
        let notURL = try await rig.fpbridge(["enroll", "--finger", "left-thumb", "--bind", "bank.example"])
        #expect(notURL.status != 0 && notURL.stderr.contains("http(s)://HOST"), "\(notURL.stderr)")
    }

    @Test func aTouchAtTheKioskLogsAliceInAtTheServer() async throws {
        let bound = try await Self.aliceBound()
        let (server, reader) = (bound.server, bound.reader)

        // The kiosk: a challenge for the server's origin, one touch, a session.
        let kiosk = bound.kiosk
        let challenge = try await kiosk.challenge()
        #expect(challenge.purpose == "kiosk-login" && challenge.origin == server.origin)
        async let proved = kiosk.identifyAndProve(challenge, reason: "Log in", timeoutSeconds: 20)
        _ = try await VirtualReaderDriver.send(reader, ["SCAN alice-1"])
        let proof = try await proved
        #expect(proof.user == "alice" && proof.finger == .rightIndex && proof.request.counter == 1)
        let session = try await kiosk.logIn(proof.request)
        #expect(session.kind == "kiosk" && session.username == "alice")
        let me = try await server.request("GET", "/v1/me", token: session.token)
        #expect(me.status == 200 && me.json["username"] as? String == "alice" && me.json["kind"] as? String == "kiosk", "\(me.body)")
        // The same proof once more: spent.
        var replay: FingerprintLoginError?
        do { _ = try await kiosk.logIn(proof.request) } catch { replay = error }
        guard case .server(let refusal)? = replay else { Issue.record("a replay was accepted: \(String(describing: replay))"); return }
        #expect(refusal.code == .challengeInvalid)

        // A stranger's finger: identification fails, nothing is signed, no session.
        let next = try await kiosk.challenge()
        async let stranger = kiosk.identifyAndProve(next, timeoutSeconds: 20)
        for _ in 0..<3 { _ = try await VirtualReaderDriver.send(reader, ["SCAN mallory-1"]) }
        var failure: FingerprintLoginError?
        do { _ = try await stranger } catch { failure = error as? FingerprintLoginError }
        guard case .device(let error)? = failure else { Issue.record("a stranger got a proof: \(String(describing: failure))"); return }
        #expect(error.code == .authenticationFailed)

        // The whole flow in one call, the next touch: the counter went up by one.
        async let again = kiosk.identifyAndProve(try await kiosk.challenge(), timeoutSeconds: 20)
        _ = try await VirtualReaderDriver.send(reader, ["SCAN alice-1"])
        let second = try await again
        #expect(second.request.counter == 2)
        #expect(try await kiosk.logIn(second.request).username == "alice")
    }

    /// The PIN beside the finger (issue 40): the same kind of session, `kiosk-pin`, only after
    /// fpbridged found the PIN right, and a proof that opens no other door.
    @Test func aPINAtTheKioskLogsAliceInAtTheServerAndNothingElseDoes() async throws {
        let bound = try await Self.aliceBound()
        let kiosk = bound.kiosk

        let result = try await kiosk.pinLogIn(user: "alice", pin: "2468")
        #expect(result.user == "alice" && result.finger == nil)
        #expect(result.session.kind == "kiosk-pin" && result.session.username == "alice")
        let me = try await bound.server.request("GET", "/v1/me", token: result.session.token)
        #expect(me.status == 200 && me.json["kind"] as? String == "kiosk-pin", "\(me.body)")

        // A wrong PIN: fpbridged signs nothing, so there is nothing to send.
        var wrong: FingerprintLoginError?
        do { _ = try await kiosk.checkPINAndProve(user: "alice", pin: "1357", try await kiosk.pinChallenge()) } catch { wrong = error }
        guard case .device(let refusal)? = wrong else { Issue.record("a wrong PIN was proved: \(String(describing: wrong))"); return }
        #expect(refusal.code == .authenticationFailed)

        // A PIN's proof is not a finger's: the finger's route refuses it, and the PIN pad will
        // not sign a finger's challenge.
        let proof = try await kiosk.checkPINAndProve(user: "alice", pin: "2468", try await kiosk.pinChallenge())
        #expect(proof.request.counter == 2)
        var asFinger: FingerprintLoginError?
        do { _ = try await kiosk.logIn(proof.request) } catch { asFinger = error }
        guard case .server? = asFinger else { Issue.record("a PIN's proof opened a finger's session: \(String(describing: asFinger))"); return }
        var fingerChallenge: FingerprintLoginError?
        do { _ = try await kiosk.checkPINAndProve(user: "alice", pin: "2468", try await kiosk.challenge()) } catch { fingerChallenge = error }
        guard case .device(let invalid)? = fingerChallenge else {
            Issue.record("the PIN pad signed a finger's challenge: \(String(describing: fingerChallenge))"); return
        }
        #expect(invalid.code == .invalidInput)

        // bob's right PIN, but no key for this server: a clear refusal, no session.
        let bob = try await Fpbridge.run(["--json", "--user", "bob", "passcode", "set", "--passcode-stdin"],
                                         environment: bound.environment, input: "1357\n")
        #expect(bob.status == 0, "\(bob.stderr)")
        var unbound: FingerprintLoginError?
        do { _ = try await kiosk.pinLogIn(user: "bob", pin: "1357") } catch { unbound = error }
        guard case .device(let missing)? = unbound else { Issue.record("bob got a session: \(String(describing: unbound))"); return }
        #expect(missing.code == .notFound)
    }
}
