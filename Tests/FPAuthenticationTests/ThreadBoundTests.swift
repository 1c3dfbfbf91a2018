@testable import FPAuthentication
import Foundation
import Synchronization
import Testing

/// Issue 27 §2: every scrypt started a thread of its own with no bound. Many at once now share
/// ``PasscodeHasher/maximumThreads`` threads, and every one still finishes.
@Suite struct ThreadBoundTests {
    final class Running: Sendable {
        let now = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
    }

    @Test func manySlowJobsAtOnceRunOnABoundedNumberOfThreads() async throws {
        let running = Running()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await PasscodeHasher.threads.run { () throws(AuthError) -> Int in
                        let now = running.now.add(1, ordering: .relaxed).newValue
                        var peak = running.peak.load(ordering: .relaxed)
                        while now > peak, !running.peak.compareExchange(expected: peak, desired: now, ordering: .relaxed).exchanged {
                            peak = running.peak.load(ordering: .relaxed)
                        }
                        // Holds the thread 20 ms so that the runs overlap: the peak counts how many ran at once.
                        usleep(20_000)
                        running.now.subtract(1, ordering: .relaxed)
                        return index
                    }
                }
            }
            var finished = 0
            for try await _ in group { finished += 1 }
            #expect(finished == 24)
        }
        #expect(running.peak.load(ordering: .relaxed) <= PasscodeHasher.maximumThreads)
        #expect(running.peak.load(ordering: .relaxed) >= 2, "they still run side by side")
    }
}
