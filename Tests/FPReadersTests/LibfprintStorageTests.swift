import FPCore
@testable import FPReaders
import Foundation
import Testing
import TestSupport

/// The libfprint backend in this process against `virtual_device_storage`, whose
/// "sensor storage" lives in the reader's memory and so lasts only as long as the
/// process: list, delete and clear are proven within one open session.
@Suite(.serialized) struct LibfprintStorageTests {
    /// The storage reader's socket (see ``InProcessLibfprint``).
    static var socket: String { InProcessLibfprint.storageSocket }
    /// The plain `virtual_device` of this test process (this suite pulls its own reader out at the end).
    static var deviceSocket: String { InProcessLibfprint.deviceSocket }

    func enroll(_ reader: any FingerprintReader, id: String) async throws -> PrintData {
        async let finger: Void = { _ = try await VirtualReaderDriver.send(Self.socket, Array(repeating: "SCAN \(id)", count: 5)) }()
        var stages: [Int] = []
        var enrolled: PrintData?
        for try await event in reader.enroll(PrintTemplate(finger: .rightIndex, username: "alice", enrollDate: Date())) {
            switch event {
            case .stageCompleted(let completed, _): stages.append(completed)
            case .enrolled(let print): enrolled = print.data
            case .retry: break
            }
        }
        try await finger
        #expect(stages == [1, 2, 3, 4, 5])
        return try #require(enrolled)
    }

    @Test func storageListIdentifyDeleteAndClear() async throws {
        let socket = Self.socket
        let reader = try await ReaderSelection.libfprint(driver: "virtual_device_storage").reader()
        try await reader.open()
        let features = await reader.info.features
        #expect(features.contains(.storage) && features.contains(.identify))

        let first = try await enroll(reader, id: "p1")
        let second = try await enroll(reader, id: "p2")
        let listed = try await reader.listStoredPrints()
        #expect(listed.count == 2)
        // The listed prints stand for the enrolled ones: identify against the list finds p2.
        try await VirtualReaderDriver.send(socket, ["SCAN p2"])
        guard case .match(let index) = try await reader.identify(listed.map(\.data)) else {
            Issue.record("a print listed from storage did not match")
            return
        }
        #expect(listed.count == 2 && index < 2)

        try await VirtualReaderDriver.send(socket, ["SCAN p2"])
        #expect(try await reader.identify([first, second]) == .match(galleryIndex: 1))
        try await VirtualReaderDriver.send(socket, ["SCAN p1"])
        #expect(try await reader.verify(first) == .match(galleryIndex: 0))
        try await VirtualReaderDriver.send(socket, ["SCAN nobody"])
        #expect(try await reader.identify([first, second]) == .noMatch)

        try await reader.deleteStoredPrint(first)
        #expect(try await reader.listStoredPrints().count == 1)
        try await VirtualReaderDriver.send(socket, ["SCAN p1"])
        #expect(try await reader.identify([first, second]) == .noMatch, "a deleted print must not match")

        // The virtual reader only finishes a clear once it is told to go on.
        try await VirtualReaderDriver.send(socket, ["CONT "])
        try await reader.clearStorage()
        #expect(try await reader.listStoredPrints().isEmpty)

        // Last, as the reader is gone for the rest of the process: pulling it out reaches a watcher
        // through libfprint's own context (device-removed), which is what real hot-plug uses too.
        let changes = LibfprintReader.watch()
        let watcher = Task {
            var seen: [ReaderChange] = []
            for await change in changes {
                seen.append(change)
                if case .removed = change { break }
            }
            return seen
        }
        let watchdog = Task {
            // A hang guard, not a wait: the watcher is cancelled if the removal never comes.
            try await Task.sleep(for: .seconds(5))
            watcher.cancel()
        }
        // Real time: the watcher must have listed the reader before the unplug; libfprint gives no event for its first listing (the test checks that it saw it).
        try await Task.sleep(for: .milliseconds(500))
        try await VirtualReaderDriver.send(socket, ["UNPLUG "])
        try? await reader.close()
        let seen = await watcher.value
        watchdog.cancel()
        let identity = ReaderIdentity(driver: "virtual_device_storage", deviceID: "0")
        #expect(seen.contains { if case .present(let info) = $0 { info.identity == identity } else { false } }, "\(seen)")
        #expect(seen.last == .removed(identity), "no removal reported: \(seen)")
        // Closed and pulled out, libfprint drops it, and so does the backend's table of devices
        // (a long-running service must not keep every reader ever plugged in).
        var tracked = true
        for _ in 0..<40 where tracked {
            // A poll (2 s at most).
            try await Task.sleep(for: .milliseconds(50))
            tracked = await LibfprintRuntime.tracks(identity)
        }
        #expect(!tracked, "the pulled-out reader's wrapper is still kept")
    }
}
