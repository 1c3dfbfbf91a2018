import FPAuthentication
import FPLocalAPI
import Foundation

/// The service's way to a reader: chosen by the request's target, one operation at a time
/// (``ReaderArbiter``), opened for the operation and closed after it, so that an idle reader
/// is never left armed and a reader plugged in later is found by the next request.
struct ServiceReaders {
    let arbiter: ReaderArbiter

    func with<T: Sendable>(_ target: RequestTarget, required: Bool, wait: Bool, timeout: TimeInterval,
                           _ body: @escaping @Sendable ((any FingerprintReader)?) async throws -> T) async throws -> T {
        let candidate: any FingerprintReader
        do {
            candidate = try await target.selection.reader()
        } catch let error as ReaderError {
            guard !required else { throw AuthError(error) }
            return try await body(nil)
        }
        let identity = await candidate.info.identity
        return try await arbiter.withReader(identity, wait: wait, timeout: timeout) {
            try await OpenedReader.with(candidate: { candidate }, required: required, body)
        }
    }

    /// The reader's description without opening it (status).
    func peek(_ target: RequestTarget) async -> ReaderInfo? {
        guard let reader = try? await target.selection.candidates().first else { return nil }
        return await reader.info
    }
}
