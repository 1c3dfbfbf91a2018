import FPAuthentication
import FPService
import Foundation
import Testing
import TestSupport

/// Issue 27 §2: no user may keep the only reader from others by repeating requests. When the
/// reader comes free, another user's waiting request goes before the holder's own next one.
@Suite struct ReaderTurnTests {
    /// Records the order in which turns were taken.
    actor Order {
        var taken: [String] = []
        func add(_ name: String) { taken.append(name) }
    }

    @Test func anotherUsersWaitingRequestGoesBeforeTheHoldersNextOne() async throws {
        let arbiter = ReaderArbiter()
        let reader = ReaderIdentity(driver: "fake", deviceID: "0")
        let order = Order()
        let (release, holding) = AsyncStream<Void>.makeStream()
        // Alice holds the reader until told to let go.
        let first = Task {
            try await arbiter.withReader(reader, for: 1000, wait: true, timeout: 30) {
                await order.add("alice-1")
                for await _ in release { break }
            }
        }
        try #require(try await eventually(within: 10) { await arbiter.isHeld(reader) })
        // Alice queues two more, then Bob one, each queued before the next comes.
        var waiting: [Task<Void, any Error>] = []
        for (index, (name, uid)) in [("alice-2", UInt32(1000)), ("alice-3", 1000), ("bob-1", 1001)].enumerated() {
            waiting.append(Task { try await arbiter.withReader(reader, for: uid, wait: true, timeout: 30) { await order.add(name) } })
            try #require(try await eventually(within: 10) { await arbiter.waiting(for: reader) == index + 1 })
        }
        holding.yield()
        try await first.value
        for task in waiting { try await task.value }
        #expect(await order.taken == ["alice-1", "bob-1", "alice-2", "alice-3"])
    }

    /// A request that asked not to wait is refused behind another user's operation, but waits
    /// behind the service's own turn (closing an idle reader): the race IdleCloseRaceTests
    /// met in CI, where a `can-evaluate` on the idle deadline was answered readerBusy.
    @Test func notWaitingMeansNotBehindAnOperationButBehindTheServicesOwnTurn() async throws {
        let arbiter = ReaderArbiter()
        let reader = ReaderIdentity(driver: "fake", deviceID: "0")
        let order = Order()
        let (closing, closed) = AsyncStream<Void>.makeStream()
        let housekeeping = Task {
            try await arbiter.withReader(reader, wait: false, timeout: 0) {
                for await _ in closing { break }
                await order.add("closed")
            }
        }
        try #require(try await eventually(within: 10) { await arbiter.isHeld(reader) })
        let alice = Task { try await arbiter.withReader(reader, for: 1000, wait: false, timeout: 0) { await order.add("alice") } }
        try #require(try await eventually(within: 10) { await arbiter.waiting(for: reader) == 1 }, "alice waits behind the close")
        closed.yield()
        try await housekeeping.value
        try await alice.value
        #expect(await order.taken == ["closed", "alice"])

        let (release, holding) = AsyncStream<Void>.makeStream()
        let operation = Task { try await arbiter.withReader(reader, for: 1000, wait: true, timeout: 30) { for await _ in release { break } } }
        try #require(try await eventually(within: 10) { await arbiter.isHeld(reader) })
        await #expect(throws: AuthError.self) {
            try await arbiter.withReader(reader, for: 1001, wait: false, timeout: 0) { await order.add("bob") }
        }
        holding.yield()
        try await operation.value
        #expect(await order.taken == ["closed", "alice"])
    }

    /// A waiter's timeout runs on the arbiter's clock: here a test's clock, moved on by hand,
    /// so that the 30-second rule is checked in no time and never early.
    @Test func aWaiterGivesUpWhenItsTimeoutHasPassedOnTheClockAndNotBefore() async throws {
        let clock = ManualClock()
        let arbiter = ReaderArbiter(clock: clock)
        let reader = ReaderIdentity(driver: "fake", deviceID: "0")
        let (release, holding) = AsyncStream<Void>.makeStream()
        let holder = Task { try await arbiter.withReader(reader, for: 1000, wait: true, timeout: 30) { for await _ in release { break } } }
        try #require(try await eventually(within: 10) { await arbiter.isHeld(reader) })
        let waiter = Task { try await arbiter.withReader(reader, for: 1001, wait: true, timeout: 30) {} }
        try #require(try await eventually(within: 10) { await arbiter.waiting(for: reader) == 1 && clock.sleepers == 1 })

        clock.advance(by: .seconds(29))
        #expect(await arbiter.waiting(for: reader) == 1, "still waiting at 29 s")
        clock.advance(by: .seconds(1))
        await #expect(throws: AuthError(.readerBusy, "the reader \(reader) stayed busy for 30 s", retryAfter: 1)) { try await waiter.value }
        #expect(await arbiter.waiting(for: reader) == 0)
        holding.yield()
        try await holder.value
    }
}
