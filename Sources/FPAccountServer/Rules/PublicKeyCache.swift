import Crypto
import FPVocabulary

/// Parsed public keys by credential: a credential's key never changes, and parsing PEM
/// costs more than the lookup.
final class PublicKeyCache: Sendable {
    private let keys = Locked<[String: P256.Signing.PublicKey]>([:])
    private static let capacity = 50_000

    func key(_ credentialId: String, pem: String) -> P256.Signing.PublicKey? {
        if let key = keys.withLock({ $0[credentialId] }) { return key }
        guard let key = try? P256.Signing.PublicKey(pemRepresentation: pem) else { return nil }
        keys.withLock { cache in
            if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            cache[credentialId] = key
        }
        return key
    }
}
