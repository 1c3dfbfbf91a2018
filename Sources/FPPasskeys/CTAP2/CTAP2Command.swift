/// The CTAP2 commands (CTAP 2.1 §6), the first byte of a CBOR message. Only those this
/// authenticator answers are listed; any other byte is `CTAP1_ERR_INVALID_COMMAND`.
package enum CTAP2Command: UInt8, Sendable {
    /// authenticatorMakeCredential: a new passkey.
    case makeCredential = 0x01
    /// authenticatorGetAssertion: a passkey's signature over the site's challenge.
    case getAssertion = 0x02
    /// authenticatorGetInfo: what the authenticator offers.
    case getInfo = 0x04
    /// authenticatorClientPIN: the PIN (the passcode) and the PIN/UV auth tokens.
    case clientPIN = 0x06
    /// authenticatorCredentialManagement: the user's discoverable passkeys listed, deleted, renamed.
    case credentialManagement = 0x0A
    /// The same under its CTAP 2.1 draft number, which libfido2 1.12 (Debian 12's) sends.
    case credentialManagementPreview = 0x41
    /// authenticatorGetNextAssertion: the next of several discoverable credentials.
    case getNextAssertion = 0x08

    /// Whether `message` (a command byte, then its parameters) waits for the user's finger:
    /// its KEEPALIVEs say UPNEEDED. A token got with the finger waits too.
    package static func waitsForTheUser(_ message: [UInt8]) -> Bool {
        switch message.first.flatMap(CTAP2Command.init(rawValue:)) {
        case .makeCredential?, .getAssertion?: return true
        case .clientPIN?:
            do {
                return try CTAP2Arguments(message.dropFirst(), of: "clientPIN").int(.int(2), "subCommand")
                    == ClientPINSubcommand.tokenUsingUV.rawValue
            } catch {
                return false  // refused at once, for its malformed parameters: it waits for nothing
            }
        default: return false
        }
    }
}
