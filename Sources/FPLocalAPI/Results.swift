import FPVocabulary

/// The value of a successful evaluation.
package struct EvaluationResult: Codable, Sendable, Hashable {
    package var user: String
    package var method: AuthMethod
    package var finger: Finger?
    /// `identify-and-prove` only: the identified user's key's signature and what checks it.
    package var proof: WireProof?

    package init(_ success: AuthSuccess, proof: WireProof? = nil) {
        user = success.user; method = success.method; finger = success.finger
        self.proof = proof
    }

    package var success: AuthSuccess { AuthSuccess(method: method, user: user, finger: finger) }
}

/// The answer of `can-evaluate`: available, or the error that says why not.
package struct AvailabilityResult: Codable, Sendable, Hashable {
    package var user: String
    package var biometryType: BiometryType
    package var scanType: ScanType?
    package var error: WireError?

    package init(user: String, biometryType: BiometryType, scanType: ScanType?, error: WireError?) {
        self.user = user
        self.biometryType = biometryType
        self.scanType = scanType
        self.error = error
    }
}

/// The user's prints: the usable ones, and the damaged files by description.
package struct PrintList: Codable, Sendable, Hashable {
    package var user: String
    package var prints: [PrintSummary]
    package var damaged: [String]

    package init(user: String, prints: [PrintSummary], damaged: [String]) {
        self.user = user
        self.prints = prints
        self.damaged = damaged
    }
}

/// Prints removed (by `delete`, or with a removed passcode).
package struct RemovedPrints: Codable, Sendable, Hashable {
    package var user: String
    package var removed: [PrintSummary]
    /// After a passcode removal: the removed prints whose copy a match-on-chip sensor still
    /// holds (its delete failed, or the reader was not at hand). Their files are gone, so the
    /// copies match nothing; absent when there are none.
    package var leftOnSensor: [PrintSummary]?

    // Labelled apart from the engine's `init(user:removed:)` of records: an empty array
    // would fit both.
    package init(user: String, summaries: [PrintSummary]) {
        self.user = user
        removed = summaries
    }
}
