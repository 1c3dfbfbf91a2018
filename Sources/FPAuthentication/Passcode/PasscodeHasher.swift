import FPCore
import Crypto
import FPKeyFormats
import FPStore
import FoundationEssentials

/// Passcodes as slow salted hashes: scrypt as every secret in fpbridge is kept (`Scrypt`,
/// with its bounds), compared in constant time, off Swift's shared threads: each on a thread of
/// its own, at most ``maximumThreads`` at once (`BlockingThreads`, the one way off the pool for
/// blocking work), so that many passcode checks at once (32 connections per user of the
/// service, times its users) cannot start a thread each.
enum PasscodeHasher {
    static let algorithm = "scrypt"

    /// The most scrypt runs at once.
    static let maximumThreads = 4
    static let threads = BlockingThreads(name: "fpbridge-kdf", limit: maximumThreads)

    static func hash(_ passcode: Passcode, rounds: Int) async throws(AuthError) -> PasscodeRecord {
        try await threads.run { () throws(AuthError) in try hashNow(passcode, rounds: rounds) }
    }

    static func matches(_ passcode: Passcode, _ record: PasscodeRecord, path: String) async throws(AuthError) -> Bool {
        try await threads.run { () throws(AuthError) in try matchesNow(passcode, record, path: path) }
    }

    private static func hashNow(_ passcode: Passcode, rounds: Int) throws(AuthError) -> PasscodeRecord {
        let salt = Scrypt.newSalt()
        let key = try scrypt { try passcode.withUnsafeBytes { try Scrypt.derive($0, salt: salt, rounds: rounds) } }
        return PasscodeRecord(algorithm: algorithm, rounds: rounds, blockSize: Scrypt.blockSize, parallelism: Scrypt.parallelism,
                              salt: Data(salt), hash: key.withUnsafeBytes { Data($0) }, setAt: Date())
    }

    private static func matchesNow(_ passcode: Passcode, _ record: PasscodeRecord, path: String) throws(AuthError) -> Bool {
        guard record.algorithm == algorithm, record.hash.count == Scrypt.hashLength, !record.salt.isEmpty else {
            throw AuthError(.stateDamaged, "damaged state file \(path): not an scrypt passcode record", cause: .damagedState)
        }
        return try scrypt {
            try passcode.withUnsafeBytes {
                try Scrypt.matches($0, salt: Array(record.salt), rounds: record.rounds, blockSize: record.blockSize,
                                   parallelism: record.parallelism, expected: record.hash)
            }
        }
    }

    private static func scrypt<T>(_ body: () throws -> T) throws(AuthError) -> T {
        do {
            return try body()
        } catch {
            throw AuthError(.stateDamaged, "cannot hash the passcode with scrypt: \(error)")
        }
    }
}
