/// Who guards the private keys, as each attestation states it.
public enum KeyProtection: String, Sendable, Hashable, Codable {
    /// The service (`fpbridged`) holds them under its own user: an app cannot read them.
    case service
    /// The in-process engine keeps them in the caller's own state directory:
    /// anything running as that user can read the files.
    case development
}
