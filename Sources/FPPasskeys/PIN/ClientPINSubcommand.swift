/// authenticatorClientPIN's subcommands (CTAP 2.1 §6.5.5); any other is `CTAP2_ERR_INVALID_SUBCOMMAND`.
package enum ClientPINSubcommand: Int64, Sendable {
    /// How many wrong PINs remain before the passcode's next wait.
    case getPINRetries = 0x01
    /// The authenticator's key-agreement key.
    case getKeyAgreement = 0x02
    /// Sets the PIN, which becomes the user's passcode, when there is none.
    case setPIN = 0x03
    /// Changes the PIN: refused here (the passcode is changed with `fpbridge passcode change`).
    case changePIN = 0x04
    /// A token for makeCredential and getAssertion, got with the PIN (CTAP 2.0's way).
    case getPINToken = 0x05
    /// A token with permissions, got with a fingerprint match.
    case tokenUsingUV = 0x06
    /// How many failed matches remain before the finger locks.
    case getUVRetries = 0x07
    /// A token with permissions, got with the PIN.
    case tokenUsingPIN = 0x09
}
