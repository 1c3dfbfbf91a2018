internal import CLibfprint
import FoundationEssentials

/// The C entry points GDBus calls for a ``SleepWatch``, all on the loop thread (the context that
/// was the loop thread's default when the call or subscription was made).
enum SleepCallbacks {
    /// `PrepareForSleep(b start)`: true before sleep, false after waking.
    static let prepareForSleep: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
        GLibLoop.assumeIsolated { [parameters = UInt(bitPattern: parameters), data = UInt(bitPattern: data)] in
            guard let box = SleepBox.from(data), let parameters = OpaquePointer(bitPattern: parameters),
                  let child = g_variant_get_child_value(parameters, 0) else { return }
            let start = g_variant_get_boolean(child) != 0
            g_variant_unref(child)
            if start { box.emit(.preparing) } else { box.resumed() }
        }
    }

    static let busReady: GAsyncReadyCallback = { _, result, data in
        GLibLoop.assumeIsolated { [result = UInt(bitPattern: result), data = UInt(bitPattern: data)] in
            guard let pointer = UnsafeMutableRawPointer(bitPattern: data) else { return }
            let pending = Unmanaged<PendingConnection>.fromOpaque(pointer).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let connection = g_bus_get_finish(OpaquePointer(bitPattern: result), &error)
            let problem = connection == nil ? BusVariant.message(error) : ""
            pending.continuation.resume(returning: (UInt(bitPattern: connection), problem))
        }
    }

    static let inhibitAnswered: GAsyncReadyCallback = { source, result, data in
        GLibLoop.assumeIsolated { [source = UInt(bitPattern: source), result = UInt(bitPattern: result), data = UInt(bitPattern: data)] in
            guard let pointer = UnsafeMutableRawPointer(bitPattern: data) else { return }
            let pending = Unmanaged<PendingInhibit>.fromOpaque(pointer).takeRetainedValue()
            var list: UnsafeMutablePointer<GUnixFDList>?
            var error: UnsafeMutablePointer<GError>?
            guard let reply = g_dbus_connection_call_with_unix_fd_list_finish(
                OpaquePointer(bitPattern: source), &list, OpaquePointer(bitPattern: result), &error)
            else {
                pending.continuation.resume(returning: .failure(.general("logind refused a sleep inhibitor: \(BusVariant.message(error))")))
                return
            }
            defer {
                g_variant_unref(reply)
                if let list { g_object_unref(UnsafeMutableRawPointer(list)) }
            }
            pending.continuation.resume(returning: SleepBox.descriptor(reply: reply, list: list))
        }
    }
}
