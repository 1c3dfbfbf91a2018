import Foundation

/// `--embed-origin ORIGIN`: the developer's application, a page at exactly this origin, frames
/// the kiosk's page and is handed each welcome that carries a login-server session, by
/// `postMessage` to this origin only (docs/kiosk.md, "Handing a sign-in to your application").
/// The page may be framed by this origin alone (`frame-ancestors`), so no other site can
/// frame it to listen; and the browser delivers the message to nobody else.
package struct EmbedOrigin: Sendable, Equatable, CustomStringConvertible {
    /// The origin as a browser serializes it: `https://host[:port]`, lower case, no default port.
    package let description: String

    /// Parses `https://HOST[:PORT]`, or `http://` for loopback only (127.0.0.0/8, `[::1]`,
    /// `localhost`): a session must not cross a network in plain HTTP. No path, query,
    /// fragment or user; never `*` or `null`. Throws words naming the flag.
    package init(parsing text: String) throws(EmbedOriginError) {
        let usage = "--embed-origin \(text): expected an origin, https://HOST[:PORT] (http:// only for 127.0.0.1, [::1] or localhost)"
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              ["http", "https"].contains(scheme), var host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
              components.path.isEmpty || components.path == "/"
        else { throw EmbedOriginError(usage) }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let loopback = host == "localhost" || ListenAddress.isLoopback(host)
        guard scheme == "https" || loopback else {
            throw EmbedOriginError("--embed-origin \(text): plain http is for a page on this machine only (127.0.0.1, [::1] or "
                                   + "localhost); a session must not cross a network unencrypted: use https://")
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
        if let port, !(1...65535).contains(port) { throw EmbedOriginError(usage) }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        description = "\(scheme)://\(shownHost)" + (port.map { ":\($0)" } ?? "")
    }
}

/// Why `--embed-origin` was refused, in words.
package struct EmbedOriginError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
