import Hummingbird
import NIOCore

/// Hummingbird's request context with the connection's two ends kept: who owns the client's
/// end decides whether the kiosk answers at all (``PageUserMiddleware``).
struct KioskRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The browser's end and the kiosk's; nil when the connection is not TCP over IP.
    let client: TCPEndpoint?
    let server: TCPEndpoint?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = source.channel.remoteAddress.flatMap(TCPEndpoint.init)
        server = source.channel.localAddress.flatMap(TCPEndpoint.init)
    }
}

extension TCPEndpoint {
    /// The endpoint of an IP socket address; nil for any other kind.
    init?(_ socket: SocketAddress) {
        guard let port = socket.port.flatMap(UInt16.init(exactly:)) else { return nil }
        switch socket {
        case .v4(let ip):
            var address = ip.address.sin_addr
            self.init(address: withUnsafeBytes(of: &address) { Array($0) }, port: port)
        case .v6(let ip):
            var address = ip.address.sin6_addr
            self.init(address: withUnsafeBytes(of: &address) { Array($0) }, port: port)
        case .unixDomainSocket:
            return nil
        }
    }
}
