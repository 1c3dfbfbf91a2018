/// The CTAP2 commands (CTAP 2.1 §6), the first byte of a CBOR message. Only those this
/// authenticator answers are listed; any other byte is `CTAP1_ERR_INVALID_COMMAND`.
package enum CTAP2Command: UInt8, Sendable {
    /// authenticatorMakeCredential: a new passkey.
    case makeCredential = 0x01
    /// authenticatorGetAssertion: a passkey's signature over the site's challenge.
    case getAssertion = 0x02
    /// authenticatorGetInfo: what the authenticator offers.
    case getInfo = 0x04
    /// authenticatorGetNextAssertion: the next of several discoverable credentials.
    case getNextAssertion = 0x08

    /// Whether the command waits for the user's finger: its KEEPALIVEs say UPNEEDED.
    package var waitsForTheUser: Bool {
        self == .makeCredential || self == .getAssertion
    }
}
