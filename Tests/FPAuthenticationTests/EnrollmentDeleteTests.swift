import FPAuthentication
import FPStore
import Testing

/// Deleting prints when a sensor copy's reader is not at hand (issue 53): nothing is deleted,
/// rather than the prints before it and then a refusal that hides what went.
@Suite struct EnrollmentDeleteTests {
    @Test func aDeletionThatNeedsAReaderNotAtHandDeletesNothing() async throws {
        let harness = EngineHarness()
        try await harness.setPasscode()
        // The left thumb is a host print; the right index has its copy on the sensor.
        let onChip = "set features verify,identify,storage,storage-list,storage-delete\n"
        for (finger, settings) in [(Finger.leftThumb, ""), (.rightIndex, onChip)] {
            let context = try await harness.context(settings + String(repeating: "scan \(finger.rawValue)\n", count: 5))
            for try await _ in Enrollment(context: context).enroll(finger, replace: false, prompt: ListedPasscodes(["2468"])) {}
        }
        let store = PrintStore(directory: harness.state)
        try #require(try store.prints(user: "alice", reader: nil).map(\.storedOnDevice) == [false, true])

        let noReader = try await harness.context("", reader: false)
        await #expect {
            _ = try await Enrollment(context: noReader).delete(nil)
        } throws: { error in
            (error as? AuthError)?.code == .biometryNotAvailable && "\(error)".contains("right-index print lives on reader")
        }
        #expect(try store.prints(user: "alice", reader: nil).map(\.finger) == [.leftThumb, .rightIndex], "both prints are kept")
        // One finger whose print needs no reader still goes.
        #expect(try await Enrollment(context: noReader).delete(.leftThumb).map(\.finger) == [.leftThumb])
    }
}
