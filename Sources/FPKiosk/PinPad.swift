import FPVocabulary

/// The PIN pad beside the reader: a user id and a PIN, checked by fpbridged at once (it never
/// waits for the reader). The PIN passes through and is never logged or kept.
package struct PinPad: Sendable {
    package let backend: any KioskBackend
    package let board: KioskBoard

    package init(backend: any KioskBackend, board: KioskBoard) {
        self.backend = backend
        self.board = board
    }

    /// The answer to the page: accepted with the user, or why not, as a message key of the
    /// page's string table with its parameters.
    package struct Answer: Codable, Sendable, Equatable {
        package var ok: Bool
        package var user: String?
        package var message: String
        package var parameters: [String: String] = [:]
        /// Seconds until the PIN pad takes this name (or this kiosk) again.
        package var retryAfter: Double?
    }

    /// Checks `pin` for `user`. A wrong PIN and an unknown user get the same answer: that is
    /// fpbridged's rule, and the kiosk adds nothing that would tell them apart.
    package func check(user: String, pin: String) async -> Answer {
        let name = user.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !pin.isEmpty else { return Answer(ok: false, message: "pinMissing") }
        do {
            let accepted = try await backend.checkPasscode(user: name, passcode: pin)
            return Answer(ok: true, user: accepted, message: "welcome", parameters: ["user": accepted])
        } catch let error as AuthError {
            switch error.code {
            case .authenticationFailed, .passcodeNotSet, .notFound:
                return Answer(ok: false, message: "pinWrong")
            case .passcodeLockout, .pinPadResting:
                let seconds = error.retryAfter.map { String(Int($0.rounded(.up))) } ?? "?"
                // The user's own limit, or the kiosk's budget of wrong PINs (any name) spent.
                return Answer(ok: false, message: error.code == .pinPadResting ? "pinPadResting" : "pinLocked",
                              parameters: ["seconds": seconds], retryAfter: error.retryAfter)
            case .notPermitted:
                return Answer(ok: false, message: "pinNotPermitted", parameters: ["detail": error.message])
            case .invalidInput:
                return Answer(ok: false, message: "pinInvalid", parameters: ["detail": error.message])
            default:
                return Answer(ok: false, message: "pinTrouble", parameters: ["detail": error.message])
            }
        } catch {
            return Answer(ok: false, message: "pinTrouble", parameters: ["detail": String(describing: error)])
        }
    }
}
