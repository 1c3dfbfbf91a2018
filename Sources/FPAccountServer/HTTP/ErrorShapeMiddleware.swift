import FPAccountAPI
import Hummingbird

/// Hummingbird's own refusals (no such route, wrong method) in the API's error shape.
struct ErrorShapeMiddleware: RouterMiddleware {
    typealias Context = AccountRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do { return try await next(request, context) } catch let error as HTTPError where error.status == .notFound {
            return Replies.failure(AccountError(.notFound, "no such endpoint: \(request.method) \(request.uri.path)"), logger: context.logger)
        } catch {
            return Replies.failure(error, logger: context.logger)
        }
    }
}
