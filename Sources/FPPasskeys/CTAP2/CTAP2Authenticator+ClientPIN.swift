import Crypto
import FPAuthentication

/// authenticatorClientPIN (CTAP 2.1 §6.5.5): the PIN is the user's fpbridge passcode, checked
/// with its counter and escalating waits (a right one lifts the finger's lockout, as the
/// passcode does at every door), and tokens are given for a PIN or a fingerprint match.
extension CTAP2Authenticator {
    func clientPIN(_ parameters: ArraySlice<UInt8>) async throws(CTAP2Error) -> CBORValue {
        let arguments = try CTAP2Arguments(parameters, of: "clientPIN")
        let code = try arguments.int(.int(2), "subCommand", required: true) ?? 0
        guard let subcommand = ClientPINSubcommand(rawValue: code) else {
            throw CTAP2Error(.invalidSubcommand, "clientPIN subcommand \(code) is not offered")
        }
        switch subcommand {
        case .getPINRetries:
            return .map([.int(3): .int(Int64(try state().pinRetries))])
        case .getUVRetries:
            return .map([.int(5): .int(Int64(try state().fingerRetries))])
        case .getKeyAgreement:
            _ = try Self.version(arguments)
            return .map([.int(1): pin.keyAgreement()])
        case .setPIN:
            return try await setPIN(arguments)
        case .changePIN:
            throw CTAP2Error(.notAllowed, "the PIN is the fpbridge passcode: change it with fpbridge passcode change")
        case .getPINToken:
            return try await tokenUsingPIN(arguments, permissions: PinUvSession.Permissions.granted, relyingParty: nil)
        case .tokenUsingPIN:
            let (permissions, relyingParty) = try Self.permissions(arguments)
            return try await tokenUsingPIN(arguments, permissions: permissions, relyingParty: relyingParty)
        case .tokenUsingUV:
            let (permissions, relyingParty) = try Self.permissions(arguments)
            let version = try Self.version(arguments)
            let secret = try pin.sharedSecret(with: try Self.platformKey(arguments), version)
            let verification = try await translating {
                try await passkeys.verifyUser(reason: "use passkeys of \(relyingParty ?? "any site")", prompt: NoPasscodePrompt())
            }
            let token = pin.give(permissions, relyingParty: relyingParty, verification: verification)
            return .map([.int(2): .bytes(try version.encrypt(secret, token.withUnsafeBytes { Array($0) }))])
        }
    }

    /// A token for the PIN in `pinHashEnc`, checked as one passcode entry.
    private func tokenUsingPIN(_ arguments: CTAP2Arguments, permissions: PinUvSession.Permissions,
                               relyingParty: String?) async throws(CTAP2Error) -> CBORValue {
        let version = try Self.version(arguments)
        let secret = try pin.sharedSecret(with: try Self.platformKey(arguments), version)
        guard try state().passcodeSet else { throw CTAP2Error(.pinNotSet, "the user has no passcode, which is the PIN") }
        var hash = try version.decrypt(secret, try arguments.bytes(.int(6), "pinHashEnc", required: true) ?? [], "pinHashEnc")
        defer { for index in hash.indices { hash[index] = 0 } }
        guard hash.count == 16 else { throw CTAP2Error(.invalidLength, "pinHashEnc holds \(hash.count) bytes, not 16") }
        do {
            try await passkeys.verifyPIN(hash: hash)
        } catch {
            if error.code == .authenticationFailed { pin.renewKeyAgreement() }
            throw Self.pinError(error)
        }
        let token = pin.give(permissions, relyingParty: relyingParty, verification: nil)
        return .map([.int(2): .bytes(try version.encrypt(secret, token.withUnsafeBytes { Array($0) }))])
    }

    /// The PIN in `newPinEnc` made the passcode, for a user who has none.
    private func setPIN(_ arguments: CTAP2Arguments) async throws(CTAP2Error) -> CBORValue {
        let version = try Self.version(arguments)
        let secret = try pin.sharedSecret(with: try Self.platformKey(arguments), version)
        let encrypted = try arguments.bytes(.int(5), "newPinEnc", required: true) ?? []
        let mac = try arguments.bytes(.int(4), "pinUvAuthParam", required: true) ?? []
        guard version.verify(secret, encrypted, mac: mac) else {
            throw CTAP2Error(.pinAuthInvalid, "pinUvAuthParam is not the shared secret's MAC of newPinEnc")
        }
        guard !(try state().passcodeSet) else {
            throw CTAP2Error(.pinAuthInvalid, "the user has a passcode already, which is the PIN")
        }
        var padded = try version.decrypt(secret, encrypted, "newPinEnc")
        defer { for index in padded.indices { padded[index] = 0 } }
        // 64 bytes: the PIN's UTF-8, then zeros (CTAP 2.1 §6.5.5.5); at most 63 of them the PIN.
        guard padded.count == 64, let end = padded.firstIndex(of: 0) else {
            throw CTAP2Error(.pinPolicyViolation, "newPinEnc is not a PIN padded to 64 bytes")
        }
        var bytes = Array(padded[..<end])
        guard String(validating: bytes, as: UTF8.self) != nil else {
            for index in bytes.indices { bytes[index] = 0 }
            throw CTAP2Error(.pinPolicyViolation, "the new PIN is not UTF-8")
        }
        let passcode = Passcode(wiping: &bytes)
        do {
            try await passkeys.setPIN(passcode)
        } catch {
            throw error.code == .invalidInput ? CTAP2Error(.pinPolicyViolation, error.message) : Self.pinError(error)
        }
        return .map([:])
    }

    private func state() throws(CTAP2Error) -> (passcodeSet: Bool, pinRetries: Int, fingerRetries: Int) {
        do { return try passkeys.verificationState() } catch { throw CTAP2Error(error) }
    }

    /// A PIN's failure in CTAP's terms: wrong is PIN_INVALID, a passcode wait PIN_AUTH_BLOCKED.
    private static func pinError(_ error: AuthError) -> CTAP2Error {
        switch error.code {
        case .authenticationFailed: CTAP2Error(.pinInvalid, error.message)
        case .passcodeLockout: CTAP2Error(.pinAuthBlocked, error.message)
        case .passcodeNotSet: CTAP2Error(.pinNotSet, error.message)
        default: CTAP2Error(error)
        }
    }

    static func version(_ arguments: CTAP2Arguments) throws(CTAP2Error) -> PinUvAuthProtocol {
        let number = try arguments.int(.int(1), "pinUvAuthProtocol", required: true) ?? 0
        guard let version = PinUvAuthProtocol(rawValue: number) else {
            throw CTAP2Error(.invalidParameter, "PIN/UV auth protocol \(number) is not offered (1 and 2 are)")
        }
        return version
    }

    private static func platformKey(_ arguments: CTAP2Arguments) throws(CTAP2Error) -> CTAP2Arguments {
        try arguments.map(.int(3), "keyAgreement", required: true)!
    }

    /// The permissions and site a token is asked for; only makeCredential's and getAssertion's
    /// are granted.
    private static func permissions(_ arguments: CTAP2Arguments) throws(CTAP2Error) -> (PinUvSession.Permissions, String?) {
        let asked = PinUvSession.Permissions(rawValue: try arguments.int(.int(9), "permissions", required: true) ?? 0)
        guard !asked.isEmpty else { throw CTAP2Error(.invalidParameter, "a token with no permissions was asked for") }
        guard PinUvSession.Permissions.granted.isSuperset(of: asked) else {
            throw CTAP2Error(.unauthorizedPermission, "permissions \(asked.rawValue) asked; only makeCredential (1) and getAssertion (2) are granted")
        }
        let relyingParty = try arguments.text(.int(10), "rpId").map { (id: String) throws(CTAP2Error) in try RequestRules.relyingParty(id) }
        return (asked, relyingParty)
    }
}
