import Crypto
import CryptoExtras
import FPStore
import FoundationEssentials

/// Passcodes as slow salted hashes (scrypt), compared in constant time.
enum PasscodeHasher {
    static let algorithm = "scrypt"
    static let blockSize = 8
    static let parallelism = 1
    static let hashLength = 32

    /// Hashes on a thread of its own: see ``OwnThread``.
    static func hash(_ passcode: Passcode, rounds: Int) async throws(AuthError) -> PasscodeRecord {
        try await OwnThread.run { () throws(AuthError) in try hashNow(passcode, rounds: rounds) }
    }

    /// Compares on a thread of its own: see ``OwnThread``.
    static func matches(_ passcode: Passcode, _ record: PasscodeRecord, path: String) async throws(AuthError) -> Bool {
        try await OwnThread.run { () throws(AuthError) in try matchesNow(passcode, record, path: path) }
    }

    private static func hashNow(_ passcode: Passcode, rounds: Int) throws(AuthError) -> PasscodeRecord {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let key = try derive(passcode, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        return PasscodeRecord(algorithm: algorithm, rounds: rounds, blockSize: blockSize, parallelism: parallelism,
                              salt: Data(salt), hash: key.withUnsafeBytes { Data($0) }, setAt: Date())
    }

    private static func matchesNow(_ passcode: Passcode, _ record: PasscodeRecord, path: String) throws(AuthError) -> Bool {
        guard record.algorithm == algorithm, record.hash.count == hashLength, !record.salt.isEmpty else {
            throw AuthError(.stateDamaged, "damaged state file \(path): not an scrypt passcode record")
        }
        let key = try derive(passcode, salt: Array(record.salt), rounds: record.rounds,
                             blockSize: record.blockSize, parallelism: record.parallelism)
        // SymmetricKey's equality compares in constant time.
        return key == SymmetricKey(data: record.hash)
    }

    private static func derive(_ passcode: Passcode, salt: [UInt8], rounds: Int, blockSize: Int,
                               parallelism: Int) throws(AuthError) -> SymmetricKey {
        do {
            return try passcode.withUnsafeBytes { bytes in
                try KDF.Scrypt.deriveKey(from: bytes, salt: salt, outputByteCount: hashLength,
                                         rounds: rounds, blockSize: blockSize, parallelism: parallelism)
            }
        } catch {
            throw AuthError(.stateDamaged, "cannot hash the passcode with scrypt (N=\(rounds)): \(error)")
        }
    }
}
