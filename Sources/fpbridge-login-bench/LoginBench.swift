import ArgumentParser
import AsyncHTTPClient
import FPAccountAPI
import FPAccountLoad
import Foundation
import NIOCore
import FPVocabulary

/// Logins per second against a running `fpbridge-server`: each login is a challenge, a
/// signature by a software key (the fingerprint is not what is measured) and the verified
/// assertion that returns a session token. Prints one JSON line of figures.
@main
struct LoginBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fpbridge-login-bench",
        abstract: "Load generator for fpbridge-server: logins per second, p50 and p99 latency.")

    @Option(help: "The server's address (http://127.0.0.1:PORT).")
    var server: String
    @Option(help: "Accounts (each with its own bound software device).")
    var accounts = 32
    @Option(help: "Logins in flight at once.")
    var concurrency = 32
    @Option(help: "Seconds to measure, after one second of warm-up.")
    var seconds = 10.0

    func run() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do { try await measure(http) } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    func validate() throws {
        guard accounts > 0, concurrency > 0, accounts % concurrency == 0 else {
            throw ValidationError("--accounts must be a multiple of --concurrency (each worker signs with devices of its own)")
        }
    }

    private func measure(_ http: HTTPClient) async throws {
        let client = BenchClient(http: http, base: server)
        let origin = try await client.send("GET", "/v1/health", nil as String?, as: Health.self).origin

        var bound: [(String, SoftwareDevice)] = []
        let run = UUID().uuidString.prefix(6)
        for index in 0..<accounts {
            let name = "bench-\(run)-\(index)"
            let password = PasswordRequest(username: name, password: "benchmark password")
            _ = try await client.send("POST", "/v1/accounts", password, as: Empty.self)
            let session = try await client.send("POST", "/v1/sessions", password, as: SessionToken.self)
            let device = SoftwareDevice()
            _ = try await client.send("POST", "/v1/devices", device.bindRequest(), token: session.token, as: Empty.self)
            bound.append((name, device))
        }
        let devices = bound

        let counters = Counters()
        let signatures = SignatureCounters(count: devices.count)
        let step = concurrency
        let start = ContinuousClock.now
        let warmEnd = start + .seconds(1)
        let end = warmEnd + .seconds(seconds)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var index = worker % devices.count
                    while ContinuousClock.now < end {
                        let (name, device) = devices[index]
                        let began = ContinuousClock.now
                        do {
                            let challenge = try await client.send("POST", "/v1/challenges",
                                                                  ChallengeRequest(username: name, credentialId: device.credentialId),
                                                                  as: Challenge.self)
                            // Counters per device go up in the order signatures are made; one worker per device at a time.
                            let next = signatures.next(index)
                            let assertion = device.login(challenge, origin: origin, counter: next)
                            _ = try await client.send("POST", "/v1/logins", assertion, as: SessionToken.self)
                            if began >= warmEnd { counters.record(ContinuousClock.now - began) }
                        } catch {
                            if began >= warmEnd { counters.fail("\(error)") }
                        }
                        index = (index + step) % devices.count
                    }
                }
            }
            try await group.waitForAll()
        }
        let summary = counters.summary(seconds: seconds)
        let data = try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}

/// Each software key's signature counter.
final class SignatureCounters: Sendable {
    private let values: Locked<[UInt64]>

    init(count: Int) { values = Locked(Array(repeating: 0, count: count)) }

    func next(_ index: Int) -> UInt64 {
        values.withLock { values in
            values[index] += 1
            return values[index]
        }
    }
}

/// Latencies and failures of the measured logins.
final class Counters: Sendable {
    private let state = Locked<(latencies: [Double], failures: Int, firstFailure: String?)>(([], 0, nil))

    func record(_ duration: Duration) {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        state.withLock { $0.latencies.append(milliseconds) }
    }

    func fail(_ why: String) {
        state.withLock { state in
            state.failures += 1
            if state.firstFailure == nil { state.firstFailure = why }
        }
    }

    func summary(seconds: Double) -> [String: Any] {
        state.withLock { state in
            let sorted = state.latencies.sorted()
            func percentile(_ p: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
            }
            var result: [String: Any] = [
                "logins": sorted.count, "loginsPerSecond": (Double(sorted.count) / seconds).rounded(),
                "p50ms": (percentile(0.5) * 100).rounded() / 100, "p99ms": (percentile(0.99) * 100).rounded() / 100,
                "failures": state.failures,
            ]
            if let first = state.firstFailure { result["firstFailure"] = first }
            return result
        }
    }
}

/// JSON over HTTP/1.1 with a pooled client.
struct BenchClient: Sendable {
    let http: HTTPClient
    let base: String

    func send<Body: Encodable, T: Decodable>(_ method: String, _ path: String, _ body: Body?, token: String? = nil,
                                             as type: T.Type) async throws -> T {
        var request = HTTPClientRequest(url: base + path)
        request.method = .init(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let data = Data(bytes.readableBytesView)
        guard (200..<300).contains(response.status.code) else {
            throw BenchFailure(description: "\(method) \(path): \(response.status.code) \(String(decoding: data, as: UTF8.self))")
        }
        return try JSONDecoder().decode(T.self, from: data)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}

struct Empty: Decodable {}

struct Health: Decodable {
    let origin: String
}
