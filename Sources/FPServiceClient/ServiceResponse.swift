import FPVocabulary
import NIOCore
import NIOHTTP1

/// A response of the service as it arrives: its status, then its body in the pieces the socket
/// delivers them.
struct ServiceResponse {
    let status: HTTPResponseStatus
    let socketPath: String
    var parts: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator

    /// The next piece of the body; nil once the body is complete.
    mutating func nextPiece() async throws -> ByteBuffer? {
        while true {
            let part: HTTPClientResponsePart?
            do { part = try await parts.next() } catch is CancellationError { throw CancellationError() } catch {
                guard ConnectionLoss.matches(error) else {
                    throw AuthError(.readerFailure, "the fpbridge service at \(socketPath) sent a broken answer: \(error)", cause: .serviceAnswer)
                }
                throw cutShort(because: ConnectionLoss.describe(error))
            }
            switch part {
            case .body(let piece): return piece
            case .end: return nil
            case .head: continue
            case nil:
                if Task.isCancelled { throw CancellationError() }
                throw cutShort(because: nil)
            }
        }
    }

    private func cutShort(because reason: String?) -> AuthError {
        AuthError(.systemCancel, "the fpbridge service at \(socketPath) closed the connection before its answer was "
                  + "complete\(reason.map { " (\($0))" } ?? ""); was it stopped?")
    }

    /// The whole body, refused beyond `limit` bytes.
    mutating func collect(upTo limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let piece = try await nextPiece() {
            guard bytes.count + piece.readableBytes <= limit else {
                throw AuthError(.readerFailure, "the fpbridge service at \(socketPath) sent an answer over \(limit) bytes", cause: .serviceAnswer)
            }
            bytes.append(contentsOf: piece.readableBytesView)
        }
        return bytes
    }
}
