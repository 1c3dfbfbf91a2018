import Foundation

/// Whether a `--host` is loopback, decided by what it resolves to and not by its spelling:
/// `127.0.0.1.attacker.example` starts with "127." and may well resolve to a public address.
package enum LoopbackHost {
    /// What `host` is, for plain HTTP.
    package enum Verdict: Sendable, Equatable {
        /// Every address it resolves to is loopback (127.0.0.0/8, ::1, or ::ffff:127.x.x.x).
        case loopback
        /// It resolves, and `address` (one of its addresses) is not loopback.
        case notLoopback(address: String)
        /// It does not resolve; `reason` is getaddrinfo's.
        case unresolved(reason: String)
    }

    /// Resolves `host` with getaddrinfo: first as a numeric address (AI_NUMERICHOST, so that
    /// an address never reaches DNS), then as a name.
    package static func verdict(for host: String) -> Verdict {
        var numeric = resolve(host, flags: AI_NUMERICHOST)
        if case .failure = numeric { numeric = resolve(host, flags: 0) }
        switch numeric {
        case .failure(let reason): return .unresolved(reason: reason)
        case .success(let addresses):
            // An empty answer proves nothing: refused like an unresolvable name.
            guard !addresses.isEmpty else { return .unresolved(reason: "no address") }
            if let outside = addresses.first(where: { !$0.isLoopback }) { return .notLoopback(address: outside.text) }
            return .loopback
        }
    }

    private struct Address {
        let isLoopback: Bool
        let text: String
    }

    private enum Resolution {
        case success([Address])
        case failure(String)
    }

    private static func resolve(_ host: String, flags: Int32) -> Resolution {
        var hints = addrinfo()
        hints.ai_flags = flags
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else { return .failure(String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr { addresses.append(describe(address, family: current.pointee.ai_family)) }
            entry = current.pointee.ai_next
        }
        return .success(addresses)
    }

    private static func describe(_ address: UnsafeMutablePointer<sockaddr>, family: Int32) -> Address {
        switch family {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                withUnsafeBytes(of: ipv4.pointee.sin_addr) { octets in
                    Address(isLoopback: octets[0] == 127, text: IPAddressBytes.text(family: AF_INET, octets) ?? "?")
                }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                withUnsafeBytes(of: ipv6.pointee.sin6_addr) { octets in
                    let isLoopbackV6 = octets[0..<15].allSatisfy { $0 == 0 } && octets[15] == 1
                    // ::ffff:127.x.x.x, an IPv4 loopback address on a dual-stack socket.
                    let isMappedLoopback = IPAddressBytes.mappedIPv4(octets)?.first == 127
                    return Address(isLoopback: isLoopbackV6 || isMappedLoopback, text: IPAddressBytes.text(family: AF_INET6, octets) ?? "?")
                }
            }
        default:
            return Address(isLoopback: false, text: "an address of family \(family)")
        }
    }
}
