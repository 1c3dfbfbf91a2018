import FPAuthentication
import FoundationEssentials

/// authenticatorCredentialManagement (CTAP 2.1 §6.8): the user's discoverable passkeys listed
/// by site, deleted and renamed, each request proved by a PIN/UV auth token with the
/// credential management permission (got with the PIN or a match), as `fido2-token -L -r`,
/// `-D -i` and python-fido2's `CredentialManagement` ask. A device serves the person at the
/// seat only, so what is listed is hers alone.
extension CTAP2Authenticator {
    /// The subcommands (CTAP 2.1 §6.8.2).
    enum ManagementSubcommand: Int64 {
        case getCredsMetadata = 0x01
        case enumerateRPsBegin = 0x02
        case enumerateRPsGetNextRP = 0x03
        case enumerateCredentialsBegin = 0x04
        case enumerateCredentialsGetNextCredential = 0x05
        case deleteCredential = 0x06
        case updateUserInformation = 0x07
    }

    func credentialManagement(_ parameters: ArraySlice<UInt8>) async throws(CTAP2Error) -> CBORValue {
        let arguments = try CTAP2Arguments(parameters, of: "credentialManagement")
        let subcommand = try Self.subcommand(ManagementSubcommand.self, arguments, key: .int(1), of: "credential management")
        let code = subcommand.rawValue
        switch subcommand {
        case .enumerateRPsGetNextRP, .enumerateCredentialsGetNextCredential:
            return try pin.nextEnumerated(code)
        default: break
        }
        let subParameters = arguments[.int(2)]
        let options = try subParameters.map { value throws(CTAP2Error) in try CTAP2Arguments(value, of: "subCommandParams") }
        // Which site the request is about (nil: every site), for a token bound to one.
        var site: String?
        var credentials = try translatingState { () throws(AuthError) in try passkeys.all().filter(\.fields.discoverable) }
        switch subcommand {
        case .enumerateCredentialsBegin:
            let hash = try options?.bytes(.int(1), "rpIDHash", required: true) ?? []
            guard let match = credentials.first(where: { AuthenticatorData.rpIDHash($0.fields.relyingParty) == hash }) else {
                try authorize(arguments, code, subParameters, site: nil)
                throw CTAP2Error(.noCredentials, "no discoverable passkey of that site")
            }
            site = match.fields.relyingParty
            credentials = credentials.filter { $0.fields.relyingParty == site }
        case .deleteCredential, .updateUserInformation:
            let id = try Self.credentialID(options)
            guard let credential = credentials.first(where: { $0.id == id }) else {
                try authorize(arguments, code, subParameters, site: nil)
                throw CTAP2Error(.noCredentials, "no discoverable passkey of that id")
            }
            site = credential.fields.relyingParty
            credentials = [credential]
        default: break
        }
        try authorize(arguments, code, subParameters, site: site)
        switch subcommand {
        case .getCredsMetadata:
            let room = max(0, KeyVault.maximumKeysPerUser - (try translatingState { () throws(AuthError) in try passkeys.keyCount() }))
            return .map([.int(1): .int(Int64(credentials.count)), .int(2): .int(Int64(room))])
        case .enumerateRPsBegin:
            var sites: [String] = []
            for credential in credentials where !sites.contains(credential.fields.relyingParty) { sites.append(credential.fields.relyingParty) }
            guard !sites.isEmpty else { throw CTAP2Error(.noCredentials, "no discoverable passkey to list") }
            let answers: [CBORValue] = sites.map { site in
                .map([.int(3): .map([.text("id"): .text(site)]), .int(4): .bytes(AuthenticatorData.rpIDHash(site))])
            }
            pin.enumerate(Array(answers.dropFirst()), next: ManagementSubcommand.enumerateRPsGetNextRP.rawValue)
            return Self.adding(.int(5), .int(Int64(sites.count)), to: answers[0])
        case .enumerateCredentialsBegin:
            let answers = try credentials.map { credential throws(CTAP2Error) in try Self.describe(credential) }
            pin.enumerate(Array(answers.dropFirst()), next: ManagementSubcommand.enumerateCredentialsGetNextCredential.rawValue)
            return Self.adding(.int(9), .int(Int64(answers.count)), to: answers[0])
        case .deleteCredential:
            try translatingState { () throws(AuthError) in try passkeys.delete(id: credentials[0].id) }
            return .map([:])
        case .updateUserInformation:
            let user = try options?.map(.int(3), "user", required: true)
            let handle = try user?.bytes(.text("id"), "user.id", required: true) ?? []
            let name = MakeCredentialRequest.cut(try user?.text(.text("name"), "user.name"))
            let display = MakeCredentialRequest.cut(try user?.text(.text("displayName"), "user.displayName"))
            do throws(AuthError) {
                try passkeys.updateUser(id: credentials[0].id, userHandle: Data(handle), userName: name, displayName: display)
            } catch {
                throw error.code == .invalidInput ? CTAP2Error(.invalidParameter, error.message) : CTAP2Error(error)
            }
            return .map([:])
        case .enumerateRPsGetNextRP, .enumerateCredentialsGetNextCredential:
            throw CTAP2Error(.other, "unreachable")
        }
    }

    /// The token's MAC over the subcommand and its parameters (CTAP 2.1 §6.8.1), required.
    private func authorize(_ arguments: CTAP2Arguments, _ code: Int64, _ subParameters: CBORValue?, site: String?) throws(CTAP2Error) {
        let signed = try Self.signedSubcommand(arguments, versionKey: .int(3), macKey: .int(4), prefix: [UInt8(code)], subParameters)
        try pin.authorizeManagement(mac: signed.mac, signed.version, message: signed.message, relyingParty: site)
    }

    private static func credentialID(_ options: CTAP2Arguments?) throws(CTAP2Error) -> [UInt8] {
        guard let descriptor = try options?.map(.int(2), "credentialID", required: true) else {
            throw CTAP2Error(.missingParameter, "credential management has no subCommandParams")
        }
        return try descriptor.bytes(.text("id"), "credentialID.id", required: true) ?? []
    }

    /// One credential as enumerateCredentials gives it: the account, the id, the public key and
    /// the credProtect level.
    private static func describe(_ credential: PasskeyCredential) throws(CTAP2Error) -> CBORValue {
        .map([.int(6): account(credential),
              .int(7): .map([.text("id"): .bytes(credential.id), .text("type"): .text("public-key")]),
              .int(8): try AuthenticatorData.coseKey(credential.publicKey),
              .int(0x0A): .int(Int64(credential.fields.credentialProtection))])
    }
}
