import FPAuthentication
import FPService
import Foundation
import Testing

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
        try await Task.sleep(for: .milliseconds(100))
        // Alice queues two more, then Bob one.
        var waiting: [Task<Void, any Error>] = []
        for (name, uid) in [("alice-2", UInt32(1000)), ("alice-3", 1000), ("bob-1", 1001)] {
            waiting.append(Task { try await arbiter.withReader(reader, for: uid, wait: true, timeout: 30) { await order.add(name) } })
            try await Task.sleep(for: .milliseconds(50))
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
        let housekeeping = Task {
            try await arbiter.withReader(reader, wait: false, timeout: 0) {
                try? await Task.sleep(for: .milliseconds(300))
                await order.add("closed")
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        try await arbiter.withReader(reader, for: 1000, wait: false, timeout: 0) { await order.add("alice") }
        try await housekeeping.value
        #expect(await order.taken == ["closed", "alice"])

        let (release, holding) = AsyncStream<Void>.makeStream()
        let operation = Task { try await arbiter.withReader(reader, for: 1000, wait: true, timeout: 30) { for await _ in release { break } } }
        try await Task.sleep(for: .milliseconds(100))
        await #expect(throws: AuthError.self) {
            try await arbiter.withReader(reader, for: 1001, wait: false, timeout: 0) { await order.add("bob") }
        }
        holding.yield()
        try await operation.value
        #expect(await order.taken == ["closed", "alice"])
    }
}
