internal import CLibfprint
import FoundationEssentials

/// logind's sleep announcements on the system bus, with a delay inhibitor, so that a service
/// can end its fingerprint operations and close its readers before the machine sleeps
/// (readers left open across suspend come back stuck "busy": fprintd's most reported failure).
///
/// GDBus delivers signals on the thread that subscribed: the GLib loop thread, which runs the
/// default main context; every GDBus call here is isolated to ``GLibLoop``.
package final class SleepWatch: Sendable {
    /// What logind announces.
    package enum Event: Sendable, Hashable {
        /// The machine is about to sleep: end operations, close readers, then ``readyForSleep()``.
        case preparing
        /// The machine woke up.
        case resumed
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

/// The bus connection, the subscription and the inhibitor, owned on the loop thread.
@GLibLoop
private final class SleepBox {
    let emit: @Sendable (SleepWatch.Event) -> Void
    var connection: OpaquePointer?
    var subscription: guint = 0
    var inhibitor: Int32 = -1

    init(_ emit: @escaping @Sendable (SleepWatch.Event) -> Void) { self.emit = emit }

    static func connect(_ emit: @escaping @Sendable (SleepWatch.Event) -> Void) -> Result<UInt, ReaderError> {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SYSTEM, nil, &error) else {
            return .failure(.general("cannot reach the system bus: \(Self.message(error))"))
        }
        let box = SleepBox(emit)
        box.connection = connection
        let pointer = Unmanaged.passRetained(box).toOpaque()
        box.subscription = g_dbus_connection_signal_subscribe(
            connection, "org.freedesktop.login1", "org.freedesktop.login1.Manager", "PrepareForSleep",
            "/org/freedesktop/login1", nil, G_DBUS_SIGNAL_FLAGS_NONE, prepareForSleep, pointer, nil)
        if let problem = box.inhibit() {
            disconnect(UInt(bitPattern: pointer))
            return .failure(problem)
        }
        return .success(UInt(bitPattern: pointer))
    }

    /// Takes logind's delay inhibitor for sleep: the machine waits (up to logind's
    /// InhibitDelayMaxSec) until the descriptor is closed.
    func inhibit() -> ReaderError? {
        guard inhibitor < 0, let connection else { return nil }
        var children: [OpaquePointer?] = ["sleep", "fpbridged", "end fingerprint operations and close readers before sleep", "delay"]
            .map { (text: String) -> OpaquePointer? in text.withCString { g_variant_new_string($0) } }
        let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 4) }
        var list: UnsafeMutablePointer<GUnixFDList>?
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_with_unix_fd_list_sync(
            connection, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "Inhibit",
            parameters, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &list, nil, &error)
        else { return .general("logind refused a sleep inhibitor: \(Self.message(error))") }
        defer {
            g_variant_unref(reply)
            if let list { g_object_unref(UnsafeMutableRawPointer(list)) }
        }
        guard let child = g_variant_get_child_value(reply, 0) else { return .general("logind's Inhibit answer is empty") }
        let index = g_variant_get_handle(child)
        g_variant_unref(child)
        guard let list else { return .general("logind's Inhibit answer carries no descriptor") }
        let fd = g_unix_fd_list_get(list, index, &error)
        guard fd >= 0 else { return .general("logind's inhibitor descriptor is unusable: \(Self.message(error))") }
        inhibitor = fd
        return nil
    }

    func release() {
        if inhibitor >= 0 { close(inhibitor) }
        inhibitor = -1
    }

    static func from(_ address: UInt) -> SleepBox? {
        UnsafeRawPointer(bitPattern: address).map { Unmanaged<SleepBox>.fromOpaque($0).takeUnretainedValue() }
    }

    static func releaseInhibitor(_ address: UInt) { from(address)?.release() }

    static func holdsInhibitor(_ address: UInt) -> Bool { (from(address)?.inhibitor ?? -1) >= 0 }

    static func disconnect(_ address: UInt) {
        guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
        let owned = Unmanaged<SleepBox>.fromOpaque(pointer)
        let box = owned.takeUnretainedValue()
        guard let connection = box.connection else { return }
        if box.subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, box.subscription) }
        box.release()
        box.connection = nil
        g_object_unref(UnsafeMutableRawPointer(connection))
        owned.release()
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// `PrepareForSleep(b start)`: true before sleep, false after waking.
private let prepareForSleep: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    GLibLoop.assumeIsolated { [parameters = UInt(bitPattern: parameters), data = UInt(bitPattern: data)] in
        guard let box = SleepBox.from(data), let parameters = OpaquePointer(bitPattern: parameters),
              let child = g_variant_get_child_value(parameters, 0) else { return }
        let start = g_variant_get_boolean(child) != 0
        g_variant_unref(child)
        if start {
            box.emit(.preparing)
        } else {
            // Awake: hold the machine again before the next sleep.
            _ = box.inhibit()
            box.emit(.resumed)
        }
    }
}
