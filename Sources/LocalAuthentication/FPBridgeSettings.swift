import FPCore
internal import FPLocalAPI
import FPStore
import Foundation
import FPVocabulary

/// What Apple's API has no place for on Linux: which reader, which state
/// directory, which user, and who asks for the passcode.
///
/// Every ``LAContext`` takes its settings from ``LAContext/fpbridgeDefaults``
/// when it is created, and those come from the environment, the same as the
/// `fpbridge` command's: `FPBRIDGE_READER` (default `auto`, the first
/// libfprint reader; `fake` for the fake reader), `FPBRIDGE_STATE_DIR`
/// (default `$XDG_STATE_HOME/fpbridge`, else `~/.local/state/fpbridge`), and
/// the login user. Code that needs no more than that sets nothing.
///
/// Evaluations run in `fpbridged` (``service``). Running the engine in this process (the
/// fake reader without a service, `FPBRIDGE_SERVICE=off`) takes the
/// `LocalAuthenticationInProcess` product and ``engine``; without them such settings fail
/// with ``LAError/notSupported``, naming the product.
public struct FPBridgeSettings: Sendable {
    /// Which reader to use (an in-process engine's own reader object takes its place).
    public var reader: ReaderSelection {
        didSet { readerProblem = nil }
    }
    /// Where prints, counters, passcodes and `config.json` live.
    public var stateDirectory: StateDirectory
    /// The user whose prints and passcode are used.
    public var user: String
    /// The engine that runs evaluations in this process when ``service`` is nil; nil (the
    /// default) has none. `LocalAuthenticationInProcess` makes one: `engine = .inProcess`.
    public var engine: FPBridgeEngine?
    /// Asks for the passcode; nil asks on the terminal when there is one, and otherwise
    /// treats the passcode as not given (``LAError/userCancel``).
    public var prompt: (any AuthPrompt)?
    /// The socket of the `fpbridged` service that holds the state and the readers, or nil to
    /// run the engine in this process. From `FPBRIDGE_SERVICE` (a path, or `off`); without it,
    /// the system service's socket when it exists and neither `FPBRIDGE_STATE_DIR` nor a fake
    /// reader is chosen. A service in test mode is also sent ``reader`` and ``stateDirectory``;
    /// a system service uses its own.
    public var service: String?
    /// Whether evaluations show their progress on standard error (place your
    /// finger, no match, fallback available) and take Enter as the fallback
    /// button; nil does so when standard error is a terminal.
    public var terminalInterface: Bool?

    /// The settings the environment gives, described above. A program started with rights its
    /// caller does not have (setuid, setgid, file capabilities) reads no variable: it gets the
    /// first libfprint reader, its own user's state directory and the system service, never a
    /// fake reader that whoever runs it chose.
    public static func fromEnvironment(_ environment: [String: String] = ProcessEnvironment.values(
        "FPBRIDGE_READER", "FPBRIDGE_STATE_DIR", "FPBRIDGE_SERVICE", "XDG_STATE_HOME", "HOME", "USER")) -> FPBridgeSettings {
        let text = environment["FPBRIDGE_READER"].flatMap { $0.isEmpty ? nil : $0 } ?? "auto"
        var settings = FPBridgeSettings(reader: .auto, stateDirectory: StateDirectory.resolve(explicit: nil, environment: environment),
                                        user: loginUser(environment))
        do {
            settings.reader = try ReaderSelection(parsing: text)
        } catch {
            // Evaluations then fail naming the variable, rather than quietly using another reader.
            settings.readerProblem = AuthError(.invalidInput, "FPBRIDGE_READER: \(error)")
        }
        settings.service = serviceSocket(environment, reader: settings.reader)
        return settings
    }

    /// Settings with every value given.
    /// - Parameters:
    ///   - reader: Which reader to use.
    ///   - stateDirectory: Where the state lives.
    ///   - user: The user whose prints and passcode are used.
    ///   - engine: The in-process engine, for settings without ``service``.
    ///   - prompt: Asks for the passcode.
    ///   - terminalInterface: Whether evaluations show their progress on standard error.
    public init(reader: ReaderSelection, stateDirectory: StateDirectory, user: String, engine: FPBridgeEngine? = nil,
                prompt: (any AuthPrompt)? = nil, terminalInterface: Bool? = nil) {
        self.reader = reader
        self.stateDirectory = stateDirectory
        self.user = user
        self.engine = engine
        self.prompt = prompt
        self.terminalInterface = terminalInterface
    }

    /// The service's socket the environment chooses, as the `fpbridge` command chooses it.
    static func serviceSocket(_ environment: [String: String], reader: ReaderSelection) -> String? {
        switch environment["FPBRIDGE_SERVICE"].flatMap({ $0.isEmpty ? nil : $0 }) ?? "auto" {
        case "off": return nil
        case "auto":
            if environment["FPBRIDGE_STATE_DIR"].map({ !$0.isEmpty }) == true { return nil }
            if case .fake = reader { return nil }
            var info = stat()
            guard lstat(LocalAPI.systemSocket, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
            return LocalAPI.systemSocket
        case let path: return path
        }
    }

    /// The name of the user this process runs as.
    package static func loginUser(_ environment: [String: String]) -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return environment["USER"] ?? "user"
    }

    /// Why ``reader`` could not be taken from the environment; evaluations report it.
    package var readerProblem: AuthError?
}

extension LAContext {
    private static let defaults = Locked(FPBridgeSettings.fromEnvironment())

    /// fpbridge: the settings each new context starts from; set them once at
    /// launch to choose a reader, a state directory, a user or a prompt.
    public static var fpbridgeDefaults: FPBridgeSettings {
        get { defaults.withLock { $0 } }
        set { defaults.withLock { $0 = newValue } }
    }
}
