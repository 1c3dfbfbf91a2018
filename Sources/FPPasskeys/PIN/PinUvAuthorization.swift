/// What a makeCredential or getAssertion carries to show a PIN/UV auth token: its MAC of the
/// client data hash (`pinUvAuthParam`) under a protocol (`pinUvAuthProtocol`). An empty MAC
/// is CTAP's probe ("touch to select this authenticator"), answered after a touch with
/// whether a PIN is set.
package struct PinUvAuthorization: Sendable {
    package let mac: [UInt8]
    package let version: PinUvAuthProtocol

    /// Whether it is the empty probe.
    package var isProbe: Bool { mac.isEmpty }

    /// The authorization under `param` and `version` in `arguments`; nil when none is sent.
    /// - Throws: `CTAP2_ERR_MISSING_PARAMETER` for a MAC without a protocol,
    ///   `CTAP1_ERR_INVALID_PARAMETER` for a protocol not offered.
    static func read(_ arguments: CTAP2Arguments, param: CBORValue, version: CBORValue) throws(CTAP2Error) -> PinUvAuthorization? {
        let number = try arguments.int(version, "pinUvAuthProtocol")
        guard let mac = try arguments.bytes(param, "pinUvAuthParam") else { return nil }
        if mac.isEmpty, number == nil { return PinUvAuthorization(mac: [], version: .two) }
        guard let number else { throw CTAP2Error(.missingParameter, "pinUvAuthParam was sent with no pinUvAuthProtocol") }
        guard let chosen = PinUvAuthProtocol(rawValue: number) else {
            throw CTAP2Error(.invalidParameter, "PIN/UV auth protocol \(number) is not offered (1 and 2 are)")
        }
        return PinUvAuthorization(mac: mac, version: chosen)
    }
}
