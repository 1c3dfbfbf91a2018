import FoundationEssentials
import Synchronization

/// A service's face on the system bus: a well-known name, objects at paths that implement
/// interfaces described by introspection XML, method calls handed to Swift, signals, and the
/// bus's own questions (who is this sender, may it do that) asked without blocking the loop.
///
/// GDBus runs on the GLib loop the readers use (``GLibLoop``): every call into GLib hops there,
/// and the callbacks GDBus makes arrive there. A method call reaches the `handler` as a ``BusCall``
/// that must be answered exactly once through its ``BusReply``.
package final class BusExport: Sendable {
    private let address: UInt

    private init(address: UInt) { self.address = address }

    deinit {
        let address = self.address
        Task { await BusBox.release(address) }
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` when set) and parses `introspection`.
    /// Objects are registered with ``register(path:interface:)``; the name is taken last
    /// (``own(_:)``), once clients can find what it promises.
    /// - Parameters:
    ///   - handler: every method call on a registered object, on the loop; it must return quickly
    ///     (start a task) and answer the call's reply later.
    ///   - property: the current value of a property, read synchronously on the loop (from a
    ///     snapshot); nil answers "no such property".
    package static func connect(introspection: String,
                                handler: @escaping @Sendable (BusCall) -> Void,
                                property: @escaping @Sendable (_ path: String, _ interface: String, _ name: String) -> BusValue?)
        async throws(BusError) -> BusExport {
        // Found here, off the loop: the only `_sync` call of the bus layer (it reads the environment).
        let busAddress = try GLibBlocking.systemBusAddress().get()
        let result = await BusBox.connect(address: busAddress, introspection: introspection, handler: handler, property: property)
        return BusExport(address: try result.get())
    }

    /// Serves `interface` (described in the introspection XML) at `path`.
    package func register(path: String, interface: String) async throws(BusError) {
        let address = self.address
        try await BusBox.register(address, path: path, interface: interface).get()
    }

    /// Stops serving every interface at `path`.
    package func unregister(path: String) async {
        let address = self.address
        await BusBox.unregister(address, path: path)
    }

    /// Takes the well-known `name`, without queueing and without letting it be taken over.
    /// - Throws: a ``BusError`` naming who holds it when another process does.
    package func own(_ name: String) async throws(BusError) {
        let address = self.address
        try await BusBox.own(address, name: name).get()
    }

    /// Emits a signal from `path` to every listener.
    package func emit(path: String, interface: String, signal: String, _ arguments: [BusValue]) async {
        let address = self.address
        await BusBox.emit(address, path: path, interface: interface, signal: signal, arguments)
    }

    /// Calls a method of another service and waits for the answer without blocking the loop.
    /// - Parameter timeout: milliseconds; nil waits as long as the bus allows (a polkit dialog).
    package func call(_ destination: String, path: String, interface: String, method: String, _ arguments: [BusValue],
                      timeout: Int32? = 25_000) async throws(BusError) -> [BusValue] {
        let address = self.address
        return try await BusBox.call(address, destination: destination, path: path, interface: interface, method: method,
                                     arguments, timeout: timeout ?? Int32.max).get()
    }

    /// Calls `vanished` once when the bus name (a client's unique name) goes away, or at once if
    /// it is already gone. Returns a watch for ``unwatch(_:)``.
    package func watch(_ name: String, vanished: @escaping @Sendable () -> Void) async -> UInt32 {
        let address = self.address
        return await BusBox.watch(address, name: name, vanished: vanished)
    }

    /// Ends a watch from ``watch(_:vanished:)``.
    package func unwatch(_ watch: UInt32) async {
        await BusBox.unwatch(watch)
    }

    /// Gives the name up, unregisters every object and drops the connection. Calling it again,
    /// or anything else afterwards, does nothing.
    package func stop() async {
        let address = self.address
        await BusBox.disconnect(address)
    }
}

/// One method call, as the bus delivered it.
package struct BusCall: Sendable {
    /// The caller's unique bus name (`:1.42`).
    package var sender: String
    package var path: String
    package var interface: String
    package var method: String
    package var arguments: [BusValue]
    /// Where the answer goes: exactly once.
    package var reply: BusReply

    /// The string argument at `index`, or nil.
    package func string(_ index: Int) -> String? {
        arguments.indices.contains(index) ? arguments[index].text : nil
    }
}

/// The answer to one ``BusCall``. A call left unanswered would hold its client until the bus's
/// timeout, so a reply dropped without an answer answers `Failed` itself.
package final class BusReply: Sendable {
    private let invocation: UInt
    private let answered = Atomic<Bool>(false)

    init(invocation: UInt) { self.invocation = invocation }

    deinit {
        if !answered.load(ordering: .acquiring) {
            let invocation = self.invocation
            Task { await BusBox.answer(invocation, .failure(BusError("org.freedesktop.DBus.Error.Failed", "the call was dropped unanswered"))) }
        }
    }

    /// Answers with these values (the method's out arguments, in order).
    package func values(_ values: [BusValue]) async {
        guard take() else { return }
        await BusBox.answer(invocation, .success(values))
    }

    /// Answers with a D-Bus error.
    package func error(_ error: BusError) async {
        guard take() else { return }
        await BusBox.answer(invocation, .failure(error))
    }

    private func take() -> Bool {
        !answered.exchange(true, ordering: .acquiringAndReleasing)
    }
}
