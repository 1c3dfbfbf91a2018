import ArgumentParser
internal import CProcessSecurity
import FPAuthentication
import FPCore
import FoundationEssentials
import Glibc
import Logging
import SystemPackage

// Any command may hold a passcode in memory: never in a core dump, never readable
// by another process of the same user.
if fpb_forbid_core_dumps() != 0 {
    StandardError.write("fpbridge: cannot turn core dumps off (\(Errno.last.description)); refusing to run\n")
    exit(3)
}

// Parsing is done by hand around swift-argument-parser so that every failure
// ends with the documented exit status (2 for usage) and, with --json, one JSON object.
let arguments = GlobalArguments.normalize(Array(CommandLine.arguments.dropFirst()))
let console = Console(json: arguments.contains("--json"))
let verbose = arguments.contains("--verbose") || arguments.contains("-v")
    || ProcessEnvironment.value("FPBRIDGE_LOG") == "debug"
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = verbose ? .debug : .warning
    return handler
}

do {
    var command = try FPBridge.parseAsRoot(arguments)
    if let asyncCommand = command as? any AsyncParsableCommand {
        try await runAsync(asyncCommand)
    } else {
        try command.run()
    }
    exit(0)
} catch let error as AuthError {
    exit(console.failure(error))
} catch let failure as CommandFailure {
    exit(console.failure(failure.error, failure.fields))
} catch let exit as ExitCode {
    Glibc.exit(exit.rawValue)
} catch {
    if FPBridge.exitCode(for: error) == .success {
        print(FPBridge.fullMessage(for: error))
        exit(0)
    }
    let message = FPBridge.fullMessage(for: error)
    if console.json {
        _ = console.failure(AuthError(.invalidInput, message))
    } else {
        StandardError.write(message + "\n")
    }
    exit(AuthErrorCode.invalidInput.exitStatus)
}

/// Calls the async `run()`; through an existential the synchronous one would be chosen.
func runAsync<Command: AsyncParsableCommand>(_ command: Command) async throws {
    var command = command
    try await command.run()
}
