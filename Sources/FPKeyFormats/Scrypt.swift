import Crypto
import CryptoExtras
import FoundationEssentials

/// scrypt as fpbridge uses it for every secret a person types (the engine's passcodes, the
/// login server's passwords): one set of parameters a stored record may name, one derivation,
/// and a comparison in constant time. Slow on purpose (a tenth of a second at the default
/// cost): callers run it off the threads that serve others.
public enum Scrypt {
    /// scrypt's N a record may name: below, too weak to write; above, a damaged or hostile
    /// record could make one check take gigabytes and minutes.
    public static let acceptedRounds = (1 << 10)...(1 << 20)
    /// scrypt's r a record may name.
    public static let acceptedBlockSize = 1...16
    /// scrypt's p a record may name.
    public static let acceptedParallelism = 1...4
    /// Salt lengths a record may have, in bytes.
    public static let acceptedSaltLength = 8...64

    /// The r new records are made with.
    public static let blockSize = 8
    /// The p new records are made with.
    public static let parallelism = 1
    /// The length of the derived key, in bytes.
    public static let hashLength = 32

    /// Whether a record's parameters are ones an honest record has; checked before scrypt runs on them.
    public static func accepts(rounds: Int, blockSize: Int, parallelism: Int, saltLength: Int) -> Bool {
        acceptedRounds.contains(rounds) && rounds & (rounds - 1) == 0 && acceptedBlockSize.contains(blockSize)
            && acceptedParallelism.contains(parallelism) && acceptedSaltLength.contains(saltLength)
    }

    /// A new random salt (16 bytes).
    public static func newSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The key `secret` derives with these parameters.
    /// - Throws: when the parameters are outside what ``accepts(rounds:blockSize:parallelism:saltLength:)``
    ///   allows, or scrypt fails.
    public static func derive(_ secret: UnsafeRawBufferPointer, salt: [UInt8], rounds: Int, blockSize: Int = blockSize,
                              parallelism: Int = parallelism) throws -> SymmetricKey {
        guard accepts(rounds: rounds, blockSize: blockSize, parallelism: parallelism, saltLength: salt.count) else {
            throw ScryptParameterError(rounds: rounds, blockSize: blockSize, parallelism: parallelism, saltLength: salt.count)
        }
        return try KDF.Scrypt.deriveKey(from: secret, salt: salt, outputByteCount: hashLength,
                                        rounds: rounds, blockSize: blockSize, parallelism: parallelism)
    }

    /// Whether `secret` derives `expected` (compared in constant time: SymmetricKey's equality).
    public static func matches(_ secret: UnsafeRawBufferPointer, salt: [UInt8], rounds: Int, blockSize: Int, parallelism: Int,
                               expected: Data) throws -> Bool {
        guard expected.count == hashLength else { return false }
        return try derive(secret, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
            == SymmetricKey(data: expected)
    }
}

/// scrypt parameters that no honest record names.
public struct ScryptParameterError: Error, Sendable, CustomStringConvertible {
    /// N, r, p and the salt's length as given.
    public let rounds: Int, blockSize: Int, parallelism: Int, saltLength: Int

    /// What is out of range.
    public var description: String {
        "scrypt parameters N=\(rounds), r=\(blockSize), p=\(parallelism), salt of \(saltLength) bytes are outside "
            + "N a power of two in \(Scrypt.acceptedRounds), r in \(Scrypt.acceptedBlockSize), p in \(Scrypt.acceptedParallelism), "
            + "salt in \(Scrypt.acceptedSaltLength) bytes"
    }
}
