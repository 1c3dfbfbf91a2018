import FPCore
import FPReaders
import FPStore

extension AuthenticationContext {
    /// Setting, changing and removing the user's passcode.
    public var passcode: PasscodeManager { PasscodeManager(context: self) }

    /// The user's keys released by a match (``KeyVault``). `protection` is
    /// what attestations state: `KeyProtection.service` from the service,
    /// `KeyProtection.development` from an in-process front end.
    public func keys(protection: KeyProtection) -> KeyVault {
        KeyVault(context: self, protection: protection)
    }

    /// The user's passkeys (WebAuthn credentials), kept among their keys.
    public func passkeys(protection: KeyProtection) -> PasskeyVault {
        PasskeyVault(keys: KeyVault(context: self, protection: protection))
    }

    /// Enrolls a finger of the user on the context's reader, after the user's
    /// passcode is entered through `prompt` (see ``Enrollment/enroll(_:replace:prompt:)``).
    ///
    /// The stream fails with an `AuthError`: `AuthErrorCode.passcodeNotSet`,
    /// `AuthErrorCode.alreadyEnrolled` (unless `replace`), `AuthErrorCode.biometryNotAvailable`,
    /// `AuthErrorCode.timedOut`, the passcode's failures, or a reader failure.
    public func enroll(_ finger: Finger, replace: Bool = false, prompt: any AuthPrompt) -> AsyncThrowingStream<EnrollmentUpdate, any Error> {
        Enrollment(context: self).enroll(finger, replace: replace, prompt: prompt)
    }

    /// Enrolls a finger that the desktop authorized (``EnrollmentAuthority/desktop``): fpbridged's
    /// fprintd face, after polkit's `enroll` action.
    package func enrollAuthorizedByDesktop(_ finger: Finger, replace: Bool) -> AsyncThrowingStream<EnrollmentUpdate, any Error> {
        Enrollment(context: self).enroll(finger, replace: replace, authority: .desktop)
    }

    /// Deletes the user's prints on the context's reader: one finger, or every finger with nil.
    /// Returns what was deleted.
    ///
    /// - Throws: `AuthErrorCode.notFound` when there is nothing to delete,
    ///   `AuthErrorCode.biometryNotAvailable` when a print lives on a sensor that is not connected.
    @discardableResult
    public func deletePrints(_ finger: Finger?) async throws(AuthError) -> [PrintRecord] {
        try await Enrollment(context: self).delete(finger)
    }

    /// ``deletePrints(_:)`` for fprintd's face, which tells its client a sensor copy that was
    /// already gone as fprintd does: the records are deleted and the error's cause is
    /// ``AuthErrorCause/sensorCopyKept`` (`PrintsNotDeletedFromDevice`). Elsewhere a copy the
    /// sensor lost is deleted as far as the user can tell.
    @discardableResult
    package func deletePrintsReportingLostSensorCopies(_ finger: Finger?) async throws(AuthError) -> [PrintRecord] {
        try await Enrollment(context: self).delete(finger, reportingLostSensorCopies: true)
    }

    /// Deletes, as far as the context's reader allows, the sensor's copies of prints whose
    /// files are gone already (a service that removed a passcode without holding the reader
    /// during its prompt does this afterwards). A copy it cannot reach stays on the sensor,
    /// where it matches nothing without its file.
    /// - Returns: the records whose copy is still on a sensor.
    @discardableResult
    package func deleteSensorCopies(_ records: [PrintRecord]) async -> [PrintRecord] {
        await Enrollment(context: self).deleteFromSensor(records)
    }
}
