import ArgumentParser
import FPAuthentication
import FPCore
import FPLocalAPI
import FPServiceClient
#if canImport(Glibc)
import Glibc
#endif

/// The hook a PAM stack runs (through `pam_exec`) after the login password succeeded: the
/// desktop's way back to the fingerprint, as the passcode is on iOS (docs/desktop.md).
struct PamPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pam-password-proved",
        abstract: "Lift the user's fingerprint lockout after their login password succeeded (run by pam_exec, as root).",
        discussion: """
        For the auth stack, after the password module and only when it succeeded:
          auth optional pam_exec.so seteuid quiet /usr/bin/fpbridge pam-password-proved
        (the package's pam-auth-update profile "fpbridge-password" uses pam_fpbridge.so password-proved instead, which \
        takes the user from PAM itself: this command is for stacks written by hand). seteuid is needed under \
        su, sudo and polkit's agent: those run PAM as root for a user, and without it pam_exec starts \
        this command with the user's real uid, where it reads no environment and so no PAM_USER. \
        The user is PAM_USER, which pam_exec sets; only root may use this, and fpbridged checks the \
        caller's uid itself. The fpbridge passcode's own failures are not reset. The service is \
        fpbridged's system socket or --service PATH, and --state-dir DIR works on a state directory \
        in this process instead; FPBRIDGE_SERVICE and FPBRIDGE_STATE_DIR are ignored, since pam_exec \
        passes on an environment the user may have set.

        EXIT STATUS
          0  done (also when there was no lockout to lift)
          2  refused or misused (not root, no PAM_USER or two, no seteuid, not in the auth stack)
          3  fpbridged does not answer, or the user's counter is damaged
        """)

    /// Where the package installs the CLI, for the PAM line the errors suggest.
    static let installedPath = "/usr/bin/fpbridge"

    // Its own options, not GlobalOptions: those fall back on FPBRIDGE_SERVICE and
    // FPBRIDGE_STATE_DIR, which this command must never read (see run()).
    @Option(help: ArgumentHelp("fpbridged's socket. Default: /run/fpbridge/fpbridged.sock.", valueName: "path"))
    var service: String?

    @Option(help: ArgumentHelp("Work on this state directory in this process instead of asking fpbridged.", valueName: "dir"))
    var stateDir: String?

    @Flag(help: "Print one JSON object on stdout.")
    var json = false

    func run() async throws {
        if ProcessEnvironment.isSecureExecution {
            throw AuthError(.invalidInput, "started by a setuid program for a user (su, sudo, polkit's agent) without pam_exec's "
                            + "seteuid option, so no environment is read, PAM_USER with it: use "
                            + "'auth optional pam_exec.so seteuid quiet \(Self.installedPath) pam-password-proved'")
        }
        // pam_exec appends PAM_USER to the PAM environment, which pam_env may fill from a user's
        // own file; getenv would answer with that earlier one.
        guard ProcessEnvironment.occurrences("PAM_USER") <= 1 else {
            throw AuthError(.invalidInput, "PAM_USER is in the environment more than once (the PAM environment sets it too): refused")
        }
        guard let user = ProcessEnvironment.value("PAM_USER"), !user.isEmpty else {
            throw AuthError(.invalidInput, "PAM_USER is not set: this command is run by pam_exec after the password succeeded")
        }
        if let type = ProcessEnvironment.value("PAM_TYPE"), type != "auth" {
            throw AuthError(.invalidInput, "pam-password-proved belongs in the auth stack, not \(type)")
        }
        // pam_exec hands over the PAM environment, which pam_env may fill from the user's own
        // files: where the answer goes is taken from the command line alone, never from
        // FPBRIDGE_SERVICE or FPBRIDGE_STATE_DIR, or a user could have root write counters
        // wherever they like.
        let result: PasswordProofResult
        if let stateDir {
            // In this process the state files are written directly: root's alone, as through the service.
            guard geteuid() == 0 else { throw AuthError(.notPermitted, "only root may report a proved password") }
            let directory = StateDirectory(path: stateDir)
            // iOS's rules as fpbridged's system mode has them, so that the password's moment is
            // kept for the service that reads this state (in test mode nothing else depends on it).
            let environment = AuthEnvironment(user: user, reader: nil, stateDirectory: directory,
                                              configuration: try AuthConfiguration.load(from: directory, passwordRulesByDefault: true))
            result = PasswordProofResult(user: user, lifted: try AuthenticationContext(environment: environment).passwordProved())
        } else {
            let socket = service ?? LocalAPI.systemSocket
            guard socket.hasPrefix("/") else { throw AuthError(.invalidInput, "--service must be the absolute path of fpbridged's socket") }
            let request = PasswordProofRequest(user: user, pamService: ProcessEnvironment.value("PAM_SERVICE"))
            result = try await ServiceClient.with(socket: socket) { try await $0.post("password-proved", request) }
        }
        Console(json: json).success(result.lifted ? "Fingerprint unlocked for \(user)." : "No fingerprint lockout for \(user).",
                                ["user": .string(user), "lifted": .bool(result.lifted)])
    }
}
