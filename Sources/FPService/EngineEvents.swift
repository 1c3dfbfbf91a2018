import FPAuthentication

/// An engine call with the context's events handed on as they happen: the socket's streamed
/// lines and the fprintd face's signals both go through here.
enum EngineEvents {
    /// Runs `body`; every event the context emits meanwhile reaches `handle`, all of them before
    /// the result (or the error) is returned.
    static func forwarding<T: Sendable>(of context: AuthenticationContext, to handle: @escaping @Sendable (AuthEvent) async -> Void,
                                        _ body: () async throws -> T) async throws -> T {
        let events = Task {
            for await event in context.events { await handle(event) }
        }
        do {
            let result = try await body()
            context.invalidate()
            await events.value
            return result
        } catch {
            context.invalidate()
            await events.value
            throw error
        }
    }
}
