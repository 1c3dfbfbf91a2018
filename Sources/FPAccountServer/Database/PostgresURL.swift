import Foundation

/// A `postgres://user[:password]@host[:port]/database[?sslmode=…&sslrootcert=…]` URL, read as
/// libpq reads the same parameters, so that a URL an operator already uses means the same here.
struct PostgresURL: Equatable {
    let host: String
    let port: Int
    let username: String
    let password: String?
    let database: String?
    let tls: PostgresTLSMode

    /// The form `--database` takes, for error messages.
    static let form = "postgres://user[:password]@host[:port]/database[?sslmode=MODE[&sslrootcert=CA.pem]]"

    init(_ url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty else {
            throw DatabaseFailure(description: "--database \(Self.redacted(url)): expected \(Self.form)")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            // An unknown or misspelt parameter (ssl_mode=require) would otherwise be ignored in
            // silence and the connection made without the TLS it asked for.
            guard ["sslmode", "sslrootcert"].contains(item.name) else {
                throw DatabaseFailure(description: "--database: unknown parameter '\(item.name)' (known: sslmode, sslrootcert)")
            }
            guard parameters[item.name] == nil else { throw DatabaseFailure(description: "--database: '\(item.name)' given twice") }
            parameters[item.name] = item.value ?? ""
        }
        self.host = host
        port = components.port ?? 5432
        username = components.user ?? "postgres"
        password = components.password
        let database = String(components.path.drop { $0 == "/" })
        self.database = database.isEmpty ? nil : database
        tls = try PostgresTLSMode(sslmode: parameters["sslmode"], sslrootcert: parameters["sslrootcert"])
    }

    /// `url` without its password, for a message that may end up in a log.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "****"
        return components.string ?? "postgres://…"
    }
}

/// libpq's sslmode, as far as PostgresNIO can honour it.
///
/// Without `sslmode` the connection is not encrypted, as before this parameter was read and
/// unlike libpq, whose default is `prefer`: `prefer` checks no certificate and falls back to
/// plain text when the server (or anyone on the path) says it has no TLS, so it protects
/// against nothing worth a default. A database reached over a network should say
/// `verify-full`. `allow` (plain text first) is refused: PostgresNIO cannot try in that order.
enum PostgresTLSMode: Equatable {
    /// No TLS.
    case disable
    /// TLS when the server offers it, unverified; plain text otherwise.
    case prefer
    /// TLS or no connection, the certificate unverified.
    case require
    /// TLS with a certificate chain that ends at `rootCertificate` (a PEM file; nil: the
    /// system's trust store), for any host name.
    case verifyCA(rootCertificate: String?)
    /// The same, and the certificate names the host of the URL among its subject alternative
    /// names. NIOSSL also accepts an IP address entry equal to the address connected to when the
    /// host is a name (libpq checks only DNS entries then): with sslrootcert naming a private CA
    /// that changes nothing; with the system's store a public certificate for an attacker's own
    /// IP address would pass for a name the attacker can point there.
    case verifyFull(rootCertificate: String?)

    static let modes = ["disable", "prefer", "require", "verify-ca", "verify-full"]

    init(sslmode: String?, sslrootcert: String?) throws {
        if let sslrootcert, sslrootcert.isEmpty { throw DatabaseFailure(description: "--database: sslrootcert names no file") }
        switch sslmode {
        case "verify-full": self = .verifyFull(rootCertificate: sslrootcert)
        case "verify-ca": self = .verifyCA(rootCertificate: sslrootcert)
        // libpq: "if a root CA file exists, the behavior of sslmode=require will be the same as
        // that of verify-ca"; here only when sslrootcert names one.
        case "require": self = sslrootcert.map { .verifyCA(rootCertificate: $0) } ?? .require
        case "prefer", "disable", nil:
            guard sslrootcert == nil else {
                throw DatabaseFailure(description: "--database: sslrootcert needs sslmode=verify-full (or verify-ca, require)")
            }
            self = sslmode == "prefer" ? .prefer : .disable
        case let other?:
            throw DatabaseFailure(description: "--database: sslmode '\(other)' is not one of \(Self.modes.joined(separator: ", "))")
        }
    }
}
