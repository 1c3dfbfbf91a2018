import FoundationEssentials

/// logind's sleep announcements on the system bus, with a delay inhibitor, so that a service
/// can end its fingerprint operations and close its readers before the machine sleeps
/// (readers left open across suspend come back stuck "busy": fprintd's most reported failure).
///
/// GDBus delivers signals on the thread that subscribed: the GLib loop thread, which runs the
/// default main context; every GDBus call here is isolated to ``GLibLoop`` and asynchronous
/// (no `_sync` call): logind slow to answer `Inhibit` holds up no reader operation.
package final class SleepWatch: Sendable {
    /// What logind announces.
    package enum Event: Sendable, Hashable {
        /// The machine is about to sleep: end operations, close readers, then ``readyForSleep()``.
        case preparing
        /// The machine woke up. A new delay inhibitor is being asked for; if logind refuses it,
        /// ``inhibitorRefused(_:)`` follows.
        case resumed
        /// logind did not give the delay inhibitor asked for after waking (the reason): the next
        /// sleep will not wait for readers to close.
        case inhibitorRefused(String)
    }

    /// The announcements, in order, until ``stop()``.
    package let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let address: UInt

    private init(events: AsyncStream<Event>, continuation: AsyncStream<Event>.Continuation, address: UInt) {
        self.events = events
        self.continuation = continuation
        self.address = address
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` when set), subscribes to
    /// `PrepareForSleep` and takes a delay inhibitor.
    /// - Throws: ``ReaderError/general(_:)`` naming why the bus or logind cannot be used.
    package static func start() async throws(ReaderError) -> SleepWatch {
        let (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let result: Result<UInt, ReaderError> = await SleepBox.connect { continuation.yield($0) }
        return SleepWatch(events: events, continuation: continuation, address: try result.get())
    }

    /// Lets the machine sleep: drops the inhibitor (a new one is taken on resume).
    package func readyForSleep() async {
        let address = self.address
        await SleepBox.releaseInhibitor(address)
    }

    /// Whether a delay inhibitor is held now.
    package func holdsInhibitor() async -> Bool {
        let address = self.address
        return await SleepBox.holdsInhibitor(address)
    }

    /// Unsubscribes, drops the inhibitor and ends ``events``.
    package func stop() async {
        let address = self.address
        await SleepBox.disconnect(address)
        continuation.finish()
    }
}
