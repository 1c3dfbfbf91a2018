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
    /// Run before each turn is asked for: an enrollment's claim on the reader
    /// (``KioskReaderClaims/beginEnrollment(_:on:atKiosk:)``), which may refuse it.
    var claim: (@Sendable () throws -> Void)?

    func withReader<T: Sendable>(_ body: @escaping @Sendable ((any FingerprintReader)?) async throws -> T) async throws -> T {
        try claim?()
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
                if Self.closesReader(error) {
                    try? await reader.close()
                } else {
                    await pool.park(reader, identity)
                }
                throw error
            }
        }
    }

    /// Whether a step that ended with `error` leaves its reader to be closed (the next request
    /// opens it afresh) rather than kept warm: when the reader went away, or failed with an
    /// error of libfprint's own (carried in `readerFault`). `readerFailure` alone is not enough:
    /// the TPM, a key's signature and other work inside the turn report it too, and none of
    /// them is the reader's fault. A busy, hot or unsupported reader is kept, as it always was.
    static func closesReader(_ error: any Error) -> Bool {
        let error = AuthError(error)
        return error.code == .biometryDisconnected || (error.code == .readerFailure && error.readerFault != nil)
    }
}
