import Crypto
import FPStore
import FoundationEssentials

/// Passkeys (WebAuthn credentials) of the context's user: keys released by a match, kept and
/// guarded as every other key of ``KeyVault`` (sealed, quota, attestation, invalidation when
/// the passcode is removed), each bound to the site and account it was made for.
///
/// The rules are Touch ID's: every passkey needs the passcode set and a print enrolled, and is
/// made, and signs, only after a fingerprint match through the same engine, counter and lockout
/// as `su`, `sudo`, the D-Bus face and `LocalAuthentication` (three failed matches end one
/// request, five in a row lock the finger for every door). A passkey stays usable when prints
/// are added or removed (`biometryAny`), as Touch ID's do.
///
/// The CTAP2 authenticator in `FPPasskeys` is its one user. Get one with
/// ``AuthenticationContext/passkeys(protection:)``.
public struct PasskeyVault: Sendable {
    /// The keys the passkeys are kept among.
    let keys: KeyVault

    /// The length of a credential id in bytes: random, so that it reveals nothing, and useless
    /// on another machine, whose state does not hold it.
    public static let credentialIDLength = 16
    /// The length of CTAP's `pinHash` (the first bytes of the PIN's SHA-256), which
    /// ``verifyPIN(hash:)`` takes.
    public static let pinHashLength = PasscodeHasher.pinHashLength
    /// The shortest PIN taken: the passcode's own rule (getInfo's `minPINLength`).
    public var minimumPINLength: Int { keys.context.environment.configuration.minimumPasscodeLength }
    /// What every passkey demands before it signs.
    static let accessControl = KeyAccessControl.biometryAny
    private static let labelPrefix = "passkey-"

    init(keys: KeyVault) {
        self.keys = keys
    }

    /// Whether a finger can verify the user now: nil when it can, else the reason (no reader,
    /// no passcode, no print, locked out, the password needed first). Reads state files only.
    public func verificationProblem() async -> AuthError? {
        await keys.context.biometricProblem(options: BiometricOptions(), requirePasscode: true)
    }

    /// The user's usable passkeys for `relyingParty`, most recently made first. A damaged or
    /// invalidated one is left out: it never signs.
    /// - Throws: `AuthErrorCode.stateDamaged` when the user's keys cannot be listed.
    public func credentials(relyingParty: String) throws(AuthError) -> [PasskeyCredential] {
        try all().filter { $0.fields.relyingParty == relyingParty }
    }

    /// Every usable passkey of the user, of every site, most recently made first (what a
    /// security key's credential management lists).
    /// - Throws: `AuthErrorCode.stateDamaged` when the user's keys cannot be listed.
    public func all() throws(AuthError) -> [PasskeyCredential] {
        var records: [KeyRecord] = []
        do {
            for label in try keys.store.labels(user: keys.user) where label.hasPrefix(Self.labelPrefix) {
                do {
                    if let record = try keys.store.record(user: keys.user, label: label) { records.append(record) }
                } catch {
                    // A damaged passkey file is passed over here: it fails closed when used.
                    guard case .damaged = error else { throw error }
                }
            }
        } catch {
            throw AuthError(error)
        }
        return records.compactMap(PasskeyCredential.init)
            .filter { !$0.invalidated }
            .sorted { $0.createdAt > $1.createdAt }
    }

    /// How many keys the user holds, passkeys and keys of the API (the quota is on both).
    /// - Throws: `AuthErrorCode.stateDamaged` when they cannot be listed.
    public func keyCount() throws(AuthError) -> Int {
        do { return try keys.store.labels(user: keys.user).count } catch { throw AuthError(error) }
    }

    /// Deletes the user's passkey `id` (credential management's deleteCredential). The caller
    /// has proved the user (a PIN/UV auth token with the credential management permission).
    /// - Throws: `AuthErrorCode.notFound`, `AuthErrorCode.stateDamaged`.
    public func delete(id: [UInt8]) throws(AuthError) {
        try keys.delete(label: try label(of: id))
    }

    /// Replaces the account names kept with the passkey `id` (updateUserInformation); the
    /// account's handle must be the one it was made for.
    /// - Throws: `AuthErrorCode.notFound`, `AuthErrorCode.invalidInput` (another handle, a name
    ///   too long), `AuthErrorCode.stateDamaged`.
    public func updateUser(id: [UInt8], userHandle: Data, userName: String?, displayName: String?) throws(AuthError) {
        for name in [userName, displayName] where (name?.utf8.count ?? 0) > PasskeyFields.maximumNameLength {
            throw AuthError(.invalidInput, "a name of \(name?.utf8.count ?? 0) bytes; at most \(PasskeyFields.maximumNameLength) are kept")
        }
        let label = try label(of: id)
        try keys.locked { () throws -> Void in
            guard var record = try keys.store.record(user: keys.user, label: label), var fields = record.passkey else {
                throw AuthError(.notFound, "\(keys.user) has no passkey of that id")
            }
            guard fields.userHandle == userHandle else {
                throw AuthError(.invalidInput, "the account handle is not the one the passkey was made for")
            }
            fields.userName = userName
            fields.displayName = displayName
            record.passkey = fields
            try keys.store.save(record)
        }
    }

    /// A fingerprint match of the user, with every counter and lockout rule, and nothing
    /// else: what a request that ends in a refusal still asks before it answers (an excluded
    /// credential), so that a site learns nothing without the user.
    /// - Throws: every failure of the evaluation (`AuthErrorCode.authenticationFailed`,
    ///   `AuthErrorCode.biometryLockout`, `AuthErrorCode.timedOut`, `AuthErrorCode.userCancel`, …).
    @discardableResult
    public func verifyUser(reason: String, prompt: any AuthPrompt) async throws(AuthError) -> PasskeyVerification {
        _ = try await keys.rules.release(Self.accessControl, reason: reason, prompt: prompt, options: BiometricOptions())
        return PasskeyVerification(user: keys.user, matchedAt: keys.context.environment.clock())
    }

    /// The match an operation stands on: `verified` when it is this user's, fresh and unspent
    /// (it is spent here), else a match made now (``verifyUser(reason:prompt:)``).
    public func verifyUser(reason: String, prompt: any AuthPrompt, standingOn verified: PasskeyVerification?) async throws(AuthError) {
        if let verified, verified.spend(user: keys.user, now: keys.context.environment.clock()) { return }
        try await verifyUser(reason: reason, prompt: prompt)
    }

    /// What a FIDO2 client asks before it chooses between the finger and the PIN: whether the
    /// passcode (the PIN) is set, how many wrong PINs remain before the passcode's next wait,
    /// and how many failed matches before the finger locks. Reads state files only.
    /// - Throws: `AuthErrorCode.stateDamaged` for a damaged passcode record.
    public func verificationState() throws(AuthError) -> (passcodeSet: Bool, pinRetries: Int, fingerRetries: Int) {
        let context = keys.context
        let scope = CounterScope.user(keys.user)
        let status = context.lockoutStatus(scope)
        let limit = context.environment.configuration.passcodeAttemptsBeforeLockout
        // The passcode never locks for good (its waits end), so one try is always ahead.
        let pinRetries = max(1, limit - (status.passcodeFailures ?? limit))
        return (try context.passcodeRecord() != nil, pinRetries, status.attemptsLeftBeforeLockout)
    }

    /// Checks CTAP's `pinHash` of a PIN against the passcode, as one passcode entry with the
    /// passcode's counter and waits; a right one lifts the finger's lockout and satisfies
    /// iOS's "password needed again" rules, as the passcode does at every door.
    /// - Throws: `AuthErrorCode.authenticationFailed` (wrong), `AuthErrorCode.passcodeLockout`,
    ///   `AuthErrorCode.passcodeNotSet`, `AuthErrorCode.notPermitted` (a passcode from before
    ///   PINs, not entered since), `AuthErrorCode.stateDamaged`.
    /// - Returns: the entry, which an enrollment through the security key stands on.
    @discardableResult
    public func verifyPIN(hash: [UInt8]) async throws(AuthError) -> PasskeyPINEntry {
        do {
            let record = try await PasscodeSession(context: keys.context, prompt: NoPasscodePrompt(), reason: "security key PIN")
                .verify(pinHash: hash)
            return PasskeyPINEntry(user: keys.user, record: record)
        } catch {
            throw AuthError(error)
        }
    }

    /// Sets the passcode from a security key's new PIN, when the user has none (CTAP's setPIN);
    /// the passcode's own length rule holds.
    /// - Throws: `AuthErrorCode.invalidInput` (too short), `AuthErrorCode.authenticationFailed`
    ///   (one exists already), `AuthErrorCode.biometryLockout`, `AuthErrorCode.stateDamaged`.
    public func setPIN(_ passcode: Passcode) async throws(AuthError) {
        guard try keys.context.passcodeRecord() == nil else {
            throw AuthError(.authenticationFailed, "\(keys.user) has a passcode already: it is the PIN")
        }
        try await PasscodeManager(context: keys.context).set(passcode)
    }

    /// Makes a passkey for `fields` after a fingerprint match made in this call, and signs with
    /// it, under the same match, the bytes `attestation` gives for the new credential and its
    /// first counter value (WebAuthn's self attestation: authenticator data ‖ client data
    /// hash). A passkey whose signature fails is removed again: none is left half made.
    /// - Throws: every failure of ``verifyUser(reason:prompt:)``, then `AuthErrorCode.passcodeNotSet`,
    ///   `AuthErrorCode.biometryNotEnrolled`, `AuthErrorCode.invalidInput` (the key quota),
    ///   `AuthErrorCode.stateDamaged`.
    ///
    /// `verified`, a match made already (a token got with a finger), stands for this call's
    /// match if it is fresh and unspent.
    public func create(_ fields: PasskeyFields, reason: String, prompt: any AuthPrompt, verified: PasskeyVerification? = nil,
                       attestation: (_ credential: PasskeyCredential, _ counter: UInt32) throws(AuthError) -> Data) async throws(AuthError)
        -> (credential: PasskeyCredential, attestation: PasskeySignature) {
        try await verifyUser(reason: reason, prompt: prompt, standingOn: verified)
        var id = [UInt8](repeating: 0, count: Self.credentialIDLength)
        var generator = SystemRandomNumberGenerator()
        for index in id.indices { id[index] = generator.next() }
        let replaced = fields.discoverable
            ? try credentials(relyingParty: fields.relyingParty).filter { $0.fields.discoverable && $0.fields.userHandle == fields.userHandle }
            : []
        let label = Self.label(id)
        let record = try keys.create(label: label, accessControl: Self.accessControl, passkey: fields)
        let signed: (signature: Data, message: Data, record: KeyRecord)
        do {
            signed = try keys.signNextMessage(label: label, accessControl: Self.accessControl,
                                              counterLimit: UInt64(UInt32.max)) { current, counter, _ throws(AuthError) in
                guard let made = PasskeyCredential(current), current.publicKey == record.publicKey else {
                    throw AuthError(.stateDamaged, "the passkey just made cannot be read back", cause: .damagedState)
                }
                return try attestation(made, UInt32(counter))
            }
        } catch {
            // The request fails; so that no passkey exists that the site never learned of, it
            // goes again. Its own removal failing leaves a key no site can name, never a wrong one.
            try? keys.delete(label: label)
            throw error
        }
        guard let credential = PasskeyCredential(signed.record) else {
            throw AuthError(.stateDamaged, "the passkey just made cannot be read back", cause: .damagedState)
        }
        // One discoverable credential per account and site (CTAP 2.1 §6.1.2): the new one
        // replaces the old, removed only once the new one is saved, so that none is lost.
        for old in replaced { try keys.delete(label: Self.label(old.id)) }
        return (credential, PasskeySignature(signature: signed.signature, counter: credential.counter))
    }

    /// Signs with the passkey `id` of `relyingParty` after a fingerprint match made in this
    /// call: under the state lock the key is read again, its next counter taken and written,
    /// and only then are the bytes `message` gives for that counter signed (ECDSA P-256,
    /// SHA-256, DER), as WebAuthn wants (authenticator data ‖ client data hash).
    /// - Throws: `AuthErrorCode.notFound` (no such passkey for that site, or deleted during the
    ///   match), `AuthErrorCode.keyInvalidated`, every failure of ``verifyUser(reason:prompt:)``,
    ///   `AuthErrorCode.stateDamaged`.
    ///
    /// `verified`, a match made already (a token got with a finger), stands for this call's
    /// match if it is fresh and unspent. `message` gets the credential's ``PasskeySecret`` when
    /// it was made with `hmac-secret`, nil otherwise.
    public func sign(id: [UInt8], relyingParty: String, reason: String, prompt: any AuthPrompt, verified: PasskeyVerification? = nil,
                     message: (_ counter: UInt32, _ secret: PasskeySecret?) throws(AuthError) -> Data) async throws(AuthError)
        -> PasskeySignature {
        try await sign(ids: [id], relyingParty: relyingParty, reason: reason, prompt: prompt, verified: verified) {
            _, counter, secret throws(AuthError) in try message(counter, secret)
        }[0]
    }

    /// Signs with each of the passkeys `ids` of `relyingParty`, in order, after one fingerprint
    /// match made in this call, as ``sign(id:relyingParty:reason:prompt:verified:message:)``
    /// signs with one: what a site's account chooser needs (CTAP's getNextAssertion), every
    /// account of one site signing the same challenge the user touched for. `message` gets the
    /// index in `ids` of the passkey it makes the bytes for. Nothing is signed unless every
    /// passkey is there before the match; one that goes during it fails the call.
    public func sign(ids: [[UInt8]], relyingParty: String, reason: String, prompt: any AuthPrompt, verified: PasskeyVerification? = nil,
                     message: (_ index: Int, _ counter: UInt32, _ secret: PasskeySecret?) throws(AuthError) -> Data) async throws(AuthError)
        -> [PasskeySignature] {
        let usable = try credentials(relyingParty: relyingParty)
        let before = try ids.map { id throws(AuthError) -> PasskeyCredential in
            guard let credential = usable.first(where: { $0.id == id }) else {
                throw AuthError(.notFound, "\(keys.user) has no passkey of that id for \(relyingParty)")
            }
            return credential
        }
        try await verifyUser(reason: reason, prompt: prompt, standingOn: verified)
        var signatures: [PasskeySignature] = []
        for (index, credential) in before.enumerated() {
            let signed = try keys.signNextMessage(label: Self.label(credential.id), accessControl: Self.accessControl,
                                                  counterLimit: UInt64(UInt32.max)) { record, counter, secret throws(AuthError) in
                // Deleted and made anew during the match, or moved to another site: not the one asked for.
                guard record.publicKey == credential.publicKey, let fields = record.passkey, fields.relyingParty == relyingParty else {
                    throw AuthError(.notFound, "\(keys.user)'s passkey for \(relyingParty) changed during the match")
                }
                return try message(index, UInt32(counter), secret)
            }
            signatures.append(PasskeySignature(signature: signed.signature, counter: UInt32(signed.record.counter)))
        }
        return signatures
    }

    /// The label of the passkey `id` names, for an id the site sent (of any length).
    private func label(of id: [UInt8]) throws(AuthError) -> String {
        guard id.count == Self.credentialIDLength else { throw AuthError(.notFound, "\(keys.user) has no passkey of that id") }
        return Self.label(id)
    }

    static func label(_ id: [UInt8]) -> String {
        labelPrefix + id.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }
}
