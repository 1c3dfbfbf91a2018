import FPCore
import FPKeyFormats
import Foundation

/// Passwords as slow salted hashes, kept as `scrypt$N$r$p$salt$hash` (salt and hash in
/// base64): scrypt as every secret in fpbridge is kept (FPKeyFormats' `Scrypt`, with its
/// bounds), compared in constant time.
struct PasswordHasher: Sendable {
    /// log2 of scrypt's N: 15 (32 MiB, ~0.1 s) by default.
    let costLog2: Int
    /// Where the scrypts run: off the event loops and off the cooperative pool.
    let threads: BlockingThreads
    /// Told on the scrypt's thread as each starts and ends (tests count how many run at once).
    let probe: ScryptProbe?

    /// Every server in the process shares one bound: one scrypt a core. Under a login flood an
    /// unbounded queue ran as many 32 MiB scrypts at once as it was given threads, for no more
    /// speed; callers over the bound wait their turn holding no thread.
    static let sharedThreads = BlockingThreads(name: "fpbridge-scrypt", limit: BlockingThreads.onlineCores)

    init(costLog2: Int, threads: BlockingThreads = sharedThreads, probe: ScryptProbe? = nil) {
        self.costLog2 = costLog2
        self.threads = threads
        self.probe = probe
    }

    func hash(_ password: String) async throws -> String {
        let rounds = 1 << costLog2
        return try await offload {
            let salt = Scrypt.newSalt()
            let key = try Array(password.utf8).withUnsafeBytes { try Scrypt.derive($0, salt: salt, rounds: rounds) }
            return ["scrypt", "\(rounds)", "\(Scrypt.blockSize)", "\(Scrypt.parallelism)", Data(salt).base64EncodedString(),
                    key.withUnsafeBytes { Data($0).base64EncodedString() }].joined(separator: "$")
        }
    }

    /// Whether `password` is the one `stored` was made from; false for a record that is not ours.
    func matches(_ password: String, stored: String) async -> Bool {
        let parts = stored.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt", let rounds = Int(parts[1]), let blockSize = Int(parts[2]),
              let parallelism = Int(parts[3]), let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5]),
              Scrypt.accepts(rounds: rounds, blockSize: blockSize, parallelism: parallelism, saltLength: salt.count)
        else { return false }
        let matched = try? await offload {
            try Array(password.utf8).withUnsafeBytes {
                try Scrypt.matches($0, salt: Array(salt), rounds: rounds, blockSize: blockSize, parallelism: parallelism, expected: expected)
            }
        }
        return matched == true
    }

    /// The same time as a real check, for an unknown user: no answer tells which names exist.
    func burn(_ password: String) async {
        _ = try? await hash(password)
    }

    private func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let probe = probe
        return try await threads.run { () throws -> T in
            probe?.started()
            defer { probe?.finished() }
            return try work()
        }
    }
}

/// What a test hears from ``PasswordHasher``'s scrypt threads.
struct ScryptProbe: Sendable {
    /// On the scrypt's thread, before it runs.
    let started: @Sendable () -> Void
    /// On the scrypt's thread, after it ran.
    let finished: @Sendable () -> Void
}
