import FPKeyFormats
import Foundation
import Testing

/// One scrypt for every secret (issue 27 §4: passcodes and server passwords had one each,
/// with different bounds): one set of accepted parameters, refused before scrypt runs.
@Suite struct ScryptTests {
    @Test func oneSetOfBoundsAndAConstantTimeMatch() throws {
        let salt = Scrypt.newSalt()
        #expect(Scrypt.accepts(rounds: 1 << 10, blockSize: 8, parallelism: 1, saltLength: salt.count))
        for (rounds, blockSize, parallelism, saltLength) in [(1 << 21, 8, 1, 16), (3000, 8, 1, 16), (1 << 9, 8, 1, 16),
                                                             (1 << 10, 17, 1, 16), (1 << 10, 8, 5, 16), (1 << 10, 8, 1, 4)] {
            #expect(!Scrypt.accepts(rounds: rounds, blockSize: blockSize, parallelism: parallelism, saltLength: saltLength))
        }
        #expect(throws: ScryptParameterError.self) {
            _ = try Array("2468".utf8).withUnsafeBytes { try Scrypt.derive($0, salt: salt, rounds: 1 << 21) }
        }
        let key = try Array("2468".utf8).withUnsafeBytes { try Scrypt.derive($0, salt: salt, rounds: 1 << 10) }
        let stored = key.withUnsafeBytes { Data($0) }
        func matches(_ secret: String) throws -> Bool {
            try Array(secret.utf8).withUnsafeBytes {
                try Scrypt.matches($0, salt: salt, rounds: 1 << 10, blockSize: Scrypt.blockSize, parallelism: Scrypt.parallelism, expected: stored)
            }
        }
        #expect(try matches("2468"))
        #expect(try !matches("2469"))
    }
}
