import ArgumentParser
import FPAccountServer
import Foundation

/// `fpbridge-server device …`: what an operator does about devices, on the database directly
/// (the server may be running; both see the same rows).
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Register the device identities this server trusts, and hand out one-time binding codes.",
        discussion: """
        The password alone binds only an account's first device. Another device is bound when a device already \
        bound approves it with a fingerprint, when its identity key is registered here ('trust'), or with a \
        one-time code from 'code', handed to the user by whatever channel the deployment trusts. With \
        'serve --trusted-identities-only' only registered identities are bound at all.
        """,
        subcommands: [Trust.self, Distrust.self, Trusted.self, Code.self])

    struct DatabaseOption: ParsableArguments {
        @Option(help: "The server's SQLite file, or its PostgreSQL URL (as 'serve --database' takes it).")
        var database = "fpbridge-server.sqlite"
    }

    /// Reads the PEM of `path` (`-`: standard input).
    static func pem(_ path: String) throws -> String {
        let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
        guard let data, data.count < 4096 else { throw ValidationError("cannot read an identity key from \(path)") }
        return String(decoding: data, as: UTF8.self)
    }

    static func run<T: Sendable>(_ database: DatabaseOption, _ body: (AccountAdministration) async throws -> T) async throws -> T {
        // Binding codes pass through this process as they do through the server's.
        try ProcessLockdown.apply()
        umask(0o077)
        do { return try await AccountAdministration.with(ServerConfiguration.Database(argument: database.database), body) } catch let failure as ServerStartFailure {
            FileHandle.standardError.write(Data("fpbridge-server: \(failure.message)\n".utf8))
            throw ExitCode(1)
        } catch {
            FileHandle.standardError.write(Data("fpbridge-server: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    struct Trust: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a device identity key: the server binds that device without another device's approval.")
        @OptionGroup var database: DatabaseOption
        @Option(help: "A file with the device's identity public key in PEM ('fpbridge key identity' on the device prints it); - for standard input.")
        var identity: String
        @Option(help: "A name for the operator's records (Kiosk 1).")
        var name: String
        @Option(name: .customLong("local-user"), help: ArgumentHelp(
            "Trust the machine only for this local user (repeatable). Without it, every local user of the machine binds on it.",
            discussion: "Several people may share a machine and its identity key; each is a device of their own."))
        var localUsers: [String] = []

        func run() async throws {
            let pem = try DeviceCommand.pem(identity)
            let result = try await DeviceCommand.run(database) { try await $0.trust(pem: pem, name: name, localUsers: localUsers) }
            let users = localUsers.isEmpty ? "every local user" : "local users " + Array(Set(localUsers)).sorted().joined(separator: ", ")
            print(result.added ? "Trusted identity \(result.deviceId) (\(name)) for \(users)."
                  : "Identity \(result.deviceId) was trusted already (distrust it first to change it).")
        }
    }

    struct Distrust: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a registered identity key (devices bound already stay bound; unbind them too if needed).")
        @OptionGroup var database: DatabaseOption
        @Option(help: "A file with the identity public key in PEM; - for standard input.")
        var identity: String

        func run() async throws {
            let pem = try DeviceCommand.pem(identity)
            let result = try await DeviceCommand.run(database) { try await $0.distrust(pem: pem) }
            guard result.removed else {
                FileHandle.standardError.write(Data("fpbridge-server: identity \(result.deviceId) was not trusted\n".utf8))
                throw ExitCode(1)
            }
            print("Identity \(result.deviceId) is no longer trusted.")
        }
    }

    struct Trusted: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the registered identities: identity id, name, when, and the local users it is trusted for (* for every one).")
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let list = try await DeviceCommand.run(database) { try await $0.trusted() }
            for entry in list {
                let at = Date(timeIntervalSince1970: Double(entry.addedAt) / 1000).formatted(.iso8601)
                print("\(entry.deviceId)\t\(entry.name)\t\(at)\t\(entry.localUsers.isEmpty ? "*" : entry.localUsers.joined(separator: ","))")
            }
        }
    }

    struct Code: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a one-time code that lets the user bind one new device (the server keeps only its hash).")
        @OptionGroup var database: DatabaseOption
        @Option(help: "The account.")
        var user: String
        @Option(help: "Minutes the code stays valid (1 to 10080).")
        var minutes = 60

        func validate() throws {
            guard (1...10_080).contains(minutes) else { throw ValidationError("--minutes must be 1 to 10080 (got \(minutes))") }
        }

        func run() async throws {
            let code = try await DeviceCommand.run(database) { try await $0.bindingCode(username: user, seconds: minutes * 60) }
            print(code)
        }
    }
}
