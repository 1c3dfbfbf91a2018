import ArgumentParser
internal import CProcessSecurity
import FPService
import Foundation
import Logging

// The service holds passcodes in memory while it checks them and will hold keys:
// never in a core dump, never readable through ptrace by a process of the same user.
if fpb_forbid_core_dumps() != 0 {
    FileHandle.standardError.write(Data("fpbridged: cannot turn core dumps off; refusing to run\n".utf8))
    exit(3)
}

// Parsed by hand: ArgumentParser's async `main()` needs an availability annotation on Linux.
do {
    try await runAsync(try FPBridged.parse())
} catch {
    // Usage errors end with 2, as fpbridge's do (ArgumentParser's own number is 64).
    if FPBridged.exitCode(for: error) == .validationFailure {
        FileHandle.standardError.write(Data((FPBridged.fullMessage(for: error) + "\n").utf8))
        exit(2)
    }
    FPBridged.exit(withError: error)
}

/// Calls the async `run()`; on a concrete value the synchronous one would be chosen.
func runAsync<Command: AsyncParsableCommand>(_ command: Command) async throws {
    var command = command
    try await command.run()
}
