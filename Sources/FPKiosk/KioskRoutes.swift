import Foundation
import Hummingbird

/// The kiosk's HTTP face: the page and its assets, the event stream, the PIN pad, the wake.
struct KioskRoutes: Sendable {
    let board: KioskBoard
    let wake: WakeSignal
    let pinPad: PinPad
    let demo: DemoTouch?
    /// `--embed-origin`: the one origin that may frame the page, and that it hands welcomes to.
    var embedOrigin: EmbedOrigin? = nil
    /// The stylesheet, the words and the logo: built in, or `--page-dir`'s.
    var assets = KioskPageAssets.builtIn
    /// Why the PIN pad cannot work (fpbridged away, the kiosk not allowed to check PINs), for
    /// whoever runs the kiosk: the page says it in plain words without the cause. Never a PIN.
    var warn: @Sendable (String) -> Void = { _ in }

    func register(on router: Router<some RequestContext>) {
        let demoFingers = demo?.fingers ?? []
        let page = KioskPage.html(demoFingers: demoFingers, badges: pinPad.badges != nil, embedOrigin: embedOrigin,
                                  logo: assets.logo != nil)
        let framer = embedOrigin, css = assets.css, script = KioskScript.javascript(languages: assets.languages), logo = assets.logo
        router.get("/") { _, _ in KioskReply.text(page, type: "text/html; charset=utf-8", framer: framer) }
        router.get("/kiosk.css") { _, _ in KioskReply.text(css, type: "text/css; charset=utf-8", framer: framer) }
        router.get("/kiosk.js") { _, _ in KioskReply.text(script, type: "text/javascript; charset=utf-8", framer: framer) }
        router.get("/logo") { _, _ in
            guard let logo else { return KioskReply.failure(.notFound, "This kiosk has no logo (--page-dir with logo.svg or logo.png).") }
            return KioskReply.bytes(logo.bytes, type: logo.type, framer: framer)
        }
        router.get("/events") { _, _ in events() }
        router.post("/wake") { _, _ in
            wake.wake()
            return Response(status: .noContent)
        }
        router.post("/pin") { request, _ in try await pin(request) }
        router.post("/badge") { request, _ in try await badge(request) }
        router.post("/demo/touch") { request, _ in try await touch(request) }
    }

    /// Server-Sent Events: one `data:` line of JSON per snapshot, the current one first.
    private func events() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let snapshots = board.watch()
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // A browser that lost the stream reconnects after this many milliseconds.
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            for await snapshot in snapshots {
                let json = String(decoding: try encoder.encode(snapshot), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "data: \(json)\n\n"))
            }
            try await writer.finish(nil)
        })
    }

    private struct PinRequest: Decodable {
        var user: String
        var pin: String
    }

    private func pin(_ request: Request) async throws -> Response {
        guard let body: PinRequest = try await decode(request) else {
            return KioskReply.failure(.badRequest, "Send {\"user\": \"…\", \"pin\": \"…\"} as JSON.")
        }
        let answer = await pinPad.check(user: body.user, pin: body.pin)
        if ["pinTrouble", "pinNotPermitted", "pinServerTrouble"].contains(answer.message) {
            warn("the PIN pad cannot check PINs (\(answer.message)): \(answer.parameters["detail"] ?? "no detail")")
        }
        return KioskReply.json(answer, status: answer.ok ? .ok : Self.status(answer))
    }

    private struct BadgeRequest: Decodable {
        var user: String
    }

    /// "Use finger": who the next touch is compared with; the loop is woken to arm it.
    private func badge(_ request: Request) async throws -> Response {
        guard let body: BadgeRequest = try await decode(request) else {
            return KioskReply.failure(.badRequest, "Send {\"user\": \"…\"} as JSON.")
        }
        let answer = pinPad.claim(user: body.user)
        if answer.ok { wake.wake() }
        let status: HTTPResponse.Status = switch answer.message {
        case "touchReader": .accepted
        case "badgeMissing": .badRequest
        default: .conflict
        }
        return KioskReply.json(answer, status: status)
    }

    private static func status(_ answer: PinPad.Answer) -> HTTPResponse.Status {
        switch answer.message {
        case "pinMissing", "pinInvalid": .badRequest
        case "pinLocked", "pinPadResting": .tooManyRequests
        case "pinNotPermitted": .forbidden
        case "pinTrouble", "pinServerTrouble": .serviceUnavailable
        default: .unauthorized
        }
    }

    private struct TouchRequest: Decodable {
        var finger: String
    }

    private func touch(_ request: Request) async throws -> Response {
        guard let demo else { return KioskReply.failure(.notFound, "This kiosk was started without demo touches.") }
        guard let body: TouchRequest = try await decode(request) else {
            return KioskReply.failure(.badRequest, "Send {\"finger\": \"…\"} as JSON.")
        }
        // A touch is also a wake: a resting reader is armed for it when its heat allows.
        wake.wake()
        do { try await demo.touch(body.finger) } catch {
            return KioskReply.failure(.serviceUnavailable, "The demo touch failed: \(error)")
        }
        return Response(status: .noContent)
    }

    /// The body as JSON, nil when it is not (or is over 4 KiB: no answer here needs more).
    private func decode<T: Decodable>(_ request: Request) async throws -> T? {
        guard let buffer = try? await request.body.collect(upTo: 4096) else { return nil }
        return try? JSONDecoder().decode(T.self, from: Data(buffer: buffer))
    }
}
