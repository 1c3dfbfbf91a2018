import Foundation
import Testing
import TestSupport

/// Issue 53: deleting prints on a reader that keeps its own copies (libfprint's
/// `virtual_device_storage`), measured against fprintd 1.94.2 and fpbridged alike, when the
/// sensor does not delete its copy: the record is deleted all the same (the finger no longer
/// signs anyone in; a copy without its record matches nothing) and the client is told
/// `PrintsNotDeletedFromDevice`. fpbridged used to keep the record and answer `PrintsNotDeleted`.
@Suite(.serialized) struct FprintdSensorDeleteTests {
    static let driver = "virtual_device_storage"

    /// Enrolls root's right index finger ("p1"), then deletes root's prints while the reader
    /// is told `commands` first (queued: the deletion's operation takes them).
    static func delete(_ daemon: FprintdBus.Daemon, _ method: String, after commands: [String])
        async throws -> (output: String, sensor: [String]) {
        let bus = try await FprintdBus(daemon, driver: driver)
        let enrolled = try await bus.enroll(print: "p1", scans: 6)
        try #require(enrolled.stdout.contains("Enroll result: enroll-completed"), "\(enrolled.stdout)")
        let client = try bus.startClient(["call:Claim:root", "wait:Proceed", method, "call:ListEnrolledFingers:root",
                                          "wait:Proceed", "call:Release"])
        #expect(try await client.waitFor("Claim ok"), "\(client.output)")
        _ = try await VirtualReaderDriver.send(bus.readerSocket, commands)
        try await bus.proceed()
        #expect(try await client.waitFor("ListEnrolledFingers"), "\(client.output)")
        let sensor = try await FprintdMatchOnChipEnrollTests.sensor(bus)
        try await bus.proceed()
        #expect(try await client.finish() == 0, "\(client.output)")
        return (client.output, sensor)
    }

    /// The reader refuses the deletion (BUSY): the record goes, the copy stays, and the client
    /// hears fprintd's name for it, through each of the three deleting calls.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged],
          ["call:DeleteEnrolledFingers2", "call:DeleteEnrolledFinger:right-index-finger", "call:DeleteEnrolledFingers:root"])
    func aDeletionTheReaderRefusesDeletesTheRecordAndSaysSo(daemon: FprintdBus.Daemon, method: String) async throws {
        let (output, sensor) = try await Self.delete(daemon, method, after: ["SLEEP 10", "ERROR 4"])
        let name = method.split(separator: ":")[1]
        #expect(output.contains("\(name) error net.reactivated.Fprint.Error.PrintsNotDeletedFromDevice"), "\(output)")
        #expect(output.contains("ListEnrolledFingers error net.reactivated.Fprint.Error.NoEnrolledPrints"), "\(output)")
        #expect(sensor == ["p1"], "the sensor kept its copy")
    }

    /// The sensor has lost its copy already (REMOVE): the record goes, and the client hears
    /// what the reader said, as fprintd tells it.
    @Test(arguments: [FprintdBus.Daemon.fprintd, .fpbridged])
    func aCopyTheSensorLostAlready(daemon: FprintdBus.Daemon) async throws {
        let (output, sensor) = try await Self.delete(daemon, "call:DeleteEnrolledFingers2", after: ["REMOVE p1"])
        #expect(output.contains("DeleteEnrolledFingers2 error net.reactivated.Fprint.Error.PrintsNotDeletedFromDevice"), "\(output)")
        #expect(output.contains("ListEnrolledFingers error net.reactivated.Fprint.Error.NoEnrolledPrints"), "\(output)")
        #expect(sensor.isEmpty)
    }
}
