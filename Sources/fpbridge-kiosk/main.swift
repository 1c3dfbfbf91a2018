import ArgumentParser
import Foundation

// Parsed by hand, as fpbridged is: ArgumentParser's async `main()` needs an availability
// annotation on Linux, and usage errors end with 2 as the project's other commands do.
do {
    try await runAsync(try KioskCommand.parse())
} catch {
    if KioskCommand.exitCode(for: error) == .validationFailure {
        FileHandle.standardError.write(Data((KioskCommand.fullMessage(for: error) + "\n").utf8))
        exit(2)
    }
    KioskCommand.exit(withError: error)
}

/// Calls the async `run()`; on a concrete value the synchronous one would be chosen.
func runAsync<Command: AsyncParsableCommand>(_ command: Command) async throws {
    var command = command
    try await command.run()
}
