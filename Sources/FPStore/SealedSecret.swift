import Crypto
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Private keys at rest: AES-256-GCM under the master key (`service/master.key`).
///
/// The associated data names the owner (a key's user and label, or the device
/// identity), so that a sealed key copied into another record does not open
/// there: the record's path, its owner and its secret stay tied together.
enum SealedSecret {
    /// The length of a sealed P-256 private key: nonce (12), key (32), tag (16).
    static let sealedKeyLength = 12 + 32 + 16

    static func seal(_ secret: Data, under key: SymmetricKey, owner: String) throws(StoreError) -> Data {
        do {
            guard let combined = try AES.GCM.seal(secret, using: key, authenticating: Data(owner.utf8)).combined else {
                throw StoreError.io(path: owner, reason: "AES-GCM gave no combined form")
            }
            return combined
        } catch {
            throw .io(path: owner, reason: "cannot seal the private key: \(error)")
        }
    }

    /// The secret; the caller wipes it (``Foundation/Data/wipe()``) once used.
    static func open(_ sealed: Data, under key: SymmetricKey, owner: String, path: String) throws(StoreError) -> Data {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(box, using: key, authenticating: Data(owner.utf8))
        } catch {
            throw .damaged(path: path, reason: "its private key does not open with the master key "
                           + "(the file or service/master.key was changed or replaced)")
        }
    }
}

extension Data {
    /// Overwrites the bytes with zeros where they lie, so that a key does not
    /// linger in freed memory; copies made earlier are out of reach.
    public mutating func wipe() {
        withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { explicit_bzero(base, bytes.count) }
        }
    }
}

extension Array where Element == UInt8 {
    /// Overwrites the bytes with zeros where they lie, as `Data`'s `wipe()` does, for a
    /// secret kept as bytes (a PIN's hash, a new PIN, a private key's copy).
    public mutating func wipe() {
        withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { explicit_bzero(base, bytes.count) }
        }
    }
}
