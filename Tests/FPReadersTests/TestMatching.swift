@testable import FPReaders
import FPCore

/// Matching with a generous finger timeout, for tests that exercise the readers directly
/// (downstream code cannot: matching is the engine's, `package` only).
extension FingerprintReader {
    func verify(_ print: PrintData) async throws -> MatchOutcome {
        try await (self as! any PrintMatching).verify(print, fingerTimeout: .seconds(30))
    }

    func identify(_ gallery: [PrintData]) async throws -> MatchOutcome {
        try await (self as! any PrintMatching).identify(gallery, fingerTimeout: .seconds(30))
    }
}
