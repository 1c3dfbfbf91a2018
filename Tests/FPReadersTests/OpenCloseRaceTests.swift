import FPCore
@testable import FPReaders
import Foundation
import Testing
import TestSupport

/// Issue 27 §2: opens and closes that overlap, on libfprint's `virtual_device` in this process.
/// A handle and the device it shares have explicit states (closed, opening, open, closing) that
/// `open` and `close` wait on.
@Suite(.serialized) struct OpenCloseRaceTests {
    func virtualDevice() async throws -> LibfprintReader {
        try #require(try await ReaderSelection.libfprint(driver: "virtual_device").reader() as? LibfprintReader)
    }

    /// Before: both opens succeeded (check, await, set), and after two closes libfprint still
    /// had the device open.
    @Test func twoOpensOfOneHandleCountOnceAndOneCloseClosesIt() async throws {
        try await InProcessLibfprint.withDevice {
            let reader = try await virtualDevice()
            let opens = [Task { try await reader.open() }, Task { try await reader.open() }]
            var opened = 0, refused = 0
            for open in opens {
                switch await open.result {
                case .success: opened += 1
                case .failure(ReaderError.alreadyOpen): refused += 1
                case .failure(let error): Issue.record("unexpected \(error)")
                }
            }
            #expect(opened == 1 && refused == 1)
            try await reader.close()
            #expect(await reader.isOpenInLibfprint == false, "one close gives back the one open")
            try await reader.close()
            #expect(await reader.isOpenInLibfprint == false)
        }
    }

    /// Before: the device's count went to zero before its close completed, and an open meanwhile
    /// called fp_device_open on a closing device ("already open", 26 of 30).
    @Test func anOpenWhileTheDeviceClosesWaitsAndSucceeds() async throws {
        try await InProcessLibfprint.withDevice {
            let first = try await virtualDevice(), second = try await virtualDevice()
            for round in 0..<15 {
                try await first.open()
                async let closing: Void = first.close()
                async let opening: Void = second.open()
                do {
                    try await opening
                } catch {
                    Issue.record("round \(round): an open while the device closed failed: \(error)")
                }
                try await closing
                #expect(await second.isOpenInLibfprint, "round \(round)")
                try await second.close()
                #expect(await second.isOpenInLibfprint == false, "round \(round)")
            }
        }
    }

    /// Issue 27 §2: a scan's finger clock lived on for the whole timeout after the scan ended
    /// (the service accepts a day), keeping its watcher alive. It ends with the scan.
    @Test func aFingerWaitEndsWithItsScanNotWithItsTimeout() async throws {
        try await InProcessLibfprint.withDevice {
            let socket = InProcessLibfprint.deviceSocket
            let reader = try await virtualDevice()
            try await reader.open()
            async let fingers = VirtualReaderDriver.send(socket, Array(repeating: "SCAN waiter", count: 5))
            var print: PrintData?
            for try await event in reader.enroll(PrintTemplate(finger: .rightIndex, username: "alice", enrollDate: Date())) {
                if case .enrolled(let enrolled) = event { print = enrolled.data }
            }
            _ = try await fingers
            let before = FingerWait.live.load(ordering: .relaxed)
            async let finger = VirtualReaderDriver.send(socket, ["SCAN waiter"])
            #expect(try await reader.verify(try #require(print), fingerTimeout: .seconds(86_400)) == .match(galleryIndex: 0))
            _ = try await finger
            try await reader.close()
            // Let the loop drop what the scan held.
            for _ in 0..<50 where FingerWait.live.load(ordering: .relaxed) > before { try await Task.sleep(for: .milliseconds(20)) }
            #expect(FingerWait.live.load(ordering: .relaxed) <= before, "a finger clock outlived its scan")
        }
    }

    /// A close that lands while the same handle is still opening waits for the open, then closes.
    @Test func aCloseDuringTheOpenLeavesTheDeviceClosed() async throws {
        try await InProcessLibfprint.withDevice {
            let reader = try await virtualDevice()
            for _ in 0..<10 {
                async let opening: Void = reader.open()
                // The race under test: the close lands about 1 ms into the open.
                try await Task.sleep(for: .milliseconds(1))
                try await reader.close()
                try? await opening
                try await reader.close()
                #expect(await reader.isOpenInLibfprint == false)
            }
        }
    }
}
