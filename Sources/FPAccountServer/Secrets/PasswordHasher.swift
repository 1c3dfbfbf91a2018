import Crypto
import CryptoExtras
import Dispatch
import Foundation

/// Passwords as slow salted hashes (scrypt), kept as
/// `scrypt$N$r$p$salt$hash` (salt and hash in base64), compared in constant time.
struct PasswordHasher: Sendable {
    /// log2 of scrypt's N: 15 (32 MiB, ~0.1 s) by default.
    let costLog2: Int

    private static let blockSize = 8
    private static let hashLength = 32
    // scrypt takes a tenth of a second: off the event loops and off the cooperative pool.
    private static let queue = DispatchQueue(label: "fpbridge-server.scrypt", attributes: .concurrent)

    func hash(_ password: String) async throws -> String {
        let rounds = 1 << costLog2
        return try await Self.offload {
            var generator = SystemRandomNumberGenerator()
            let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let key = try Self.derive(password, salt: salt, rounds: rounds, blockSize: Self.blockSize, parallelism: 1)
            return ["scrypt", "\(rounds)", "\(Self.blockSize)", "1", Data(salt).base64EncodedString(),
                    key.withUnsafeBytes { Data($0).base64EncodedString() }].joined(separator: "$")
        }
    }

    /// Whether `password` is the one `stored` was made from; false for a record that is not ours.
    func matches(_ password: String, stored: String) async -> Bool {
        let parts = stored.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt", let rounds = Int(parts[1]), let blockSize = Int(parts[2]),
              let parallelism = Int(parts[3]), let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5]),
              rounds.nonzeroBitCount == 1, rounds <= 1 << 20, (1...32).contains(blockSize), parallelism == 1
        else { return false }
        let key = try? await Self.offload { try Self.derive(password, salt: Array(salt), rounds: rounds, blockSize: blockSize, parallelism: 1) }
        // SymmetricKey's equality compares in constant time.
        return key == SymmetricKey(data: expected)
    }

    /// The same time as a real check, for an unknown user: no answer tells which names exist.
    func burn(_ password: String) async {
        _ = try? await hash(password)
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int, blockSize: Int, parallelism: Int) throws -> SymmetricKey {
        try KDF.Scrypt.deriveKey(from: Array(password.utf8), salt: salt, outputByteCount: hashLength,
                                 rounds: rounds, blockSize: blockSize, parallelism: parallelism)
    }

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
