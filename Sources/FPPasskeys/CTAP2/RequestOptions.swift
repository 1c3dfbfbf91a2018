import FPStore

/// The `options` of makeCredential and getAssertion (CTAP 2.1 §6.1, §6.2), and the rules this
/// authenticator holds them to. Whatever `uv` says, a fingerprint match is made: a passkey here
/// never signs without one.
struct RequestOptions: Sendable {
    /// `rk`: a discoverable credential (makeCredential only).
    var discoverable = false
    /// `up`: user presence asked (default true).
    var presence = true
    /// `uv`: user verification asked.
    var verification = false

    init(_ arguments: CTAP2Arguments, key: CBORValue) throws(CTAP2Error) {
        guard let options = try arguments.map(key, "options") else { return }
        discoverable = try options.bool(.text("rk"), "rk") ?? false
        presence = try options.bool(.text("up"), "up") ?? true
        verification = try options.bool(.text("uv"), "uv") ?? false
    }
}

/// What makeCredential and getAssertion refuse alike before the finger is asked.
enum RequestRules {
    /// The client data hash, which is SHA-256 and so 32 bytes.
    static func clientDataHash(_ arguments: CTAP2Arguments, key: CBORValue) throws(CTAP2Error) -> [UInt8] {
        let hash = try arguments.bytes(key, "clientDataHash", required: true) ?? []
        guard hash.count == 32 else {
            throw CTAP2Error(.invalidLength, "clientDataHash is \(hash.count) bytes, not 32")
        }
        return hash
    }

    /// A relying party id the passkey's record can keep.
    static func relyingParty(_ id: String) throws(CTAP2Error) -> String {
        guard !id.isEmpty, id.utf8.count <= PasskeyFields.maximumRelyingPartyLength else {
            throw CTAP2Error(.invalidParameter, "the relying party id is \(id.utf8.count) bytes; 1 to \(PasskeyFields.maximumRelyingPartyLength) are taken")
        }
        return id
    }
}
