import FPReaders
import FPStore
import FoundationEssentials

/// The user's prints as a security key's bio enrollment sees them (CTAP 2.1 §6.7): the same
/// prints every other door matches, on the reader the security key answers with, enrolled,
/// renamed and removed only standing on the passcode entered as the PIN (``PasskeyPINEntry``),
/// still the user's, as iOS asks the passcode before a finger is added.
extension PasskeyVault {
    /// The reader the security key answers with and the user's prints on it, most recently
    /// enrolled last; nil when no reader is at hand.
    /// - Throws: `AuthErrorCode.stateDamaged` when the prints cannot be listed.
    public func fingers() async throws(AuthError) -> (reader: ReaderInfo, prints: [PrintRecord])? {
        let context = keys.context
        guard let reader = context.environment.reader else { return nil }
        let info = await reader.info
        do {
            return (info, try context.environment.prints.prints(user: keys.user, reader: info.identity))
        } catch {
            throw AuthError(error)
        }
    }

    /// Enrolls `finger` on the reader standing on the PIN `entry` (the passcode entered, which
    /// must still be the user's at the save), with every rule of ``Enrollment``: a finger
    /// enrolled already (the user's or anyone's) is refused, each scan comes within the scan
    /// timeout, the user's print quota holds. `beforeSave` runs after the last scan, before the
    /// save: the print is saved only once it returns (the host asked for the last sample).
    public func enroll(_ finger: Finger, standingOn entry: PasskeyPINEntry,
                       beforeSave: @escaping @Sendable () async throws -> Void) -> AsyncThrowingStream<EnrollmentUpdate, any Error> {
        guard entry.user == keys.user else {
            return AsyncThrowingStream { $0.finish(throwing: AuthError(.notPermitted, "the PIN was entered for \(entry.user), not \(keys.user)")) }
        }
        return Enrollment(context: keys.context).enroll(finger, replace: false, authority: .entered(entry.record), beforeSave: beforeSave)
    }

    /// Names the user's print of `finger` on the reader (CTAP's setFriendlyName), standing on
    /// the PIN `entry`; the name is kept with the print and changes nothing it matches.
    /// - Throws: `AuthErrorCode.notFound` (no such print), `AuthErrorCode.invalidInput` (a
    ///   name longer than `PrintRecord.maximumNameLength` bytes),
    ///   `AuthErrorCode.notPermitted` (the passcode changed since the PIN was entered),
    ///   `AuthErrorCode.biometryNotAvailable` (no reader), `AuthErrorCode.stateDamaged`.
    public func rename(_ finger: Finger, to name: String, standingOn entry: PasskeyPINEntry) async throws(AuthError) {
        guard name.utf8.count <= PrintRecord.maximumNameLength else {
            throw AuthError(.invalidInput, "a name of \(name.utf8.count) bytes; at most \(PrintRecord.maximumNameLength) are kept")
        }
        guard let reader = keys.context.environment.reader else {
            throw AuthError(.biometryNotAvailable, "no fingerprint reader is available")
        }
        let identity = await reader.info.identity
        let store = keys.context.environment.prints
        let user = keys.user
        do {
            try store.withLock { () throws -> Void in
                try check(entry)
                guard var record = try store.print(user: user, reader: identity, finger: finger) else {
                    throw AuthError(.notFound, "\(user)'s \(finger.rawValue) is not enrolled on \(identity)")
                }
                record.name = name
                try store.save(record)
            }
        } catch {
            throw AuthError(error)
        }
    }

    /// Removes the user's print of `finger` on the reader, from the sensor too, as
    /// `fpbridge delete` does, standing on the PIN `entry`.
    /// - Throws: `AuthErrorCode.notPermitted` (the passcode changed since the PIN was entered),
    ///   then as ``Enrollment/delete(_:reportingLostSensorCopies:)``.
    public func removePrint(_ finger: Finger, standingOn entry: PasskeyPINEntry) async throws(AuthError) {
        try check(entry)
        _ = try await Enrollment(context: keys.context).delete(finger)
    }

    /// That `entry` is this user's, and the passcode it matched is still hers: a token got
    /// with a passcode since changed changes no finger (the enrollment's save checks the same).
    private func check(_ entry: PasskeyPINEntry) throws(AuthError) {
        let current: PasscodeRecord?
        do { current = try keys.context.environment.passcodes.record(user: keys.user) } catch { throw AuthError(error) }
        guard entry.user == keys.user, entry.record.isSamePasscode(as: current) else {
            throw AuthError(.notPermitted, "the PIN was entered for another passcode than \(keys.user)'s now; enter it again")
        }
    }
}
