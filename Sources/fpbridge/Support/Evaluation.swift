import FPAuthentication
import FPTerminal
import FoundationEssentials
import Glibc

/// Runs one engine call with its events shown and Ctrl-C mapped to a user cancel.
enum Evaluation {
    /// `fallbackKey`: Enter takes the fallback, and the hint says so.
    static func run<T: Sendable>(_ context: AuthenticationContext, console: Console, fallbackKey: Bool = false,
                                 _ body: @Sendable () async throws -> T) async throws -> T {
        let printer = EventPrinter.start(for: context.events, fallbackKey: fallbackKey, verbose: console.verbose) { console.note($0) }
        let interrupt = CtrlC { context.cancel(.user) }
        defer { interrupt.release() }
        do {
            let result = try await body()
            context.invalidate()
            await printer.value
            return result
        } catch {
            context.invalidate()
            await printer.value
            throw error
        }
    }
}
