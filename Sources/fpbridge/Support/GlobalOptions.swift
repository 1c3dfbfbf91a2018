import ArgumentParser
import FPAuthentication
import FPReaders
import FPStore
import Foundation

/// Options every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Reader: auto (first libfprint reader), libfprint, libfprint:DRIVER, fake, or fake:SCRIPTFILE. Default: $FPBRIDGE_READER or auto.",
        valueName: "reader"))
    var reader: String?

    @Option(name: .long, help: ArgumentHelp(
        "State directory. Default: $FPBRIDGE_STATE_DIR, else $XDG_STATE_HOME/fpbridge, else ~/.local/state/fpbridge.",
        valueName: "dir"))
    var stateDir: String?

    @Option(name: .long, help: ArgumentHelp("User whose prints and passcode are used. Default: the login user.", valueName: "name"))
    var user: String?

    @Flag(name: .long, help: "Print one JSON object on stdout: {\"ok\": true, …} or {\"ok\": false, \"error\": {code, name, message}}.")
    var json = false

    @Flag(name: .shortAndLong, help: "Log what the reader and libfprint do, on stderr.")
    var verbose = false

    var console: Console { Console(json: json) }

    var stateDirectory: StateDirectory { StateDirectory.resolve(explicit: stateDir) }

    var userName: String {
        if let user { return user }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "user"
    }

    func selection() throws(AuthError) -> ReaderSelection {
        let text = reader ?? ProcessInfo.processInfo.environment["FPBRIDGE_READER"].flatMap { $0.isEmpty ? nil : $0 } ?? "auto"
        do { return try ReaderSelection(parsing: text) } catch { throw AuthError(error) }
    }

    func configuration() throws(AuthError) -> AuthConfiguration {
        try AuthConfiguration.load(from: stateDirectory)
    }
}
