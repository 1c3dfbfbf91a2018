import FPCore

extension ServiceRoutes {
    /// The routes' synchronous work on the state and the TPM (a key made, listed or described
    /// under the state's file lock; the TPM's commands, each a round trip to the chip) runs here,
    /// off Swift's shared threads: a TPM command or a contended lock holds one of these, never a
    /// thread every other request needs. Two at once: a TPM runs one command at a time anyway.
    static let stateThreads = BlockingThreads(name: "fpbridge-state", limit: 2)

    /// Runs `work` on ``stateThreads`` and gives its result back to the request's task.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await stateThreads.run(work)
    }
}
