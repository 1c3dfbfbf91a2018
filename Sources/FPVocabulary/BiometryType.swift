/// The biometry kind (Apple's `LABiometryType`), known after an availability check.
public enum BiometryType: String, Sendable, Hashable, Codable {
    /// No reader is available.
    case none
    /// A fingerprint reader.
    case fingerprint
}
