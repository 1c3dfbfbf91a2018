import Foundation
import Hummingbird

/// Every failure answered in plain words (JSON `{ok: false, message}`), never an empty 404
/// or a type name: the page shows what it gets.
struct PlainErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do { return try await next(request, context) } catch let error as HTTPError {
            let words = error.status == .notFound
                ? "There is no \(request.method) \(request.uri.path) on this kiosk."
                : (error.body ?? error.status.reasonPhrase)
            return KioskReply.failure(error.status, words)
        } catch {
            return KioskReply.failure(.internalServerError, "The kiosk failed: \(error)")
        }
    }
}

/// Only the page's users (``PageUsers``) get an answer, on every route: the event stream
/// carries the welcomed user's login session, and the PIN pad, the wake and the demo's touches
/// act on the reader. Everyone else is refused with their uid named, and so is a connection
/// whose owner cannot be found: no answer rests on a lookup that failed.
struct PageUserMiddleware: RouterMiddleware {
    let pageUsers: PageUsers

    func handle(_ request: Request, context: KioskRequestContext,
                next: (Request, KioskRequestContext) async throws -> Response) async throws -> Response {
        guard let client = context.client, let server = context.server else {
            return KioskReply.failure(.forbidden, "This kiosk answers TCP connections on loopback only.")
        }
        let uid: uid_t
        do { uid = try LoopbackPeerOwner.uid(client: client, server: server) } catch {
            return KioskReply.failure(.forbidden, "This kiosk cannot tell which user is connecting, so it does not answer: \(error).")
        }
        guard pageUsers.allows(uid) else {
            return KioskReply.failure(.forbidden, "This kiosk answers only its page's users: \(pageUsers). This connection "
                                      + "belongs to uid \(uid); the kiosk's --page-user option adds a browser's user.")
        }
        return try await next(request, context)
    }
}

/// Requests that change something (`POST`) come from the kiosk's own page: another site open in
/// the browser must not type PINs here (spending the kiosk's PIN budget), and a name that points
/// at 127.0.0.1 (DNS rebinding) must not reach the kiosk at all. A browser always sends Origin
/// on a cross-site POST, and Host is what it connected to.
struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? ""
        guard Self.isLoopbackHost(host) else {
            return KioskReply.failure(.misdirectedRequest, "This kiosk answers only at 127.0.0.1, [::1] or localhost, not \(host).")
        }
        if request.method == .post, let origin = request.headers[.origin], origin != "http://" + host {
            return KioskReply.failure(.forbidden, "Only the kiosk's own page may do this (the request came from \(origin)).")
        }
        return try await next(request, context)
    }

    static func isLoopbackHost(_ authority: String) -> Bool {
        var name = Substring(authority)
        if name.hasPrefix("["), let close = name.firstIndex(of: "]") {
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.lastIndex(of: ":") {
            name = name[..<colon]
        }
        return name == "localhost" || ListenAddress.isLoopback(String(name))
    }
}

/// The kiosk's answers.
enum KioskReply {
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func failure(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(Failure(message: message), status: status)
    }

    /// The page or one of its assets; `framer` is the one origin that may frame it (`--embed-origin`).
    static func text(_ body: String, type: String, framer: EmbedOrigin? = nil) -> Response {
        bytes(Array(body.utf8), type: type, framer: framer)
    }

    /// The page's own bytes (its logo), with the page's headers.
    static func bytes(_ body: [UInt8], type: String, framer: EmbedOrigin? = nil) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        // The page's script and styles are its own; nothing else is loaded, and it is framed by
        // nobody, or by the application --embed-origin names and no other.
        headers[.init("Content-Security-Policy")!] =
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors \(framer.map(\.description) ?? "'none'")"
        headers[.init("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    struct Failure: Encodable {
        var ok = false
        var message: String
    }
}
