@testable import FPPasskeys
import Crypto
import Testing
import TestSupport

/// The token's timers and bindings, on a clock the test moves.
@Suite struct PinUvSessionTests {
    let hash = [UInt8](repeating: 7, count: 32)

    func mac(_ token: SymmetricKey, _ version: PinUvAuthProtocol = .two) -> [UInt8] { version.authenticate(token, hash) }

    @Test func aTokenNotUsedWithinItsFirstThirtySecondsIsGone() throws {
        let clock = ManualClock()
        let session = PinUvSession(clock: clock)
        let token = session.give(.granted, relyingParty: nil, version: .two, verification: nil)
        clock.advance(by: PinUvSession.firstUseLimit + .seconds(1))
        #expect(throws: CTAP2Error.self) {
            try session.authorize(mac: mac(token), .two, clientDataHash: hash, for: .getAssertion, relyingParty: "example.com")
        }
    }

    @Test func aUsedTokenLastsItsUsagePeriodAndIsBoundToItsFirstSite() throws {
        let clock = ManualClock()
        let session = PinUvSession(clock: clock)
        let token = session.give(.granted, relyingParty: nil, version: .two, verification: nil)
        _ = try session.authorize(mac: mac(token), .two, clientDataHash: hash, for: .makeCredential, relyingParty: "example.com")
        clock.advance(by: .seconds(300))
        _ = try session.authorize(mac: mac(token), .two, clientDataHash: hash, for: .getAssertion, relyingParty: "example.com")
        #expect(throws: CTAP2Error(.pinAuthInvalid, "the PIN/UV auth token is for example.com, not other.example")) {
            try session.authorize(mac: mac(token), .two, clientDataHash: hash, for: .getAssertion, relyingParty: "other.example")
        }
        clock.advance(by: PinUvSession.usagePeriod)
        #expect(throws: CTAP2Error(.pinAuthInvalid, "the PIN/UV auth token has expired")) {
            try session.authorize(mac: mac(token), .two, clientDataHash: hash, for: .getAssertion, relyingParty: "example.com")
        }
    }

    @Test func aNewTokenEndsTheOldOneAndAPermissionNotGivenIsRefused() throws {
        let session = PinUvSession()
        let old = session.give(.granted, relyingParty: nil, version: .two, verification: nil)
        let new = session.give(.getAssertion, relyingParty: "example.com", version: .two, verification: nil)
        #expect(throws: CTAP2Error.self) {
            try session.authorize(mac: mac(old), .two, clientDataHash: hash, for: .getAssertion, relyingParty: "example.com")
        }
        #expect(throws: CTAP2Error(.pinAuthInvalid, "the PIN/UV auth token lacks the permission 1")) {
            try session.authorize(mac: mac(new), .two, clientDataHash: hash, for: .makeCredential, relyingParty: "example.com")
        }
        // A token's MACs are taken under the protocol it was given under only.
        #expect(throws: CTAP2Error(.pinAuthInvalid, "the PIN/UV auth token was given under protocol 2, not 1")) {
            try session.authorize(mac: mac(new, .one), .one, clientDataHash: hash, for: .getAssertion, relyingParty: "example.com")
        }
        let older = session.give(.granted, relyingParty: nil, version: .one, verification: nil)
        #expect(throws: CTAP2Error.self) {
            try session.authorize(mac: mac(older), .one, clientDataHash: hash, for: .getAssertion, relyingParty: "example.com")
        }
        _ = try session.authorize(mac: mac(older, .one), .one, clientDataHash: hash, for: .getAssertion, relyingParty: "example.com")
    }

    @Test func theSharedSecretsAgreeWithThePlatformsUnderBothProtocols() throws {
        let session = PinUvSession()
        guard case .map(let cose) = session.keyAgreement(), case .bytes(let x)? = cose[.int(-2)], case .bytes(let y)? = cose[.int(-3)]
        else { Issue.record("no COSE key"); return }
        let authenticatorKey = try P256.KeyAgreement.PublicKey(x963Representation: [0x04] + x + y)
        let platform = P256.KeyAgreement.PrivateKey()
        let point = platform.publicKey.x963Representation
        let platformCOSE = CBORValue.map([.int(1): .int(2), .int(3): .int(-25), .int(-1): .int(1),
                                          .int(-2): .bytes(Array(point.dropFirst().prefix(32))), .int(-3): .bytes(Array(point.suffix(32)))])
        for version in PinUvAuthProtocol.allCases {
            let mine = version.sharedSecret(try platform.sharedSecretFromKeyAgreement(with: authenticatorKey))
            let theirs = try session.sharedSecret(with: try CTAP2Arguments(platformCOSE, of: "keyAgreement"), version)
            #expect(mine == theirs)
            let secret = [UInt8](repeating: 9, count: 16)
            #expect(try version.decrypt(theirs, try version.encrypt(mine, secret), "test") == secret)
        }
        // A point off the curve is refused.
        let bad = CBORValue.map([.int(1): .int(2), .int(3): .int(-25), .int(-1): .int(1),
                                 .int(-2): .bytes([UInt8](repeating: 1, count: 32)), .int(-3): .bytes([UInt8](repeating: 2, count: 32))])
        #expect(throws: CTAP2Error.self) { try session.sharedSecret(with: try CTAP2Arguments(bad, of: "keyAgreement"), .two) }
    }
}
