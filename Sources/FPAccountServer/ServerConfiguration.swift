/// How `fpbridge-server` runs: where it listens, what it stores where, and its limits.
package struct ServerConfiguration: Sendable {
    /// Where the data lives.
    package enum Database: Sendable, Equatable {
        /// An embedded SQLite file (the default).
        case sqlite(path: String)
        /// A PostgreSQL URL, shared by several instances.
        case postgres(url: String)
    }

    package var host = "127.0.0.1"
    package var port = 8443
    /// The origin clients reach the server at, which every signed assertion names;
    /// nil: the scheme, host and port it listens on.
    package var origin: String?
    package var database = Database.sqlite(path: "fpbridge-server.sqlite")
    /// PEM certificate chain and key: HTTPS. Without them only loopback HTTP is served.
    package var tlsCertificate: String?
    package var tlsKey: String?
    /// Seconds a challenge stays valid: at least 1, never over 300.
    package var challengeSeconds = 120
    package var passwordSessionSeconds = 900
    package var fingerprintSessionSeconds = 600
    /// log2 of scrypt's N for new passwords.
    package var passwordCostLog2 = 15
    /// Per minute: password logins per account and per client address.
    package var passwordLoginsPerAccount = 10
    package var passwordLoginsPerAddress = 30
    /// Per minute: challenges (login and payment) per credential and per account.
    package var challengesPerCredential = 30
    package var challengesPerAccount = 60
    /// Access controls a bound key may have (attested): a fingerprint, with the set of prints fixed, by default.
    package var acceptedAccessControls: Set<String> = ["biometryCurrentSet"]
    /// Accept keys that live in a developer's own files (the fake reader, the demo, tests).
    package var acceptDevelopmentKeys = false

    package init() {}

    /// The configuration's problems, in words; empty when it can run.
    package func problems() -> [String] {
        var problems: [String] = []
        if !(1...300).contains(challengeSeconds) { problems.append("--challenge-seconds must be 1 to 300 (got \(challengeSeconds))") }
        if !(10...20).contains(passwordCostLog2) { problems.append("--password-cost must be 10 to 20 (got \(passwordCostLog2))") }
        if !(1...65535).contains(port) && port != 0 { problems.append("--port must be 0 to 65535 (got \(port))") }
        if (tlsCertificate == nil) != (tlsKey == nil) { problems.append("give both --tls-cert and --tls-key, or neither") }
        if tlsCertificate == nil {
            switch LoopbackHost.verdict(for: host) {
            case .loopback: break
            case .notLoopback(let address):
                let what = address == host ? "\(host) is not a loopback address" : "\(host) resolves to \(address), not a loopback address"
                problems.append("plain HTTP is served on loopback only and \(what); give --tls-cert and --tls-key to listen on it")
            case .unresolved(let reason):
                problems.append("--host \(host) does not resolve (\(reason)); plain HTTP is served on loopback addresses only")
            }
        }
        for (name, value) in [("--password-logins-per-account", passwordLoginsPerAccount),
                              ("--password-logins-per-address", passwordLoginsPerAddress),
                              ("--challenges-per-credential", challengesPerCredential),
                              ("--challenges-per-account", challengesPerAccount)] where value < 1 {
            problems.append("\(name) must be at least 1 (got \(value))")
        }
        let known: Set<String> = ["biometryCurrentSet", "biometryAny", "userPresence", "devicePasscode"]
        for name in acceptedAccessControls.subtracting(known).sorted() {
            problems.append("unknown access control '\(name)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        return problems
    }

    /// Whether every address `host` resolves to is loopback (a host that does not resolve is not).
    package static func isLoopback(_ host: String) -> Bool {
        LoopbackHost.verdict(for: host) == .loopback
    }
}
