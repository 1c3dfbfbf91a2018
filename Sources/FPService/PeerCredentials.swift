import Foundation
import NIOCore

/// Who is at the other end of the socket, as the kernel says (`SO_PEERCRED`), never as the client says.
package struct PeerCredentials: Sendable, Hashable {
    package var pid: Int32
    package var uid: UInt32
    package var gid: UInt32

    /// The layout of Linux's `struct ucred`.
    private struct UCred {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// Reads the peer of a connected Unix socket channel.
    package static func of(_ channel: any Channel) async throws -> PeerCredentials {
        try await future(channel).get()
    }

    /// The same as a future, for channel handlers on the channel's event loop.
    static func future(_ channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(
                ServiceRefusal.forbidden("the connection has no peer credentials (only Unix sockets are served)"))
        }
        let credentials: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
    }
}
