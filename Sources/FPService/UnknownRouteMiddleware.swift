import FPAuthentication
import Hummingbird

/// Hummingbird's own refusals (no such route, a method the route does not take) in the
/// API's error shape: every 4xx carries a JSON body that names what was wrong (issue 25).
struct UnknownRouteMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do { return try await next(request, context) } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
            return JSONBodies.refusal(ServiceRefusal(.notFound, .notFound,
                                                     "no such endpoint: \(request.method) \(request.uri.path) (api/fpbridged.openapi.yaml lists them)"))
        }
    }
}
