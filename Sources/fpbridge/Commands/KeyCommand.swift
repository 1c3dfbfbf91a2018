import FPLocalAPIEngine
import ArgumentParser
import FPAuthentication
import FPServiceClient
import FPTerminal
import FoundationEssentials
import Glibc
import SystemPackage

/// Keys released by a match, hosted in this process: development mode, since
/// the private keys then live in the caller's own state directory.
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Make, list, delete and use P-256 keys that sign only after the evaluation their access control demands.",
        discussion: """
        Access controls: biometry-current-set (a fingerprint match; invalidated for good when a print is added or \
        removed), biometry-any (a fingerprint match), user-presence (a match or the passcode), device-passcode \
        (the passcode only). Each signature covers "fpbridge-signature-v1", a zero byte, the key's counter \
        (8 bytes, big-endian) and the data; the counter goes up by one with every signature. Each key is attested \
        by the device identity key ('key attest', 'key identity').
        """,
        subcommands: [Create.self, List.self, Delete.self, Sign.self, Attest.self, Identity.self])

    /// What every key command says about where the private keys are.
    static let warning = "unprotected: the key lives in your own state directory (in-process development mode)"

    static func json(_ key: WireKey) -> [String: JSONValue] {
        [
            "label": .string(key.label), "user": .string(key.user), "accessControl": .string(key.accessControl.rawValue),
            "createdAt": .int(Int(key.createdAt)), "publicKeyPem": .string(key.publicKeyPem),
            "publicKeyJwk": .object(key.publicKeyJwk.mapValues(JSONValue.string)),
            "counter": .int(Int(exactly: key.counter) ?? .max), "invalidated": .bool(key.invalidated),
        ]
    }

    /// Where the private keys are, for the output: `protection`, and the warning in development mode.
    static func protection(_ protection: KeyProtection) -> [String: JSONValue] {
        protection == .development ? ["protection": "development", "warning": .string(warning)] : ["protection": "service"]
    }

    /// The warning line for people, empty when the service holds the keys.
    static func warningLine(_ protection: KeyProtection) -> String {
        protection == .development ? "\(warning)\n" : ""
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Make a key for the user (needs a passcode; biometric keys need a print).")
        @OptionGroup var options: GlobalOptions
        @Option(help: "The key's name: letters, digits, '.', '_' and '-'.")
        var label: String
        @Option(help: "biometry-current-set, biometry-any, user-presence or device-passcode.")
        var accessControl: AccessControlOption

        func run() async throws {
            let result = try await KeyOperations(options: options).create(label: label, accessControl: accessControl.value)
            let key = result.key
            options.console.success("Made key '\(key.label)' for \(key.user) (\(key.accessControl.rawValue)).\n"
                                    + "\(KeyCommand.warningLine(result.protection))\(key.publicKeyPem)",
                                    KeyCommand.protection(result.protection).merging(["key": .object(KeyCommand.json(key))]) { $1 })
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the user's keys (public data only).")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let list: KeyList
            if let socket = try options.serviceSocket() {
                let query = ServiceSession.query(options)
                list = try await ServiceClient.with(socket: socket) { try await $0.get("keys", query: query) }
            } else {
                list = KeyList(user: options.userName, protection: .development,
                               keys: try KeyOperations.vault(options).list().map(WireKey.init))
            }
            let lines = list.keys.map { "\($0.label)\t\($0.accessControl.rawValue)\tcounter \($0.counter)\($0.invalidated ? "\tINVALIDATED" : "")" }
            options.console.success(list.keys.isEmpty ? "\(list.user) has no keys." : lines.joined(separator: "\n"),
                                    KeyCommand.protection(list.protection).merging(
                                        ["user": .string(list.user), "keys": .array(list.keys.map { .object(KeyCommand.json($0)) })]) { $1 })
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a key (a damaged key file too).")
        @OptionGroup var options: GlobalOptions
        @Option(help: "The key to delete.")
        var label: String

        func run() async throws {
            try await KeyOperations(options: options).delete(label: label)
            options.console.success("Deleted key '\(label)' of \(options.userName).", ["user": .string(options.userName), "label": .string(label)])
        }
    }

    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign",
            abstract: "Sign data after the evaluation the key's access control demands (a scan, the passcode, or either).")
        @OptionGroup var options: GlobalOptions
        @Option(help: "The key to sign with.")
        var label: String
        @Option(help: "The data to sign, in base64.")
        var dataBase64: String?
        @Option(help: "A file holding the data to sign.")
        var dataFile: String?
        @Option(help: "Why the signature is requested (shown in the prompt).")
        var reason = "Sign with your key"
        @Flag(help: "Read passcodes from standard input, one per line, instead of a no-echo prompt.")
        var passcodeStdin = false

        func validate() throws {
            guard (dataBase64 == nil) != (dataFile == nil) else {
                throw ValidationError("give the data with exactly one of --data-base64 and --data-file")
            }
        }

        func run() async throws {
            let data = try readData()
            let console = options.console
            let signed = try await KeyOperations(options: options).sign(label: label, data: data, reason: reason,
                                                                        passcodeStdin: passcodeStdin)
            console.success("Signed with key '\(signed.label)' (counter \(signed.counter), by \(signed.method.rawValue)).\n"
                            + "\(KeyCommand.warningLine(signed.protection))\(signed.signatureBase64)",
                            KeyCommand.protection(signed.protection).merging(
                                ["label": .string(signed.label), "user": .string(signed.user),
                                 "counter": .int(Int(exactly: signed.counter) ?? .max), "method": .string(signed.method.rawValue),
                                 "signature": .string(signed.signatureBase64), "message": .string(signed.messageBase64)]) { $1 })
        }

        private func readData() throws(AuthError) -> Data {
            let limit = KeyVault.maximumDataSize
            if let dataBase64 {
                guard let data = Data(base64Encoded: dataBase64) else { throw AuthError(.invalidInput, "--data-base64 is not base64") }
                return data
            }
            guard let path = dataFile, let file = try? FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) else {
                throw AuthError(.invalidInput, "cannot read --data-file \(dataFile ?? "")")
            }
            defer { try? file.close() }
            // One byte past the limit tells an oversized file without reading all of it.
            var bytes = [UInt8](repeating: 0, count: limit + 1)
            var filled = 0
            while filled < bytes.count {
                let count = bytes.withUnsafeMutableBytes { buffer in
                    try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
                guard let count else { throw AuthError(.invalidInput, "cannot read --data-file \(path)") }
                if count == 0 { break }
                filled += count
            }
            guard filled <= limit else { throw AuthError(.invalidInput, "--data-file is over \(limit) bytes") }
            return Data(bytes[..<filled])
        }
    }

    struct Attest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "attest",
            abstract: "Show a key's attestation: the statement, the identity key's signature over its exact bytes, and that key.")
        @OptionGroup var options: GlobalOptions
        @Option(help: "The key whose attestation to show.")
        var label: String

        func run() async throws {
            let result = try await KeyOperations(options: options).describe(label: label)
            let statementBytes = Data(base64Encoded: result.key.statementBase64) ?? Data()
            let statement = String(decoding: statementBytes, as: UTF8.self)
            let signature = result.key.signatureBase64
            options.console.success("\(KeyCommand.warningLine(result.protection))statement: \(statement)\nsignature: \(signature)\n\(result.identityKeyPem)",
                                    KeyCommand.protection(result.protection).merging(
                                        ["label": .string(result.key.label), "statement": .string(statement),
                                         "statementBase64": .string(result.key.statementBase64),
                                         "signature": .string(signature), "identityKeyPem": .string(result.identityKeyPem)]) { $1 })
        }
    }

    struct Identity: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "identity", abstract: "Show the device identity public key, which signs every attestation.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let result: IdentityResult
            if let socket = try options.serviceSocket() {
                let query = ServiceSession.query(options)
                result = try await ServiceClient.with(socket: socket) { try await $0.get("identity", query: query) }
            } else {
                result = IdentityResult(protection: .development, identityKeyPem: try KeyOperations.vault(options).identity())
            }
            options.console.success(result.identityKeyPem,
                                    ["identityKeyPem": .string(result.identityKeyPem), "protection": .string(result.protection.rawValue)])
        }
    }
}

/// The access controls as the command line spells them.
enum AccessControlOption: String, ExpressibleByArgument, CaseIterable {
    case biometryCurrentSet = "biometry-current-set"
    case biometryAny = "biometry-any"
    case userPresence = "user-presence"
    case devicePasscode = "device-passcode"

    var value: KeyAccessControl {
        switch self {
        case .biometryCurrentSet: .biometryCurrentSet
        case .biometryAny: .biometryAny
        case .userPresence: .userPresence
        case .devicePasscode: .devicePasscode
        }
    }
}
