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
        try await InProcessLibfprint.withDevice { try await droppingAnotherHandle() }
    }

    func droppingAnotherHandle() async throws {
        let (reader, print) = try await openedReader()
        let owner = try #require(reader as? LibfprintReader)
        do {
            // A second look at the readers (as `status` or a watcher takes), opened and dropped.
            for other in await LibfprintReader.all() { try? await other.open() }
        }
        // The dropped handles close their shares from tasks of their own: wait until those ran
        // (at most this handle's share is left), so that the verify below always comes after
        // them. A fixed wait let a busy machine run the verify first and pass without the bug.
        let closed = try await eventually(within: 20, every: .milliseconds(10)) { await owner.openHolders <= 1 }
        try #require(closed, "the dropped handles never closed their shares")
        // Before, the dropped handle closed the shared device and this failed with "not open".
        async let finger = VirtualReaderDriver.send(socket, ["SCAN owner"])
        #expect(try await reader.verify(print) == .match(galleryIndex: 0))
        _ = try await finger
        try await reader.close()
    }

    /// Cancels landing just before, at and after the moment the reader answers. With the
    /// cancellable cancelled off the loop thread this logged GLib assertions on every run and
    /// sometimes aborted (`fp_device_cancel_in_idle_cb: assertion failed`); dense timing after
    /// an idea of the parallel readers branch.
    @Test func cancellationsAroundCompletionNeverRaceLibfprint() async throws {
        try await InProcessLibfprint.withDevice { try await cancellationsAroundCompletion() }
    }

    func cancellationsAroundCompletion() async throws {
        let (reader, print) = try await openedReader()
        let criticalsBefore = LibfprintLogging.criticals.load(ordering: .relaxed)
        var outcomes: [String: Int] = [:]
        for round in 0..<600 {
            // The reader answers about `finish` ms after the verify starts; the cancel lands `cancel` / 4 ms in.
            let finish = round % 4, cancel = (round / 4) % 15
            _ = try await VirtualReaderDriver.send(socket, ["SLEEP \(finish)", "SCAN owner"])
            let operation = Task { try await reader.verify(print) }
            // The race under test: the cancel lands `cancel` x 250 us into the verify, on either side of the reader's answer.
            try await Task.sleep(for: .microseconds(cancel * 250))
            operation.cancel()
            switch await operation.result {
            case .success(let outcome): outcomes["\(outcome)", default: 0] += 1
            case .failure(let error): outcomes["\(error)", default: 0] += 1
            }
        }
        #expect(Set(outcomes.keys).isSubset(of: ["match(galleryIndex: 0)", "the operation was cancelled"]), "\(outcomes)")
        #expect(LibfprintLogging.criticals.load(ordering: .relaxed) == criticalsBefore, "GLib reported failed assertions")
        // Left-over scans of cancelled rounds are used up; the reader still answers.
        async let finger = VirtualReaderDriver.send(socket, ["SCAN owner"])
        #expect(try await reader.verify(print) == .match(galleryIndex: 0))
        _ = try await finger
        try await reader.close()
    }
}
