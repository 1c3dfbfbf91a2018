internal import CLibfprint
import FoundationEssentials

/// The C entry points GDBus calls, all on the loop thread (GDBus calls back on the context that
/// was the thread's default when the connection, call or watch was made: the loop's).
enum BusCallbacks {
    /// One vtable for every registered interface; GDBus copies it, it is kept anyway.
    nonisolated(unsafe) static let vtable: UnsafeMutablePointer<GDBusInterfaceVTable> = {
        let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        table.initialize(to: GDBusInterfaceVTable())
        table.pointee.method_call = methodCall
        table.pointee.get_property = getProperty
        return table
    }()

    private static let methodCall: GDBusInterfaceMethodCallFunc = { _, sender, path, interface, method, parameters, invocation, data in
        GLibLoop.assumeIsolated { [sender = sender.map { String(cString: $0) } ?? "", path = path.map { String(cString: $0) } ?? "",
                                   interface = interface.map { String(cString: $0) } ?? "",
                                   method = method.map { String(cString: $0) } ?? "",
                                   parameters = UInt(bitPattern: parameters), invocation = UInt(bitPattern: invocation),
                                   data = UInt(bitPattern: data)] in
            let reply = BusReply(invocation: invocation)
            guard let box = BusBox.from(data) else { return }
            var arguments: [BusValue] = []
            if let parameters = OpaquePointer(bitPattern: parameters), case .tuple(let values) = BusVariant.read(parameters) {
                arguments = values
            }
            box.handler(BusCall(sender: sender, path: path, interface: interface, method: method, arguments: arguments, reply: reply))
        }
    }

    private static let getProperty: GDBusInterfaceGetPropertyFunc = { _, _, path, interface, name, error, data in
        let found = GLibLoop.assumeIsolated { [path = path.map { String(cString: $0) } ?? "",
                                                interface = interface.map { String(cString: $0) } ?? "",
                                                name = name.map { String(cString: $0) } ?? "",
                                                data = UInt(bitPattern: data)] () -> UInt in
            guard let box = BusBox.from(data), let value = box.property(path, interface, name) else { return 0 }
            return UInt(bitPattern: BusVariant.make(value))
        }
        if found == 0 {
            error?.pointee = g_error_new_literal(g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "no such property")
        }
        return OpaquePointer(bitPattern: found)
    }

    static let callFinished: GAsyncReadyCallback = { source, result, data in
        GLibLoop.assumeIsolated { [source = UInt(bitPattern: source), result = UInt(bitPattern: result), data = UInt(bitPattern: data)] in
            guard let pointer = UnsafeMutableRawPointer(bitPattern: data) else { return }
            let pending = Unmanaged<PendingCall>.fromOpaque(pointer).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(OpaquePointer(bitPattern: source), OpaquePointer(bitPattern: result), &error)
            guard let reply else {
                pending.continuation.resume(returning: .failure(BusVariant.busError(error)))
                return
            }
            defer { g_variant_unref(reply) }
            guard case .tuple(let values) = BusVariant.read(reply) else {
                pending.continuation.resume(returning: .success([]))
                return
            }
            pending.continuation.resume(returning: .success(values))
        }
    }

    static let connectionMade: GAsyncReadyCallback = { _, result, data in
        GLibLoop.assumeIsolated { [result = UInt(bitPattern: result), data = UInt(bitPattern: data)] in
            guard let pointer = UnsafeMutableRawPointer(bitPattern: data) else { return }
            let pending = Unmanaged<PendingConnection>.fromOpaque(pointer).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let connection = g_dbus_connection_new_for_address_finish(OpaquePointer(bitPattern: result), &error)
            let problem = connection == nil ? BusVariant.message(error) : ""
            pending.continuation.resume(returning: (UInt(bitPattern: connection), problem))
        }
    }

    static let connectionClosed: GAsyncReadyCallback = { source, result, data in
        GLibLoop.assumeIsolated { [source = UInt(bitPattern: source), result = UInt(bitPattern: result), data = UInt(bitPattern: data)] in
            guard let pointer = UnsafeMutableRawPointer(bitPattern: data) else { return }
            let pending = Unmanaged<PendingClose>.fromOpaque(pointer).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            // Already closed (the bus went away) is as good as closed now.
            if g_dbus_connection_close_finish(OpaquePointer(bitPattern: source), OpaquePointer(bitPattern: result), &error) == 0 {
                _ = BusVariant.message(error)
            }
            pending.continuation.resume()
        }
    }

    static let nameVanished: GBusNameVanishedCallback = { _, _, data in
        GLibLoop.assumeIsolated { [data = UInt(bitPattern: data)] in
            guard let pointer = UnsafeRawPointer(bitPattern: data) else { return }
            let watcher = Unmanaged<NameWatcher>.fromOpaque(pointer).takeUnretainedValue()
            let vanished = watcher.vanished
            watcher.vanished = nil
            vanished?()
        }
    }

    static let releaseWatcher: GDestroyNotify = { data in
        guard let data else { return }
        Unmanaged<NameWatcher>.fromOpaque(data).release()
    }
}
