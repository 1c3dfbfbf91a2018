import FPAuthentication
import FPStore
import FoundationEssentials

/// The CTAP2 authenticator of one user (CTAP 2.1 §6): getInfo, makeCredential and
/// getAssertion over that user's passkeys, each carried out only after a fingerprint match
/// through the engine (the same counter and lockout as every other door). Requests come whole
/// from ``CTAPHIDTransport``; the answer is the status byte and CBOR it sends back.
///
/// Where CTAP leaves a choice, or this authenticator is stricter (docs/passkeys.md lists them):
/// every makeCredential and getAssertion needs a match whatever `uv` says, so the answers carry
/// UP and UV; `up: false` is refused rather than signed silently; a request with no credential
/// to use still asks for the finger before it says so, so a site learns nothing without the
/// user; several discoverable credentials of one site all sign under the one match, for the
/// platform's account chooser (getNextAssertion gives the rest); a PIN/UV
/// auth token proves who asked, and the finger is still asked for presence, except by a
/// token's first use after the match it was got with (``PinUvSession``).
package struct CTAP2Authenticator: Sendable {
    /// This authenticator's AAGUID (a model's identifier in WebAuthn): fixed, random, the same
    /// on every machine, so that it names the software and nothing of the machine.
    package static let aaguid: [UInt8] = [0x6f, 0x3b, 0x1c, 0x52, 0x9e, 0x47, 0x4d, 0x0a,
                                          0xb5, 0x62, 0x0d, 0x8e, 0x3a, 0x71, 0xc9, 0x24]
    /// The longest CBOR message taken and sent (CTAPHID's own limit).
    package static let maximumMessageSize = 7609

    let passkeys: PasskeyVault
    /// What the device keeps across requests.
    let device: CTAP2DeviceState
    /// The PIN/UV state since the device's power-up.
    var pin: PinUvSession { device.pin }
    /// The bio enrollment in progress on the device.
    var enrollments: BioEnrollmentSession { device.enrollments }

    /// An authenticator over `passkeys`, one user's, with what its device kept so far.
    package init(passkeys: PasskeyVault, device: CTAP2DeviceState) {
        self.passkeys = passkeys
        self.device = device
    }

    /// The answer to one CBOR message (the command byte, then its parameters). Never throws:
    /// every fault is an answer with the status CTAP gives it.
    package func answer(_ message: [UInt8]) async -> CTAP2Answer {
        do throws(CTAP2Error) {
            guard let byte = message.first, let command = CTAP2Command(rawValue: byte) else {
                throw CTAP2Error(.invalidCommand, "command \(message.first.map { String($0) } ?? "none") is not offered")
            }
            let parameters = message.dropFirst()
            // What getNextAssertion would give is for it alone (CTAP 2.1 §6.3).
            if command != .getNextAssertion { device.assertions.forget() }
            switch command {
            case .getInfo: return .ok(await info())
            case .makeCredential: return .ok(try await makeCredential(try MakeCredentialRequest(parameters)))
            case .getAssertion: return .ok(try await getAssertion(try GetAssertionRequest(parameters)))
            case .clientPIN: return .ok(try await clientPIN(parameters))
            case .credentialManagement, .credentialManagementPreview: return .ok(try await credentialManagement(parameters))
            case .bioEnrollment, .bioEnrollmentPreview: return .ok(try await bioEnrollment(parameters))
            case .selection:
                try await selection()
                return .ok(nil)
            case .getNextAssertion: return .ok(try device.assertions.next())
            }
        } catch {
            return CTAP2Answer(error)
        }
    }

    /// authenticatorGetInfo (§6.4). `uv` is true while the user can be verified by a finger
    /// (a passcode and a print; a lockout is still verification configured, answered
    /// UV_BLOCKED when tried), false while not.
    func info() async -> CBORValue {
        let verification: Bool = switch await passkeys.verificationProblem()?.code {
        case nil, .biometryLockout?, .passcodeLockout?: true
        default: false
        }
        // clientPin: whether the PIN (the passcode) is set; a record that cannot be read says
        // not, and every PIN request then fails on it with its reason.
        let pinSet: Bool
        do { pinSet = try passkeys.verificationState().passcodeSet } catch { pinSet = false }
        var options: [CBORValue: CBORValue] = [
            .text("rk"): .bool(true), .text("up"): .bool(true), .text("uv"): .bool(verification), .text("plat"): .bool(false),
            .text("clientPin"): .bool(pinSet), .text("pinUvAuthToken"): .bool(true), .text("credMgmt"): .bool(true),
        ]
        // bioEnroll: offered with a reader at hand, true once the user has a finger on it.
        do {
            if let fingers = try await passkeys.fingers() { options[.text("bioEnroll")] = .bool(!fingers.prints.isEmpty) }
        } catch {
            options[.text("bioEnroll")] = .bool(false)  // shown as none; enumerating says why
        }
        return .map([
            .int(1): .array([.text("FIDO_2_0")]),
            .int(2): .array([.text(MakeCredentialRequest.credProtect), .text(HMACSecretRequest.name)]),
            .int(3): .bytes(Self.aaguid),
            .int(4): .map(options),
            .int(5): .int(Int64(Self.maximumMessageSize)),
            .int(6): .array(PinUvAuthProtocol.offered.map { .int($0.rawValue) }),
            .int(0x0D): .int(Int64(passkeys.minimumPINLength)),
            .int(7): .int(Int64(CredentialList.maximumCount)),
            .int(8): .int(Int64(PasskeyVault.credentialIDLength)),
            .int(9): .array([.text("usb")]),
            .int(10): .array([.map([.text("alg"): .int(MakeCredentialRequest.es256), .text("type"): .text("public-key")])]),
            // uvModality: fingerprint (FIDO Registry, USER_VERIFY_FINGERPRINT_INTERNAL).
            .int(0x12): .int(2),
        ])
    }

    /// authenticatorSelection (CTAP 2.1 §6.9): the platform asks which of several security keys
    /// the user means, and a touch answers. A touch of this key is a match through the engine,
    /// counted as at every door: a wrong finger is no touch of the user's.
    func selection() async throws(CTAP2Error) {
        _ = try await translating { try await passkeys.verifyUser(reason: "choose this security key", prompt: NoPasscodePrompt()) }
    }

    func makeCredential(_ request: MakeCredentialRequest) async throws(CTAP2Error) -> CBORValue {
        let relyingParty = request.fields.relyingParty
        let reason = "make a passkey for \(relyingParty)"
        let verified = try await authorize(request.authorization, request.clientDataHash, .makeCredential, relyingParty, reason)
        return try await translating {
            let existing = try passkeys.credentials(relyingParty: relyingParty)
            if existing.contains(where: { request.excluded.contains($0.id) }) {
                // The finger first, so that a site cannot learn without the user which accounts are here.
                try await passkeys.verifyUser(reason: reason, prompt: NoPasscodePrompt(), standingOn: verified)
                throw CTAP2Error(.credentialExcluded, "the user already has an excluded credential for \(relyingParty)")
            }
            var data: [UInt8] = []
            let made = try await passkeys.create(request.fields, reason: reason, prompt: NoPasscodePrompt(),
                                                 verified: verified) { credential, counter throws(AuthError) in
                do {
                    data = try AuthenticatorData.registration(relyingParty: relyingParty, counter: counter, aaguid: Self.aaguid,
                                                              credentialID: credential.id, publicKey: credential.publicKey,
                                                              extensions: request.extensionOutputs)
                } catch {
                    throw AuthError(.stateDamaged, "\(error)", cause: .damagedState)
                }
                return Data(data + request.clientDataHash)
            }
            guard !data.isEmpty else { throw CTAP2Error(.other, "the new passkey's authenticator data was never made") }
            // Self attestation ("packed" with no certificate, WebAuthn §8.2): the credential's own
            // key signs its authenticator data, proving only that the key is the one that signs.
            // The TPM identity could vouch for the machine, not for the person or the software;
            // it is not offered until it says only what it proves. ("none" is not enough:
            // libfido2's fido2-cred cannot even print a credential without a signature.)
            return .map([.int(1): .text("packed"), .int(2): .bytes(data),
                         .int(3): .map([.text("alg"): .int(MakeCredentialRequest.es256), .text("sig"): .bytes([UInt8](made.attestation.signature))])])
        }
    }

    func getAssertion(_ request: GetAssertionRequest) async throws(CTAP2Error) -> CBORValue {
        let relyingParty = request.relyingParty
        let reason = "sign in to \(relyingParty)"
        // hmac-secret's salts, checked before the token and the finger: a malformed one never
        // costs a touch, nor the match a token carries.
        let salts = try request.hmacSecret?.salts(pin)
        let verified = try await authorize(request.authorization, request.clientDataHash, .getAssertion, relyingParty, reason)
        return try await translating {
            let usable = try passkeys.credentials(relyingParty: relyingParty).filter {
                request.allowed.isEmpty ? $0.fields.discoverable : request.allowed.contains($0.id)
            }
            guard !usable.isEmpty else {
                try await passkeys.verifyUser(reason: reason, prompt: NoPasscodePrompt(), standingOn: verified)
                throw CTAP2Error(.noCredentials, "the user has no usable passkey here for \(relyingParty)")
            }
            // With no credential named, every account of the site signs the challenge under the
            // one match, most recent first, so that the platform can show its account chooser
            // (the rest through getNextAssertion); with some named, the most recent of them.
            let chosen = request.allowed.isEmpty ? usable : [usable[0]]
            var data = [[UInt8]](repeating: [], count: chosen.count)
            let signed = try await passkeys.sign(ids: chosen.map(\.id), relyingParty: relyingParty, reason: reason,
                                                 prompt: NoPasscodePrompt(), verified: verified) { index, counter, secret throws(AuthError) in
                // The outputs go inside the signed data; a credential made without hmac-secret gives none.
                var extensions: [CBORValue: CBORValue] = [:]
                if let salts, let secret {
                    do throws(CTAP2Error) { extensions[.text(HMACSecretRequest.name)] = try salts.output(secret) } catch {
                        throw AuthError(.notSupported, "cannot encrypt the hmac-secret output: \(error.reason)")
                    }
                }
                data[index] = AuthenticatorData.assertion(relyingParty: relyingParty, counter: counter, extensions: extensions)
                return Data(data[index] + request.clientDataHash)
            }
            var answers = chosen.indices.map { Self.assertion(chosen[$0], data: data[$0], signature: signed[$0]) }
            if answers.count > 1 {
                answers[0] = Self.adding(.int(5), .int(Int64(answers.count)), to: answers[0])
                device.assertions.keep(Array(answers.dropFirst()))
            }
            return answers[0]
        }
    }

    /// One assertion as getAssertion and getNextAssertion give it: the credential, the signed
    /// data, the signature and, for a discoverable credential, the account with its names (the
    /// user was verified, CTAP 2.1 §6.2.2).
    private static func assertion(_ credential: PasskeyCredential, data: [UInt8], signature: PasskeySignature) -> CBORValue {
        var answer: [CBORValue: CBORValue] = [
            .int(1): .map([.text("id"): .bytes(credential.id), .text("type"): .text("public-key")]),
            .int(2): .bytes(data),
            .int(3): .bytes([UInt8](signature.signature)),
        ]
        if credential.fields.discoverable { answer[.int(4)] = account(credential) }
        return .map(answer)
    }

    /// A credential's account as CTAP gives it: the handle, and the names kept.
    static func account(_ credential: PasskeyCredential) -> CBORValue {
        var user: [CBORValue: CBORValue] = [.text("id"): .bytes([UInt8](credential.fields.userHandle))]
        if let name = credential.fields.userName { user[.text("name")] = .text(name) }
        if let name = credential.fields.displayName { user[.text("displayName")] = .text(name) }
        return .map(user)
    }

    /// `answer`, a map, with `key` set to `value`.
    static func adding(_ key: CBORValue, _ value: CBORValue, to answer: CBORValue) -> CBORValue {
        guard case .map(var entries) = answer else { return answer }
        entries[key] = value
        return .map(entries)
    }

    /// The token a request shows, checked; the finger's match it carries, if any. The empty
    /// probe is answered after a match (the touch it asks for) with whether a PIN is set.
    private func authorize(_ authorization: PinUvAuthorization?, _ clientDataHash: [UInt8], _ permission: PinUvSession.Permissions,
                           _ relyingParty: String, _ reason: String) async throws(CTAP2Error) -> PasskeyVerification? {
        guard let authorization else { return nil }
        guard !authorization.isProbe else {
            _ = try await translating { try await passkeys.verifyUser(reason: reason, prompt: NoPasscodePrompt()) }
            throw try state().passcodeSet ? CTAP2Error(.pinInvalid, "the empty pinUvAuthParam: a PIN is set")
                : CTAP2Error(.pinNotSet, "the empty pinUvAuthParam: no PIN is set")
        }
        return try pin.authorize(mac: authorization.mac, authorization.version, clientDataHash: clientDataHash,
                                 for: permission, relyingParty: relyingParty)
    }

    /// A read or write of the user's state, its failure in CTAP's terms (``CTAP2Error/init(_:)``).
    func translatingState<T>(_ body: () throws(AuthError) -> T) throws(CTAP2Error) -> T {
        do { return try body() } catch { throw CTAP2Error(error) }
    }

    /// The subcommand under `key` of a command with subcommands (clientPIN, credential
    /// management); one not offered is `CTAP2_ERR_INVALID_SUBCOMMAND`.
    static func subcommand<S: RawRepresentable<Int64>>(_ type: S.Type, _ arguments: CTAP2Arguments, key: CBORValue,
                                                       of name: String) throws(CTAP2Error) -> S {
        let code = try arguments.int(key, "subCommand", required: true) ?? 0
        guard let subcommand = S(rawValue: code) else {
            throw CTAP2Error(.invalidSubcommand, "\(name) subcommand \(code) is not offered")
        }
        return subcommand
    }

    /// What the token's MAC of a subcommand covers and says (credential management, bio
    /// enrollment): the protocol under `versionKey`, the MAC under `macKey` (both required),
    /// and the message, `prefix` then the subcommand's parameters as CBOR re-encodes them.
    static func signedSubcommand(_ arguments: CTAP2Arguments, versionKey: CBORValue, macKey: CBORValue, prefix: [UInt8],
                                 _ subParameters: CBORValue?) throws(CTAP2Error) -> (version: PinUvAuthProtocol, mac: [UInt8], message: [UInt8]) {
        let version = try version(arguments, key: versionKey)
        let mac = try arguments.bytes(macKey, "pinUvAuthParam", required: true) ?? []
        return (version, mac, prefix + (subParameters.map { CBOREncoder.encode($0) } ?? []))
    }

    /// The engine's failures in CTAP's terms (``CTAP2Error/init(_:)``), CTAP's own as they are.
    func translating<T>(_ body: () async throws -> T) async throws(CTAP2Error) -> T {
        do {
            return try await body()
        } catch let error as CTAP2Error {
            throw error
        } catch let error as AuthError {
            throw CTAP2Error(error)
        } catch {
            throw CTAP2Error(.other, "\(error)")
        }
    }
}
