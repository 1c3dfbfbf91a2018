import FPAuthentication
import FPLocalAPI
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// `fpbridged`: the engine, the readers and the state behind a Unix socket.
package struct FPBridgeService: Sendable {
    package let configuration: ServiceConfiguration

    package init(configuration: ServiceConfiguration) {
        self.configuration = configuration
    }

    /// Serves until SIGTERM or SIGINT (``ServiceStop``); `ready` runs once the socket accepts connections.
    /// `stopSignals`: trapped by the caller as early as it can (trapped here when nil).
    package func run(logger: Logger, stopSignals: StopSignals? = nil, ready: @escaping @Sendable () -> Void = {}) async throws {
        let stopSignals = if let stopSignals { stopSignals } else { await StopSignals.trap() }
        try SocketPath.prepare(configuration.socketPath)
        let router = Router(context: ServiceRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: UnknownRouteMiddleware())
        let registry = OperationRegistry()
        let readers = ServiceReaders(idleSeconds: configuration.readerIdleSeconds)
        let sleep = SleepHandling(registry: registry, readers: readers)
        let printCaches = PrintCaches()
        let face = configuration.fprintdBus
            ? FprintdFace(service: configuration, readers: readers, registry: registry, printCaches: printCaches) : nil
        let passkeys = configuration.passkeys
            ? PasskeyFace(service: configuration, readers: readers, printCaches: printCaches) : nil
        ServiceRoutes(service: configuration, registry: registry, readers: readers, sleep: sleep, printCaches: printCaches,
                      pinPad: PinPad(), fprintdStatus: { face?.status.withLock { $0 } ?? "off" })
            .register(on: router)
        let path = configuration.socketPath
        let counts = ConnectionCounts(limit: configuration.connectionsPerUser)
        let app = Application(
            router: router,
            // A connection idle between requests (or stalled before its first) goes after 10 s;
            // a streamed operation is not idle, however long the engine waits for a finger.
            server: .http1(configuration: .init(
                additionalChannelHandlers: [ConnectionLimitHandler(counts: counts, logger: logger)],
                idleTimeout: .seconds(10))),
            configuration: .init(address: .unixDomainSocket(path: path), serverName: "fpbridged"),
            onServerRunning: { _ in
                // Anyone may connect: what each caller may do is decided from its peer credentials.
                chmod(path, 0o666)
                ready()
            },
            logger: logger)
        // Services are stopped in reverse order: the stop ends the operations before the server
        // closes gracefully, which waits for every response (an armed identify's stream too);
        // the faces, the sleep watch and hot-plug end after the server, as they start before it.
        // The signals were trapped before any of this started (StopSignals); each is handed on.
        let parts = [
            ServiceTask("fprintd face") { await face?.run(logger: logger) },
            ServiceTask("passkey face") { await passkeys?.run(logger: logger) },
            ServiceTask("sleep watch") { await sleep.run(logger: logger) },
            ServiceTask("hot-plug") { await readers.followPlugging(logger: logger) },
        ]
        let group = ServiceGroup(configuration: .init(
            services: parts.map(\.configuration) + [
                .init(service: app), .init(service: ServiceStop(registry: registry, readers: readers, logger: logger)),
            ],
            gracefulShutdownSignals: [], logger: logger))
        let relay = Task {
            for await signal in stopSignals.signals {
                logger.info("fpbridged: \(signal): stopping")
                await group.triggerGracefulShutdown()
            }
        }
        defer { relay.cancel() }
        try await group.run()
    }
}
