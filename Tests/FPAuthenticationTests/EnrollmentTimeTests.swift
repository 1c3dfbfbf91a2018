import FPAuthentication
import FPCore
import FPStore
import Foundation
import Testing

@Suite struct EnrollmentTimeTests {
    /// The time an enrollment reports (the stream, the API) is the one a later list reads from
    /// the print file, to the millisecond the file keeps.
    @Test func theEnrollmentTimeReportedIsTheOneStored() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        for (index, finger) in [Finger.rightIndex, .leftIndex, .rightThumb].enumerated() {
            let before = Date()
            let context = try await harness.context(String(repeating: "scan p\(index)\n", count: 5))
            var reported: PrintRecord?
            for try await event in Enrollment(context: context).enroll(finger, replace: false, prompt: ListedPasscodes(["2468"])) {
                if case .saved(let record) = event { reported = record }
            }
            let record = try #require(reported)
            let stored = try PrintStore(directory: harness.state).print(user: "alice", reader: record.reader, finger: finger)
            #expect(stored?.enrolledAt == record.enrolledAt, "\(finger): reported \(record.enrolledAt), stored \(String(describing: stored?.enrolledAt))")
            // Between the start and the end of the enrollment, give or take the millisecond the file rounds.
            #expect(record.enrolledAt.timeIntervalSince(before) > -0.001 && record.enrolledAt.timeIntervalSinceNow < 0.001,
                    "enrolled at \(record.enrolledAt), started at \(before)")
        }
    }
}
