import Foundation
import Glibc

/// The address a request is counted and audited under. Behind a reverse proxy every
/// connection comes from the proxy; only a proxy the server was told to trust may name the
/// client, in `X-Forwarded-For`, and anyone else's header is ignored (a client could write
/// any address there to escape its own limits).
enum ClientAddress {
    /// The client's address: the peer's, or, when the peer is a trusted proxy, the last
    /// address in `X-Forwarded-For` that is not a trusted proxy too (each proxy appends the
    /// address it was reached from; what the client wrote itself comes before).
    static func resolve(peer: String?, forwardedFor: String?, trustedProxies: Set<String>) -> String? {
        guard let peer = peer.flatMap(canonical) else { return nil }
        guard trustedProxies.contains(peer), let forwardedFor else { return peer }
        for entry in forwardedFor.split(separator: ",").reversed() {
            guard let address = canonical(entry.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))) else {
                // Malformed past this point: the proxy's own view is all that can be trusted.
                return peer
            }
            if !trustedProxies.contains(address) { return address }
        }
        return peer
    }

    /// What a per-address limit counts under: the address, except that an IPv6 client counts
    /// by its /64, since one client usually holds a whole /64 (2^64 addresses, each of which
    /// would otherwise be a bucket of its own). Requests with no address share one bucket.
    static func bucket(_ address: String?) -> String {
        guard let address else { return "unknown" }
        var v6 = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// The address in its one canonical text (`::ffff:127.0.0.1` → `127.0.0.1`), nil when it is not an IP address.
    static func canonical(_ text: String) -> String? {
        guard text.utf8.count <= 64 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { IPAddressBytes.text(family: AF_INET, $0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        return withUnsafeBytes(of: v6) { bytes in
            // An IPv4 client on an IPv6 socket is the same client.
            if let v4 = IPAddressBytes.mappedIPv4(bytes) { return v4.map(String.init).joined(separator: ".") }
            return IPAddressBytes.text(family: AF_INET6, bytes)
        }
    }
}
