import FPAuthentication
import HTTPTypes

/// A request refused before anything happened: an HTTP status and the error for the body.
package struct ServiceRefusal: Error, Sendable {
    package let status: HTTPResponse.Status
    package let error: AuthError

    package init(_ status: HTTPResponse.Status, _ code: AuthErrorCode, _ message: String) {
        self.status = status
        error = AuthError(code, message)
    }

    package static func forbidden(_ message: String) -> ServiceRefusal {
        ServiceRefusal(.forbidden, .notPermitted, message)
    }

    package static func badRequest(_ message: String) -> ServiceRefusal {
        ServiceRefusal(.badRequest, .invalidInput, message)
    }
}
