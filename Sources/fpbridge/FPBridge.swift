import ArgumentParser
import FPAuthentication

/// The `fpbridge` command.
///
/// Every command here names itself (`commandName`): without it ArgumentParser derives the
/// name at each start with `String(describing:)`, a scan of every protocol conformance in the
/// binary per command, which cost about 2 ms of every start (BENCHMARKS.md).
struct FPBridge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fpbridge",
        abstract: "Fingerprint readers on Linux with Touch ID's rules: attempt limits, lockout and passcode fallback.",
        discussion: """
        Readers: any reader libfprint drives, or the built-in fake reader (--reader fake:SCRIPTFILE), \
        which plays a script of touches, one event per line: scan ID [OTHER=SCORE...], retry too-short|center|remove|general, \
        error NAME, unplug, wait MS, cancel, fallback; '#' starts a comment.

        EXIT STATUS
          0  success
          1  authentication not successful (no match, cancelled, fallback chosen, locked out, timed out)
          2  usage or bad input (unknown option or finger name, malformed script, already enrolled)
          3  reader or environment problem (no reader, disconnected, not enrolled, no passcode, damaged state file, invalidated key)

        With --json every command prints one JSON object (readers --watch: one per line); failures carry error.code with Apple's \
        LAError numbers (-1 authenticationFailed … -13 biometryDisconnected, -1004 notInteractive) \
        and Linux-only codes from -2001 down (see docs/rules.md).
        """,
        version: FPBridgeVersion.current,
        subcommands: [
            ReadersCommand.self, CaptureCommand.self, SelfTestCommand.self, DoctorCommand.self, UdevRulesCommand.self,
            EnrollCommand.self, VerifyCommand.self, IdentifyCommand.self,
            ListCommand.self, DeleteCommand.self, AuthCommand.self, CanEvaluateCommand.self,
            PasscodeCommand.self, StatusCommand.self, UnlockCommand.self, LockCommand.self, RepairCommand.self, DemoCommand.self, KeyCommand.self,
            AccountCommand.self, PamPasswordCommand.self,
        ]
    )
}
