import FPAuthentication
import Logging
import ServiceLifecycle

/// What SIGTERM or SIGINT does before the socket closes: every operation ends at once with
/// ``error`` (a kiosk's armed identify too, which would otherwise hold the server's graceful
/// close until its timeout, a minute or more), then the readers are closed. Cancelled scans
/// count nothing, since the engine counts only finished ones; a state write in flight is never
/// cut, since an operation leaves the registry only once its work, writes included, returned.
/// Run in the service group after the server, so that it is told of the stop first.
struct ServiceStop: Service {
    let registry: OperationRegistry
    let readers: ServiceReaders
    let logger: Logger

    /// What a client of an operation running at the stop hears.
    static let error = AuthError(.systemCancel, "fpbridged is stopping; try again once it is back")

    /// Longer than any cancelled operation takes to end; past it the stop says so and keeps waiting.
    static let patience: Duration = .seconds(5)

    func run() async throws {
        // Cancelled rather than stopped: the group is going down for another reason; nothing to end gently.
        do { try await gracefulShutdown() } catch { return }
        registry.stop(saying: Self.error)
        if await !registry.waitUntilEmpty(within: Self.patience) {
            logger.error("operations still run \(Self.patience) after the stop was asked; waiting for them, so that no state write is cut")
            _ = await registry.waitUntilEmpty(within: .seconds(3600))
        }
        await readers.pool.closeAll()
    }
}
