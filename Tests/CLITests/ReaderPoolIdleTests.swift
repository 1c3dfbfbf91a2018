@testable import FPService
import FPReaders
import Foundation
import Synchronization
import Testing
import TestSupport

/// A reader kept warm after an operation is closed once idle for the pool's time, on the pool's
/// clock (issue 41 §5: it slept on real time, so no test could check the rule without waiting).
@Suite struct ReaderPoolIdleTests {
    /// A reader that only counts its closes.
    final class CountingReader: FingerprintReader {
        let closes = Atomic<Int>(0)
        var info: ReaderInfo {
            ReaderInfo(identity: ReaderIdentity(driver: "counting", deviceID: "0"), name: "Counting reader", scanType: .press,
                       enrollStages: 5, features: [])
        }
        func open() async throws {}
        func close() async throws { closes.add(1, ordering: .relaxed) }
        func enroll(_ template: PrintTemplate) -> AsyncThrowingStream<EnrollEvent, any Error> {
            AsyncThrowingStream { $0.finish(throwing: ReaderError.notSupported("counting only")) }
        }
        func capture() async throws -> CapturedImage { throw ReaderError.notSupported("counting only") }
        func listStoredPrints() async throws -> [DeviceStoredPrint] { throw ReaderError.notSupported("counting only") }
        func deleteStoredPrint(_ print: PrintData) async throws { throw ReaderError.notSupported("counting only") }
        func clearStorage() async throws { throw ReaderError.notSupported("counting only") }
    }

    /// A reader parked in a pool of 5 idle seconds on a clock of the test's.
    func parked() async throws -> (ManualClock, ReaderPool, CountingReader, ReaderIdentity) {
        let clock = ManualClock()
        let pool = ReaderPool(idleSeconds: 5, arbiter: ReaderArbiter(clock: clock), clock: clock)
        let reader = CountingReader()
        let identity = reader.info.identity
        await pool.park(reader, identity)
        try #require(try await eventually(within: 10) { clock.sleepers == 1 }, "the idle close waits on the clock")
        return (clock, pool, reader, identity)
    }

    @Test func aParkedReaderClosesWhenItsIdleTimeHasPassedAndNotBefore() async throws {
        let (clock, pool, reader, identity) = try await parked()

        clock.advance(by: .seconds(4))
        #expect(reader.closes.load(ordering: .relaxed) == 0 && clock.sleepers == 1, "still warm at 4 s")
        clock.advance(by: .seconds(1))
        #expect(try await eventually(within: 10) { reader.closes.load(ordering: .relaxed) == 1 }, "closed at 5 s")
        #expect(await pool.take(identity) == nil, "and no longer kept")
    }

    @Test func takingTheReaderBackStopsItsIdleClose() async throws {
        let (clock, pool, reader, identity) = try await parked()
        let taken = await pool.take(identity)
        #expect(taken === reader)
        #expect(try await eventually(within: 10) { clock.sleepers == 0 }, "its close was cancelled")
        clock.advance(by: .seconds(60))
        #expect(reader.closes.load(ordering: .relaxed) == 0)
    }
}
