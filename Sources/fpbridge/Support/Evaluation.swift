import Dispatch
import FPAuthentication
import Foundation

/// Runs one engine call with its events shown and Ctrl-C mapped to a user cancel.
enum Evaluation {
    /// `fallbackKey`: Enter takes the fallback, and the hint says so.
    static func run<T: Sendable>(_ context: AuthenticationContext, console: Console, fallbackKey: Bool = false,
                                 _ body: @Sendable () async throws -> T) async throws -> T {
        let printer = EventPrinter.start(for: context, fallbackKey: fallbackKey) { console.note($0) }
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT)
        interrupt.setEventHandler { context.cancel(.user) }
        interrupt.resume()
        defer {
            interrupt.cancel()
            signal(SIGINT, SIG_DFL)
        }
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
