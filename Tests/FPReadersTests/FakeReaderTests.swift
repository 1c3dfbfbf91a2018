import FPCore
@testable import FPReaders
import Testing

@Suite struct FakeReaderTests {
    func reader(_ text: String) async throws -> FakeReader {
        let reader = FakeReader(script: try FakeScript.parse(text))
        try await reader.open()
        return reader
    }

    func enroll(_ reader: FakeReader) async throws -> ([EnrollEvent], EnrolledPrint?) {
        var events: [EnrollEvent] = []
        var print: EnrolledPrint?
        for try await event in reader.enroll(.bare) {
            if case .enrolled(let enrolled) = event { print = enrolled } else { events.append(event) }
        }
        return (events, print)
    }

    @Test func enrollCountsStagesAndPassesRetriesOn() async throws {
        let reader = try await reader("set stages 3\nscan a\nretry center\nscan a\nscan b\nscan a")
        let (events, print) = try await enroll(reader)
        #expect(events == [
            .stageCompleted(completed: 1, total: 3), .retry(.center), .stageCompleted(completed: 2, total: 3),
            .retry(.general), .stageCompleted(completed: 3, total: 3),
        ])
        #expect(print != nil)
    }

    @Test func printsMatchOnlyTheirOwnFingerID() async throws {
        let enrolling = try await reader("set stages 1\nscan alice-1")
        let print = try #require(try await enroll(enrolling).1).data
        let reader = try await reader("scan alice-1\nscan alice-2\nretry remove\nfallback\ncancel")
        #expect(try await reader.verify(print) == .match(galleryIndex: 0))
        #expect(try await reader.verify(print) == .noMatch)
        #expect(try await reader.verify(print) == .retry(.remove))
        #expect(try await reader.verify(print) == .userChoice(.fallback))
        #expect(try await reader.verify(print) == .userChoice(.cancel))
    }

    @Test func identifyReturnsTheGalleryIndex() async throws {
        let gallery = try await [enroll(reader("set stages 1\nscan a")).1!.data, enroll(reader("set stages 1\nscan b")).1!.data]
        let reader = try await reader("scan b")
        #expect(try await reader.identify(gallery) == .match(galleryIndex: 1))
    }

    @Test func anExhaustedScriptEndsTheOperationInsteadOfHanging() async throws {
        let reader = try await reader("scan a")
        let print = try await enroll(self.reader("set stages 1\nscan a")).1!.data
        _ = try await reader.verify(print)
        await #expect(throws: ReaderError.scriptEnded(operation: "verify", line: 1)) {
            try await reader.verify(print)
        }
    }

    @Test func unplugRemovesTheReaderForGood() async throws {
        let print = try await enroll(reader("set stages 1\nscan a")).1!.data
        let reader = try await reader("wait 5\nunplug\nscan a")
        await #expect(throws: ReaderError.removed) { try await reader.verify(print) }
        await #expect(throws: ReaderError.removed) { try await reader.verify(print) }
    }

    @Test func scriptedErrorsAndMissingFeatures() async throws {
        let reader = try await reader("error too-hot")
        let print = try await enroll(self.reader("set stages 1\nscan a")).1!.data
        await #expect(throws: ReaderError.tooHot(usableInSeconds: nil)) { try await reader.verify(print) }
        await #expect(throws: ReaderError.notSupported("capture")) { try await reader.capture() }
        await #expect(throws: ReaderError.invalidPrint("not a print made by the fake reader")) {
            try await reader.verify(PrintData(bytes: [1, 2, 3]))
        }
    }

    @Test func cancellationStopsAWaitingOperation() async throws {
        let reader = try await reader("wait 60000\nscan a")
        let print = try await enroll(self.reader("set stages 1\nscan a")).1!.data
        let task = Task { try await reader.verify(print) }
        // Real time: the verify must be in the fake reader's 60 s wait when cancelled; nothing but time marks that.
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: ReaderError.cancelled) { try await task.value }
    }

    @Test func onChipStorageListsAndDeletes() async throws {
        let reader = try await reader("set stages 1\nset features verify,identify,storage,storage-list,storage-delete,storage-clear\nscan a\nscan a")
        let print = try #require(try await enroll(reader).1)
        #expect(print.storedOnDevice)
        #expect(try await reader.listStoredPrints().map(\.data) == [print.data])
        try await reader.deleteStoredPrint(print.data)
        #expect(try await reader.listStoredPrints().isEmpty)
        #expect(try await reader.verify(print.data) == .noMatch)
    }

    @Test func selectionParsing() throws {
        #expect(try ReaderSelection(parsing: "auto") == .auto)
        #expect(try ReaderSelection(parsing: "libfprint:elan") == .libfprint(driver: "elan"))
        #expect(try ReaderSelection(parsing: "fake:/tmp/s.txt") == .fake(scriptPath: "/tmp/s.txt"))
        #expect(throws: AuthError.self) { try ReaderSelection(parsing: "usb") }
    }
}

/// The finger timeout bounds the wait for a finger, never the matching after it.
@Suite struct FingerTimeoutTests {
    func reader(_ script: String) async throws -> FakeReader {
        let reader = FakeReader(script: try FakeScript.parse(script))
        try await reader.open()
        return reader
    }

    @Test func noFingerInTimeIsTimedOut() async throws {
        // The finger would come after 60 s; the bound only tells the timeout from that finger,
        // with room for a loaded machine.
        let reader = try await reader("wait 60000\nscan a")
        let start = ContinuousClock.now
        await #expect(throws: ReaderError.timedOut) {
            try await reader.verify(FakePrintFormat.encode(fingerID: "a"), fingerTimeout: .milliseconds(200))
        }
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func slowMatchingAfterTheFingerIsNotTimedOut() async throws {
        let reader = try await reader("set matching 800\nwait 50\nscan a")
        let outcome = try await reader.identify([FakePrintFormat.encode(fingerID: "b"), FakePrintFormat.encode(fingerID: "a")],
                                                fingerTimeout: .milliseconds(200))
        #expect(outcome == .match(galleryIndex: 1))
    }
}
