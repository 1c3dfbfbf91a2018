internal import CLibfprint

/// Every GLib/GIO call that waits (the `*_sync` functions), and the only file allowed to make
/// one: `LoopBlockingTests` fails the build's tests when `_sync(` appears in any other source.
///
/// The loop thread (``GLibLoop``) runs every libfprint operation and the fprintd face; a call
/// that waits there (for the bus, logind, a socket) stalls all of them. So each function here
/// first checks that it is not on that thread: in debug builds a call from the loop stops the
/// process with the name of the call. Code on the loop uses GIO's asynchronous form instead
/// (`Bus/` and `System/` show how).
enum GLibBlocking {
    /// True on the thread that owns GLib's default main context: the loop thread.
    static var isLoopThread: Bool { g_main_context_is_owner(g_main_context_default()) != 0 }

    /// Stops a debug build when a `_sync` call is about to run on the loop thread.
    static func checkOffLoop(_ call: StaticString, file: StaticString = #fileID, line: UInt = #line) {
        assert(!isLoopThread, "\(call) would block the GLib loop thread; use its asynchronous form there",
               file: file, line: line)
    }

    /// The system bus address (`DBUS_SYSTEM_BUS_ADDRESS`, else the default socket path), or why
    /// there is none. Reads the environment only, but is a `_sync` call all the same.
    static func systemBusAddress() -> Result<String, BusError> {
        checkOffLoop("g_dbus_address_get_for_bus_sync")
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SYSTEM, nil, &error) else {
            let problem = error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
            if let error { g_error_free(error) }
            return .failure(BusError("org.freedesktop.DBus.Error.Failed", "no system bus address: \(problem)"))
        }
        defer { g_free(address) }
        return .success(String(cString: address))
    }
}
