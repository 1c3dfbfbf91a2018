internal import CLibfprint
import FoundationEssentials

/// The bus connection, the subscription and the inhibitor of a ``SleepWatch``, owned on the loop
/// thread. Every call to the bus is asynchronous: the loop runs the readers meanwhile.
@GLibLoop
final class SleepBox {
    let emit: @Sendable (SleepWatch.Event) -> Void
    var connection: OpaquePointer?
    var subscription: guint = 0
    var inhibitor: Int32 = -1
    /// An `Inhibit` call is on its way: a second one is not sent meanwhile.
    private var inhibiting = false
    /// Counts the drops of the inhibitor, so that one granted after a drop is not kept.
    private var drops = 0

    init(_ emit: @escaping @Sendable (SleepWatch.Event) -> Void) { self.emit = emit }

    static func connect(_ emit: @escaping @Sendable (SleepWatch.Event) -> Void) async -> Result<UInt, ReaderError> {
        // The shared system bus connection, made without holding the loop.
        let (made, problem) = await withCheckedContinuation { (continuation: CheckedContinuation<(UInt, String), Never>) in
            let pending = Unmanaged.passRetained(PendingConnection(continuation)).toOpaque()
            g_bus_get(G_BUS_TYPE_SYSTEM, nil, SleepCallbacks.busReady, pending)
        }
        guard let connection = OpaquePointer(bitPattern: made) else {
            return .failure(.general("cannot reach the system bus: \(problem)"))
        }
        let box = SleepBox(emit)
        box.connection = connection
        let pointer = Unmanaged.passRetained(box).toOpaque()
        box.subscription = g_dbus_connection_signal_subscribe(
            connection, "org.freedesktop.login1", "org.freedesktop.login1.Manager", "PrepareForSleep",
            "/org/freedesktop/login1", nil, G_DBUS_SIGNAL_FLAGS_NONE, SleepCallbacks.prepareForSleep, pointer, nil)
        if let problem = await box.inhibit() {
            disconnect(UInt(bitPattern: pointer))
            return .failure(problem)
        }
        return .success(UInt(bitPattern: pointer))
    }

    /// Takes logind's delay inhibitor for sleep: the machine waits (up to logind's
    /// InhibitDelayMaxSec) until the descriptor is closed. Nil once held (or already held, or
    /// already asked for, or dropped while asked for), else why logind did not give it.
    func inhibit() async -> ReaderError? {
        guard inhibitor < 0, !inhibiting, let connection else { return nil }
        inhibiting = true
        defer { inhibiting = false }
        let drops = self.drops
        var children: [OpaquePointer?] = ["sleep", "fpbridged", "end fingerprint operations and close readers before sleep", "delay"]
            .map { (text: String) -> OpaquePointer? in text.withCString { g_variant_new_string($0) } }
        let parameters = children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, 4) }
        let answer = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Int32, ReaderError>, Never>) in
            let pending = Unmanaged.passRetained(PendingInhibit(continuation)).toOpaque()
            g_dbus_connection_call_with_unix_fd_list(
                connection, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "Inhibit",
                parameters, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, nil, SleepCallbacks.inhibitAnswered, pending)
        }
        switch answer {
        case .failure(let problem):
            return problem
        case .success(let fd):
            // Dropped (sleep, stop) while logind answered: what was asked for is no longer wanted.
            guard drops == self.drops, self.connection != nil else {
                close(fd)
                return nil
            }
            inhibitor = fd
            return nil
        }
    }

    /// The descriptor in logind's answer to `Inhibit`, or why there is none.
    static func descriptor(reply: OpaquePointer, list: UnsafeMutablePointer<GUnixFDList>?) -> Result<Int32, ReaderError> {
        guard let child = g_variant_get_child_value(reply, 0) else { return .failure(.general("logind's Inhibit answer is empty")) }
        let index = g_variant_get_handle(child)
        g_variant_unref(child)
        guard let list else { return .failure(.general("logind's Inhibit answer carries no descriptor")) }
        var error: UnsafeMutablePointer<GError>?
        let fd = g_unix_fd_list_get(list, index, &error)
        guard fd >= 0 else { return .failure(.general("logind's inhibitor descriptor is unusable: \(BusVariant.message(error))")) }
        return .success(fd)
    }

    /// After waking: asks for the inhibitor again, and says so on ``SleepWatch/events`` if logind refuses.
    func resumed() {
        emit(.resumed)
        Task { @GLibLoop in
            if let problem = await inhibit() { emit(.inhibitorRefused("\(problem)")) }
        }
    }

    func release() {
        if inhibitor >= 0 { close(inhibitor) }
        inhibitor = -1
        drops += 1
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
}

/// An `Inhibit` call on its way back: the descriptor, or why not.
final class PendingInhibit {
    let continuation: CheckedContinuation<Result<Int32, ReaderError>, Never>
    init(_ continuation: CheckedContinuation<Result<Int32, ReaderError>, Never>) { self.continuation = continuation }
}
