import FPAccountAPI
import FPAccountLoad
import Foundation
import Testing
import TestSupport

/// Issue 28: limits that an attacker cannot turn against a victim, and prompt text that
/// cannot show what it does not sign. Against the real server, on both stores.
@Suite struct AbuseLimitsTests {
    /// Behind the reverse proxy of docs/login-server.md every connection comes from the proxy. With the
    /// proxy trusted, its `X-Forwarded-For` names the client: an attacker flooding wrong
    /// passwords through the same proxy exhausts its own limits, never the victim's.
    @Test(arguments: Storage.allCases)
    func aVictimLogsInWhileAnAttackerFloodsThroughTheSameProxy(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--trusted-proxy", "127.0.0.1"])
        let attacker = ["X-Forwarded-For": "198.51.100.66"]
        var statuses: [Int] = []
        // 26 wrong guesses at other accounts and 4 at alice's: all the address may send in a minute.
        for round in 0..<30 {
            let name = round < 26 ? "user\(round)" : "alice"
            statuses.append(try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: name, password: "wrong guess \(round)"),
                                                             headers: attacker).status)
        }
        #expect(statuses.allSatisfy { $0 == 401 }, "\(statuses)")
        let stopped = try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "alice", password: "wrong guess"),
                                                       headers: attacker)
        #expect(stopped.status == 429 && stopped.errorCode == "rateLimited")
        // The victim, through the same proxy.
        let victim = try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "alice", password: Harness.password),
                                                      headers: ["X-Forwarded-For": "203.0.113.7"])
        #expect(victim.status == 200, "\(String(decoding: victim.body, as: UTF8.self))")
        // The audit names the client, not the proxy.
        let addresses = try harness.decode(try await harness.server.request("GET", "/v1/audit", token: harness.session), as: AuditLog.self)
            .entries.filter { $0.event == "password-login" }.compactMap(\.address)
        #expect(addresses.contains("203.0.113.7") && addresses.contains("198.51.100.66"))
    }

    /// Without the option a client cannot name itself: the header is ignored, and an attacker
    /// who writes a new address in each request stays in its own bucket.
    @Test(arguments: Storage.allCases)
    func anUntrustedForwardedForIsIgnored(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--password-logins-per-address", "5"])
        var statuses: [Int] = []
        for round in 0..<5 {
            statuses.append(try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "bob", password: "wrong guess \(round)"),
                                                             headers: ["X-Forwarded-For": "192.0.2.\(round)"]).status)
        }
        #expect(statuses.last == 429, "\(statuses)")
    }

    /// A stranger who knows alice's user name and credential id (neither secret) asks for
    /// challenges from several addresses; alice, from her own, still gets hers.
    @Test(arguments: Storage.allCases)
    func aStrangersChallengesDoNotStopTheUsersLogin(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--trusted-proxy", "127.0.0.1"])
        let request = ChallengeRequest(username: "alice", credentialId: harness.device.credentialId)
        var last = 0
        for address in ["203.0.113.1", "203.0.113.2", "203.0.113.3"] {
            for _ in 0..<31 {
                last = try await harness.server.request("POST", "/v1/challenges", json: request, headers: ["X-Forwarded-For": address]).status
            }
            #expect(last == 429, "the 31st from \(address) is over its own limit")
        }
        let own = try await harness.server.request("POST", "/v1/challenges", json: request, headers: ["X-Forwarded-For": "198.51.100.7"])
        #expect(own.status == 201, "\(own.status) \(String(decoding: own.body, as: UTF8.self))")
    }

    /// The probe's attack (issue 36): a stranger with 21 addresses, the /64s of one IPv6 /59,
    /// asks for alice's challenges as fast as each address may (600 and more, where the old
    /// account-wide cap was 600 a minute). Each address spends its own bucket and no more;
    /// alice, from a fresh address, logs in and confirms a payment at once.
    @Test(arguments: Storage.allCases)
    func aStrangerWithManyAddressesSpendsNothingTheOwnerNeeds(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--trusted-proxy", "127.0.0.1"])
        let request = ChallengeRequest(username: "alice", credentialId: harness.device.credentialId)
        var granted = 0
        var refused = 0
        for network in 0..<21 {
            let address = ["X-Forwarded-For": "2001:db8:0:\(String(network, radix: 16))::\(network + 1)"]
            for _ in 0..<31 {
                let status = try await harness.server.request("POST", "/v1/challenges", json: request, headers: address).status
                if status == 201 { granted += 1 } else if status == 429 { refused += 1 }
            }
        }
        // Exactly each address's own budget was granted: 30 a credential from one address.
        #expect(granted == 21 * 30 && refused == 21, "granted \(granted), refused \(refused)")
        let owner = ["X-Forwarded-For": "198.51.100.7"]
        let challenge = try await harness.server.request("POST", "/v1/challenges", json: request, headers: owner)
        #expect(challenge.status == 201, "\(challenge.status) \(String(decoding: challenge.body, as: UTF8.self))")
        let signed = harness.device.login(try harness.decode(challenge, as: Challenge.self), origin: harness.server.origin, counter: 1)
        #expect(try await harness.server.request("POST", "/v1/logins", json: signed, headers: owner).status == 200)
        let payment = try await harness.server.request("POST", "/v1/payments", json: PaymentRequest(
            amount: "12.50", currency: "EUR", payee: "Coffee Shop", credentialId: harness.device.credentialId), token: harness.session, headers: owner)
        #expect(payment.status == 201, "\(payment.status) \(String(decoding: payment.body, as: UTF8.self))")
        let pending = try harness.decode(payment, as: Payment.self)
        let confirmed = try #require(harness.device.pay(pending, origin: harness.server.origin, counter: 2))
        #expect(try await harness.server.request("POST", "/v1/payments/\(pending.paymentId)/confirm", json: confirmed, headers: owner).status == 200)
    }

    /// A removed limit is refused at start with why, not ignored.
    @Test func theAccountWideChallengeCapIsGone() throws {
        let result = Spawn.shell([LoginServerProcess.executable, "serve", "--database", ":memory:", "--challenges-per-account", "600"])
        #expect(result.status != 0 && result.output.contains("--challenges-per-account was removed"), "\(result.output)")
    }

    /// One IPv6 client holds a /64: per-address limits count it as one.
    @Test func anIPv6ClientsSlash64IsOneBucket() async throws {
        let harness = try await Harness.start(.sqlite, arguments: ["--trusted-proxy", "127.0.0.1", "--password-logins-per-address", "3"])
        var statuses: [Int] = []
        for host in 1...6 {
            statuses.append(try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "bob\(host)", password: "wrong password"),
                                                             headers: ["X-Forwarded-For": "2001:db8:1:2::\(host)"]).status)
        }
        #expect(statuses == [401, 401, 401, 429, 429, 429], "\(statuses)")
        let elsewhere = try await harness.server.request("POST", "/v1/sessions", json: PasswordRequest(username: "bob", password: "wrong password"),
                                                         headers: ["X-Forwarded-For": "2001:db8:1:3::1"])
        #expect(elsewhere.status == 401, "another /64 is another client")
    }

    /// Probing pairing codes would tell a stranger that a device waits, and its name: wrong
    /// codes are limited per address like forged signatures.
    @Test(arguments: Storage.allCases)
    func wrongPairingCodesAreLimitedPerAddress(storage: Storage) async throws {
        let harness = try await Harness.start(storage, arguments: ["--bad-signatures-per-address", "3"])
        var statuses: [Int] = []
        for code in 0..<5 {
            statuses.append(try await harness.server.request("POST", "/v1/approvals/challenges", json: ApprovalChallengeRequest(
                username: "alice", credentialId: harness.device.credentialId, pairingCode: String(format: "%06d", code))).status)
        }
        #expect(statuses == [404, 404, 404, 429, 429], "\(statuses)")
    }

    static let confusable: [(String, String)] = [
        ("right-to-left override", "Coffee Shop\u{202E}dtL yrollaM"),
        ("left-to-right isolate", "\u{2066}Coffee Shop\u{2069}"),
        ("zero-width space", "Coffee\u{200B} Shop"),
        ("zero-width joiner", "Coffee\u{200D}Shop"),
        ("byte-order mark", "\u{FEFF}Coffee Shop"),
        ("soft hyphen", "Cof\u{00AD}fee Shop"),
        ("line separator", "Coffee Shop\u{2028}Mallory Ltd"),
        ("paragraph separator", "Coffee Shop\u{2029}"),
        ("no-break space", "Coffee\u{00A0}Shop"),
        ("ideographic space", "Coffee\u{3000}Shop"),
        ("variation selector", "Coffee Shop\u{FE0F}"),
        ("private use", "Coffee Shop \u{E000}"),
        ("unassigned", "Coffee Shop \u{0378}"),
        ("tag character", "Coffee Shop\u{E0041}"),
        ("leading space", " Coffee Shop"),
        ("double space", "Coffee  Shop"),
        ("too long", String(repeating: "é", count: 141)),
        ("Cyrillic capital Es in a Latin word", "\u{0421}offee Shop"),
        ("Cyrillic o in a Latin word", "Coffee Sh\u{043E}p"),
        ("Cyrillic palochka for l", "PayPa\u{04CF}"),
        ("Greek omicron in a Latin word", "G\u{03BF}\u{03BF}gle"),
    ] + PromptTextAttackTests.misleading

    @Test(arguments: Storage.allCases)
    func aPayeeOrDeviceNameThatAPromptCannotShowAsSignedIsRefused(storage: Storage) async throws {
        let harness = try await Harness.start(storage)
        for (what, payee) in Self.confusable {
            let answer = try await harness.server.request("POST", "/v1/payments", json: PaymentRequest(
                amount: "12.50", currency: "EUR", payee: payee, credentialId: harness.device.credentialId), token: harness.session)
            #expect(answer.status == 400 && answer.errorCode == "invalidRequest", "\(what): \(answer.status)")
            let named = harness.device.newKey()
            let bound = try await harness.server.request("POST", "/v1/devices", json: named.bindRequest(name: payee), token: harness.session)
            #expect(bound.status == 400, "device name with \(what): \(bound.status)")
        }
        // Decomposed text is stored, shown and signed in NFC: one sequence of bytes for what the user reads.
        let payment = try await harness.payment(payee: "Cafe\u{301} Rene\u{301}")
        #expect(Array(payment.payee.utf8) == Array("Caf\u{E9} Ren\u{E9}".utf8))
        let confirmed = try await harness.server.request("POST", "/v1/payments/\(payment.paymentId)/confirm",
                                                         json: try #require(harness.device.pay(payment, origin: harness.server.origin, counter: 1)))
        #expect(confirmed.status == 200)
        // Scripts other than Latin are fine.
        #expect(try await harness.payment(payee: "Кофейня «Рассвет»").payee == "Кофейня «Рассвет»")
    }
}

/// The rule itself, as the client applies it before it signs.
@Suite struct PromptTextTests {
    @Test func theRuleRefusesWhatCannotBeShownAndNormalises() {
        for (what, text) in AbuseLimitsTests.confusable {
            #expect((try? PromptText.checked(text, field: "payee", length: AccountLimits.payeeLength).get()) == nil, "\(what)")
            #expect(!PromptText.isShowable(text, length: AccountLimits.payeeLength), "\(what)")
        }
        #expect((try? PromptText.checked("Cafe\u{301}", field: "payee", length: 1...140).get()) == "Caf\u{E9}")
        // Not yet NFC: the client will not sign it as it stands.
        #expect(!PromptText.isShowable("Cafe\u{301}", length: 1...140))
        #expect(PromptText.isShowable("Coffee Shop", length: 1...140))
        guard case .failure(let refusal) = PromptText.checked("a\u{202E}b", field: "payee", length: 1...140) else {
            Issue.record("not refused")
            return
        }
        #expect(refusal.description.contains("'payee'") && refusal.description.contains("U+202E"))
    }
}
