/// The status byte that begins every CTAP2 answer (CTAP 2.1 §8.2): `ok`, or why the
/// authenticator refused. Only the statuses this authenticator sends are listed.
package enum CTAP2Status: UInt8, Sendable {
    /// Success; a CBOR map may follow.
    case ok = 0x00
    /// A command byte this authenticator does not offer.
    case invalidCommand = 0x01
    /// A parameter of the right type whose value is refused.
    case invalidParameter = 0x02
    /// A parameter of the wrong length (a client data hash that is not 32 bytes).
    case invalidLength = 0x03
    /// A parameter of the wrong CBOR type.
    case cborUnexpectedType = 0x11
    /// Bytes that are not one item of CTAP2's canonical CBOR.
    case invalidCBOR = 0x12
    /// A required parameter is absent.
    case missingParameter = 0x14
    /// A list longer than the authenticator takes (`maxCredentialCountInList`).
    case limitExceeded = 0x15
    /// bio enrollment: no finger is left to enroll on this reader (all ten are), or the
    /// user's print quota is full.
    case fingerprintDatabaseFull = 0x17
    /// makeCredential: the user already has one of the excluded credentials here.
    case credentialExcluded = 0x19
    /// makeCredential: none of the algorithms offered is one this authenticator makes.
    case unsupportedAlgorithm = 0x26
    /// The request cannot be carried out for this user now (no passcode, no print).
    case operationDenied = 0x27
    /// The user's key quota is full.
    case keyStoreFull = 0x28
    /// An option this authenticator does not carry out (`up: false`, `rk` in getAssertion).
    case unsupportedOption = 0x2B
    /// An option whose value is refused (makeCredential's `up: false`).
    case invalidOption = 0x2C
    /// The request was cancelled (by the host's CANCEL, or the user).
    case keepaliveCancel = 0x2D
    /// No credential of the site for this user.
    case noCredentials = 0x2E
    /// The finger was not given in time.
    case userActionTimeout = 0x2F
    /// getNextAssertion with no assertions left to give.
    case notAllowed = 0x30
    /// A wrong PIN (the passcode's counter took it).
    case pinInvalid = 0x31
    /// A MAC that is not the token's or the shared secret's, an expired token, or one without
    /// the permission or for another site.
    case pinAuthInvalid = 0x33
    /// The passcode is in one of its waits: no PIN is checked until it ends.
    case pinAuthBlocked = 0x34
    /// A PIN/UV auth parameter or a PIN was sent, and the user has no passcode (the PIN).
    case pinNotSet = 0x35
    /// A new PIN the passcode's rules refuse (too short, too long, not padded as CTAP wants).
    case pinPolicyViolation = 0x37
    /// A clientPIN subcommand this authenticator does not offer.
    case invalidSubcommand = 0x3E
    /// A token asked for with permissions this authenticator does not grant.
    case unauthorizedPermission = 0x40
    /// User verification is locked: the finger is locked out, or the password is needed first.
    case uvBlocked = 0x3C
    /// The finger did not match.
    case uvInvalid = 0x3F
    /// Any other failure (the state could not be read or written, the reader failed).
    case other = 0x7F
}

/// Why a CTAP2 request is refused: the status the host gets and the reason, for the log and
/// the tests (the host sees only the status).
package struct CTAP2Error: Error, Sendable, Equatable {
    /// The status the answer carries.
    package let status: CTAP2Status
    /// What was wrong, in words.
    package let reason: String

    package init(_ status: CTAP2Status, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}
