import FPLocalAPI
import FPAuthentication

/// A failure whose JSON object carries more than the error, such as the
/// self-test's step reports.
struct CommandFailure: Error {
    let error: AuthError
    let fields: [String: JSONValue]
}
