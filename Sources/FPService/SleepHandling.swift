import FPAuthentication
import FPReaders
import Logging
import FPVocabulary

/// Suspend and resume, from logind: before sleep every running operation ends with
/// `systemCancel` (-4) and every reader is closed, then the delay inhibitor is dropped; after
/// waking nothing is stale, since readers are opened afresh by the next request.
final class SleepHandling: Sendable {
    private let registry: OperationRegistry
    private let readers: ServiceReaders
    /// How the service learns of sleep: `logind`, or why it cannot.
    let watching = Locked<String>("not started")

    init(registry: OperationRegistry, readers: ServiceReaders) {
        self.registry = registry
        self.readers = readers
    }

    /// True between the announcement of sleep and the wake-up: new operations are refused
    /// (by the registry's admission, ``OperationRegistry/admit(_:)``).
    var isSleeping: Bool { registry.isSleeping }

    /// Watches logind until the task is cancelled; without a system bus it says why and returns.
    func run(logger: Logger) async {
        let watch: SleepWatch
        do {
            watch = try await SleepWatch.start()
        } catch {
            watching.withLock { $0 = "unavailable: \(error)" }
            logger.warning("suspend and resume are not watched: \(error)")
            return
        }
        watching.withLock { $0 = "logind" }
        await withTaskCancellationHandler {
            for await event in watch.events {
                switch event {
                case .preparing:
                    logger.info("the machine prepares to sleep: ending operations, closing readers")
                    registry.sleep()
                    // logind's delay (5 s by default) bounds the wait anyway.
                    _ = await registry.waitUntilEmpty(within: .seconds(3))
                    await readers.pool.closeAll()
                    await watch.readyForSleep()
                case .resumed:
                    registry.wake()
                    logger.info("the machine woke up")
                case .inhibitorRefused(let reason):
                    // Not retried: logind refusing now would most likely refuse again; the next
                    // restart of the service asks anew. Said loudly, since sleep no longer waits.
                    logger.error("after waking, logind did not give a sleep inhibitor, so the next sleep will not wait for readers to close: \(reason)")
                }
            }
        } onCancel: {
            Task { await watch.stop() }
        }
    }
}
