import ArgumentParser
import FPAuthentication
import FPCore
import FPLocalAPI
import FPReaders
import FPStore
import FoundationEssentials
import Glibc

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

    @Option(name: .long, help: ArgumentHelp(
        "Where the engine runs: auto (the system service when its socket exists and no test setting is given), off (in this process), or the service's socket PATH. Default: $FPBRIDGE_SERVICE or auto.",
        valueName: "service"))
    var service: String?

    @Flag(name: .long, help: "Print one JSON object on stdout: {\"ok\": true, …} or {\"ok\": false, \"error\": {code, name, message}}.")
    var json = false

    @Flag(name: .shortAndLong, help: "Log what the reader and libfprint do, on stderr.")
    var verbose = false

    /// Started with rights its caller does not have (setuid, setgid, file capabilities), the
    /// command takes no choice of reader, state, user or service from its caller: the
    /// environment is already ignored (`ProcessEnvironment`), and these options are refused.
    func validate() throws {
        guard ProcessEnvironment.isSecureExecution else { return }
        let chosen = [("--reader", reader), ("--state-dir", stateDir), ("--user", user), ("--service", service)]
            .filter { $0.1 != nil }.map(\.0)
        if !chosen.isEmpty {
            throw ValidationError("\(chosen.joined(separator: ", ")) refused: fpbridge runs with rights its caller does not have "
                                  + "(setuid, setgid or file capabilities), so the caller may not choose them")
        }
    }

    var console: Console { Console(json: json, verbose: verbose) }

    var stateDirectory: StateDirectory { StateDirectory.resolve(explicit: stateDir) }

    var userName: String {
        if let user { return user }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessEnvironment.value("USER") ?? "user"
    }

    /// The reader named by `--reader` or `FPBRIDGE_READER`; nil when neither names one.
    var chosenReader: String? { reader ?? ProcessEnvironment.value("FPBRIDGE_READER") }

    /// The state directory named by `--state-dir` or `FPBRIDGE_STATE_DIR`; nil when neither names one.
    var chosenStateDirectory: String? { stateDir ?? ProcessEnvironment.value("FPBRIDGE_STATE_DIR") }

    func selection() throws(AuthError) -> ReaderSelection {
        let text = chosenReader ?? "auto"
        do { return try ReaderSelection(parsing: text) } catch { throw AuthError(error) }
    }

    /// The service's socket to use, or nil to host the engine in this process.
    func serviceSocket() throws(AuthError) -> String? {
        let choice = service ?? ProcessEnvironment.value("FPBRIDGE_SERVICE") ?? "auto"
        switch choice {
        case "off": return nil
        case "auto":
            // A state directory or a fake reader chosen here is a development set-up: the
            // system service would refuse both, so the engine runs in this process.
            let testSettings = chosenStateDirectory != nil
                || ((try? selection()).map { if case .fake = $0 { true } else { false } } ?? false)
            guard !testSettings else { return nil }
            var info = stat()
            if lstat(LocalAPI.systemSocket, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { return LocalAPI.systemSocket }
            // Where fpbridged is installed, a missing socket means a stopped service, not a
            // development machine: the engine in this process would answer from the user's own
            // files (no prints, no lockout) and write a passcode there. Fail closed instead.
            if let unit = LocalAPI.systemUnits.first(where: { access($0, F_OK) == 0 }) {
                throw AuthError(.biometryNotAvailable, "fpbridged is installed (\(unit)) but nothing listens on \(LocalAPI.systemSocket): "
                                + "is it running? (systemctl status fpbridged); --service off uses this process and your own files instead")
            }
            return nil
        default:
            guard choice.hasPrefix("/") else {
                throw AuthError(.invalidInput, "--service must be auto, off or the absolute path of the service's socket")
            }
            return choice
        }
    }

    func configuration() throws(AuthError) -> AuthConfiguration {
        try AuthConfiguration.load(from: stateDirectory)
    }
}
