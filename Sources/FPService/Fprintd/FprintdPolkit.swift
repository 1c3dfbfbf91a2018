import FPReaders

/// polkit's answer for a caller, asked over the bus without blocking the loop: the caller's bus
/// name is the subject, as fprintd asks, and interaction is allowed (a desktop agent may ask
/// for the password). Anything but "authorized" is a refusal: an unreachable polkit too.
struct FprintdPolkit: Sendable {
    let bus: BusExport

    /// How long an answer may take, in ms: long enough for a password dialog, bounded so that a
    /// dialog left open does not hold the call (and its client's claim) for ever.
    static let dialogTimeout: Int32 = 120_000

    /// Nil when any one of `actions` is authorized for `sender`; the refusal otherwise.
    func refusal(_ sender: String, _ actions: [FprintdRules.Action]) async -> BusError? {
        var last = BusError(.permissionDenied, "Not Authorized: no action")
        for action in actions {
            let subject = BusValue.tuple([.string("system-bus-name"), .properties([("name", .string(sender))])])
            let arguments: [BusValue] = [subject, .string(action.rawValue), .dictionary(key: "s", value: "s", []),
                                         .uint32(1), .string("")]
            do {
                let answer = try await bus.call("org.freedesktop.PolicyKit1", path: "/org/freedesktop/PolicyKit1/Authority",
                                                interface: "org.freedesktop.PolicyKit1.Authority", method: "CheckAuthorization",
                                                arguments, timeout: Self.dialogTimeout)
                if case .tuple(let result)? = answer.first, case .bool(true)? = result.first { return nil }
                last = BusError(.permissionDenied, "Not Authorized: \(action.rawValue)")
            } catch {
                last = BusError(.permissionDenied, "Not Authorized: \(action.rawValue) (polkit: \(error.message))")
            }
        }
        return last
    }
}
