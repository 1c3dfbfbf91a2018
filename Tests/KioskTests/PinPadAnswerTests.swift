import FPKiosk
import FPLocalAPI
import FPVocabulary
import Testing

/// What the kiosk page is told for each of the service's answers to a PIN.
@Suite struct PinPadAnswerTests {
    /// A service that answers every PIN with `error`.
    struct Refusing: KioskBackend {
        let error: AuthError
        func reader() async throws -> ReaderReport.Reader {
            ReaderReport.Reader(identity: "fake/0", name: nil, present: true, temperature: nil, heat: nil)
        }
        func identify(timeoutSeconds: Double, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> Identified { throw error }
        func checkPasscode(user: String, passcode: String) async throws -> String { throw error }
    }

    private func answer(_ error: AuthError) async -> PinPad.Answer {
        await PinPad(backend: Refusing(error: error), board: KioskBoard(clock: VirtualClock())).check(user: "alice", pin: "1")
    }

    /// The kiosk's budget and the user's limit are told apart by their codes, whatever the
    /// service's message says: the old rule read "kiosk" in the message.
    @Test func theKiosksRestAndTheUsersLockoutAreToldApartByCode() async {
        let resting = await answer(AuthError(.pinPadResting, "resting", retryAfter: 42.2))
        #expect(resting.message == "pinPadResting" && resting.parameters["seconds"] == "43" && resting.retryAfter == 42.2)
        let locked = await answer(AuthError(.passcodeLockout, "too many wrong PINs at the kiosk for alice", retryAfter: 5))
        #expect(locked.message == "pinLocked" && locked.parameters["seconds"] == "5")
        let wrong = await answer(AuthError(.authenticationFailed, "wrong user or PIN"))
        #expect(!wrong.ok && wrong.message == "pinWrong")
    }
}
