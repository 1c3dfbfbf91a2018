import Foundation
import TestSupport

/// Enrolling needs the user's passcode (as on iOS): the tests' users all have 2468.
enum PasscodeFirst {
    static let passcode = "2468"

    /// Sets the user's passcode when the state has none, and returns the enroll
    /// command line and standard input that enter it.
    static func enroll(_ arguments: [String], state: String, user: String) async throws -> ([String], String) {
        if !FileManager.default.fileExists(atPath: state + "/passcodes/\(user).json") {
            let set = try await Fpbridge.run(["--json", "--state-dir", state, "--user", user, "--reader", "fake",
                                              "passcode", "set", "--passcode-stdin"], input: passcode + "\n")
            guard set.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["output": set.stdout + set.stderr]) }
        }
        return (arguments + ["--passcode-stdin"], passcode + "\n")
    }
}
