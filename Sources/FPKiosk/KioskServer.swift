import Foundation
import Hummingbird
import Logging

/// `fpbridge-kiosk`: the identify loop against fpbridged, and the page on loopback.
package struct KioskServer: Sendable {
    package let listen: ListenAddress
    package let backend: any KioskBackend
    package let demo: DemoTouch?
    package let clock: any KioskClock
    /// Whose processes get an answer: the kiosk's own user and `--page-user`.
    package let pageUsers: PageUsers
    /// `--badges`: the PIN pad's user id is a badge number.
    package let badges: BadgeList?
    /// `--embed-origin`: the application that frames the page and is handed each welcome's session.
    package let embedOrigin: EmbedOrigin?
    /// `--page-dir`: the stylesheet, words and logo the page is served with.
    package let assets: KioskPageAssets
    /// `--badge-first`: every touch is named first (badge and finger), whatever the gallery's size.
    package var badgeFirst = false

    package init(listen: ListenAddress, backend: any KioskBackend, demo: DemoTouch? = nil,
                 clock: any KioskClock = SystemKioskClock(), pageUsers: PageUsers, badges: BadgeList? = nil,
                embedOrigin: EmbedOrigin? = nil, assets: KioskPageAssets = .builtIn) {
        self.listen = listen
        self.backend = backend
        self.demo = demo
        self.clock = clock
        self.pageUsers = pageUsers
        self.badges = badges
        self.embedOrigin = embedOrigin
        self.assets = assets
    }

    /// Every route the kiosk serves, as `METHOD /path`, read from the router it serves with
    /// (`HEAD`, which the router answers for every `GET`, left out): what
    /// api/fpbridge-kiosk.openapi.yaml documents, and a test holds the two equal.
    package func routes() -> [String] {
        router(board: KioskBoard(clock: clock), wake: WakeSignal(), desk: BadgeDesk(), logger: Logger(label: "fpbridge-kiosk")).routes
            .filter { $0.method != .head }.map { "\($0.method) \($0.path)" }.sorted()
    }

    /// The router: the checks every request passes, then the routes.
    private func router(board: KioskBoard, wake: WakeSignal, desk: BadgeDesk, logger: Logger) -> Router<KioskRequestContext> {
        let router = Router(context: KioskRequestContext.self)
        router.add(middleware: PlainErrorMiddleware())
        // Before anything else looks at the request: another user learns nothing but the refusal.
        router.add(middleware: PageUserMiddleware(pageUsers: pageUsers))
        router.add(middleware: SameOriginMiddleware())
        var routes = KioskRoutes(board: board, wake: wake, pinPad: PinPad(backend: backend, board: board, badges: badges, desk: desk, clock: clock),
                                 demo: demo, embedOrigin: embedOrigin)
        routes.assets = assets
        routes.warn = { logger.warning("\($0)") }
        routes.register(on: router)
        return router
    }

    /// Serves until the task is cancelled; `ready` gets the page's URL once the port is open.
    package func run(logger: Logger, ready: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let board = KioskBoard(clock: clock)
        let wake = WakeSignal()
        let desk = BadgeDesk(always: badgeFirst)
        let loop = {
            var loop = IdentifyLoop(backend: backend, board: board, clock: clock, wake: wake, desk: desk)
            loop.log = { logger.info("\($0)") }
            return loop
        }()
        let router = self.router(board: board, wake: wake, desk: desk, logger: logger)
        let listen = listen
        let app = Application(
            router: router,
            // The event stream is written to every 10 s, so a minute idle is a page gone away.
            server: .http1(configuration: .init(idleTimeout: .seconds(60))),
            configuration: .init(address: .hostname(listen.host, port: listen.port), serverName: "fpbridge-kiosk"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? listen.port
                let host = listen.host.contains(":") ? "[\(listen.host)]" : listen.host
                ready("http://\(host):\(port)/")
            },
            logger: logger)
        defer { board.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            group.addTask { await loop.run() }
            group.addTask {
                // Keeps idle event streams written to (and their countdowns corrected).
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(10))
                    board.repeatCurrent()
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
