import Crypto
import FPStore
import FoundationEssentials

extension KeyVault {
    /// Signs `data` with the key, after the evaluation its access control
    /// demands succeeded in this same call: a fingerprint match under the
    /// biometrics policy (`biometryCurrentSet`, `biometryAny`), the
    /// device-owner policy (`userPresence`), or the passcode alone
    /// (`devicePasscode`). Every counter and lockout rule of those evaluations
    /// applies; a success reused from earlier does not count.
    ///
    /// The key is checked before the scan and again after it, under the state
    /// lock, where the counter is also taken and written before the signature
    /// is made: a failed evaluation takes no counter value, and a crash never
    /// lets one be used twice. See ``KeySignature`` for the signed bytes.
    ///
    /// - Throws: `AuthErrorCode.notFound`, `AuthErrorCode.keyInvalidated`,
    ///   `AuthErrorCode.invalidInput` (label, empty reason, data over ``maximumDataSize``),
    ///   `AuthErrorCode.stateDamaged`, and every failure of the evaluation:
    ///   `AuthErrorCode.authenticationFailed`, `AuthErrorCode.biometryLockout`,
    ///   `AuthErrorCode.userCancel`, `AuthErrorCode.userFallback`, `AuthErrorCode.passcodeNotSet`,
    ///   `AuthErrorCode.biometryNotEnrolled`, `AuthErrorCode.passcodeLockout`, `AuthErrorCode.timedOut`, …
    public func sign(label: String, data: Data, reason: String, prompt: any AuthPrompt,
                     options: BiometricOptions = BiometricOptions()) async throws(AuthError) -> KeySignature {
        guard !reason.isEmpty else { throw AuthError(.invalidInput, "the reason shown to the user must not be empty") }
        guard data.count <= Self.maximumDataSize else {
            throw AuthError(.invalidInput, "the data to sign is \(data.count) bytes; at most \(Self.maximumDataSize) are signed")
        }
        let path = try path(label)
        let before = try locked { () throws -> KeyRecord in
            let record = try load(label)
            if record.passkey != nil { throw passkeyRefusal(label) }
            try rules.requireUsable(record, accessControl: try KeyDescription(record, path: path).accessControl, store: store)
            return record
        }
        let accessControl = try KeyDescription(before, path: path).accessControl
        let success = try await rules.release(accessControl, reason: reason, prompt: prompt, options: options)
        return try signNext(label: label, accessControl: accessControl, method: success.method) { current throws(AuthError) in
            // Deleted, or deleted and made anew, during the evaluation: not the key the user was asked about.
            guard current.publicKey == before.publicKey else { throw notFound(label) }
            return data
        }.signature
    }

    /// The step after the evaluation, shared by ``sign(label:data:reason:prompt:options:)`` and
    /// identify-and-prove: under the state lock, the key read again and held to `KeyRules`
    /// (`accessControl` is the one the evaluation was for), its counter taken and written,
    /// and only then the signature made over the message with the data `data` returns for
    /// that record.
    func signNext(label: String, accessControl: KeyAccessControl, method: AuthMethod,
                  data: (KeyRecord) throws(AuthError) -> Data) throws(AuthError) -> (signature: KeySignature, record: KeyRecord) {
        let signed = try signNextMessage(label: label, accessControl: accessControl, counterLimit: .max) { record, counter, _ throws(AuthError) in
            if record.passkey != nil { throw passkeyRefusal(label) }
            return KeySignature.message(counter: counter, data: try data(record))
        }
        return (KeySignature(label: label, user: user, counter: signed.record.counter, signature: signed.signature,
                             message: signed.message, method: method), signed.record)
    }

    /// The one signing step of every key, under the state lock: the key read again and held to
    /// `KeyRules` (`accessControl` is the one the evaluation was for), its next counter value
    /// (at most `counterLimit`) taken and written, and only then the signature (ECDSA P-256,
    /// SHA-256, DER) made over the bytes `message` gives for that record and counter. A key
    /// of the API and a passkey differ only in the message.
    ///
    /// `message` also gets the key's ``PasskeySecret``, the one secret derived from the private
    /// key that a message may carry the HMACs of: only for a passkey made with `hmac-secret`,
    /// nil for every other key.
    func signNextMessage(label: String, accessControl: KeyAccessControl, counterLimit: UInt64,
                         message: (KeyRecord, UInt64, PasskeySecret?) throws(AuthError) -> Data) throws(AuthError)
        -> (signature: Data, message: Data, record: KeyRecord) {
        try locked { () throws -> (signature: Data, message: Data, record: KeyRecord) in
            guard let current = try store.record(user: user, label: label) else { throw notFound(label) }
            let path = try path(label)
            guard try KeyDescription(current, path: path).accessControl == accessControl else {
                throw AuthError(.notFound, "\(user) has no \(accessControl.rawValue) key labelled '\(label)'")
            }
            try rules.requireUsable(current, accessControl: accessControl, store: store)
            guard current.counter < counterLimit else {
                throw AuthError(.keyInvalidated, "the key '\(label)' has used every counter value")
            }
            let privateKey = try store.privateKey(of: current)
            let secret = current.passkey?.hmacSecret == true ? PasskeySecret(privateKey) : nil
            let signed = try message(current, current.counter + 1, secret)
            var next = current
            next.counter += 1
            try store.save(next)
            let signature = try privateKey.signature(for: signed)
            return (signature.derRepresentation, signed, next)
        }
    }

    /// A passkey signs only WebAuthn's messages, through the authenticator.
    func passkeyRefusal(_ label: String) -> AuthError {
        AuthError(.invalidInput, "\(user)'s key '\(label)' is a passkey; it signs only for its site, through the passkey authenticator")
    }
}
