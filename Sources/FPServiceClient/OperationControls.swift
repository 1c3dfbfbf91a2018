import FPVocabulary
import FPLocalAPI

/// The buttons of a streamed operation, pressed from the client: they reach the service
/// once it has said the operation's id, and are kept until then.
package final class OperationControls: Sendable {
    private struct State {
        var id: String?
        var client: ServiceClient?
        var pending: [String] = []
    }

    private let state = Locked(State())

    package init() {}

    /// The fallback button (ignored by the service unless it is offered).
    package func pressFallback() { press("fallback") }

    /// The cancel button: the operation ends with `userCancel`.
    package func pressCancel() { press("cancel") }

    /// The app ends the operation (its context was invalidated): `appCancel`.
    package func invalidate() { press("invalidate") }

    func started(_ id: String, client: ServiceClient) {
        let pending = state.withLock { state in
            state.id = id
            state.client = client
            defer { state.pending = [] }
            return state.pending
        }
        for button in pending { send(button, id: id, client: client) }
    }

    private func press(_ button: String) {
        let target = state.withLock { state -> (String, ServiceClient)? in
            guard let id = state.id, let client = state.client else {
                state.pending.append(button)
                return nil
            }
            return (id, client)
        }
        if let (id, client) = target { send(button, id: id, client: client) }
    }

    private func send(_ button: String, id: String, client: ServiceClient) {
        Task {
            let _: JSONValue? = try? await client.post("operations/\(id)/\(button)", [String: String]())
        }
    }
}
