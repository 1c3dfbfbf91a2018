import FPAuthentication

/// The value of a successful evaluation.
package struct EvaluationResult: Codable, Sendable, Hashable {
    package var user: String
    package var method: AuthMethod
    package var finger: Finger?

    package init(_ success: AuthSuccess) { user = success.user; method = success.method; finger = success.finger }

    package var success: AuthSuccess { AuthSuccess(method: method, user: user, finger: finger) }
}

/// The answer of `can-evaluate`: available, or the error that says why not.
package struct AvailabilityResult: Codable, Sendable, Hashable {
    package var user: String
    package var biometryType: BiometryType
    package var scanType: ScanType?
    package var error: WireError?

    package init(user: String, _ availability: Availability) {
        self.user = user
        biometryType = availability.biometryType
        scanType = availability.scanType
        error = availability.error.map(WireError.init)
    }
}

/// The user's prints: the usable ones, and the damaged files by description.
package struct PrintList: Codable, Sendable, Hashable {
    package var user: String
    package var prints: [PrintSummary]
    package var damaged: [String]

    package init(user: String, entries: [PrintEntry]) {
        self.user = user
        prints = entries.compactMap(\.record).map(PrintSummary.init)
        damaged = entries.compactMap { entry in
            if case .damaged(let error) = entry { return error.description }
            return nil
        }
    }
}

/// Prints removed (by `delete`, or with a removed passcode).
package struct RemovedPrints: Codable, Sendable, Hashable {
    package var user: String
    package var removed: [PrintSummary]

    package init(user: String, removed: [PrintRecord]) {
        self.user = user
        self.removed = removed.map(PrintSummary.init)
    }
}
