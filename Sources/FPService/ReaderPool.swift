import FPAuthentication
import Foundation

/// Readers left open for a few seconds after an operation, so that the next one on the
/// same reader starts warm; closed when idle, so that no reader stays armed (libfprint's
/// thermal model counts only scanning, and a closed reader cannot be left scanning).
actor ReaderPool {
    private struct Parked {
        let reader: any FingerprintReader
        let closer: Task<Void, Never>
    }

    /// How long an idle reader stays open.
    let idleSeconds: Double
    private var parked: [ReaderIdentity: Parked] = [:]
    /// Closes take the reader's turn like any operation: a request that lands as the idle
    /// reader closes waits for the close instead of meeting a device half closed.
    private let arbiter: ReaderArbiter

    init(idleSeconds: Double, arbiter: ReaderArbiter) {
        self.idleSeconds = idleSeconds
        self.arbiter = arbiter
    }

    /// The open reader kept for `identity`, if any; it is no longer parked.
    func take(_ identity: ReaderIdentity) -> (any FingerprintReader)? {
        guard let entry = parked.removeValue(forKey: identity) else { return nil }
        entry.closer.cancel()
        return entry.reader
    }

    /// Keeps an open reader for the next operation, closing it once idle.
    func park(_ reader: any FingerprintReader, _ identity: ReaderIdentity) {
        if let earlier = parked.removeValue(forKey: identity) {
            earlier.closer.cancel()
            Task { try? await earlier.reader.close() }
        }
        let closer = Task {
            try? await Task.sleep(for: .seconds(self.idleSeconds))
            guard !Task.isCancelled else { return }
            await self.closeWhenFree(identity)
        }
        parked[identity] = Parked(reader: reader, closer: closer)
    }

    /// Closes the reader kept for `identity` in the reader's turn: idle long enough, or
    /// unplugged (libfprint keeps listing an unplugged reader until it is closed). When an
    /// operation holds the reader, it is not parked: that operation parks or closes it.
    func closeWhenFree(_ identity: ReaderIdentity) async {
        _ = try? await arbiter.withReader(identity, wait: false, timeout: 0) { await self.close(identity) }
    }

    private func close(_ identity: ReaderIdentity) async {
        guard let entry = parked.removeValue(forKey: identity) else { return }
        entry.closer.cancel()
        try? await entry.reader.close()
    }

    /// Closes every parked reader (shutdown, suspend).
    func closeAll() async {
        let entries = parked.values
        parked = [:]
        for entry in entries {
            entry.closer.cancel()
            try? await entry.reader.close()
        }
    }
}
