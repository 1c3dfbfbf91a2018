import FPCore
@testable import FPReaders
import Foundation
import Testing
import TestSupport

/// The libfprint backend's ownership rules, in this process against `virtual_device`:
/// handles share one device without closing it under each other, and cancellations
/// landing as operations finish never race libfprint.
@Suite(.serialized) struct LoopOwnershipTests {
    var socket: String { LibfprintStorageTests.deviceSocket }

    func openedReader() async throws -> (any FingerprintReader, PrintData) {
        _ = LibfprintStorageTests.socket
        let reader = try await ReaderSelection.libfprint(driver: "virtual_device").reader()
        try await reader.open()
        async let fingers = VirtualReaderDriver.send(socket, Array(repeating: "SCAN owner", count: 5))
        var print: PrintData?
        for try await event in reader.enroll(PrintTemplate(finger: .rightIndex, username: "alice", enrollDate: Date())) {
            if case .enrolled(let enrolled) = event { print = enrolled.data }
        }
        _ = try await fingers
        return (reader, try #require(print))
    }

    @Test func droppingAnotherHandleNeverClosesAReaderInUse() async throws {
        let (reader, print) = try await openedReader()
        do {
            // A second look at the readers (as `status` or a watcher takes), opened and dropped.
            for other in await LibfprintReader.all() { try? await other.open() }
        }
        try await Task.sleep(for: .milliseconds(300))
        // Before, the dropped handle closed the shared device and this failed with "not open".
        async let finger = VirtualReaderDriver.send(socket, ["SCAN owner"])
        #expect(try await reader.verify(print) == .match(galleryIndex: 0))
        _ = try await finger
        try await reader.close()
    }

    @Test func cancellationsAroundCompletionNeverRaceLibfprint() async throws {
        let (reader, print) = try await openedReader()
        var outcomes: [String: Int] = [:]
        for round in 0..<40 {
            let operation = Task { try await reader.verify(print) }
            try await VirtualReaderDriver.send(socket, ["SCAN \(round % 2 == 0 ? "owner" : "other")"])
            // Cancelled from another thread at varied moments, some as the result arrives.
            try await Task.sleep(for: .microseconds((round % 8) * 500))
            operation.cancel()
            switch await operation.result {
            case .success(let outcome): outcomes["\(outcome)", default: 0] += 1
            case .failure(let error): outcomes["\(error)", default: 0] += 1
            }
        }
        // Still alive and still serving.
        async let finger = VirtualReaderDriver.send(socket, ["SCAN owner"])
        #expect(try await reader.verify(print) == .match(galleryIndex: 0))
        _ = try await finger
        #expect(outcomes.values.reduce(0, +) == 40, "\(outcomes)")
        try await reader.close()
    }
}
