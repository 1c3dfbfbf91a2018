import FPAuthentication
import FPLocalAPI
import Foundation
import Hummingbird

/// Reading request bodies strictly and writing answers in the CLI's `{"ok": …}` shape.
enum JSONBodies {
    /// Decodes the body as `T`; malformed JSON, a wrong type, a missing or unknown field is a 400
    /// naming it, a body over the cap a 413.
    static func decode<T: Codable>(_ type: T.Type, from request: Request) async throws -> T {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: LocalAPI.maximumBodyBytes) } catch {
            throw ServiceRefusal(.contentTooLarge, .invalidInput, "the request body is over \(LocalAPI.maximumBodyBytes) bytes")
        }
        do { return try StrictJSON.decode(T.self, from: Data(buffer: buffer), decoder: WireCoding.decoder()) } catch {
            throw ServiceRefusal.badRequest(error.message)
        }
    }

    /// A success with `value`'s fields. An answer that cannot be written (a NaN, say) is a 500
    /// naming why, never a 200 without its fields: a caller must not take it for success.
    static func ok(_ value: some Encodable) -> Response {
        let fields: JSONValue
        do {
            fields = try JSONValue(encoding: value)
        } catch {
            return answer(unwritable(error))
        }
        guard case .object(let object) = fields else {
            return answer(unwritable("\(type(of: value)) is not a JSON object"))
        }
        return response(.ok, Envelope.success(object))
    }

    static func refusal(_ refusal: ServiceRefusal) -> Response {
        response(refusal.status, FailureBody(refusal.error))
    }

    /// An engine error before any stream: 4xx for what the caller can fix, 409 for state, 503 for the reader.
    static func failure(_ error: AuthError) -> Response {
        let status: HTTPResponse.Status = switch error.code {
        case .invalidInput: .badRequest
        case .notFound: .notFound
        case .notPermitted: .forbidden
        case .alreadyEnrolled, .passcodeNotSet, .biometryNotEnrolled, .biometryLockout, .passcodeLockout, .stateDamaged: .conflict
        case .pinPadResting: .tooManyRequests
        case .readerBusy, .biometryNotAvailable, .readerTooHot, .readerFailure, .biometryDisconnected: .serviceUnavailable
        default: .unprocessableContent
        }
        return response(status, FailureBody(error))
    }

    private static func response(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        answer(body(status, value))
    }

    /// The status and bytes of an answer: `value` as JSON, or, when it cannot be written, a 500
    /// in the failure shape (not `{}` under the status meant for `value`).
    static func body(_ status: HTTPResponse.Status, _ value: some Encodable) -> (HTTPResponse.Status, Data) {
        do {
            return (status, try WireCoding.encoder().encode(value))
        } catch {
            return unwritable(error)
        }
    }

    /// A 500 for an answer the service could not write. The code is `readerFailure`: the API
    /// has no code for the service's own failure, and it is the code a client gives an answer
    /// it cannot read (`WireError.error`), which is what the broken answer would have been.
    static func unwritable(_ cause: Any) -> (HTTPResponse.Status, Data) {
        let error = AuthError(.readerFailure, "the service could not write its answer: \(cause)")
        // A failure body holds strings and an integer only; should even that fail, the same shape by hand.
        let data = (try? WireCoding.encoder().encode(FailureBody(error)))
            ?? Data(#"{"error":{"code":-2006,"message":"the service could not write its answer","name":"readerFailure"},"ok":false}"#.utf8)
        return (.internalServerError, data)
    }

    private static func answer(_ answer: (HTTPResponse.Status, Data)) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        var data = answer.1
        data.append(0x0A)
        return Response(status: answer.0, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
