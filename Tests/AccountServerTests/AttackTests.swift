import FPAccountAPI
import FPAccountLoad
import Foundation
import Testing
import TestSupport

/// Attacks on the issue-28 rules that got through, against the real server on both stores.
@Suite struct AttackTests {
    /// Whoever has only the password unbinds alice's device (a password session may) and so
    /// makes the account look as if it never had one: the next device would be a "first device".
    @Test(arguments: Storage.allCases)
    func unbindingEveryDeviceDoesNotLetThePasswordBindAFirstOneAgain(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let session = try await Harness.passwordSession(harness.server)
        let unbound = try await harness.server.request("DELETE", "/v1/devices/\(harness.device.deviceId)", token: session)
        #expect(unbound.status == 200)
        let forger = SoftwareDevice()
        let bound = try await harness.server.request("POST", "/v1/devices", json: forger.bindRequest(name: "alice's phone"), token: session)
        #expect(bound.status == 403 && bound.errorCode == "deviceNotVouched", "\(String(decoding: bound.body, as: UTF8.self))")
        #expect(try await harness.challenge(forger).status == 401)
        // Nor may it wait for an approval nobody can give; a binding code still binds.
        let pending = try await harness.server.request("POST", "/v1/devices", json: forger.bindRequest(requestApproval: true), token: session)
        #expect(pending.status == 403 && pending.errorCode == "deviceNotVouched")
        let code = try DeviceVouchingTests.serverCommand(["device", "code", "--database", harness.database, "--user", "alice"])
        #expect(try await harness.server.request("POST", "/v1/devices", json: forger.bindRequest(bindingCode: code), token: session).status == 201)
    }

    /// Two devices asking at once to be an account's first: the password binds exactly one.
    @Test(arguments: Storage.allCases)
    func concurrentFirstDeviceBindingsBindOnlyOne(storage: Storage) async throws {
        let directory = TemporaryDirectory()
        let server = try await LoginServerProcess(database: try storage.newDatabase(in: directory))
        _ = try await server.request("POST", "/v1/accounts", json: PasswordRequest(username: "alice", password: Harness.password))
        let session = try await Harness.passwordSession(server)
        for round in 0..<3 {
            let devices = (0..<6).map { _ in SoftwareDevice() }
            let answers = try await withThrowingTaskGroup(of: LoginServerProcess.Answer.self) { group in
                for device in devices {
                    group.addTask { try await server.request("POST", "/v1/devices", json: device.bindRequest(), token: session) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let bound = answers.filter { $0.status == 201 }.count
            #expect(bound == (round == 0 ? 1 : 0), "round \(round): \(answers.map { "\($0.status) \($0.errorCode ?? "")" })")
        }
    }
}

/// What passed ``PromptText`` and reads as something else on the prompt (the server's refusal:
/// ``AbuseLimitsTests/confusable``).
@Suite struct PromptTextAttackTests {
    static let misleading: [(String, String)] = [
        // Looks like "Coffee Shop" (a blank glyph where the space is): another payee.
        ("Braille blank", "Coffee\u{2800}Shop"),
        // One character whose marks paint over the amount in the line above and below it.
        ("stacked marks", "Coffee Shop C" + String(repeating: "\u{0336}\u{0489}", count: 40)),
    ]

    @Test func misleadingTextIsRefusedAndRealScriptsPass() {
        for (what, text) in Self.misleading {
            #expect((try? PromptText.checked(text, field: "payee", length: AccountLimits.payeeLength).get()) == nil, "\(what)")
        }
        for text in ["שָׁלוֹם", "Cafe\u{301}", "ພາສາລາວ", "བསྒྲུབས", "Tiếng Việt", "हिन्दी"] {
            #expect((try? PromptText.checked(text, field: "payee", length: AccountLimits.payeeLength).get()) != nil, "\(text)")
        }
    }
}

/// The pending-binding limit (three open per account) and what the audit log says of it.
@Suite struct PendingLimitAttackTests {
    @Test(arguments: Storage.allCases)
    func concurrentRequestsLeaveAtMostThreeWaitingAndTheLogNamesOnlyThose(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let answers = try await withThrowingTaskGroup(of: LoginServerProcess.Answer.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await harness.server.request("POST", "/v1/devices", json: SoftwareDevice().bindRequest(requestApproval: true),
                                                     token: harness.session)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.filter { $0.status == 202 }.count == 3, "\(answers.map { "\($0.status) \($0.errorCode ?? "")" })")
        #expect(answers.filter { $0.status == 429 }.count == 5)
        // A refused request is not logged as waiting (with a pairing code nobody can use).
        #expect(try await harness.audit().filter { $0.event == "bind" && $0.outcome == "approval-requested" }.count == 3)
    }
}

/// A new device asks for approval, is bound meanwhile by an operator's code, and the old one
/// approves it anyway: the approval must not undo the binding it came too late for.
@Suite struct LateApprovalAttackTests {
    @Test(arguments: Storage.allCases)
    func anApprovalOfAKeyBoundMeanwhileLeavesThatKeyActive(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        let laptop = SoftwareDevice()
        let pending = try harness.decode(try await harness.server.request("POST", "/v1/devices", json: laptop.bindRequest(name: "laptop", requestApproval: true),
                                                                          token: harness.session), as: PendingBinding.self)
        let asked = try await harness.server.request("POST", "/v1/approvals/challenges", json: ApprovalChallengeRequest(
            username: "alice", credentialId: harness.device.credentialId, pairingCode: pending.pairingCode))
        #expect(asked.status == 201, "\(String(decoding: asked.body, as: UTF8.self))")
        let approval = try harness.decode(asked, as: ApprovalChallenge.self)
        let code = try DeviceVouchingTests.serverCommand(["device", "code", "--database", harness.database, "--user", "alice"])
        let bound = try await harness.server.request("POST", "/v1/devices", json: laptop.bindRequest(name: "laptop", bindingCode: code), token: harness.session)
        #expect(bound.status == 201)
        let late = try await harness.server.request("POST", "/v1/approvals", json: harness.device.approve(approval, origin: harness.server.origin, counter: 1))
        #expect(late.status != 201)
        let challenge = try await harness.challenge(laptop)
        #expect(challenge.status == 201, "\(String(decoding: challenge.body, as: UTF8.self))")
    }
}
