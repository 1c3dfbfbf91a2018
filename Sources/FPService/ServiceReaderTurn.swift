import FPAuthentication
import FPLocalAPIEngine
import Foundation

/// One request's way to its reader: each ``withReader(_:)`` waits for the reader's turn
/// (``ReaderArbiter``), opens the reader or takes the one kept warm (``ReaderPool``), and gives
/// both back when its step ends. A request may take several turns, one per step that uses the
/// reader, and holds none between them.
struct ServiceReaderTurn: ReaderTurn {
    /// The reader, unopened: what the engine reads about it before a step takes it.
    let candidate: any FingerprintReader
    let identity: ReaderIdentity
    /// Whose request this is, for the arbiter's fair turns.
    let uid: UInt32
    /// When false, a reader that cannot be opened because it is missing, forbidden or gone gives nil.
    let required: Bool
    /// Whether a turn waits (up to `timeout` seconds) for the reader to come free, or is refused at once.
    let wait: Bool
    let timeout: TimeInterval
    let arbiter: ReaderArbiter
    let pool: ReaderPool

    func withReader<T: Sendable>(_ body: @escaping @Sendable ((any FingerprintReader)?) async throws -> T) async throws -> T {
        // The fake reader plays a script given per request: never reused.
        guard identity.driver != "fake" else {
            return try await arbiter.withReader(identity, for: uid, wait: wait, timeout: timeout) {
                try await OpenedReader.with(candidate: { candidate }, required: required, body)
            }
        }
        return try await arbiter.withReader(identity, for: uid, wait: wait, timeout: timeout) {
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
}
