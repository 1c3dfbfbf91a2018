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
    /// Readers kept open whatever their idle time, with how many holders (a D-Bus client's
    /// claim, from Claim to Release, as fprintd keeps its device open).
    private var pinned: [ReaderIdentity: Int] = [:]
    /// Closes take the reader's turn like any operation: a request that lands as the idle
    /// reader closes waits for the close instead of meeting a device half closed.
    private let arbiter: ReaderArbiter

    /// What the idle closes run on (a test's own clock, which it advances).
    private let clock: any Clock<Duration>

    init(idleSeconds: Double, arbiter: ReaderArbiter, clock: any Clock<Duration> = ContinuousClock()) {
        self.idleSeconds = idleSeconds
        self.arbiter = arbiter
        self.clock = clock
    }

    /// The open reader kept for `identity`, if any; it is no longer parked.
    func take(_ identity: ReaderIdentity) -> (any FingerprintReader)? {
        guard let entry = parked.removeValue(forKey: identity) else { return nil }
        entry.closer.cancel()
        return entry.reader
    }

    /// Keeps an open reader for the next operation, closing it once idle (unless pinned).
    func park(_ reader: any FingerprintReader, _ identity: ReaderIdentity) {
        if let earlier = parked.removeValue(forKey: identity) {
            earlier.closer.cancel()
            Task { try? await earlier.reader.close() }
        }
        let clock = self.clock
        let closer = Task {
            do { try await clock.sleep(for: .seconds(self.idleSeconds)) } catch { return }
            guard !Task.isCancelled, self.pinned[identity] == nil else { return }
            await self.closeWhenFree(identity)
        }
        parked[identity] = Parked(reader: reader, closer: closer)
    }

    /// Keeps the reader for `identity` open once it is parked, until as many ``unpin(_:)``.
    func pin(_ identity: ReaderIdentity) {
        pinned[identity, default: 0] += 1
    }

    /// Gives a pin up; with the last one the reader is closed as soon as it is free (at once
    /// when nobody uses it), as fprintd closes its device at Release.
    /// - Returns: the reader's error when it was closed now and its close failed (fprintd's
    ///   Release answers it); nil when it closed, stays open for another holder or is busy.
    @discardableResult
    func unpin(_ identity: ReaderIdentity) async -> (any Error)? {
        guard let count = pinned[identity] else { return nil }
        if count > 1 {
            pinned[identity] = count - 1
            return nil
        }
        pinned[identity] = nil
        return await closeWhenFree(identity)
    }

    /// Closes the reader kept for `identity` in the reader's turn: idle long enough, or
    /// unplugged (libfprint keeps listing an unplugged reader until it is closed). When an
    /// operation holds the reader, it is not parked: that operation parks or closes it.
    /// - Returns: the reader's error when its close failed. The reader is not kept either way:
    ///   the next operation opens it afresh.
    @discardableResult
    func closeWhenFree(_ identity: ReaderIdentity) async -> (any Error)? {
        // Busy (the arbiter refuses at once): the operation holding the reader parks or closes it.
        guard let failure = try? await arbiter.withReader(identity, wait: false, timeout: 0, { await self.close(identity) }) else {
            return nil
        }
        return failure
    }

    private func close(_ identity: ReaderIdentity) async -> (any Error)? {
        guard let entry = parked.removeValue(forKey: identity) else { return nil }
        entry.closer.cancel()
        do {
            try await entry.reader.close()
            return nil
        } catch {
            return error
        }
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
