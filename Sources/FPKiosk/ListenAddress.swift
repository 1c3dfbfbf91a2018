import Foundation

/// `--listen HOST:PORT`, loopback only: the page and its PIN pad are for the screen of this
/// machine, and a PIN typed at the kiosk must never cross a network.
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    package let host: String
    package let port: Int

    /// Parses `127.0.0.1:8080`, `[::1]:8080` or `localhost:8080`; port 0 picks a free one.
    /// Throws words for the command line when the host is not loopback.
    package init(parsing text: String) throws(ListenAddressError) {
        let host: Substring, port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw ListenAddressError("--listen \(text): expected [ADDRESS]:PORT") }
            port = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ListenAddressError("--listen \(text): expected HOST:PORT, e.g. 127.0.0.1:8080")
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard let number = Int(port), (0...65535).contains(number) else {
            throw ListenAddressError("--listen \(text): the port must be a number from 0 to 65535")
        }
        let name = host == "localhost" ? "127.0.0.1" : String(host)
        guard Self.isLoopback(name) else {
            throw ListenAddressError("--listen \(text): the kiosk serves on loopback only (127.0.0.1, ::1 or localhost), "
                                     + "so that a PIN typed at the kiosk never crosses a network; a browser on this "
                                     + "machine opens http://127.0.0.1:PORT")
        }
        self.host = name
        self.port = number
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// A numeric loopback address: 127.0.0.0/8 or ::1. Names other than `localhost` are refused
    /// rather than resolved: what a name resolves to can change after the check.
    static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
        return false
    }
}

/// Why `--listen` was refused, in words.
package struct ListenAddressError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
