import FPAuthentication
import FPLocalAPIEngine
import FPReaders
import Foundation
import Logging

/// The service's way to a reader: chosen by the request's target, one operation at a time
/// (``ReaderArbiter``), opened for the operation and kept open a few seconds after it
/// (``ReaderPool``, 5 s by default); a reader plugged in later is found by the next request.
struct ServiceReaders: Sendable {
    let arbiter: ReaderArbiter
    let pool: ReaderPool
    /// Identifications armed and enrollments at the kiosk, per reader: how the two share it.
    let claims = KioskReaderClaims()

    /// `clock`: what turns' timeouts and idle closes run on.
    init(idleSeconds: Double, clock: any Clock<Duration> = ContinuousClock()) {
        arbiter = ReaderArbiter(clock: clock)
        pool = ReaderPool(idleSeconds: idleSeconds, arbiter: arbiter, clock: clock)
    }

    /// Runs `body` with the target's reader, opened and held for it alone; nil when the reader
    /// is not `required` and there is none.
    func with<T: Sendable>(_ target: RequestTarget, required: Bool, wait: Bool, timeout: TimeInterval,
                           _ body: @escaping @Sendable ((any FingerprintReader)?) async throws -> T) async throws -> T {
        guard let turn = try await turn(target, required: required, wait: wait, timeout: timeout) else { return try await body(nil) }
        return try await turn.withReader(body)
    }

    /// The target's reader, found but not taken: an engine context given this turn takes the
    /// reader for each step that scans and holds none while it waits for a passcode. Nil when
    /// the reader is not `required` and there is none.
    func turn(_ target: RequestTarget, required: Bool, wait: Bool, timeout: TimeInterval) async throws -> ServiceReaderTurn? {
        let candidate: any FingerprintReader
        do {
            candidate = try await target.reader()
        } catch let error as ReaderError {
            guard !required else { throw AuthError(error) }
            return nil
        }
        return ServiceReaderTurn(candidate: candidate, identity: await candidate.info.identity, uid: target.caller.credentials.uid,
                                 required: required, wait: wait, timeout: timeout, arbiter: arbiter, pool: pool)
    }

    /// Follows libfprint's readers until the task is cancelled: a reader pulled out is closed
    /// at once if it was kept open, so that status and the next request no longer see it.
    func followPlugging(logger: Logger) async {
        let changes: AsyncStream<ReaderChange>
        do {
            changes = try await ReaderSelection.libfprint(driver: nil).watch()
        } catch {
            // Requests still find readers; only an unplugged one stays open until its idle close.
            logger.error("cannot follow readers being plugged in or pulled out: \(String(describing: error)); a reader pulled out is closed only when it is next used or idle")
            return
        }
        for await change in changes {
            switch change {
            case .present, .changed: break
            case .added(let info):
                logger.info("reader plugged in: \(info.identity) (\(info.name))")
            case .removed(let identity):
                logger.info("reader pulled out: \(identity)")
                await pool.closeWhenFree(identity)
            }
        }
    }

    /// The reader's description without opening it (status).
    func peek(_ target: RequestTarget) async -> ReaderInfo? {
        guard let reader = try? await target.candidates().first else { return nil }
        return await reader.info
    }
}
