import FPCore
@testable import FPAccountServer
import Foundation
import Testing

/// Issue 41 §2: the login server ran every password's scrypt (32 MiB, a tenth of a second) on an
/// unbounded concurrent queue, so a login flood ran as many at once as the queue got threads.
/// Now at most the bound run at once; the rest wait their turn holding no thread.
@Suite struct ScryptFloodTests {
    /// How many scrypts run now and the most that ever did; each holds its thread until let go,
    /// so that the count is seen without depending on how fast anything runs.
    final class Gauge: @unchecked Sendable {
        private let condition = NSCondition()
        private var running = 0
        private var peakSeen = 0
        private var started = 0
        private var letGo = false

        func start() {
            condition.lock()
            running += 1
            started += 1
            peakSeen = max(peakSeen, running)
            while !letGo { condition.wait() }
            condition.unlock()
        }

        func finish() {
            condition.lock()
            running -= 1
            condition.unlock()
        }

        func release() {
            condition.lock()
            letGo = true
            condition.broadcast()
            condition.unlock()
        }

        var snapshot: (started: Int, peak: Int) {
            condition.lock()
            defer { condition.unlock() }
            return (started, peakSeen)
        }
    }

    @Test func aFloodOfHashesRunsNoMoreScryptsAtOnceThanTheBound() async throws {
        let bound = 2, callers = 8
        let gauge = Gauge()
        let threads = BlockingThreads(name: "test-scrypt", limit: bound)
        let hasher = PasswordHasher(costLog2: 10, threads: threads,
                                    probe: ScryptProbe(started: { gauge.start() }, finished: { gauge.finish() }))
        try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<callers {
                group.addTask { ("password \(index)", try await hasher.hash("password \(index)")) }
            }
            // Every caller either runs (held by the gauge) or waits for a place; one over the
            // bound that started is the failure itself, so the wait ends there too.
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                let waiting = await threads.budget.waitingCount
                let (started, peak) = gauge.snapshot
                if peak > bound || (started >= bound && waiting >= callers - bound) { break }
                // A poll of a condition, not a wait for something to happen in time.
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(gauge.snapshot.peak == bound, "no more scrypts at once than the bound")
            #expect(await threads.budget.waitingCount == callers - bound, "the others wait for a place")
            gauge.release()
            var hashed = 0
            for try await (password, stored) in group {
                #expect(await hasher.matches(password, stored: stored))
                hashed += 1
            }
            #expect(hashed == callers)
        }
        #expect(gauge.snapshot.peak == bound)
    }
}
