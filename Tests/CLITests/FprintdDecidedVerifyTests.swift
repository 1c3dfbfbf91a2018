import Foundation
import Testing
import TestSupport

/// Issue 53: on match-on-chip readers (libfprint's `virtual_device` and `virtual_device_storage`,
/// which clear the finger at once when they report), the match a reader reports is the answer,
/// at once, measured against fprintd 1.94.2 and fpbridged alike. fprintd sends `VerifyStatus`
/// from libfprint's match callback and ignores what the reader says after it; fpbridged used
/// to answer only at the operation's end, so a reader error after the report replaced the
/// match (`verify-unknown-error`), and a reader that kept its operation open held the answer
/// until the scan timeout.
@Suite(.serialized) struct FprintdDecidedVerifyTests {
    static let drivers = ["virtual_device", "virtual_device_storage"]

    /// A bus with root's right index finger enrolled ("p1") on `driver`.
    static func enrolled(_ daemon: FprintdBus.Daemon, _ driver: String) async throws -> FprintdBus {
        let bus = try await FprintdBus(daemon, driver: driver)
        // virtual_device_storage's enrollment begins with the duplicate check's scan.
        let enrolled = try await bus.enroll(print: "p1", scans: driver == "virtual_device" ? 5 : 6)
        try #require(enrolled.stdout.contains("Enroll result: enroll-completed"), "\(enrolled.stdout)")
        return bus
    }

    /// Starts root's verification and plays `commands` once it runs. The reader takes the first
    /// (a short SLEEP) at once, and the rest queue up behind it, so that what follows the scan
    /// is already waiting when the reader reports.
    static func verify(_ bus: FprintdBus, playing commands: [String]) async throws -> RunningClient {
        let client = try bus.startClient(["call:Claim:root", "call:VerifyStart:any", "done:VerifyStatus",
                                          "call:VerifyStop", "call:Release"])
        #expect(try await client.waitFor("VerifyStart ok"), "\(client.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, commands)
        return client
    }

    static func statuses(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("signal VerifyStatus") }
    }

    /// The reader reports the match, then fails the operation (BUSY): the match stands, and
    /// nothing follows it.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], drivers)
    func aMatchIsNotReplacedByAReaderErrorAfterIt(daemon: FprintdBus.Daemon, driver: String) async throws {
        let bus = try await Self.enrolled(daemon, driver)
        let client = try await Self.verify(bus, playing: ["SLEEP 300", "SCAN p1", "SLEEP 0", "ERROR 4"])
        #expect(try await client.finish() == 0, "\(client.output)")
        #expect(Self.statuses(client.output) == ["signal VerifyStatus verify-match True"], "\(client.output)")
        #expect(client.output.contains("VerifyStop ok") && client.output.contains("Release ok"), "\(client.output)")
        if daemon == .fpbridged {
            #expect(try await bus.lockout("root")["failures"] as? Int == 0, "a match counts no failure")
        }
    }

    /// The reader reports the match and keeps its operation open (a 60 s SLEEP): the match is
    /// answered long before (the 10 s wait here is a third of the scan timeout the old answer
    /// waited for), and VerifyStop then ends the operation.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], drivers)
    func aMatchIsAnsweredWhileTheReaderKeepsItsOperationOpen(daemon: FprintdBus.Daemon, driver: String) async throws {
        let bus = try await Self.enrolled(daemon, driver)
        let client = try await Self.verify(bus, playing: ["SLEEP 300", "SCAN p1", "SLEEP 60000"])
        #expect(try await client.waitFor("signal VerifyStatus verify-match True", timeout: 10), "\(client.output)")
        #expect(try await client.finish(timeout: 20) == 0, "\(client.output)")
        #expect(Self.statuses(client.output) == ["signal VerifyStatus verify-match True"], "\(client.output)")
        #expect(client.output.contains("VerifyStop ok") && client.output.contains("Release ok"), "\(client.output)")
    }

    /// The same with a finger that does not match: verify-no-match at once, counted once.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged], drivers)
    func aNoMatchIsAnsweredWhileTheReaderKeepsItsOperationOpen(daemon: FprintdBus.Daemon, driver: String) async throws {
        let bus = try await Self.enrolled(daemon, driver)
        let client = try await Self.verify(bus, playing: ["SLEEP 300", "SCAN p2", "SLEEP 60000"])
        #expect(try await client.waitFor("signal VerifyStatus verify-no-match True", timeout: 10), "\(client.output)")
        #expect(try await client.finish(timeout: 20) == 0, "\(client.output)")
        #expect(Self.statuses(client.output) == ["signal VerifyStatus verify-no-match True"], "\(client.output)")
        if daemon == .fpbridged {
            #expect(try await bus.lockout("root")["failures"] as? Int == 1, "one wrong finger, counted once")
        }
    }
}
