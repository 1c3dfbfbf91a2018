import Crypto
import FoundationEssentials

/// Where the device identity key lives when it is not the software key in `service/`:
/// a TPM (fpbridged `--tpm`). The key signs attestations and never leaves its home.
package protocol DeviceIdentityKey: Sendable {
    /// The public key; nil before the key was made unless `create`, which makes it (call
    /// inside the state lock then, so that two processes never make two keys).
    func publicKey(create: Bool) throws(AuthError) -> P256.Signing.PublicKey?
    /// ECDSA P-256/SHA-256 signature (DER) over exactly `data`.
    func signature(for data: Data) throws(AuthError) -> Data
}
