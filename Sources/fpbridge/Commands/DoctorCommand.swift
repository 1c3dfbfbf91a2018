import ArgumentParser
import FPAuthentication
import FPJSON

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Explain why a reader does not work, with the fix.",
        discussion: """
        Reports libfprint's version, fingerprint readers on the USB bus (supported or not, openable \
        by you or not), whether the udev rules are installed and you are in their group, variables \
        that switch on libfprint's virtual readers, each reader's temperature, and whether a \
        correct password in the login stack reaches the line that lifts fpbridge's lockout (a \
        'sufficient' line before it, as pam_faillock's manual writes, keeps it from running). \
        Exit status 0 when nothing stands in the way, 3 when a problem was found. Nothing is \
        opened or changed.
        """)

    @OptionGroup var options: GlobalOptions

    @Option(name: .customLong("pam-stack"), help: ArgumentHelp("The PAM stack file to check.", valueName: "path"))
    var pamStack = "/etc/pam.d/common-auth"

    func run() async throws {
        var checks = DoctorChecks()
        let list = checks.library()
        let rulesInstalled = checks.rules(list)
        checks.group()
        checks.bus(list, rulesInstalled: rulesInstalled)
        checks.virtualReaders()
        await checks.libfprintReaders()
        checks.pamStack(pamStack)
        var fields = checks.facts
        fields["findings"] = .array(checks.findings.map(\.json))
        let problems = checks.findings.filter { $0.level == .problem }
        let text = checks.findings.map(\.text).joined(separator: "\n")
        guard problems.isEmpty else {
            if !options.console.json { print(text) }
            throw CommandFailure(error: AuthError(.readerFailure, "\(problems.count) problem\(problems.count == 1 ? "" : "s") found: "
                                                  + problems.map(\.message).joined(separator: "; ")),
                                 fields: fields)
        }
        options.console.success(text, fields)
    }
}
