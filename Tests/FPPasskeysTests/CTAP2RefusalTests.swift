@testable import FPPasskeys
import Crypto
import FPAuthentication
import Testing
import TestSupport

/// Each malformed or refused CTAP2 request gets CTAP's status, and none costs the user a
/// touch: the one scan the reader holds is still there for a valid request afterwards.
@Suite struct CTAP2RefusalTests {
    static let hash = CBORValue.bytes([UInt8](repeating: 7, count: 32))
    static let rp = CBORValue.map([.text("id"): .text("example.com")])
    static let user = CBORValue.map([.text("id"): .bytes([1, 2, 3]), .text("name"): .text("alice")])
    static let es256 = CBORValue.array([.map([.text("alg"): .int(-7), .text("type"): .text("public-key")])])

    static func message(_ command: UInt8, _ parameters: [CBORValue: CBORValue]) -> [UInt8] {
        [command] + CBOREncoder.encode(.map(parameters))
    }

    static let makeCredential: [CBORValue: CBORValue] = [.int(1): hash, .int(2): rp, .int(3): user, .int(4): es256,
                                                         .int(7): .map([.text("rk"): .bool(true)])]

    /// A platform's key-agreement key, and a "key" that is no point of P-256.
    static let platformKey: CBORValue = {
        let point = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        return .map([.int(1): .int(2), .int(3): .int(-25), .int(-1): .int(1),
                     .int(-2): .bytes(Array(point.dropFirst().prefix(32))), .int(-3): .bytes(Array(point.suffix(32)))])
    }()
    static let offCurve = CBORValue.map([.int(1): .int(2), .int(3): .int(-25), .int(-1): .int(1),
                                         .int(-2): .bytes([UInt8](repeating: 1, count: 32)), .int(-3): .bytes([UInt8](repeating: 2, count: 32))])

    @Test func malformedAndRefusedRequestsGetCTAPsStatusAndCostNoTouch() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let authenticator = try await harness.authenticator("scan alice-1\n")
        var make = Self.makeCredential
        let cases: [(String, [UInt8], CTAP2Status)] = [
            ("unknown command", [0x42], .invalidCommand),
            ("bio enrollment modality 2", Self.message(0x09, [.int(1): .int(2), .int(2): .int(7)]), .invalidParameter),
            ("bio enrollment with no modality", Self.message(0x09, [.int(2): .int(7)]), .missingParameter),
            ("bio enrollment subcommand 8", Self.message(0x09, [.int(1): .int(1), .int(2): .int(8)]), .invalidSubcommand),
            ("enrollBegin with no token given", Self.message(0x09, [.int(1): .int(1), .int(2): .int(1), .int(4): .int(2),
                                                                     .int(5): .bytes([UInt8](repeating: 1, count: 32))]), .pinAuthInvalid),
            ("enumerateEnrollments with no MAC", Self.message(0x40, [.int(1): .int(1), .int(2): .int(4), .int(4): .int(2)]), .missingParameter),
            ("removeEnrollment under protocol 3", Self.message(0x40, [.int(1): .int(1), .int(2): .int(6), .int(4): .int(3), .int(5): .bytes([1])]),
             .invalidParameter),
            ("enrollCaptureNextSample with no enrollment", Self.message(0x09, [.int(1): .int(1), .int(2): .int(2), .int(3): .map([.int(1): .bytes([2])]),
                                                                                .int(4): .int(2), .int(5): .bytes([1])]), .pinAuthInvalid),
            ("not CBOR", [0x01, 0xFF], .invalidCBOR),
            ("not a map", [0x01] + CBOREncoder.encode(.array([])), .cborUnexpectedType),
            ("no clientDataHash", Self.message(0x01, make.filter { $0.key != .int(1) }), .missingParameter),
            ("short clientDataHash", Self.message(0x01, make.merging([.int(1): .bytes([1])]) { $1 }), .invalidLength),
            ("rp not a map", Self.message(0x01, make.merging([.int(2): .text("example.com")]) { $1 }), .cborUnexpectedType),
            ("empty user id", Self.message(0x01, make.merging([.int(3): .map([.text("id"): .bytes([])])]) { $1 }), .invalidParameter),
            ("no ES256", Self.message(0x01, make.merging([.int(4): .array([.map([.text("alg"): .int(-257), .text("type"): .text("public-key")])])]) { $1 }),
             .unsupportedAlgorithm),
            ("credProtect 4", Self.message(0x01, make.merging([.int(6): .map([.text("credProtect"): .int(4)])]) { $1 }), .invalidOption),
            ("hmac-secret not a boolean", Self.message(0x01, make.merging([.int(6): .map([.text("hmac-secret"): .int(1)])]) { $1 }),
             .cborUnexpectedType),
            ("up false", Self.message(0x01, make.merging([.int(7): .map([.text("up"): .bool(false)])]) { $1 }), .invalidOption),
            ("a MAC with no token given", Self.message(0x01, make.merging([.int(8): .bytes([UInt8](repeating: 1, count: 16)), .int(9): .int(1)]) { $1 }),
             .pinAuthInvalid),
            ("a MAC under protocol 3", Self.message(0x01, make.merging([.int(8): .bytes([1]), .int(9): .int(3)]) { $1 }), .invalidParameter),
            ("a MAC with no protocol", Self.message(0x02, [.int(1): .text("example.com"), .int(2): Self.hash, .int(6): .bytes([1])]),
             .missingParameter),
            ("clientPIN with no subcommand", Self.message(0x06, [.int(1): .int(2)]), .missingParameter),
            ("clientPIN subcommand 8", Self.message(0x06, [.int(1): .int(2), .int(2): .int(8)]), .invalidSubcommand),
            ("getKeyAgreement under protocol 3", Self.message(0x06, [.int(1): .int(3), .int(2): .int(2)]), .invalidParameter),
            ("changePIN", Self.message(0x06, [.int(1): .int(2), .int(2): .int(4)]), .notAllowed),
            ("credential management with no token given", Self.message(0x0A, [.int(1): .int(1), .int(3): .int(2), .int(4): .bytes([UInt8](repeating: 1, count: 32))]),
             .pinAuthInvalid),
            ("credential management with no MAC", Self.message(0x0A, [.int(1): .int(2), .int(3): .int(2)]), .missingParameter),
            ("credential management subcommand 9", Self.message(0x0A, [.int(1): .int(9)]), .invalidSubcommand),
            ("getNextRP before a begin", Self.message(0x0A, [.int(1): .int(3)]), .notAllowed),
            ("getNextCredential before a begin", Self.message(0x0A, [.int(1): .int(5)]), .notAllowed),
            ("deleteCredential with no credential", Self.message(0x0A, [.int(1): .int(6), .int(3): .int(2), .int(4): .bytes([1])]),
             .missingParameter),
            ("getPinToken with permissions", Self.message(0x06, [.int(1): .int(2), .int(2): .int(5), .int(9): .int(1)]), .invalidParameter),
            ("a PIN token with no keyAgreement", Self.message(0x06, [.int(1): .int(2), .int(2): .int(9), .int(6): .bytes([]), .int(9): .int(2)]),
             .missingParameter),
            ("a key off the curve", Self.message(0x06, [.int(1): .int(2), .int(2): .int(5), .int(3): Self.offCurve, .int(6): .bytes([])]),
             .invalidParameter),
            ("a pinHashEnc of 15 bytes", Self.message(0x06, [.int(1): .int(1), .int(2): .int(5), .int(3): Self.platformKey,
                                                              .int(6): .bytes([UInt8](repeating: 0, count: 15))]), .invalidParameter),
            ("a token with no permissions", Self.message(0x06, [.int(1): .int(2), .int(2): .int(6), .int(3): Self.platformKey, .int(9): .int(0)]),
             .invalidParameter),
            ("a token for bio enrollment", Self.message(0x06, [.int(1): .int(2), .int(2): .int(6), .int(3): Self.platformKey, .int(9): .int(8)]),
             .unauthorizedPermission),
            ("65 excluded", Self.message(0x01, make.merging([.int(5): .array(Array(repeating: .map([.text("type"): .text("public-key"), .text("id"): .bytes([1])]), count: 65))]) { $1 }),
             .limitExceeded),
            ("silent assertion", Self.message(0x02, [.int(1): .text("example.com"), .int(2): Self.hash, .int(5): .map([.text("up"): .bool(false)])]),
             .unsupportedOption),
            ("rk in getAssertion", Self.message(0x02, [.int(1): .text("example.com"), .int(2): Self.hash, .int(5): .map([.text("rk"): .bool(true)])]),
             .unsupportedOption),
            ("no rpId", Self.message(0x02, [.int(2): Self.hash]), .missingParameter),
            ("getNextAssertion with nothing left", [0x08], .notAllowed),
        ]
        for (name, bytes, status) in cases {
            let answer = await authenticator.answer(bytes)
            #expect(answer.status == status, "\(name): \(answer)")
            #expect(answer.bytes == [status.rawValue], "\(name): the status alone")
        }
        make[.int(3)] = Self.user
        let made = await authenticator.answer(Self.message(0x01, make))
        #expect(made.status == .ok, "the one scan is still there: \(made)")
    }

    @Test func withNoPasscodeOrPrintGetInfoSaysUVIsNotSetUpAndRequestsAreDenied() async throws {
        let harness = PasskeyHarness()
        let authenticator = try await harness.authenticator("scan alice-1\n")
        let info = await authenticator.answer([0x04])
        #expect(info.status == .ok)
        #expect(info.body?[.int(4)]?[.text("uv")] == .bool(false), "\(info)")
        let made = await authenticator.answer(Self.message(0x01, Self.makeCredential))
        #expect(made.status == .operationDenied, "\(made)")
    }
}

/// The empty pinUvAuthParam, CTAP's "touch to select": answered after the touch (here a match),
/// with whether a PIN is set.
@Suite struct PinProbeTests {
    @Test func theEmptyMACTakesATouchThenSaysWhetherAPINIsSet() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let probe = CTAP2RefusalTests.message(0x02, [.int(1): .text("example.com"), .int(2): CTAP2RefusalTests.hash, .int(6): .bytes([])])
        let answered = await (try await harness.authenticator("scan alice-1\n")).answer(probe)
        #expect(answered.status == .pinInvalid, "a PIN is set: \(answered)")
        let untouched = await (try await harness.authenticator(String(repeating: "scan bob-1\n", count: 3))).answer(probe)
        #expect(untouched.status == .uvInvalid, "no match, no answer about the PIN: \(untouched)")
    }
}
