import FPAuthentication
import Foundation

/// One operation per reader at a time; later callers wait, each up to its own timeout, or are
/// refused at once when they asked not to wait. Turns are fair between users: when the reader
/// comes free, the first waiter of another user goes before the holder's own next request, so
/// that no user keeps the only reader from others by repeating requests (arrival order
/// otherwise).
package actor ReaderArbiter {
    private struct Waiter {
        let id: UUID
        let uid: UInt32?
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// The readers in use, with whose turn it is (nil: the service's own work).
    private var holders: [ReaderIdentity: UInt32?] = [:]
    private var queues: [ReaderIdentity: [Waiter]] = [:]

    /// How long a caller that asked not to wait may wait behind the service's own turn.
    static let housekeepingSeconds: TimeInterval = 5

    /// What the waiters' timeouts run on (a test's own clock, which it advances).
    private let clock: any Clock<Duration>

    package init(clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
    }

    /// How many callers wait for `reader` now (tests: a waiter is queued before the next comes).
    package func waiting(for reader: ReaderIdentity) -> Int { queues[reader]?.count ?? 0 }

    /// Whether someone (or the service's own work) holds `reader` now.
    package func isHeld(_ reader: ReaderIdentity) -> Bool { holders[reader] != nil }

    /// Runs `body` as the reader's only user.
    /// - Throws: ``AuthErrorCode/readerBusy`` when the reader stays busy past `timeout` (or at once without `wait`).
    package func withReader<T: Sendable>(_ reader: ReaderIdentity, for uid: UInt32? = nil, wait: Bool, timeout: TimeInterval,
                                         _ body: @Sendable () async throws -> T) async throws -> T {
        try await acquire(reader, uid: uid, wait: wait, timeout: timeout)
        do {
            let result = try await body()
            release(reader)
            return result
        } catch {
            release(reader)
            throw error
        }
    }

    private func acquire(_ reader: ReaderIdentity, uid: UInt32?, wait: Bool, timeout: TimeInterval) async throws {
        if holders[reader] == nil {
            holders[reader] = .some(uid)
            return
        }
        // The service's own turn (closing an idle reader, uid nil) is over in moments, and is
        // no operation of anyone's: a caller that would not wait behind another operation
        // waits behind that one, so a request landing on the idle deadline is never "busy".
        let housekeeping = holders[reader] == .some(nil)
        guard wait || housekeeping else { throw AuthError(.readerBusy, "the reader \(reader) is serving another operation") }
        let timeout = wait ? timeout : Self.housekeepingSeconds
        let id = UUID()
        let clock = self.clock
        let timer = Task { [weak self] in
            do { try await clock.sleep(for: .seconds(timeout)) } catch { return }
            await self?.giveUp(id, reader: reader)
        }
        defer { timer.cancel() }
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queues[reader, default: []].append(Waiter(id: id, uid: uid, continuation: continuation))
            }
        } onCancel: {
            Task { await self.giveUp(id, reader: reader) }
        }
        guard granted else {
            if Task.isCancelled { throw CancellationError() }
            throw AuthError(.readerBusy, "the reader \(reader) stayed busy for \(Int(timeout)) s", retryAfter: 1)
        }
    }

    private func release(_ reader: ReaderIdentity) {
        if var queue = queues[reader], !queue.isEmpty {
            let previous = holders[reader] ?? nil
            let index = queue.firstIndex { $0.uid != previous } ?? 0
            let next = queue.remove(at: index)
            queues[reader] = queue
            holders[reader] = .some(next.uid)
            next.continuation.resume(returning: true)  // the reader stays busy, now for `next`
        } else {
            holders[reader] = nil
        }
    }

    private func giveUp(_ id: UUID, reader: ReaderIdentity) {
        guard var queue = queues[reader], let index = queue.firstIndex(where: { $0.id == id }) else { return }
        let waiter = queue.remove(at: index)
        queues[reader] = queue
        waiter.continuation.resume(returning: false)
    }
}
