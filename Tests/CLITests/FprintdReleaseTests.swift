import Foundation
import Testing
import TestSupport

/// Issue 53: how `Release` ends on libfprint's `virtual_device` and `virtual_device_storage`,
/// measured against fprintd 1.94.2 and fpbridged alike. A reader whose close fails fails the
/// Release (`Internal`, "Release failed with error: ..."; fpbridged used to ignore the close's
/// error and answer success), and a second Release while the reader closes is `AlreadyInUse`
/// (fpbridged used to drop the claim at once and answer "not claimed").
@Suite(.serialized) struct FprintdReleaseTests {
    static let drivers = ["virtual_device", "virtual_device_storage"]

    /// The reader answers its close with a protocol error (libfprint's virtual readers run the
    /// commands queued for them when they close): the Release fails with fprintd's name and
    /// words, and the device is free again, so that the next Claim opens it afresh.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], drivers)
    func aReaderThatFailsToCloseFailsTheRelease(daemon: FprintdBus.Daemon, driver: String) async throws {
        let bus = try await FprintdBus(daemon, driver: driver)
        let client = try bus.startClient(["call:Claim:root", "wait:Proceed", "call:Release", "call:Claim:root", "call:Release"])
        #expect(try await client.waitFor("Claim ok"), "\(client.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, ["ERROR 5"])
        try await bus.proceed()
        #expect(try await client.finish() == 0, "\(client.output)")
        let answers = client.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Release") || $0.hasPrefix("Claim") }
        #expect(answers.count == 4, "\(client.output)")
        #expect(answers.first == "Claim ok", "\(client.output)")
        #expect(answers.dropFirst().first?.hasPrefix("Release error net.reactivated.Fprint.Error.Internal: Release failed with error: ") == true,
                "\(client.output)")
        #expect(Array(answers.suffix(2)) == ["Claim ok", "Release ok"], "\(client.output)")
    }

    /// The reader takes a second to close (a SLEEP queued for its close): a second Release sent
    /// meanwhile is `AlreadyInUse`, and the first one succeeds once the reader is closed.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], drivers)
    func aSecondReleaseWhileTheReaderClosesIsAlreadyInUse(daemon: FprintdBus.Daemon, driver: String) async throws {
        let bus = try await FprintdBus(daemon, driver: driver)
        // The client's 0.2 s pause puts the second Release on the wire after the first, well
        // inside the close's second (no signal marks the close's start).
        let client = try bus.startClient(["call:Claim:root", "wait:Proceed", "send:Release", "sleep:0.2", "call:Release",
                                          "sleep:2"])
        #expect(try await client.waitFor("Claim ok"), "\(client.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, ["SLEEP 1000"])
        try await bus.proceed()
        #expect(try await client.finish() == 0, "\(client.output)")
        let releases = client.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Release") }
        #expect(releases.count == 2, "\(client.output)")
        #expect(releases.first?.hasPrefix("Release error net.reactivated.Fprint.Error.AlreadyInUse") == true, "\(client.output)")
        #expect(releases.last == "Release ok", "\(client.output)")
    }
}
