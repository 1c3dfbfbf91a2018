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
    /// authenticatorBioEnrollment: the user's prints enrolled, listed, renamed, removed.
    case bioEnrollment = 0x09
    /// authenticatorSelection: which of several security keys the user means, by a touch.
    case selection = 0x0B
    /// The same under its CTAP 2.1 draft number, which libfido2 1.12 (Debian 12's) sends.
    case bioEnrollmentPreview = 0x40

    /// Whether `message` (a command byte, then its parameters) waits for the user's finger:
    /// its KEEPALIVEs say UPNEEDED. A token got with the finger waits too.
    package static func waitsForTheUser(_ message: [UInt8]) -> Bool {
        switch message.first.flatMap(CTAP2Command.init(rawValue:)) {
        case .makeCredential?, .getAssertion?, .selection?: return true
        case .clientPIN?:
            return subcommand(of: message, key: .int(2)) == ClientPINSubcommand.tokenUsingUV.rawValue
        case .bioEnrollment?, .bioEnrollmentPreview?:
            // An enrollment's samples: each waits for a touch.
            return [BioEnrollmentSubcommand.enrollBegin.rawValue, BioEnrollmentSubcommand.enrollCaptureNextSample.rawValue]
                .contains(subcommand(of: message, key: .int(2)))
        default: return false
        }
    }

    private static func subcommand(of message: [UInt8], key: CBORValue) -> Int64? {
        do {
            return try CTAP2Arguments(message.dropFirst(), of: "request").int(key, "subCommand")
        } catch {
            return nil  // refused at once, for its malformed parameters: it waits for nothing
        }
    }
}
