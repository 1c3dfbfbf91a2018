import FPVocabulary
import NIOCore
import NIOHTTP1
import NIOPosix

/// One request to `fpbridged` on a connection of its own, through NIO's HTTP/1.1 codec.
///
/// The service is on this machine and a command makes one or two requests, so a connection
/// pool, TLS and redirects (what a general HTTP client sets up before its first request) cost
/// start-up time for nothing: see BENCHMARKS.md, "The service client".
struct ServiceExchange {
    typealias Connection = NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>

    /// The service did not start its answer in time.
    struct NoAnswer: Error {
        let within: Duration
    }

    let socketPath: String

    /// Sends `method uri` (with `body` as JSON when given) and hands the response to `read`;
    /// the connection closes when `read` returns.
    ///
    /// Without `answerWithin`, the service may take as long as it likes to start its answer (a
    /// request that waits for a busy reader does); with it, a service that has not started
    /// answering by then is taken for one that is not there. No deadline once the answer has
    /// started: a stream is silent while the engine waits for a finger or a passcode, and the
    /// engine bounds those waits itself.
    func perform<T: Sendable>(_ method: HTTPMethod, _ uri: String, body: [UInt8]?, answerWithin: Duration?,
                              _ read: (inout ServiceResponse) async throws -> T) async throws -> T {
        let connection = try await connect()
        do {
            return try await connection.executeThenClose { inbound, outbound in
                var parts = inbound.makeAsyncIterator()
                let answer: HTTPResponseHead
                // The deadline reaches the reading side as an error in the pipeline.
                let deadline = answerWithin.map { limit in
                    connection.channel.eventLoop.scheduleTask(in: TimeAmount(limit)) {
                        connection.channel.pipeline.fireErrorCaught(NoAnswer(within: limit))
                    }
                }
                defer { deadline?.cancel() }
                do {
                    // One write, one flush: a service that answers or closes as soon as it has
                    // the head could otherwise do so between the parts, and the client would
                    // report its own write on a closed channel instead of what the service did.
                    var request: [HTTPClientRequestPart] = [.head(head(method, uri, bodyLength: body?.count))]
                    if let body { request.append(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
                    request.append(.end(nil))
                    try await outbound.write(contentsOf: request)
                    answer = try await responseHead(&parts)
                    deadline?.cancel()
                } catch let error as NoAnswer {
                    throw unreachable("no answer within \(error.within)")
                } catch let error where ConnectionLoss.matches(error) {
                    // A service that drops the connection before it answers (at its connection
                    // limit, or stopping) did not answer: the same as one that is not there.
                    throw unreachable("it closed the connection: \(ConnectionLoss.describe(error))")
                }
                var response = ServiceResponse(status: answer.status, socketPath: socketPath, parts: parts)
                return try await read(&response)
            }
        } catch let error as AuthError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw AuthError(.readerFailure, "the fpbridge service at \(socketPath) failed: \(error)", cause: .serviceAnswer)
        }
    }

    /// The response's head: 1xx heads announce the real one (fpbridged sends none, but HTTP
    /// allows them).
    private func responseHead(_ parts: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator)
        async throws -> HTTPResponseHead {
        while let part = try await parts.next() {
            if case .head(let head) = part, head.status.code >= 200 { return head }
        }
        if Task.isCancelled { throw CancellationError() }
        throw unreachable("it closed the connection without answering")
    }

    private func connect() async throws -> Connection {
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .connect(unixDomainSocketPath: socketPath) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try Connection(wrappingChannelSynchronously: channel)
                    }
                }
        } catch ChannelError.connectTimeout {
            throw unreachable("no connection within 5 seconds")
        } catch {
            throw unreachable(ConnectionLoss.describe(error))
        }
    }

    private func head(_ method: HTTPMethod, _ uri: String, bodyLength: Int?) -> HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: uri)
        head.headers.add(name: "Host", value: "localhost")
        if let bodyLength {
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(bodyLength))
        }
        return head
    }

    func unreachable(_ why: String) -> AuthError {
        AuthError(.biometryNotAvailable, "the fpbridge service does not answer at \(socketPath) (\(why)); "
                  + "is fpbridged running?")
    }
}
