/// Which of iOS's rules asks for the password or passcode before the next finger (docs/rules.md,
/// "When the password is needed again"). Every one of them refuses biometry with
/// `biometryLockout` (-8), as the five-failure lockout does, and ends only with the password or
/// the passcode: Apple's `LAError.biometryLockout` means "biometry is locked, the passcode unlocks
/// it", and an app that falls back to the device-owner policy on it does the right thing here too.
public enum PasswordRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// The machine has started since the user's last password or passcode (or none was ever recorded).
    case boot
    /// The user has not authenticated at all (password, passcode or finger) for the idle hours (48).
    case idle
    /// Neither the password nor the passcode for the age hours (156), and no match for the last 4.
    case age
    /// `fpbridge lock` asked for the password before the next finger.
    case remoteLock
    /// The record of the user's last authentications cannot be used (damaged, unreadable).
    case unusableRecord
}
