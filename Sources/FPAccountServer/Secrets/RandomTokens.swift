import Crypto
import FPKeyFormats
import Foundation

/// Random names and secrets, and how secrets are kept: only their SHA-256.
package enum RandomTokens {
    /// `count` random bytes in base64url (32 bytes: a bearer token or a challenge), from
    /// BoringSSL's generator (a system call per byte would cost more than the login).
    /// Never starting with `-`: a user passes tokens and ids on command lines, where an
    /// argument parser takes `--token -x…` for a missing value (1 token in 64 before).
    package static func make(bytes count: Int = 32) -> String {
        while true {
            let text = KeyIdentifiers.base64URL(SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Data($0) })
            if text.first != "-" { return text }
        }
    }

    /// What the database keeps of a bearer token: a stolen database gives no usable session.
    static func digest(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)))
    }
}
