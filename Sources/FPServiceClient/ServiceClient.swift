import AsyncHTTPClient
import FPAuthentication
import FPLocalAPI
import Foundation
import NIOCore
import NIOHTTP1

/// A client of `fpbridged`'s local API on its Unix socket.
///
/// Errors are the engine's ``AuthError``s, as the service sent them; a service that cannot be
/// reached is ``AuthErrorCode/biometryNotAvailable`` naming the socket.
package struct ServiceClient: Sendable {
    package let socketPath: String
    let http: HTTPClient

    /// Runs `body` with a client, shut down afterwards.
    package static func with<T: Sendable>(socket: String, _ body: (ServiceClient) async throws -> T) async throws -> T {
        // No read timeout: a stream is silent while the engine waits for a finger or a passcode,
        // and the engine bounds those waits itself.
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: nil)
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let client = ServiceClient(socketPath: socket, http: http)
        do {
            let result = try await body(client)
            try? await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// `GET path?query`, decoded as `T` from an `{"ok": true, …}` body.
    package func get<T: Decodable>(_ path: String, query: [String: String?] = [:]) async throws -> T {
        let items = query.compactMap { key, value in value.map { URLQueryItem(name: key, value: $0) } }
        var components = URLComponents()
        components.path = LocalAPI.prefix + "/" + path
        components.queryItems = items.isEmpty ? nil : items.sorted { $0.name < $1.name }
        return try await send(HTTPClientRequest(url: url(components.string ?? path)), as: T.self)
    }

    /// `POST path` with a JSON body, decoded as `T` from an `{"ok": true, …}` body.
    package func post<T: Decodable>(_ path: String, _ body: some Encodable) async throws -> T {
        try await send(request(path, body), as: T.self)
    }

    func request(_ path: String, _ body: some Encodable) throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url(LocalAPI.prefix + "/" + path))
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try WireCoding.encoder().encode(body)))
        return request
    }

    func execute(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        do {
            return try await http.execute(request, timeout: .hours(24 * 365))
        } catch let error as HTTPClientError where error == .connectTimeout || error == .remoteConnectionClosed {
            throw unreachable("\(error)")
        } catch let error as HTTPClientError {
            throw AuthError(.readerFailure, "the fpbridge service at \(socketPath) failed: \(error)")
        } catch let error as AuthError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw unreachable("\(error)")
        }
    }

    private func send<T: Decodable>(_ request: HTTPClientRequest, as type: T.Type) async throws -> T {
        let response = try await execute(request)
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        let data = Data(body.readableBytesView)
        guard response.status == .ok else { throw Self.refusal(data, status: response.status) }
        do { return try WireCoding.decoder().decode(T.self, from: data) } catch {
            throw AuthError(.readerFailure, "the fpbridge service sent an answer this client cannot read: \(error)")
        }
    }

    static func refusal(_ data: Data, status: HTTPResponseStatus) -> AuthError {
        if let failure = try? WireCoding.decoder().decode(FailureBody.self, from: data) { return failure.error.error }
        return AuthError(.readerFailure, "the fpbridge service answered \(status.code) \(status.reasonPhrase)")
    }

    private func url(_ path: String) -> String {
        URL(httpURLWithSocketPath: socketPath, uri: path)?.absoluteString ?? "http+unix://invalid\(path)"
    }

    private func unreachable(_ why: String) -> AuthError {
        AuthError(.biometryNotAvailable, "the fpbridge service does not answer at \(socketPath) (\(why)); "
                  + "is fpbridged running?")
    }
}
