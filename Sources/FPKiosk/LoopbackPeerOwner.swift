import Foundation

/// One end of a TCP connection: its address (4 bytes for IPv4, 16 for IPv6) and port.
/// An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is kept as its 4 IPv4 bytes: the same
/// connection is an IPv4 one at the end whose socket is `AF_INET` and a mapped one at the end
/// whose socket is `AF_INET6`, and the two ends must compare equal.
package struct TCPEndpoint: Hashable, Sendable, CustomStringConvertible {
    package let address: [UInt8]
    package let port: UInt16

    /// Nil unless `address` has 4 or 16 bytes.
    package init?(address: [UInt8], port: UInt16) {
        switch address.count {
        case 4: self.address = address
        case 16 where address.prefix(10).allSatisfy({ $0 == 0 }) && address[10] == 0xFF && address[11] == 0xFF:
            self.address = Array(address.suffix(4))
        case 16: self.address = address
        default: return nil
        }
        self.port = port
    }

    package var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = address.count == 4 ? AF_INET : AF_INET6
        let shown = address.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) } != nil
        let host = shown ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        return family == AF_INET ? "\(host):\(port)" : "[\(host)]:\(port)"
    }
}

/// Which local user owns the client's end of a TCP connection on this machine, read from the
/// kernel's socket tables (`/proc/self/net/tcp` and `tcp6`) as identd reads them: the row
/// whose local end is the client's address and whose remote end is ours names the uid that
/// made that socket. `/proc/self/net` rather than `/proc/net`: the systemd unit's
/// `ProcSubset=pid` hides the latter, and both show this process's network namespace, the
/// only one whose loopback reaches the kiosk.
package enum LoopbackPeerOwner {
    /// What one table says about a connection.
    package enum Match: Equatable, Sendable {
        /// No live socket with that client and server end.
        case none
        case owner(uid_t)
        /// Rows naming different uids (the table changed while it was read): no answer.
        case ambiguous([uid_t])
    }

    /// The uid owning `client`'s socket, connected to `server`. Throws words when no live
    /// socket or no single owner is found, or a table cannot be read: a caller that cannot
    /// be named is not a caller that may be let in.
    package static func uid(client: TCPEndpoint, server: TCPEndpoint) throws(LoopbackPeerError) -> uid_t {
        // An IPv4 client may hold an AF_INET6 socket connected to a mapped address: it is in tcp6.
        let tables = client.address.count == 4 ? ["tcp", "tcp6"] : ["tcp6"]
        for table in tables {
            let path = "/proc/self/net/" + table
            guard let text = read(path) else { throw LoopbackPeerError("cannot read \(path)") }
            switch match(in: text, client: client, server: server) {
            case .owner(let uid): return uid
            case .ambiguous(let uids): throw LoopbackPeerError("\(path) names several owners of \(client): \(uids)")
            case .none: continue
            }
        }
        throw LoopbackPeerError("no process holds a socket at \(client) connected to \(server)")
    }

    /// The owner of `client`'s socket connected to `server` as the table `text` (the format of
    /// `/proc/net/tcp` and `tcp6`) tells it. Only rows with a socket inode count: a row with
    /// inode 0 is a socket no process holds any more (TIME_WAIT, or closed by its process while
    /// its last bytes drain), and the kernel shows uid 0 for some of those, which would read
    /// as root's.
    package static func match(in text: String, client: TCPEndpoint, server: TCPEndpoint) -> Match {
        var uids: [uid_t] = []
        for line in text.split(separator: "\n") {
            guard let row = Row(line), row.local == client, row.remote == server, row.inode != 0 else { continue }
            if !uids.contains(row.uid) { uids.append(row.uid) }
        }
        switch uids.count {
        case 0: return .none
        case 1: return .owner(uids[0])
        default: return .ambiguous(uids)
        }
    }

    /// One row: `sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...`.
    private struct Row {
        var local: TCPEndpoint
        var remote: TCPEndpoint
        var uid: uid_t
        var inode: UInt64

        init?(_ line: Substring) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, let local = Self.endpoint(fields[1]), let remote = Self.endpoint(fields[2]),
                  let uid = uid_t(fields[7]), let inode = UInt64(fields[9]) else { return nil }
            (self.local, self.remote, self.uid, self.inode) = (local, remote, uid, inode)
        }

        /// `0100007F:1F90`: the address as the kernel's 32-bit words printed in hex (so each
        /// word's bytes come back in the machine's own order), then the port as a number.
        private static func endpoint(_ field: Substring) -> TCPEndpoint? {
            let parts = field.split(separator: ":")
            guard parts.count == 2, [8, 32].contains(parts[0].count), parts[1].count == 4,
                  let port = UInt16(parts[1], radix: 16) else { return nil }
            var bytes: [UInt8] = []
            var word = parts[0][...]
            while !word.isEmpty {
                guard let value = UInt32(word.prefix(8), radix: 16) else { return nil }
                withUnsafeBytes(of: value) { bytes += $0 }
                word = word.dropFirst(8)
            }
            return TCPEndpoint(address: bytes, port: port)
        }
    }

    /// The whole file. procfs reports a size of 0, so it is read until the end, not by its size.
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count == 0 { return String(decoding: data, as: UTF8.self) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            data += buffer[..<count]
        }
    }
}

/// Why a connection's owner was not found, in words.
package struct LoopbackPeerError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
