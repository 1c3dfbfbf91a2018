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

    /// The length of CTAP's `pinHash`: the first 16 bytes of the PIN's SHA-256.
    static let pinHashLength = 16

    /// CTAP's `pinHash` of `passcode` (CTAP 2.1 §6.5.5.5): LEFT(SHA-256(PIN), 16).
    static func pinHash(_ passcode: Passcode) -> [UInt8] {
        passcode.withUnsafeBytes { Array(SHA256.hash(data: $0).prefix(pinHashLength)) }
    }

    /// `record` with its PIN digest made from `passcode`, which matched it (for a record from
    /// before PIN digests).
    static func addingPinDigest(_ passcode: Passcode, to record: PasscodeRecord) async throws(AuthError) -> PasscodeRecord {
        try await threads.run { () throws(AuthError) in
            var record = record
            record.pinDigest = try pinDigestNow(pinHash(passcode), rounds: record.rounds)
            return record
        }
    }

    /// Whether CTAP's `pinHash` is the passcode's, by the record's PIN digest.
    /// - Throws: `AuthErrorCode.stateDamaged` for a record that is not scrypt's; the caller
    ///   checks first that the record has a digest.
    static func matches(pinHash: [UInt8], _ record: PasscodeRecord, path: String) async throws(AuthError) -> Bool {
        try await threads.run { () throws(AuthError) in
            guard record.algorithm == algorithm, let digest = record.pinDigest, digest.hash.count == Scrypt.hashLength else {
                throw AuthError(.stateDamaged, "damaged state file \(path): not an scrypt PIN digest", cause: .damagedState)
            }
            guard pinHash.count == pinHashLength else { return false }
            return try scrypt {
                try pinHash.withUnsafeBytes {
                    try Scrypt.matches($0, salt: Array(digest.salt), rounds: record.rounds, blockSize: record.blockSize,
                                       parallelism: record.parallelism, expected: digest.hash)
                }
            }
        }
    }

    private static func hashNow(_ passcode: Passcode, rounds: Int) throws(AuthError) -> PasscodeRecord {
        let salt = Scrypt.newSalt()
        let key = try scrypt { try passcode.withUnsafeBytes { try Scrypt.derive($0, salt: salt, rounds: rounds) } }
        return PasscodeRecord(algorithm: algorithm, rounds: rounds, blockSize: Scrypt.blockSize, parallelism: Scrypt.parallelism,
                              salt: Data(salt), hash: key.withUnsafeBytes { Data($0) }, setAt: Date(),
                              pinDigest: try pinDigestNow(pinHash(passcode), rounds: rounds))
    }

    private static func pinDigestNow(_ pinHash: [UInt8], rounds: Int) throws(AuthError) -> PasscodeRecord.PinDigest {
        let salt = Scrypt.newSalt()
        let key = try scrypt { try pinHash.withUnsafeBytes { try Scrypt.derive($0, salt: salt, rounds: rounds) } }
        return PasscodeRecord.PinDigest(salt: Data(salt), hash: key.withUnsafeBytes { Data($0) })
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
