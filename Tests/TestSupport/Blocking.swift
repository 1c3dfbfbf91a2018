import Foundation
import Dispatch

/// Runs blocking work (pipe reads, socket I/O, waiting for a child) on a thread of its
/// own. Not on Swift's cooperative pool: on a two-core machine it has two threads, and two
/// blocked readers would starve every other task of the test, including the one that
/// plays the finger. Not on Dispatch's global queue either: it is as wide as the machine,
/// adds a thread only when its monitor sees every worker blocked, and a wait queued behind
/// other suites' waits adds that delay to what a test measures.
@discardableResult
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// The first line a child writes on `pipe` (without waiting for it to close), trimmed;
/// what is there if it closes first.
public func firstLine(of pipe: Pipe) async throws -> String {
    try await blocking { () -> String in
        var data = Data()
        while !data.contains(0x0A) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
