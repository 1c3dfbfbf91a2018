import Logging
import NIOCore
import FPVocabulary

/// At most so many open connections per uid (root excepted), counted from the moment a
/// connection is accepted: one local user holding connections open (or sending half a
/// request and stalling) cannot use up the service's descriptors and lock everyone out.
final class ConnectionCounts: Sendable {
    let limit: Int
    private let open = Locked<[UInt32: Int]>([:])

    init(limit: Int) { self.limit = limit }

    /// Counts a new connection; false (and not counted) when the uid is at its limit.
    func admit(_ uid: UInt32) -> Bool {
        open.withLock { open in
            let count = open[uid, default: 0]
            guard uid == 0 || count < limit else { return false }
            open[uid] = count + 1
            return true
        }
    }

    func release(_ uid: UInt32) {
        open.withLock { open in
            let count = open[uid, default: 1] - 1
            open[uid] = count > 0 ? count : nil
        }
    }
}

/// The channel handler that applies ``ConnectionCounts`` to one connection.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let counts: ConnectionCounts
    private let logger: Logger
    private var admitted: UInt32?

    init(counts: ConnectionCounts, logger: Logger) {
        self.counts = counts
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        PeerCredentials.future(channel).assumeIsolated().whenComplete { [counts, logger] result in
            switch result {
            case .success(let peer) where counts.admit(peer.uid):
                self.admitted = peer.uid
            case .success(let peer):
                logger.warning("uid \(peer.uid) has \(counts.limit) connections open already; closing another")
                channel.close(promise: nil)
            case .failure:
                channel.close(promise: nil)
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let admitted { counts.release(admitted) }
        admitted = nil
    }
}
