internal import CLibfprint
import FPCore
import FoundationEssentials

/// The connection, the parsed interfaces and the registrations of a ``BusExport``, owned on
/// the loop thread. Addressed by its pointer's bits, as ``SleepWatch`` does, so that the
/// Sendable face holds no GLib pointer.
@GLibLoop
final class BusBox {
    let handler: @Sendable (BusCall) -> Void
    let property: @Sendable (String, String, String) -> BusValue?
    var connection: OpaquePointer?
    var node: UnsafeMutablePointer<GDBusNodeInfo>?
    /// Registration ids by object path.
    var registrations: [String: [guint]] = [:]

    init(handler: @escaping @Sendable (BusCall) -> Void, property: @escaping @Sendable (String, String, String) -> BusValue?) {
        self.handler = handler
        self.property = property
    }

    static func from(_ address: UInt) -> BusBox? {
        UnsafeRawPointer(bitPattern: address).map { Unmanaged<BusBox>.fromOpaque($0).takeUnretainedValue() }
    }

    /// - Parameter address: the system bus's address, found off the loop (``GLibBlocking/systemBusAddress()``).
    static func connect(address: String, introspection: String, handler: @escaping @Sendable (BusCall) -> Void,
                        property: @escaping @Sendable (String, String, String) -> BusValue?) async -> Result<UInt, BusError> {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(introspection, &error) else {
            return .failure(BusError("org.freedesktop.DBus.Error.Failed", "the introspection XML does not parse: \(BusVariant.message(error))"))
        }
        // A connection of its own, not the shared one: closing it (stop) must not close the
        // sleep watch's, and its name goes away with it. Made without blocking the loop, which
        // the readers share: a bus slow to answer the handshake stalls no scan.
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                         | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        let (made, problem) = await withCheckedContinuation { (continuation: CheckedContinuation<(UInt, String), Never>) in
            let pending = Unmanaged.passRetained(PendingConnection(continuation)).toOpaque()
            g_dbus_connection_new_for_address(address, flags, nil, nil, BusCallbacks.connectionMade, pending)
        }
        guard let connection = OpaquePointer(bitPattern: made) else {
            g_dbus_node_info_unref(node)
            return .failure(BusError("org.freedesktop.DBus.Error.Failed", "cannot reach the system bus at \(address): \(problem)"))
        }
        // The service outlives a bus restart badly either way; it must not exit with it.
        g_dbus_connection_set_exit_on_close(connection, 0)
        let box = BusBox(handler: handler, property: property)
        box.connection = connection
        box.node = node
        return .success(UInt(bitPattern: Unmanaged.passRetained(box).toOpaque()))
    }

    static func register(_ address: UInt, path: String, interface: String) -> Result<Void, BusError> {
        guard let box = from(address), let connection = box.connection, let node = box.node else {
            return .failure(BusError("org.freedesktop.DBus.Error.Disconnected", "the bus face is stopped"))
        }
        guard let info = g_dbus_node_info_lookup_interface(node, interface) else {
            return .failure(BusError("org.freedesktop.DBus.Error.UnknownInterface", "no interface \(interface) in the introspection XML"))
        }
        var error: UnsafeMutablePointer<GError>?
        let id = g_dbus_connection_register_object(connection, path, info, BusCallbacks.vtable,
                                                    UnsafeMutableRawPointer(bitPattern: address), nil, &error)
        guard id != 0 else { return .failure(BusVariant.busError(error)) }
        box.registrations[path, default: []].append(id)
        return .success(())
    }

    static func unregister(_ address: UInt, path: String) {
        guard let box = from(address), let connection = box.connection else { return }
        for id in box.registrations.removeValue(forKey: path) ?? [] {
            g_dbus_connection_unregister_object(connection, id)
        }
    }

    static func own(_ address: UInt, name: String) async -> Result<Void, BusError> {
        // DO_NOT_QUEUE (4): a name held by another process (fprintd) is an error now, not a wait.
        let answer = await call(address, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                interface: "org.freedesktop.DBus", method: "RequestName", [.string(name), .uint32(4)], timeout: 5000)
        let values: [BusValue]
        switch answer {
        case .failure(let error): return .failure(error)
        case .success(let answered): values = answered
        }
        guard case .uint32(let code)? = values.first else {
            return .failure(BusError("org.freedesktop.DBus.Error.Failed", "RequestName answered \(values)"))
        }
        // 1: now the primary owner; 4: already it.
        if code == 1 || code == 4 { return .success(()) }
        let owner = await call(address, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                               interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID", [.string(name)], timeout: 5000)
        var who = "another process"
        if case .success(let answered) = owner, case .uint32(let pid)? = answered.first {
            who = "process \(pid)" + (processName(pid).map { " (\($0))" } ?? "")
        }
        return .failure(BusError("org.freedesktop.DBus.Error.AddressInUse", "the bus name \(name) is held by \(who)"))
    }

    private static func processName(_ pid: UInt32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/comm") else { return nil }
        return String(decoding: data, as: UTF8.self).trimmed
    }

    static func emit(_ address: UInt, path: String, interface: String, signal: String, _ arguments: [BusValue]) {
        guard let box = from(address), let connection = box.connection else { return }
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_emit_signal(connection, nil, path, interface, signal, BusVariant.make(.tuple(arguments)), &error) == 0 {
            // A signal that cannot be sent (connection closed) has no one to tell.
            _ = BusVariant.message(error)
        }
    }

    static func call(_ address: UInt, destination: String, path: String, interface: String, method: String,
                     _ arguments: [BusValue], timeout: Int32) async -> Result<[BusValue], BusError> {
        guard let box = from(address), let connection = box.connection else {
            return .failure(BusError("org.freedesktop.DBus.Error.Disconnected", "the bus face is stopped"))
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result<[BusValue], BusError>, Never>) in
            let pending = Unmanaged.passRetained(PendingCall(continuation)).toOpaque()
            g_dbus_connection_call(connection, destination, path, interface, method, BusVariant.make(.tuple(arguments)), nil,
                                   G_DBUS_CALL_FLAGS_NONE, timeout, nil, BusCallbacks.callFinished, pending)
        }
    }

    static func watch(_ address: UInt, name: String, vanished: @escaping @Sendable () -> Void) -> UInt32 {
        guard let box = from(address), let connection = box.connection else {
            vanished()
            return 0
        }
        let watcher = Unmanaged.passRetained(NameWatcher(vanished)).toOpaque()
        return g_bus_watch_name_on_connection(connection, name, G_BUS_NAME_WATCHER_FLAGS_NONE, nil,
                                              BusCallbacks.nameVanished, watcher, BusCallbacks.releaseWatcher)
    }

    static func unwatch(_ watch: UInt32) {
        if watch != 0 { g_bus_unwatch_name(watch) }
    }

    static func answer(_ invocation: UInt, _ result: Result<[BusValue], BusError>) {
        guard let invocation = OpaquePointer(bitPattern: invocation) else { return }
        switch result {
        case .success(let values):
            g_dbus_method_invocation_return_value(invocation, BusVariant.make(.tuple(values)))
        case .failure(let error):
            g_dbus_method_invocation_return_dbus_error(invocation, error.name, error.message)
        }
    }

    /// Closes the connection and drops every registration; the box itself lives on (calls made
    /// after this find no connection and do nothing) until the ``BusExport`` goes (``release(_:)``).
    static func disconnect(_ address: UInt) async {
        guard let box = from(address), let connection = box.connection else { return }
        for path in Array(box.registrations.keys) { unregister(address, path: path) }
        box.connection = nil
        if let node = box.node { g_dbus_node_info_unref(node) }
        box.node = nil
        // Returns once the name is gone from the bus (a new owner may take it then), without
        // holding the loop while GDBus flushes and closes.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let pending = Unmanaged.passRetained(PendingClose(continuation)).toOpaque()
            g_dbus_connection_close(connection, nil, BusCallbacks.connectionClosed, pending)
        }
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Frees the box: its ``BusExport`` is gone, so nothing can address it any more.
    static func release(_ address: UInt) async {
        await disconnect(address)
        guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
        Unmanaged<BusBox>.fromOpaque(pointer).release()
    }
}

/// A call to another service on its way back.
final class PendingCall {
    let continuation: CheckedContinuation<Result<[BusValue], BusError>, Never>
    init(_ continuation: CheckedContinuation<Result<[BusValue], BusError>, Never>) { self.continuation = continuation }
}

/// A connection on its way.
final class PendingConnection {
    let continuation: CheckedContinuation<(UInt, String), Never>
    init(_ continuation: CheckedContinuation<(UInt, String), Never>) { self.continuation = continuation }
}

/// A connection closing.
final class PendingClose {
    let continuation: CheckedContinuation<Void, Never>
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
}

/// What to run when a watched name vanishes; runs once.
final class NameWatcher {
    var vanished: (@Sendable () -> Void)?
    init(_ vanished: @escaping @Sendable () -> Void) { self.vanished = vanished }
}
