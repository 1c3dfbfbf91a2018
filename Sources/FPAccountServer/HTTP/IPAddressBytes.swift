import Glibc

/// An IP address's bytes as the C library holds them, read two ways that both the client's
/// address (``ClientAddress``) and `--host`'s loopback check (``LoopbackHost``) need.
enum IPAddressBytes {
    /// `inet_ntop`'s text for `bytes` of `family` (AF_INET: 4 bytes, AF_INET6: 16), nil when it has none.
    static func text(family: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, an IPv4 peer on a
    /// dual-stack socket), as its four bytes; nil for any other IPv6 address.
    static func mappedIPv4(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return nil }
        return Array(bytes[12...])
    }
}
