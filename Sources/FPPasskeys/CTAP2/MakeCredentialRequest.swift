import FPStore
import FoundationEssentials

/// authenticatorMakeCredential's parameters (CTAP 2.1 §6.1), read and checked before the
/// finger is asked: a malformed request never costs the user a touch.
package struct MakeCredentialRequest: Sendable {
    package let clientDataHash: [UInt8]
    package let fields: PasskeyFields
    let excluded: [[UInt8]]
    let options: RequestOptions
    /// The PIN/UV auth token's MAC, when one is shown.
    package let authorization: PinUvAuthorization?
    /// The credProtect level the request asked for, nil when it asked none (the answer then
    /// says none).
    let protectionAsked: Int?

    /// The credProtect extension's name in CTAP's maps.
    static let credProtect = "credProtect"

    /// COSE's identifier of ES256 (ECDSA P-256 with SHA-256), the one algorithm made here.
    static let es256: Int64 = -7

    package init(_ bytes: ArraySlice<UInt8>) throws(CTAP2Error) {
        let arguments = try CTAP2Arguments(bytes, of: "makeCredential")
        clientDataHash = try RequestRules.clientDataHash(arguments, key: .int(1))
        let rp = try arguments.map(.int(2), "rp", required: true)!
        let relyingParty = try RequestRules.relyingParty(try rp.text(.text("id"), "id", required: true)!)
        let user = try arguments.map(.int(3), "user", required: true)!
        let handle = try user.bytes(.text("id"), "id", required: true)!
        guard (1...PasskeyFields.maximumUserHandleLength).contains(handle.count) else {
            throw CTAP2Error(.invalidParameter, "user.id is \(handle.count) bytes; 1 to \(PasskeyFields.maximumUserHandleLength) are taken")
        }
        let parameters = try arguments.array(.int(4), "pubKeyCredParams", required: true)!
        var offered = false
        for parameter in parameters {
            let entry = try CTAP2Arguments(parameter, of: "pubKeyCredParams entry")
            let alg = try entry.int(.text("alg"), "alg", required: true)
            let type = try entry.text(.text("type"), "type", required: true)
            if type == "public-key", alg == Self.es256 { offered = true }
        }
        guard offered else {
            throw CTAP2Error(.unsupportedAlgorithm, "pubKeyCredParams offers no ES256 (-7) public-key algorithm")
        }
        excluded = try CredentialList.ids(try arguments.array(.int(5), "excludeList") ?? [], "excludeList")
        // Extensions (6): hmac-secret and credProtect are carried out; unknown ones are ignored,
        // as CTAP wants.
        let extensions = try arguments.map(.int(6), "extensions")
        let hmacSecret = try extensions?.bool(.text(HMACSecretRequest.name), HMACSecretRequest.name) ?? false
        let protection = try extensions?.int(.text(Self.credProtect), Self.credProtect)
        if let protection, !(1...3).contains(protection) {
            throw CTAP2Error(.invalidOption, "credProtect \(protection) is not 1, 2 or 3")
        }
        protectionAsked = protection.map(Int.init)
        options = try RequestOptions(arguments, key: .int(7))
        guard options.presence else {
            throw CTAP2Error(.invalidOption, "makeCredential with up: false; a passkey is made only with the user")
        }
        authorization = try PinUvAuthorization.read(arguments, param: .int(8), version: .int(9))
        fields = PasskeyFields(relyingParty: relyingParty, userHandle: Data(handle),
                               userName: Self.cut(try user.text(.text("name"), "name")),
                               displayName: Self.cut(try user.text(.text("displayName"), "displayName")),
                               discoverable: options.discoverable, hmacSecret: hmacSecret,
                               credentialProtection: protectionAsked ?? 1)
    }

    /// What the registration's authenticator data says of the extensions asked for.
    var extensionOutputs: [CBORValue: CBORValue] {
        var outputs: [CBORValue: CBORValue] = [:]
        if fields.hmacSecret { outputs[.text(HMACSecretRequest.name)] = .bool(true) }
        if let protectionAsked { outputs[.text(Self.credProtect)] = .int(Int64(protectionAsked)) }
        return outputs
    }

    /// A name cut to the length kept, on a character boundary (CTAP lets an authenticator
    /// truncate names to 64 bytes).
    static func cut(_ name: String?) -> String? {
        guard let name else { return nil }
        var kept = ""
        for character in name {
            guard kept.utf8.count + String(character).utf8.count <= PasskeyFields.maximumNameLength else { break }
            kept.append(character)
        }
        return kept
    }
}
