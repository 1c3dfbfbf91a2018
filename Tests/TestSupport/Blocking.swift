import Foundation
import Dispatch

/// Runs blocking work (pipe reads, socket I/O, waiting for a child) off Swift's
/// cooperative pool. On a two-core machine that pool has two threads, and two
/// blocked readers would starve every other task of the test, including the one
/// that plays the finger.
@discardableResult
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try work() })
        }
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
