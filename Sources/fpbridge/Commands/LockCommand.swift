import ArgumentParser
import FPAuthentication
import FPLocalAPI
import FPServiceClient

/// iOS's remote lock: the password or passcode before the user's next finger, on every door.
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Require the user's password or passcode before their next fingerprint (root, or the user themselves).",
        discussion: """
        Every door refuses the finger until then (CLI, socket, fprintd's D-Bus face, LocalAuthentication), \
        with biometryLockout (-8) naming the lock, whatever the clocks or config.json say. The password \
        (the PAM hook, fpbridge pam-password-proved) or the passcode (fpbridge unlock) lifts it. Through \
        fpbridged only root or the user may lock a user; fpbridge status shows it.
        """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let user: String
        if let socket = try options.serviceSocket() {
            let request = ServiceSession.target(BiometryLockRequest(user: nil), options)
            let result: BiometryLockResult = try await ServiceClient.with(socket: socket) { try await $0.post("lock", request) }
            user = result.user
        } else {
            let context = AuthenticationContext(environment: try ReaderSession.environment(options, reader: nil))
            try context.lockBiometry()
            user = context.environment.user
        }
        options.console.success("Fingerprint of \(user) locked until the password or passcode is given.",
                                ["user": .string(user), "locked": true])
    }
}
