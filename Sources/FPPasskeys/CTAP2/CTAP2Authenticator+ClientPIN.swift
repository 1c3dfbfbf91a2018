import Crypto
import FPAuthentication

/// authenticatorClientPIN (CTAP 2.1 §6.5.5): the PIN is the user's fpbridge passcode, checked
/// with its counter and escalating waits (a right one lifts the finger's lockout, as the
/// passcode does at every door), and tokens are given for a PIN or a fingerprint match.
extension CTAP2Authenticator {
    func clientPIN(_ parameters: ArraySlice<UInt8>) async throws(CTAP2Error) -> CBORValue {
        let arguments = try CTAP2Arguments(parameters, of: "clientPIN")
        let subcommand = try Self.subcommand(ClientPINSubcommand.self, arguments, key: .int(2), of: "clientPIN")
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
            // CTAP 2.0's way has no permissions: a token for both, and any site.
            guard arguments[.int(9)] == nil, arguments[.int(10)] == nil else {
                throw CTAP2Error(.invalidParameter, "getPinToken takes no permissions or rpId (getPinUvAuthTokenUsingPinWithPermissions does)")
            }
            return try await tokenUsingPIN(arguments, permissions: PinUvSession.Permissions.legacy, relyingParty: nil)
        case .tokenUsingPIN:
            let (permissions, relyingParty) = try Self.permissions(arguments)
            return try await tokenUsingPIN(arguments, permissions: permissions, relyingParty: relyingParty)
        case .tokenUsingUV:
            let (permissions, relyingParty) = try Self.permissions(arguments)
            // Adding or removing a finger needs the passcode, as on iOS: a finger is no proof
            // that the finger may be changed.
            guard !permissions.contains(.bioEnrollment) else {
                throw CTAP2Error(.unauthorizedPermission, "bio enrollment (8) is granted for the PIN (the passcode) only, not a finger")
            }
            let version = try Self.version(arguments)
            let secret = try pin.sharedSecret(with: try Self.platformKey(arguments), version)
            let verification = try await translating {
                try await passkeys.verifyUser(reason: "use passkeys of \(relyingParty ?? "any site")", prompt: NoPasscodePrompt())
            }
            // The match signs once only for the site it was asked for: a token for any site
            // asks again, naming the site, at its first use.
            let token = pin.give(permissions, relyingParty: relyingParty, version: version,
                                 verification: relyingParty == nil ? nil : verification)
            return .map([.int(2): .bytes(try Self.encrypt(token, under: secret, version))])
        }
    }

    /// A token for the PIN in `pinHashEnc`, checked as one passcode entry.
    private func tokenUsingPIN(_ arguments: CTAP2Arguments, permissions: PinUvSession.Permissions,
                               relyingParty: String?) async throws(CTAP2Error) -> CBORValue {
        // CTAP 2.1 §6.5.5.7.2's order: the parameters, whether a PIN is set, then the agreement.
        let version = try Self.version(arguments)
        let platform = try Self.platformKey(arguments)
        let encrypted = try arguments.bytes(.int(6), "pinHashEnc", required: true) ?? []
        guard try state().passcodeSet else { throw CTAP2Error(.pinNotSet, "the user has no passcode, which is the PIN") }
        let secret = try pin.sharedSecret(with: platform, version)
        var hash = try version.decrypt(secret, encrypted, "pinHashEnc")
        defer { hash.wipe() }
        guard hash.count == PasskeyVault.pinHashLength else {
            throw CTAP2Error(.invalidLength, "pinHashEnc holds \(hash.count) bytes, not \(PasskeyVault.pinHashLength)")
        }
        let entry: PasskeyPINEntry
        do {
            entry = try await passkeys.verifyPIN(hash: hash)
        } catch {
            if error.code == .authenticationFailed { pin.renewKeyAgreement() }
            throw Self.pinError(error)
        }
        let token = pin.give(permissions, relyingParty: relyingParty, version: version, verification: nil,
                             entry: permissions.contains(.bioEnrollment) ? entry : nil)
        return .map([.int(2): .bytes(try Self.encrypt(token, under: secret, version))])
    }

    /// The token encrypted for the platform; the plain copy is wiped.
    private static func encrypt(_ token: SymmetricKey, under secret: SymmetricKey, _ version: PinUvAuthProtocol) throws(CTAP2Error) -> [UInt8] {
        var plain = token.withUnsafeBytes { Array($0) }
        defer { plain.wipe() }
        return try version.encrypt(secret, plain)
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
        defer { padded.wipe() }
        // 64 bytes: the PIN's UTF-8, then zeros only (CTAP 2.1 §6.5.5.5); at most 63 of them the PIN.
        guard padded.count == 64, let end = padded.firstIndex(of: 0), padded[end...].allSatisfy({ $0 == 0 }) else {
            throw CTAP2Error(.pinPolicyViolation, "newPinEnc is not a PIN of at most 63 bytes padded with zeros to 64")
        }
        var bytes = Array(padded[..<end])
        guard Self.isUTF8(bytes) else {
            bytes.wipe()
            throw CTAP2Error(.pinPolicyViolation, "the new PIN is not UTF-8")
        }
        let passcode = Passcode(wiping: &bytes)
        do {
            try await passkeys.setPIN(passcode)
        } catch {
            switch error.code {
            case .invalidInput: throw CTAP2Error(.pinPolicyViolation, error.message)
            // A passcode set by someone else meanwhile: a PIN is set, as above.
            case .authenticationFailed: throw CTAP2Error(.pinAuthInvalid, error.message)
            default: throw Self.pinError(error)
            }
        }
        return .map([:])
    }

    /// Whether `bytes` are UTF-8, read without making a String of the secret.
    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    func state() throws(CTAP2Error) -> (passcodeSet: Bool, pinRetries: Int, fingerRetries: Int) {
        try translatingState { () throws(AuthError) in try passkeys.verificationState() }
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

    package static func version(_ arguments: CTAP2Arguments, key: CBORValue = .int(1)) throws(CTAP2Error) -> PinUvAuthProtocol {
        let number = try arguments.int(key, "pinUvAuthProtocol", required: true) ?? 0
        guard let version = PinUvAuthProtocol(rawValue: number) else {
            throw CTAP2Error(.invalidParameter, "PIN/UV auth protocol \(number) is not offered (1 and 2 are)")
        }
        return version
    }

    private static func platformKey(_ arguments: CTAP2Arguments) throws(CTAP2Error) -> CTAP2Arguments {
        try arguments.map(.int(3), "keyAgreement", required: true)!
    }

    /// The permissions and site a token is asked for; only those of ``PinUvSession/Permissions/granted``.
    private static func permissions(_ arguments: CTAP2Arguments) throws(CTAP2Error) -> (PinUvSession.Permissions, String?) {
        let asked = PinUvSession.Permissions(rawValue: try arguments.int(.int(9), "permissions", required: true) ?? 0)
        guard !asked.isEmpty else { throw CTAP2Error(.invalidParameter, "a token with no permissions was asked for") }
        guard PinUvSession.Permissions.granted.isSuperset(of: asked) else {
            throw CTAP2Error(.unauthorizedPermission,
                             "permissions \(asked.rawValue) asked; makeCredential (1), getAssertion (2), credential management (4) "
                             + "and bio enrollment (8) are granted")
        }
        let relyingParty = try arguments.text(.int(10), "rpId").map { (id: String) throws(CTAP2Error) in try RequestRules.relyingParty(id) }
        return (asked, relyingParty)
    }
}
