import ServiceLifecycle

/// One of fpbridged's long-running parts beside the socket (the fprintd face, the sleep watch,
/// hot-plug), run as a service of the group: started in the group's order, after the stop
/// signals are trapped, and cancelled at a graceful shutdown in its turn (the group ends its
/// services in reverse order, so the parts listed before the server end after it). A part
/// whose work ends by itself (no system bus for the face) stays in the group, idle, until its
/// turn: the group takes a service that returns during a shutdown, before its turn, for a
/// failure (and fpbridged exited 1 for a stop sent as it started).
struct ServiceTask: Service, CustomStringConvertible {
    let description: String
    let body: @Sendable () async -> Void

    init(_ name: String, _ body: @escaping @Sendable () async -> Void) {
        description = name
        self.body = body
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await body() }
        // Nothing left to do: wait for the stop (at once when it came already).
        try? await gracefulShutdown()
    }

    /// The group's entry for this part: its end, however it comes, never ends the group.
    var configuration: ServiceGroupConfiguration.ServiceConfiguration {
        .init(service: self, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore, serviceName: description)
    }
}
