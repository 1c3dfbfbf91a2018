import FPPasskeys

/// The passkey authenticator's parsers under the fuzzer. Beyond "never crash", each checks
/// what must hold of any input: a decoded message re-encodes to one that decodes the same, and
/// every report the transport sends is one 64-byte packet.
enum PasskeyFuzzing {
    static func decode(_ bytes: [UInt8]) {
        guard let value = try? CBORDecoder.decode(bytes) else { return }
        let canonical = CBOREncoder.encode(value)
        let again = try? CBORDecoder.decode(canonical)
        precondition(again == value, "a decoded CBOR item did not survive its own encoding")
        precondition(CBOREncoder.encode(value) == canonical, "one value, two encodings")
    }

    /// The input as steps of 65 bytes: a control byte, then one report. The control byte's low
    /// six bits are the time since the previous step in 50 ms units (3.15 s at most, past the
    /// packet timeout); bit 6 answers the pending request first (its payload echoed); bit 7
    /// passes the deadline check on its own. A last step shorter than 65 bytes is a short report.
    static func transport(_ bytes: [UInt8]) {
        var transport = CTAPHIDTransport()
        transport.channelLimit = 4 // so that forgetting channels is reached
        var now = ContinuousClock.Instant.now
        var sent: [[UInt8]] = []
        var step = bytes[...]
        while let control = step.first {
            now = now.advanced(by: .milliseconds(50 * Int(control & 0x3F)))
            if control & 0x40 != 0, let pending = transport.pendingRequest {
                sent += transport.respond(to: pending, command: pending.command, payload: pending.payload)
            }
            if control & 0x80 != 0 {
                sent += transport.expire(at: now).flatMap(reports)
            }
            let report = Array(step.dropFirst().prefix(CTAPHIDPacket.size))
            sent += transport.receive(report, at: now).flatMap(reports)
            if let keepalive = transport.keepalive(.userPresenceNeeded) { sent.append(keepalive) }
            step = step.dropFirst(1 + CTAPHIDPacket.size)
        }
        precondition(sent.allSatisfy { $0.count == CTAPHIDPacket.size }, "a report that is not 64 bytes")
    }

    /// The session every clientPIN input is read against: its agreement key stays, as a
    /// device's does between requests.
    private static let session = PinUvSession()

    /// One CTAP2 message read as the authenticator reads it, up to the finger: what is taken
    /// has a 32-byte client data hash and a site; a key agreement taken gives a secret that
    /// decrypts whatever blocks the message carries, and a MAC that is no token's is refused.
    static func request(_ bytes: [UInt8]) {
        _ = CTAP2Command.waitsForTheUser(bytes)
        guard let command = bytes.first.flatMap(CTAP2Command.init(rawValue:)) else { return }
        let parameters = bytes.dropFirst()
        switch command {
        case .makeCredential:
            guard let request = try? MakeCredentialRequest(parameters) else { return }
            precondition(request.clientDataHash.count == 32 && !request.fields.relyingParty.isEmpty, "a makeCredential taken without its hash or site")
            authorize(request.authorization, request.clientDataHash, request.fields.relyingParty)
        case .getAssertion:
            guard let request = try? GetAssertionRequest(parameters) else { return }
            precondition(request.clientDataHash.count == 32 && !request.relyingParty.isEmpty, "a getAssertion taken without its hash or site")
            authorize(request.authorization, request.clientDataHash, request.relyingParty)
            // Past saltAuth (which random input never passes): the agreement and the decryption.
            if let input = request.hmacSecret, let secret = try? session.sharedSecret(with: input.platformKey, input.version),
               let salts = try? input.decrypted(under: secret) {
                precondition(salts.salts.count == 32 || salts.salts.count == 64, "hmac-secret salts of another length taken")
            }
        case .clientPIN:
            guard let arguments = try? CTAP2Arguments(parameters, of: "clientPIN"),
                  let version = try? CTAP2Authenticator.version(arguments),
                  let platform = try? arguments.map(.int(3), "keyAgreement"),
                  let secret = try? session.sharedSecret(with: platform, version) else { return }
            for key in [5, 6] {
                guard let encrypted = try? arguments.bytes(.int(Int64(key)), "encrypted") else { continue }
                if let plain = try? version.decrypt(secret, encrypted, "encrypted") {
                    precondition(plain.count == encrypted.count - (version == .two ? 16 : 0), "decryption changed the length")
                }
            }
        case .bioEnrollment, .bioEnrollmentPreview:
            // A bio enrollment's MAC against a session that gave no token: refused, whatever it covers.
            guard let arguments = try? CTAP2Arguments(parameters, of: "bioEnrollment"),
                  let version = try? CTAP2Authenticator.version(arguments, key: .int(4)),
                  let mac = try? arguments.bytes(.int(5), "pinUvAuthParam") else { return }
            let refused = (try? PinUvSession().authorizeEnrollment(mac: mac, version, message: Array(parameters))) == nil
            precondition(refused, "a bio enrollment MAC was taken with no token given")
        case .getInfo, .getNextAssertion, .credentialManagement, .credentialManagementPreview, .selection:
            return
        }
    }

    /// A request's token MAC against a session that gave no token: always refused.
    private static func authorize(_ authorization: PinUvAuthorization?, _ hash: [UInt8], _ site: String) {
        guard let authorization, !authorization.isProbe else { return }
        let refused = (try? PinUvSession().authorize(mac: authorization.mac, authorization.version, clientDataHash: hash,
                                                     for: .getAssertion, relyingParty: site)) == nil
        precondition(refused, "a MAC was taken with no token given")
    }

    private static func reports(_ event: CTAPHIDEvent) -> [[UInt8]] {
        if case .send(let reports) = event { return reports }
        return []
    }
}
