import FPVocabulary
import FPLocalAPI
import FoundationEssentials
import NIOHTTP1

/// A client of `fpbridged`'s local API on its Unix socket.
///
/// Errors are the engine's ``AuthError``s, as the service sent them; a service that cannot be
/// reached is ``AuthErrorCode/biometryNotAvailable`` naming the socket.
package struct ServiceClient: Sendable {
    package let socketPath: String
    /// How long a read request, or a streamed operation, may wait for the service to start
    /// answering (it answers those at once, whatever the operation then waits for).
    package var answerDeadline: Duration = .seconds(30)

    package init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// Runs `body` with a client for the service at `socket`. Each request has a connection of
    /// its own, open only while it runs: there is nothing to shut down afterwards.
    package static func with<T: Sendable>(socket: String, _ body: (ServiceClient) async throws -> T) async throws -> T {
        try await body(ServiceClient(socketPath: socket))
    }

    var exchange: ServiceExchange { ServiceExchange(socketPath: socketPath) }

    /// `GET path?query`, decoded as `T` from an `{"ok": true, …}` body.
    package func get<T: Decodable & Sendable>(_ path: String, query: [String: String?] = [:]) async throws -> T {
        let items = query.compactMap { key, value in value.map { URLQueryItem(name: key, value: $0) } }
        var components = URLComponents()
        components.path = LocalAPI.prefix + "/" + path
        components.queryItems = items.isEmpty ? nil : items.sorted { $0.name < $1.name }
        return try await send(.GET, components.string ?? LocalAPI.prefix + "/" + path, body: nil,
                              answerWithin: answerDeadline, as: T.self)
    }

    /// `POST path` with a JSON body, decoded as `T` from an `{"ok": true, …}` body.
    package func post<T: Decodable & Sendable>(_ path: String, _ body: some Encodable) async throws -> T {
        // Some of these wait for a busy reader before they answer (removing a print does).
        try await send(.POST, LocalAPI.prefix + "/" + path, body: try encode(body), answerWithin: nil, as: T.self)
    }

    func encode(_ body: some Encodable) throws -> [UInt8] {
        Array(try WireCoding.encoder().encode(body))
    }

    private func send<T: Decodable & Sendable>(_ method: HTTPMethod, _ uri: String, body: [UInt8]?,
                                               answerWithin: Duration?, as type: T.Type) async throws -> T {
        let (status, data) = try await exchange.perform(method, uri, body: body, answerWithin: answerWithin) { response in
            (response.status, Data(try await response.collect(upTo: 16 * 1024 * 1024)))
        }
        guard status == .ok else { throw Self.refusal(data, status: status) }
        do { return try WireCoding.decoder().decode(T.self, from: data) } catch {
            throw AuthError(.readerFailure, "the fpbridge service sent an answer this client cannot read: \(error)", cause: .serviceAnswer)
        }
    }

    static func refusal(_ data: Data, status: HTTPResponseStatus) -> AuthError {
        if let failure = try? WireCoding.decoder().decode(FailureBody.self, from: data) { return failure.error.error }
        return AuthError(.readerFailure, "the fpbridge service answered \(status.code) \(status.reasonPhrase)", cause: .serviceAnswer)
    }
}
