import Crypto
import FPAuthentication
import Synchronization

/// The PIN/UV state of one authenticator from one power-up to the next (CTAP 2.1 §6.5): the
/// key-agreement key the platform's shared secret is made with, and the one pinUvAuthToken
/// with its permissions, the site it is bound to and its timers. For fpbridged's device a
/// power-up is the device's making (when the seat changes hands, a new one is made).
///
/// A token got with a finger carries that match for its first use (one touch signs, as on a
/// security key); every later use, and every use of a token got with the PIN, takes a match of
/// its own, since user presence here is a touch of the reader and that is a match.
package final class PinUvSession: Sendable {
    /// What a token may be used for (CTAP 2.1 §6.5.5.7); fpbridge grants these four, bio
    /// enrollment only to a token got with the PIN (the passcode, which iOS asks before a
    /// finger is added).
    package struct Permissions: OptionSet, Sendable {
        package let rawValue: Int64
        package init(rawValue: Int64) { self.rawValue = rawValue }
        package static let makeCredential = Permissions(rawValue: 0x01)
        package static let getAssertion = Permissions(rawValue: 0x02)
        package static let credentialManagement = Permissions(rawValue: 0x04)
        package static let bioEnrollment = Permissions(rawValue: 0x08)
        /// The permissions granted here.
        package static let granted: Permissions = [.makeCredential, .getAssertion, .credentialManagement, .bioEnrollment]
        /// What CTAP 2.0's getPinToken gives (it names no permission).
        package static let legacy: Permissions = [.makeCredential, .getAssertion]
    }

    /// A token unused this long after it was given is gone (CTAP's initial usage time limit):
    /// as long as the finger's match it may carry counts.
    package static let firstUseLimit: Duration = .seconds(PasskeyVerification.lifetime)
    /// A token is gone this long after it was given, used or not (CTAP's maximum usage period).
    package static let usagePeriod: Duration = .seconds(600)

    private struct Token {
        var key: SymmetricKey
        var permissions: Permissions
        var relyingParty: String?
        /// The protocol it was given under, the only one its MACs are taken in.
        var version: PinUvAuthProtocol
        var givenAt: Duration
        var used = false
        /// The finger's match it was given for, spent by its first use.
        var verification: PasskeyVerification?
        /// The PIN it was given for, which enrollments stand on; nil when it was the finger.
        var entry: PasskeyPINEntry?
    }

    private struct State {
        var agreement = P256.KeyAgreement.PrivateKey()
        var token: Token?
        /// What credential management's getNext subcommands give next, and which subcommand
        /// may ask for it; cleared with every new token.
        var enumeration: (next: Int64, answers: [CBORValue])?
    }

    private let state = Mutex(State())
    private let elapsed: @Sendable () -> Duration

    /// A session timed by `clock` (tests advance it).
    package init<C: Clock<Duration>>(clock: C = ContinuousClock()) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
    }

    /// The authenticator's key-agreement public key as a COSE_Key (EC2, P-256, alg -25, which
    /// CTAP names "although this is not the algorithm actually used").
    func keyAgreement() -> CBORValue {
        let point = state.withLock { $0.agreement.publicKey.x963Representation }
        return .map([.int(1): .int(2), .int(3): .int(-25), .int(-1): .int(1),
                     .int(-2): .bytes(Array(point.dropFirst().prefix(32))), .int(-3): .bytes(Array(point.suffix(32)))])
    }

    /// The shared secret with the platform's key-agreement key `platform` (a COSE_Key) under `version`.
    /// - Throws: `CTAP1_ERR_INVALID_PARAMETER` for a key that is not a P-256 point.
    package func sharedSecret(with platform: CTAP2Arguments, _ version: PinUvAuthProtocol) throws(CTAP2Error) -> SymmetricKey {
        guard try platform.int(.int(1), "kty") == 2, try platform.int(.int(-1), "crv") == 1,
              let x = try platform.bytes(.int(-2), "x"), let y = try platform.bytes(.int(-3), "y"), x.count == 32, y.count == 32
        else {
            throw CTAP2Error(.invalidParameter, "keyAgreement is not an EC2 P-256 COSE key")
        }
        do {
            let key = try P256.KeyAgreement.PublicKey(x963Representation: [0x04] + x + y)
            let z = try state.withLock { try $0.agreement.sharedSecretFromKeyAgreement(with: key) }
            return version.sharedSecret(z)
        } catch {
            throw CTAP2Error(.invalidParameter, "keyAgreement is not a point of P-256: \(error)")
        }
    }

    /// A new key-agreement key: after a wrong PIN, so that the next guess needs a new
    /// agreement (CTAP 2.1 §6.5.5.5).
    func renewKeyAgreement() {
        state.withLock { $0.agreement = P256.KeyAgreement.PrivateKey() }
    }

    /// A new token (any earlier one is gone) for `permissions` and, when named, `relyingParty`;
    /// `verification` is the finger's match it was given for, `entry` the PIN (one of the two).
    func give(_ permissions: Permissions, relyingParty: String?, version: PinUvAuthProtocol,
              verification: PasskeyVerification?, entry: PasskeyPINEntry? = nil) -> SymmetricKey {
        let key = SymmetricKey(size: .bits256)
        let now = elapsed()
        state.withLock {
            $0.token = Token(key: key, permissions: permissions, relyingParty: relyingParty, version: version, givenAt: now,
                             verification: verification, entry: entry)
            $0.enumeration = nil
        }
        return key
    }

    /// Checks a request's `pinUvAuthParam` (`mac`, the MAC of its client data hash under the
    /// token), its permission and its site; a token with no site is bound to this one. Returns
    /// the finger's match the token still carries, taken from it (its first use), or nil.
    /// - Throws: `CTAP2_ERR_PIN_AUTH_INVALID` for no token, one past its time, a MAC that is not
    ///   the token's, a permission it lacks or another site.
    package func authorize(mac: [UInt8], _ version: PinUvAuthProtocol, clientDataHash: [UInt8], for permission: Permissions,
                   relyingParty: String) throws(CTAP2Error) -> PasskeyVerification? {
        try authorize(mac: mac, version, message: clientDataHash, for: permission, relyingParty: relyingParty, binding: true).verification
    }

    /// The same for credential management, whose MAC covers `message` (the subcommand and its
    /// parameters): a token bound to a site serves only requests about that site
    /// (`relyingParty`; nil for those about every site), and none binds it.
    func authorizeManagement(mac: [UInt8], _ version: PinUvAuthProtocol, message: [UInt8], relyingParty: String?) throws(CTAP2Error) {
        _ = try authorize(mac: mac, version, message: message, for: .credentialManagement, relyingParty: relyingParty, binding: false)
    }

    /// The same for bio enrollment, whose MAC covers `message` (the modality, the subcommand and
    /// its parameters). Returns the PIN the token was given for, which an enrollment stands on.
    /// - Throws: as ``authorize(mac:_:clientDataHash:for:relyingParty:)``; a token with the
    ///   permission was always given for the PIN.
    package func authorizeEnrollment(mac: [UInt8], _ version: PinUvAuthProtocol, message: [UInt8]) throws(CTAP2Error) -> PasskeyPINEntry {
        let (_, entry) = try authorize(mac: mac, version, message: message, for: .bioEnrollment, relyingParty: nil, binding: false,
                                       keepingSite: true)
        guard let entry else { throw CTAP2Error(.pinAuthInvalid, "the PIN/UV auth token was not given for the PIN") }
        return entry
    }

    /// What credential management's getNext subcommand `subcommand` gives next.
    /// - Throws: `CTAP2_ERR_NOT_ALLOWED` when nothing is left, or the begin was another's.
    func nextEnumerated(_ subcommand: Int64) throws(CTAP2Error) -> CBORValue {
        try state.withLock { (state: inout State) throws(CTAP2Error) -> CBORValue in
            guard var enumeration = state.enumeration, enumeration.next == subcommand, !enumeration.answers.isEmpty else {
                state.enumeration = nil
                throw CTAP2Error(.notAllowed, "nothing is left to enumerate for subcommand \(subcommand)")
            }
            let answer = enumeration.answers.removeFirst()
            state.enumeration = enumeration.answers.isEmpty ? nil : enumeration
            return answer
        }
    }

    /// Keeps `answers` for the getNext subcommand `next` (an enumeration's begin gave the first).
    func enumerate(_ answers: [CBORValue], next: Int64) {
        state.withLock { $0.enumeration = answers.isEmpty ? nil : (next, answers) }
    }

    /// The checks every use of a token makes. `keepingSite`: the request concerns no site, and
    /// a token bound to one serves it all the same (bio enrollment's prints are no site's).
    private func authorize(mac: [UInt8], _ version: PinUvAuthProtocol, message: [UInt8], for permission: Permissions,
                           relyingParty: String?, binding: Bool, keepingSite: Bool = false)
        throws(CTAP2Error) -> (verification: PasskeyVerification?, entry: PasskeyPINEntry?) {
        let now = elapsed()
        return try state.withLock { (state: inout State) throws(CTAP2Error) -> (PasskeyVerification?, PasskeyPINEntry?) in
            guard var token = state.token else {
                throw CTAP2Error(.pinAuthInvalid, "no PIN/UV auth token was given since the device started")
            }
            let age = now - token.givenAt
            guard age <= Self.usagePeriod, token.used || age <= Self.firstUseLimit else {
                state.token = nil
                throw CTAP2Error(.pinAuthInvalid, "the PIN/UV auth token has expired")
            }
            guard version == token.version else {
                throw CTAP2Error(.pinAuthInvalid, "the PIN/UV auth token was given under protocol \(token.version.rawValue), not \(version.rawValue)")
            }
            guard version.verify(token.key, message, mac: mac) else {
                throw CTAP2Error(.pinAuthInvalid, "pinUvAuthParam is not the token's MAC of the request")
            }
            guard token.permissions.contains(permission) else {
                throw CTAP2Error(.pinAuthInvalid, "the PIN/UV auth token lacks the permission \(permission.rawValue)")
            }
            if !keepingSite, let bound = token.relyingParty, bound != relyingParty {
                throw CTAP2Error(.pinAuthInvalid, "the PIN/UV auth token is for \(bound), not \(relyingParty ?? "every site")")
            }
            if binding { token.relyingParty = relyingParty }
            token.used = true
            let verification = token.verification
            token.verification = nil
            state.token = token
            return (verification, token.entry)
        }
    }
}
