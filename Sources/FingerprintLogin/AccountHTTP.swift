import AsyncHTTPClient
import FPAccountAPI
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// The JSON calls to `fpbridge-server`, over HTTPS (or loopback HTTP).
struct AccountHTTP: Sendable {
    let server: URL
    /// A PEM file of certificates to trust instead of the system's (a test CA, a private server).
    let trustedCertificates: String?

    func send<T: Decodable>(_ method: HTTPMethod, _ path: String, body: (some Encodable)? = nil as PasswordRequest?,
                            token: String? = nil, as type: T.Type) async throws(FingerprintLoginError) -> T {
        try decode(T.self, from: try await exchange(method, path, body: body, token: token).data)
    }

    /// The answer's JSON as `T`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(FingerprintLoginError) -> T {
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw .transport("the server sent an answer this client cannot read: \(error)")
        }
    }

    /// A 2xx answer's status and body; any other answer as the error it is.
    func exchange(_ method: HTTPMethod, _ path: String, body: (some Encodable)? = nil as PasswordRequest?,
                  token: String? = nil) async throws(FingerprintLoginError) -> (status: Int, data: Data) {
        let client: HTTPClient
        do { client = try makeClient() } catch { throw .transport("cannot use --ca-file \(trustedCertificates ?? ""): \(error)") }
        let result: Result<(HTTPResponseStatus, Data), any Error>
        do {
            var request = HTTPClientRequest(url: server.absoluteString.trimmingSuffix("/") + path)
            request.method = method
            if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
            }
            let response = try await client.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            result = .success((response.status, Data(bytes.readableBytesView)))
        } catch {
            result = .failure(error)
        }
        try? await client.shutdown()
        let (status, data): (HTTPResponseStatus, Data)
        switch result {
        case .success(let answer): (status, data) = answer
        case .failure(let error): throw .transport("cannot reach the server at \(server.absoluteString): \(error)")
        }
        guard (200..<300).contains(status.code) else {
            if let failure = try? JSONDecoder().decode(AccountFailureBody.self, from: data) { throw .server(failure.error) }
            throw .transport("the server at \(server.absoluteString) answered \(status.code) \(status.reasonPhrase)")
        }
        return (Int(status.code), data)
    }

    private func makeClient() throws -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(30))
        if let trustedCertificates {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(trustedCertificates))
            configuration.tlsConfiguration = tls
        }
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
