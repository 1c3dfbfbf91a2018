import FPStore
import FoundationEssentials

/// Every rule about keys released by a match, in one place: what a key needs
/// to be made, which evaluation releases it, and when it is invalidated.
///
/// As with Apple's `SecAccessControl`: biometric keys need a passcode and a
/// print; the others need a passcode. A `biometryCurrentSet` key is
/// invalidated for good as soon as the user's prints change (eagerly, when a
/// print is saved or deleted, and lazily, when its enrollment state hash no
/// longer matches), so that putting the old prints back never revives it.
/// Removing the passcode invalidates every key of the user, as iOS deletes
/// keys that need one: a passcode set later must not release them.
struct KeyRules {
    let context: AuthenticationContext

    private var environment: AuthEnvironment { context.environment }

    /// Why a key with this access control cannot be made now; nil when it can.
    /// `hash` is the user's enrollment state hash.
    func creationProblem(_ accessControl: KeyAccessControl, hash: String?) -> AuthError? {
        if let problem = context.passcodeSetProblem() { return problem }
        if accessControl.needsBiometry && hash == nil {
            return AuthError(.biometryNotEnrolled, "\(environment.user) has no print enrolled; a \(accessControl.rawValue) key needs one")
        }
        return nil
    }

    /// Runs the evaluation the access control demands, in full: a success
    /// reused from an earlier evaluation never releases a key.
    func release(_ accessControl: KeyAccessControl, reason: String, prompt: any AuthPrompt,
                 options: BiometricOptions) async throws(AuthError) -> AuthSuccess {
        switch accessControl {
        case .biometryCurrentSet, .biometryAny:
            try await context.evaluateWithoutReuse(.biometrics, reason: reason, prompt: prompt, options: options)
        case .userPresence:
            try await context.evaluateWithoutReuse(.deviceOwner, reason: reason, prompt: prompt, options: options)
        case .devicePasscode:
            try await context.unlockWithPasscode(reason: reason, prompt: prompt)
        }
    }

    /// Applies the invalidation rule to a key read inside the state lock, and
    /// records an invalidation it finds before refusing.
    /// - Throws: `AuthErrorCode.keyInvalidated`, `stateDamaged` (a print or key file).
    func requireUsable(_ record: KeyRecord, accessControl: KeyAccessControl, store: KeyStore) throws {
        var record = record
        if !record.invalidated, accessControl == .biometryCurrentSet,
           try environment.prints.enrollmentStateHash(user: record.user) != record.enrollmentStateHash {
            record.invalidated = true
            try store.save(record)
        }
        guard !record.invalidated else {
            throw AuthError(.keyInvalidated, "\(record.user)'s key '\(record.label)' was invalidated when the enrolled prints "
                            + "or the passcode changed after it was made; delete it and make a new one")
        }
    }

    /// After `user`'s prints changed (inside the state lock): each of their
    /// `biometryCurrentSet` keys is invalidated for good. Damaged key files are
    /// left as they are (they fail closed on use).
    static func enrollmentChanged(user: String, directory: StateDirectory) throws {
        try invalidate(user: user, directory: directory) { $0 == .biometryCurrentSet }
    }

    /// After `user`'s passcode was removed (inside the state lock): every key of theirs is invalidated for good.
    static func passcodeRemoved(user: String, directory: StateDirectory) throws {
        try invalidate(user: user, directory: directory) { _ in true }
    }

    private static func invalidate(user: String, directory: StateDirectory, _ affected: (KeyAccessControl) -> Bool) throws {
        let store = KeyStore(directory: directory)
        // A listing or a read that fails throws: "no keys" is never assumed (they would stay
        // usable). Only a damaged file is passed over: it never releases anything.
        for label in try store.labels(user: user) {
            let found: KeyRecord?
            do {
                found = try store.record(user: user, label: label)
            } catch {
                guard case .damaged = error else { throw error }
                continue
            }
            guard var record = found, !record.invalidated,
                  affected(KeyAccessControl(rawValue: record.accessControl) ?? .biometryCurrentSet)
            else { continue }
            record.invalidated = true
            try store.save(record)
        }
    }
}
