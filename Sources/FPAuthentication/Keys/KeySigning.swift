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
        try locked { () throws -> (signature: KeySignature, record: KeyRecord) in
            guard let current = try store.record(user: user, label: label) else { throw notFound(label) }
            let path = try path(label)
            guard try KeyDescription(current, path: path).accessControl == accessControl else {
                throw AuthError(.notFound, "\(user) has no \(accessControl.rawValue) key labelled '\(label)'")
            }
            let data = try data(current)
            try rules.requireUsable(current, accessControl: accessControl, store: store)
            guard current.counter < UInt64.max else {
                throw AuthError(.keyInvalidated, "the key '\(label)' has used every counter value")
            }
            let privateKey = try store.privateKey(of: current)
            var next = current
            next.counter += 1
            try store.save(next)
            let message = KeySignature.message(counter: next.counter, data: data)
            let signature = try privateKey.signature(for: message)
            return (KeySignature(label: label, user: user, counter: next.counter, signature: signature.derRepresentation,
                                 message: message, method: method), next)
        }
    }
}
