import FPAccountAPI
import FPJSON
import Foundation
import Hummingbird
import Logging

/// Request bodies read strictly, answers in the `{"ok": …}` shape, and every error as a
/// 4xx naming what was wrong, or a 503 when the database failed.
enum Replies {
    static func decode<T: Codable>(_ type: T.Type, from request: Request) async throws -> T {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: AccountLimits.maximumBodyBytes) } catch {
            throw AccountError(.payloadTooLarge, "the request body is over \(AccountLimits.maximumBodyBytes) bytes")
        }
        do { return try StrictJSON.decode(T.self, from: Data(buffer: buffer)) } catch {
            throw AccountError(.invalidRequest, error.message)
        }
    }

    static func ok(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        // `"ok":true` goes in front of the object's own fields: one encoding, no re-parsing.
        var data = Data(#"{"ok":true"#.utf8)
        if let encoded = try? encoder.encode(value), encoded.count > 2, encoded.first == UInt8(ascii: "{") {
            data.append(UInt8(ascii: ","))
            data.append(encoded.dropFirst())
        } else {
            data.append(UInt8(ascii: "}"))
        }
        data.append(0x0A)
        return Response(status: status, headers: jsonHeaders, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func failure(_ error: any Error, logger: Logger) -> Response {
        let refusal: AccountError
        switch error {
        case let error as AccountError: refusal = error
        case let error as DatabaseFailure:
            logger.error("database: \(error.description)")
            refusal = AccountError(.unavailable, "the server's database failed; nothing was changed, try again")
        case let error as HTTPError where error.status == .contentTooLarge:
            refusal = AccountError(.payloadTooLarge, "the request body is over \(AccountLimits.maximumBodyBytes) bytes")
        case let error as HTTPError:
            return Response(status: error.status.code < 500 ? error.status : .badRequest, headers: jsonHeaders,
                            body: body(AccountFailureBody(AccountError(.invalidRequest, error.body ?? error.status.reasonPhrase))))
        default:
            logger.error("unexpected: \(String(describing: error))")
            refusal = AccountError(.unavailable, "the server failed; nothing was changed, try again")
        }
        var response = response(HTTPResponse.Status(code: refusal.code.status), AccountFailureBody(refusal))
        if let retryAfter = refusal.retryAfter { response.headers[.retryAfter] = "\(retryAfter)" }
        return response
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static var jsonHeaders: HTTPFields { [.contentType: "application/json"] }

    private static func body(_ value: some Encodable) -> ResponseBody {
        var data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        data.append(0x0A)
        return ResponseBody(byteBuffer: ByteBuffer(bytes: data))
    }

    private static func response(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        Response(status: status, headers: jsonHeaders, body: body(value))
    }
}
