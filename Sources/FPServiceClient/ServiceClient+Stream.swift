import FPVocabulary
import FPLocalAPI
import FoundationEssentials
import NIOCore
import NIOHTTP1

extension ServiceClient {
    /// `POST path` for a streamed operation: hands each line to `handler`, answers passcode
    /// questions with what it returns, and gives the result's value (or throws its error).
    package func stream(_ path: String, _ body: some Encodable, controls: OperationControls = OperationControls(),
                        handler: some StreamHandler) async throws -> JSONValue {
        try await exchange.perform(.POST, LocalAPI.prefix + "/" + path, body: try encode(body),
                                   answerWithin: answerDeadline) { response in
            guard response.status == .ok else {
                throw Self.refusal(Data(try await response.collect(upTo: 1024 * 1024)), status: response.status)
            }
            var pending = Data()
            var operation: String?
            while let piece = try await response.nextPiece() {
                pending.append(contentsOf: piece.readableBytesView)
                while let end = pending.firstIndex(of: 0x0A) {
                    let line = pending[pending.startIndex..<end]
                    pending = Data(pending[pending.index(after: end)...])
                    guard let decoded = try? WireCoding.decoder().decode(StreamLine.self, from: line) else {
                        throw AuthError(.readerFailure, "the fpbridge service sent a line this client cannot read", cause: .serviceAnswer)
                    }
                    switch decoded.type {
                    case .started:
                        operation = decoded.operation
                        if let operation { controls.started(operation, client: self) }
                    case .event:
                        if let event = decoded.event?.event { handler.event(event) }
                    case .enrollment:
                        if let progress = decoded.enrollment.flatMap(EnrollmentProgress.init) { handler.enrollment(progress) }
                    case .passcodeRequested:
                        guard let operation else { continue }
                        let left = decoded.attemptsLeftBeforeLockout ?? 0
                        // The service sends the question once; the engine's event comes with it, as in process.
                        handler.event(.passcodeRequested(attemptsLeftBeforeLockout: left))
                        answer(operation, reason: decoded.reason ?? "", left: left, handler: handler)
                    case .result:
                        if decoded.ok == true { return decoded.value ?? .null }
                        throw decoded.error?.error ?? AuthError(.readerFailure, "the fpbridge service failed without saying why", cause: .serviceAnswer)
                    }
                }
            }
            throw AuthError(.systemCancel, "the fpbridge service ended the operation without an answer (was it stopped?)")
        }
    }

    /// Asks the front end on a task of its own, so that the stream keeps being read meanwhile.
    private func answer(_ operation: String, reason: String, left: Int, handler: some StreamHandler) {
        Task {
            let passcode = await handler.passcode(reason: reason, attemptsLeftBeforeLockout: left)
            let text = passcode?.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            let _: JSONValue? = try? await post("operations/\(operation)/passcode", PasscodeAnswer(passcode: text))
        }
    }
}
