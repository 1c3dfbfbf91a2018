@testable import FPPasskeys
@testable import FPAuthentication
import Foundation
import Testing
import TestSupport

/// Bio enrollment (what `fido2-token -S -e`, `-L -e`, `-D -e` and a browser's security key
/// settings ask): python-fido2's FPBioEnrollment enrolls, lists, renames and removes alice's
/// prints through her security key, with a PIN token, and they are the prints every other
/// door matches.
@Suite(.serialized) struct PythonFido2BioEnrollmentTests {
    /// The template id of the right index finger (alice's first) and of the left index, the
    /// next free one.
    let rightIndex = "07", leftIndex = "02"

    @Test func aFingerEnrolledThroughTheSecurityKeyIsOneEveryDoorMatches() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // A swipe too short first: the host is told, and asked for the sample again.
        let script = "retry too-short\n" + String(repeating: "scan alice-2\n", count: 5)
        let results = try await Fido2Host.run(harness, script: script,
                                              ["bio-info", "bio-list:2468", "bio-enroll:2468", "bio-rename:2468,\(leftIndex)", "info"])
        try #require(results.count == 5, "\(results)")
        #expect(results[0]["kind"] as? Int == 1 && results[0]["samples"] as? Int == 5 && results[0]["name_length"] as? Int == 64
                && results[0]["modality"] as? Int == 1, "\(results[0])")
        #expect(results[1]["templates"] as? [String: String] == [rightIndex: "right-index"], "\(results[1])")
        #expect(results[2]["template"] as? String == leftIndex, "\(results[2])")
        let samples = results[2]["samples"] as? [[Int]]
        #expect(samples == [[0x09, 5], [0, 4], [0, 3], [0, 2], [0, 1], [0, 0]], "\(results[2])")
        #expect(results[3]["templates"] as? [String: String] == [rightIndex: "right-index", leftIndex: "work finger"], "\(results[3])")
        #expect((results[4]["options"] as? [String: Bool])?["bioEnroll"] == true, "\(results[4])")
        // The new finger is alice's at sudo's door too, and its name is kept with its print.
        let context = try await harness.context("scan alice-2")
        _ = try await context.verifyFinger(reason: "sudo", options: BiometricOptions())
        let prints = try context.environment.prints.prints(user: "alice", reader: nil)
        #expect(prints.first { $0.finger == .leftIndex }?.name == "work finger")
    }

    @Test func removingATemplateRemovesThePrintForEveryDoor() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let results = try await Fido2Host.run(harness, script: String(repeating: "scan alice-2\n", count: 5),
                                              ["bio-enroll:2468", "bio-remove:2468,\(leftIndex)", "bio-remove:2468,\(leftIndex)",
                                               "bio-remove:2468,\(rightIndex)", "bio-list:2468", "info"])
        try #require(results.count == 6, "\(results)")
        #expect(results[1]["templates"] as? [String: String] == [rightIndex: "right-index"], "\(results[1])")
        #expect(results[2]["ctap"] as? Int == 0x2C, "a template removed already: \(results[2])")
        // None left: python-fido2 reads CTAP2_ERR_INVALID_OPTION as an empty listing.
        #expect(results[4]["templates"] as? [String: String] == [:], "\(results[4])")
        #expect((results[5]["options"] as? [String: Bool])?["bioEnroll"] == false, "\(results[5])")
        let context = try await harness.context("")
        #expect(try context.environment.prints.prints(user: "alice", reader: nil).isEmpty)
    }

    @Test func aFingerEnrolledAlreadyIsFPExistsAndNothingIsSaved() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let results = try await Fido2Host.run(harness, script: "scan alice-2\nerror data-duplicate\n",
                                              ["bio-enroll:2468", "bio-list:2468"])
        try #require(results.count == 2, "\(results)")
        #expect(results[0]["capture_error"] as? Int == 0x0B, "\(results[0])")
        #expect(results[1]["templates"] as? [String: String] == [rightIndex: "right-index"], "\(results[1])")
    }

    @Test func bioEnrollmentIsGrantedForThePINOnlyAndAWrongPINIsCounted() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        // No touch is scripted: a request that asked for the finger would time out instead.
        let results = try await Fido2Host.run(harness, script: "", ["bio-uv-token", "bio-list:1111", "retries", "bio-cm-token:2468"])
        try #require(results.count == 4, "\(results)")
        #expect(results[0]["ctap"] as? Int == 0x40, "\(results[0])")
        #expect(results[1]["ctap"] as? Int == 0x31, "\(results[1])")
        #expect(results[2]["pin_retries"] as? Int == 5, "one wrong PIN counted: \(results[2])")
        // A PIN token without the bio enrollment permission lists nothing.
        #expect(results[3]["ctap"] as? Int == 0x33, "\(results[3])")
    }

    @Test func aCancelledEnrollmentSavesNothingAndAStaleTemplateIsRefused() async throws {
        let harness = PasskeyHarness()
        try await harness.enrollAlice()
        let results = try await Fido2Host.run(harness, script: String(repeating: "scan alice-2\n", count: 5),
                                              ["bio-cancel:2468", "bio-stale:2468", "bio-list:2468"])
        try #require(results.count == 3, "\(results)")
        #expect(results[0]["ctap"] as? Int == 0x02, "the capture after the cancel: \(results[0])")
        #expect(results[1]["ctap"] as? Int == 0x02, "\(results[1])")
        #expect(results[2]["templates"] as? [String: String] == [rightIndex: "right-index"], "\(results[2])")
    }
}
