import FPAuthentication
import FPLocalAPI
import Hummingbird
import NIOCore

/// Runs an operation and streams its lines: `started`, events as they happen, one `result`.
/// A client that goes away cancels the operation at once (`appCancel`); nothing it did not
/// see happen is counted, since the engine counts only finished scans.
struct OperationStream {
    let registry: OperationRegistry

    func response(caller: Caller, channel: any Channel,
                  _ work: @escaping @Sendable (Operation, @escaping @Sendable (StreamLine) -> Void) async throws -> JSONValue) throws -> Response {
        let (lines, sink) = AsyncStream<StreamLine>.makeStream(bufferingPolicy: .unbounded)
        let send: @Sendable (StreamLine) -> Void = { sink.yield($0) }
        let operation = Operation(owner: caller.credentials.uid, prompt: RemotePrompt(send: send))
        do { try registry.admit(operation) } catch { throw ServiceRefusal(.serviceUnavailable, error.code, error.message) }
        let registry = self.registry
        let task = Task {
            send(.started(operation.id))
            do {
                send(.success(try await work(operation, send)))
            } catch {
                send(.failure(operation.outcome(error)))
            }
            registry.remove(operation)
            sink.finish()
        }
        operation.attach(task)
        channel.closeFuture.whenComplete { _ in operation.cancel(.app) }
        var headers = HTTPFields()
        headers[.contentType] = LocalAPI.streamMediaType
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            do {
                for await line in lines {
                    try await writer.write(ByteBuffer(bytes: WireCoding.line(line)))
                }
                try await writer.finish(nil)
            } catch {
                operation.cancel(.app)
                throw error
            }
        })
    }
}
