import Hummingbird
import Logging

/// One line per request at debug level (`fpbridged --verbose`): method, path, the caller's uid
/// as the kernel gives it, the status and how long the answer took to start. Never a body, so
/// never a passcode; a query holds only user names, fingers and readers.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.logger.logLevel <= .debug else { return try await next(request, context) }
        let started = ContinuousClock.now
        let uid = (try? await PeerCredentials.of(context.channel)).map { "uid \($0.uid)" } ?? "uid unknown"
        let line = "\(request.method) \(request.uri.path)\(request.uri.query.map { "?" + $0 } ?? "") from \(uid)"
        do {
            let response = try await next(request, context)
            context.logger.debug("\(line): \(response.status.code) in \(Self.milliseconds(since: started)) ms")
            return response
        } catch {
            context.logger.debug("\(line): failed (\(error)) after \(Self.milliseconds(since: started)) ms")
            throw error
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
