@testable import FPService
import FPAuthentication
import Foundation
import Synchronization
import Testing

/// Issue 41 §3: the service refused new operations during sleep by a flag read before the
/// operation was recorded (the socket's stream) or after an await (the D-Bus face), apart from
/// the list that sleep cancels. An operation whose check came just before the announcement of
/// sleep and whose recording came just after it was in neither: it ran, and opened a reader,
/// while the machine went to sleep. Admission is now one step under the registry's lock.
@Suite struct OperationAdmissionTests {
    func operation() -> FPService.Operation { FPService.Operation(owner: 1000, prompt: RemotePrompt(send: { _ in })) }

    @Test func sleepRefusesNewOperationsCancelsRunningOnesAndWakingAdmitsAgain() throws {
        let registry = OperationRegistry()
        let running = operation()
        try registry.admit(running)

        registry.sleep()
        #expect(running.isCancelled)
        #expect(registry.isSleeping)
        let late = operation()
        #expect(throws: OperationRegistry.sleeping) { try registry.admit(late) }
        #expect(!late.isCancelled && registry.count == 1, "refused, not recorded: only the running one is listed")

        registry.wake()
        let next = operation()
        try registry.admit(next)
        #expect(!next.isCancelled && registry.count == 2 && !registry.isSleeping)
    }

    @Test func anOperationAfterTheStopIsRecordedAndEndedWithTheStopsWords() throws {
        let registry = OperationRegistry()
        registry.stop(saying: AuthError(.systemCancel, "fpbridged is stopping"))
        let late = operation()
        try registry.admit(late)
        #expect(late.isCancelled)
        #expect(late.outcome(CancellationError()).message == "fpbridged is stopping")
    }

    /// Sleep announced while another thread admits operations as fast as it can, in many
    /// registries one after another: every operation a registry admitted must be one its sleep
    /// cancelled. The window of the old check-then-record is a few instructions wide, so this
    /// races two thousand rounds rather than hoping for one: with the check and the record apart
    /// (the flag read under one lock, the list written under another, closer than the old code
    /// had them), runs here let 10-15 rounds of 2,000 through.
    @Test func noOperationSlipsInBetweenTheCheckAndTheRecordWhenSleepIsAnnounced() async throws {
        let rounds = 2_000
        let registries = (0..<rounds).map { _ in OperationRegistry() }
        let current = Atomic<Int>(0), reached = Atomic<Int>(-1), done = Atomic<Bool>(false)
        let admitted = Mutex<[(round: Int, operation: FPService.Operation)]>([])
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var mine: [(round: Int, operation: FPService.Operation)] = []
            while !done.load(ordering: .acquiring) {
                let round = current.load(ordering: .acquiring)
                let next = FPService.Operation(owner: 1000, prompt: RemotePrompt(send: { _ in }))
                if (try? registries[round].admit(next)) != nil { mine.append((round, next)) }
                reached.store(round, ordering: .releasing)
            }
            admitted.withLock { $0 = mine }
            finished.signal()
        }
        for round in 0..<rounds {
            current.store(round, ordering: .releasing)
            // The other thread is admitting into this round's registry when its sleep comes.
            while reached.load(ordering: .acquiring) < round { sched_yield() }
            registries[round].sleep()
        }
        done.store(true, ordering: .releasing)
        finished.wait()
        let slipped = Set(admitted.withLock { $0 }.filter { !$0.operation.isCancelled }.map(\.round)).count
        #expect(slipped == 0, "rounds in which a sleeping registry admitted an operation it never cancelled: \(slipped) of \(rounds)")
    }
}
