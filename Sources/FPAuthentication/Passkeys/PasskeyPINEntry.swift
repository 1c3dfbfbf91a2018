import FPStore

/// The user's passcode entered as a security key's PIN (``PasskeyVault/verifyPIN(hash:)``):
/// what a PIN/UV auth token with the bio enrollment permission carries, and what an enrollment
/// through the security key stands on (``PasskeyVault/enroll(_:standingOn:beforeSave:)``), as the typed
/// passcode does at every other door. Only the vault makes one. The passcode it was checked
/// against must still be the user's at the enrollment's save, or nothing is saved.
public struct PasskeyPINEntry: Sendable {
    let user: String
    let record: PasscodeRecord

    init(user: String, record: PasscodeRecord) {
        self.user = user
        self.record = record
    }
}
