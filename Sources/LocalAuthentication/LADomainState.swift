import Foundation

/// The state of the authentication domains a context can use (Apple's newer
/// form of ``LAContext/evaluatedPolicyDomainState``).
public final class LADomainState: Sendable {
    /// The biometry domain: which kind, and the state of its enrolled fingers.
    public let biometry: LADomainStateBiometry
    /// A hash over every domain's state; changes whenever any of them does.
    public let stateHash: Data?

    init(biometry: LADomainStateBiometry) {
        self.biometry = biometry
        self.stateHash = biometry.stateHash
    }
}

/// The biometry part of an ``LADomainState``.
public final class LADomainStateBiometry: Sendable {
    /// The kind of biometry, as ``LAContext/biometryType``.
    public let biometryType: LABiometryType
    /// A hash over the user's enrolled fingers (SHA-256, 32 bytes): it changes
    /// when a finger is added or removed, and is nil when none is enrolled or
    /// the context has not checked yet. Store it after a login, compare it at the
    /// next, and ask for the password again when it changed.
    public let stateHash: Data?

    init(biometryType: LABiometryType, stateHash: Data?) {
        self.biometryType = biometryType
        self.stateHash = stateHash
    }
}
