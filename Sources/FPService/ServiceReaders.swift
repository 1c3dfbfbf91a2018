import FPAuthentication
import FPLocalAPIEngine
import FPReaders
import Foundation
import Logging

/// The service's way to a reader: chosen by the request's target, one operation at a time
/// (``ReaderArbiter``), opened for the operation and kept open a few seconds after it
/// (``ReaderPool``, 5 s by default); a reader plugged in later is found by the next request.
struct ServiceReaders: Sendable {
    let arbiter = ReaderArbiter()
    let pool: ReaderPool

    init(idleSeconds: Double) {
        pool = ReaderPool(idleSeconds: idleSeconds, arbiter: arbiter)
    }

    /// Runs `body` with the target's reader, opened and held for it alone; nil when the reader
    /// is not `required` and there is none, or when the operation does not `usesReader` (it
    /// then takes no turn at all, and no one waits for it).
    func with<T: Sendable>(_ target: RequestTarget, required: Bool, wait: Bool, timeout: TimeInterval, usesReader: Bool = true,
                           _ body: @escaping @Sendable ((any FingerprintReader)?) async throws -> T) async throws -> T {
        guard usesReader else { return try await body(nil) }
        let candidate: any FingerprintReader
        do {
            candidate = try await target.reader()
        } catch let error as ReaderError {
            guard !required else { throw AuthError(error) }
            return try await body(nil)
        }
        let identity = await candidate.info.identity
        // The fake reader plays a script given per request: never reused.
        guard identity.driver != "fake" else {
            return try await arbiter.withReader(identity, for: target.caller.credentials.uid, wait: wait, timeout: timeout) {
                try await OpenedReader.with(candidate: { candidate }, required: required, body)
            }
        }
        return try await arbiter.withReader(identity, for: target.caller.credentials.uid, wait: wait, timeout: timeout) {
            let reader: any FingerprintReader
            if let warm = await pool.take(identity) {
                reader = warm
            } else {
                do {
                    try await candidate.open()
                    reader = candidate
                } catch let error as ReaderError {
                    guard !required, OpenedReader.unavailable(error) else { throw AuthError(error) }
                    return try await body(nil)
                }
            }
            do {
                let result = try await body(reader)
                await pool.park(reader, identity)
                return result
            } catch {
                // A reader that failed or went away is closed; the next request opens it afresh.
                if [.biometryDisconnected, .readerFailure].contains(AuthError(error).code) {
                    try? await reader.close()
                } else {
                    await pool.park(reader, identity)
                }
                throw error
            }
        }
    }

    /// Follows libfprint's readers until the task is cancelled: a reader pulled out is closed
    /// at once if it was kept open, so that status and the next request no longer see it.
    func followPlugging(logger: Logger) async {
        guard let changes = try? await ReaderSelection.libfprint(driver: nil).watch() else { return }
        for await change in changes {
            switch change {
            case .present: break
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
