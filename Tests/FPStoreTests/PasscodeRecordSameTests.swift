import FPStore
import Foundation
import Testing

/// A PIN digest filled in later is no change of passcode; anything of the hash itself is.
@Suite struct PasscodeRecordSameTests {
    let record = PasscodeRecord(algorithm: "scrypt", rounds: 1024, blockSize: 8, parallelism: 1, salt: Data(repeating: 1, count: 16),
                                hash: Data(repeating: 2, count: 32), setAt: Date(timeIntervalSince1970: 1_000))

    @Test func aDigestAddedIsTheSamePasscodeAndANewSaltOrMomentIsNot() {
        var completed = record
        completed.pinDigest = .init(salt: Data(repeating: 3, count: 16), hash: Data(repeating: 4, count: 32))
        #expect(record.isSamePasscode(as: completed) && completed.isSamePasscode(as: record))
        #expect(!record.isSamePasscode(as: nil))
        var resalted = record
        resalted.salt = Data(repeating: 5, count: 16)
        #expect(!record.isSamePasscode(as: resalted))
        var reset = record
        reset.setAt = Date(timeIntervalSince1970: 2_000)
        #expect(!record.isSamePasscode(as: reset))
    }

    @Test func aDigestOfTheWrongLengthIsADamagedRecord() throws {
        var damaged = record
        damaged.pinDigest = .init(salt: Data(repeating: 3, count: 16), hash: Data(repeating: 4, count: 31))
        let bytes = try JSONEncoder().encode(damaged)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PasscodeRecord.self, from: bytes) }
        let whole = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(PasscodeRecord.self, from: whole) == record)
    }
}
