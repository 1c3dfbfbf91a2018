extension GLibLoop {
    /// Runs `operation` as code isolated to the loop, from a C callback that GLib
    /// called on the loop thread. Stops the process if it is not that thread
    /// (``GLibExecutor/checkIsolated()``): the debug-and-release precondition where
    /// C enters Swift.
    static func assumeIsolated<T>(_ operation: @GLibLoop () throws -> T) rethrows -> T {
        shared.preconditionIsolated("a libfprint callback ran off the GLib loop thread")
        // The check above is what makes this cast sound, as in MainActor.assumeIsolated.
        return try withoutActuallyEscaping(operation) { isolated in
            try unsafeBitCast(isolated, to: (() throws -> T).self)()
        }
    }
}
