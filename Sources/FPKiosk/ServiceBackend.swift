import FPServiceClient
import FPVocabulary

/// The kiosk's way to fpbridged: its socket, as a member of the kiosk group (the service
/// decides what the kiosk may do from the socket's peer credentials, never from the request).
package struct ServiceBackend: KioskBackend {
    package let client: ServiceClient

    package init(socket: String) {
        var client = ServiceClient(socketPath: socket)
        // An answer to a read request comes at once or the service is in trouble: the page
        // should say so within seconds, not after the client's default half minute.
        client.answerDeadline = .seconds(10)
        self.client = client
    }

    package func reader() async throws -> ReaderReport.Reader {
        let answer: ReaderReport = try await client.get("reader")
        return answer.reader
    }

    package func identify(timeoutSeconds: Double, event: @escaping @Sendable (AuthEvent) -> Void) async throws -> String {
        var request = EvaluationRequest(operation: .identify)
        request.timeoutSeconds = timeoutSeconds
        // Someone else's operation on the reader: the kiosk waits its turn itself (re-reading
        // the heat first) instead of queueing blind.
        request.wait = false
        // One touch, one answer: the page says "not recognised" after each stranger's touch,
        // not after three of them.
        request.attempts = 1
        request.reason = "Touch the reader"
        let value = try await client.stream("evaluations", request, handler: EventRelay(relay: event))
        do { return try value.decode(as: EvaluationResult.self).user } catch {
            throw AuthError(.readerFailure, "fpbridged sent an identification this kiosk cannot read")
        }
    }

    package func checkPasscode(user: String, passcode: String) async throws -> String {
        let answer: PasscodeCheckAnswer = try await client.post("passcode-check", PasscodeCheckRequest(user: user, passcode: passcode))
        return answer.user
    }

    private struct EventRelay: StreamHandler {
        let relay: @Sendable (AuthEvent) -> Void
        func event(_ event: AuthEvent) { relay(event) }
        func enrollment(_ progress: EnrollmentProgress) {}
        // identify never asks for a passcode; nil would cancel if it did.
        func passcode(reason: String, attemptsLeftBeforeLockout: Int) async -> Passcode? { nil }
    }
}

/// `POST /v1/passcode-check`'s body. Encoded straight into the request: the PIN is never
/// kept, logged or echoed by the kiosk.
struct PasscodeCheckRequest: Encodable, Sendable {
    var user: String
    var passcode: String
}

/// Its answer when the PIN is right.
struct PasscodeCheckAnswer: Decodable, Sendable {
    var ok: Bool
    var user: String
}
