/// How `fpbridge-server` runs: where it listens, what it stores where, and its limits.
package struct ServerConfiguration: Sendable {
    /// Where the data lives.
    package enum Database: Sendable, Equatable {
        /// An embedded SQLite file (the default).
        case sqlite(path: String)
        /// A PostgreSQL URL, shared by several instances.
        case postgres(url: String)

        /// `--database`: a PostgreSQL URL, or else a SQLite path.
        package init(argument: String) {
            self = argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") ? .postgres(url: argument) : .sqlite(path: argument)
        }
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
    /// Per minute: failed password logins per account (from anywhere) and per account from
    /// one client address; password logins of any outcome per client address (each costs a slow hash).
    package var passwordLoginsPerAccount = 20
    package var passwordLoginsPerAccountAddress = 5
    package var passwordLoginsPerAddress = 30
    /// Per minute: registrations per client address (a bucket of their own).
    package var registrationsPerAddress = 10
    /// Per minute: challenges (login, payment, approval) per credential from one client
    /// address, and per client address. No limit is shared by every address (such as one per
    /// account): a stranger with many addresses would spend what the owner needs.
    package var challengesPerCredential = 30
    package var challengesPerAddress = 60
    /// Per minute: signatures that do not verify from one client address (they never count
    /// against a credential), and as many wrong pairing codes.
    package var badSignaturesPerAddress = 10
    /// Proxies whose `X-Forwarded-For` names the client (IP addresses); the header of anyone else is ignored.
    package var trustedProxies: [String] = []
    /// Bind only device identity keys an administrator registered (`fpbridge-server device trust`).
    package var trustedIdentitiesOnly = false
    /// The first device of an account needs a binding code too (otherwise the password binds it: trust on first use).
    package var firstDeviceNeedsCode = false
    /// Seconds a new device waits for a bound device's approval.
    package var approvalSeconds = 600
    /// Access controls a bound key may have (attested): a fingerprint, with the set of prints fixed, by default.
    package var acceptedAccessControls: Set<String> = ["biometryCurrentSet"]
    /// Accept keys that live in a developer's own files (the fake reader, the demo, tests).
    package var acceptDevelopmentKeys = false
    /// PEM texts of the TPM makers' CAs (`--tpm-ca`): what a device's proof that its identity key
    /// is in a TPM is checked against. Empty: no TPM proof is accepted.
    package var tpmCertificateAuthorities: [String] = []
    /// A TPM proof binds a device on its own (`--tpm-vouches`). Off by default: a maker's CA
    /// certifies every PC that maker's TPMs went into, the password thief's among them, so
    /// the proof then says the key is in hardware, not that the device is the user's; only an
    /// operator whose CAs certified their own machines alone should turn it on.
    package var tpmVouches = false

    package init() {}

    /// The configuration's problems, in words; empty when it can run.
    package func problems() -> [String] {
        var problems: [String] = []
        if !(1...300).contains(challengeSeconds) { problems.append("--challenge-seconds must be 1 to 300 (got \(challengeSeconds))") }
        if !(10...20).contains(passwordCostLog2) { problems.append("--password-cost must be 10 to 20 (got \(passwordCostLog2))") }
        if !(1...65535).contains(port) && port != 0 { problems.append("--port must be 0 to 65535 (got \(port))") }
        if (tlsCertificate == nil) != (tlsKey == nil) { problems.append("give both --tls-cert and --tls-key, or neither") }
        if tpmVouches && tpmCertificateAuthorities.isEmpty { problems.append("--tpm-vouches needs the CAs it trusts: give --tpm-ca") }
        do { _ = try TPMTrust(pems: tpmCertificateAuthorities) } catch {
            problems.append("--tpm-ca: the files must hold PEM certificates with a self-signed root CA among them (\(error))")
        }
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
                              ("--password-logins-per-account-address", passwordLoginsPerAccountAddress),
                              ("--password-logins-per-address", passwordLoginsPerAddress),
                              ("--registrations-per-address", registrationsPerAddress),
                              ("--challenges-per-credential", challengesPerCredential),
                              ("--challenges-per-address", challengesPerAddress),
                              ("--bad-signatures-per-address", badSignaturesPerAddress)] where value < 1 {
            problems.append("\(name) must be at least 1 (got \(value))")
        }
        if !(60...86_400).contains(approvalSeconds) { problems.append("--approval-seconds must be 60 to 86400 (got \(approvalSeconds))") }
        for proxy in trustedProxies where ClientAddress.canonical(proxy) == nil {
            problems.append("--trusted-proxy \(proxy) is not an IP address")
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
