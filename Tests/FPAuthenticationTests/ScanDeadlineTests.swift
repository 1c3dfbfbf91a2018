import FPAuthentication
import FPCore
import FPReaders
import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 49 §2: an evaluation's scan timeout is one deadline from its start. A reader that
/// sends a retry hint every 3 s kept a verify asked for 5 s alive 41.5 s, since each hint
/// started the next scan with the whole timeout again; a wrong finger with attempts left did
/// the same. On a manual clock: each scan's finger (or hint) comes 3 s after the scan starts,
/// and a scan given less than that times out after what it was given, as a reader does.
@Suite struct ScanDeadlineTests {
    /// The fake reader playing `script`, each scan taking ``every`` of `clock`, recording the
    /// `fingerTimeout` the engine gave each scan.
    final class PacedReader: PrintMatching {
        let base: FakeReader
        let clock: ManualClock
        let every: Duration
        let given = Mutex<[Duration]>([])

        init(_ script: String, clock: ManualClock, every: Duration) async throws {
            base = FakeReader(script: try FakeScript.parse(script))
            try await base.open()
            self.clock = clock
            self.every = every
        }

        var info: ReaderInfo { get async { await base.info } }
        func open() async throws { try await base.open() }
        func close() async throws { try await base.close() }
        func enroll(_ template: PrintTemplate) -> AsyncThrowingStream<EnrollEvent, any Error> { base.enroll(template) }
        func capture() async throws -> CapturedImage { try await base.capture() }
        func listStoredPrints() async throws -> [DeviceStoredPrint] { try await base.listStoredPrints() }
        func deleteStoredPrint(_ print: PrintData) async throws { try await base.deleteStoredPrint(print) }
        func clearStorage() async throws { try await base.clearStorage() }

        func verify(_ print: PrintData, fingerTimeout: Duration) async throws -> MatchOutcome {
            try await paced(fingerTimeout) { try await base.verify(print, fingerTimeout: .seconds(60)) }
        }

        func identify(_ gallery: [PrintData], fingerTimeout: Duration) async throws -> MatchOutcome {
            try await paced(fingerTimeout) { try await base.identify(gallery, fingerTimeout: .seconds(60)) }
        }

        private func paced(_ timeout: Duration, _ scan: () async throws -> MatchOutcome) async throws -> MatchOutcome {
            given.withLock { $0.append(timeout) }
            guard timeout >= every else {
                clock.advance(by: timeout)
                throw ReaderError.timedOut
            }
            clock.advance(by: every)
            return try await scan()
        }
    }

    /// alice enrolled (alice-1), a 5 s scan timeout, and a context on a paced reader whose scan
    /// deadline is measured on `clock`; the harness owns the state directory (kept while it lives).
    func context(_ script: String, clock: ManualClock) async throws -> (AuthenticationContext, PacedReader, EngineHarness) {
        let harness = EngineHarness().with(scanTimeout: 5)
        try await harness.setPasscode()
        try await harness.enroll()
        let reader = try await PacedReader(script, clock: clock, every: .seconds(3))
        var environment = AuthEnvironment(user: "alice", reader: reader, stateDirectory: harness.state, configuration: harness.configuration)
        environment.scanClock = clock
        return (AuthenticationContext(environment: environment), reader, harness)
    }

    @Test func retryHintsNeverExtendTheScanTimeout() async throws {
        let clock = ManualClock()
        // Hints keep coming, every 3 s, and the finger would match after them all.
        let (context, reader, harness) = try await context("retry too-short\nretry remove\nretry center\nretry general\nretry too-short\n"
                                                     + "scan alice-1", clock: clock)
        await #expect { try await context.verifyFinger(reason: "x", options: BiometricOptions()) } throws: {
            ($0 as? AuthError)?.code == .timedOut
        }
        // The second scan had what was left of the 5 s, and the verify ended at them.
        #expect(reader.given.withLock { $0 } == [.seconds(5), .seconds(2)])
        #expect(clock.now.offset == .seconds(5))
        #expect(harness.counter().biometricFailures == 0, "a hint is never a failure")
    }

    @Test func aWrongFingerWithAttemptsLeftNeverExtendsTheScanTimeout() async throws {
        let clock = ManualClock()
        let (context, reader, harness) = try await context("scan mallory-1\nscan alice-1", clock: clock)
        await #expect { try await context.verifyFinger(reason: "x", options: BiometricOptions(maxFailedMatches: 3)) } throws: {
            ($0 as? AuthError)?.code == .timedOut
        }
        #expect(reader.given.withLock { $0 } == [.seconds(5), .seconds(2)])
        #expect(clock.now.offset == .seconds(5))
        // The wrong finger counted, the scan that never came did not.
        #expect(harness.counter().biometricFailures == 1)
    }
}
