/// authenticatorGetAssertion's parameters (CTAP 2.1 §6.2), read and checked before the
/// finger is asked.
package struct GetAssertionRequest: Sendable {
    package let relyingParty: String
    package let clientDataHash: [UInt8]
    /// The ids the site allows; empty: any discoverable credential of the site.
    let allowed: [[UInt8]]
    let options: RequestOptions
    /// The PIN/UV auth token's MAC, when one is shown.
    package let authorization: PinUvAuthorization?
    /// The `hmac-secret` extension's input, when asked.
    package let hmacSecret: HMACSecretRequest?

    package init(_ bytes: ArraySlice<UInt8>) throws(CTAP2Error) {
        let arguments = try CTAP2Arguments(bytes, of: "getAssertion")
        relyingParty = try RequestRules.relyingParty(try arguments.text(.int(1), "rpId", required: true)!)
        clientDataHash = try RequestRules.clientDataHash(arguments, key: .int(2))
        allowed = try CredentialList.ids(try arguments.array(.int(3), "allowList") ?? [], "allowList")
        hmacSecret = try HMACSecretRequest(try arguments.map(.int(4), "extensions"))
        options = try RequestOptions(arguments, key: .int(5))
        if options.discoverable {
            throw CTAP2Error(.unsupportedOption, "getAssertion takes no rk option")
        }
        // A silent assertion (up: false) would be a signature nobody gave: never made here.
        guard options.presence else {
            throw CTAP2Error(.unsupportedOption, "getAssertion with up: false; a passkey signs only after a fingerprint match")
        }
        authorization = try PinUvAuthorization.read(arguments, param: .int(6), version: .int(7))
    }
}
