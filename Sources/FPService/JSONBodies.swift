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

    static func ok(_ value: some Encodable) -> Response {
        var fields: [String: JSONValue] = [:]
        if case .object(let object)? = try? JSONValue(encoding: value) { fields = object }
        return response(.ok, Envelope.success(fields))
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
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        var data = (try? WireCoding.encoder().encode(value)) ?? Data("{}".utf8)
        data.append(0x0A)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
