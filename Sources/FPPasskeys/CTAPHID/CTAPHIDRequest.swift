/// A whole message a host sent that the transport cannot answer itself (CBOR, MSG): the
/// authenticator's to answer, through ``CTAPHIDTransport/respond(to:command:payload:)``.
package struct CTAPHIDRequest: Equatable, Sendable {
    /// Which request this is, so that an answer to one the host has since abandoned is dropped.
    package let id: UInt64
    /// The channel to answer on.
    package let channel: UInt32
    /// The command (``CTAPHIDCommand/cbor`` or ``CTAPHIDCommand/msg``).
    package let command: CTAPHIDCommand
    /// The message's data.
    package let payload: [UInt8]
}

/// What one report, or the passing of time, makes the transport do.
package enum CTAPHIDEvent: Equatable, Sendable {
    /// Reports to send to the host now, in order.
    case send([[UInt8]])
    /// A request for the authenticator; the channel is busy until it is answered.
    case request(CTAPHIDRequest)
    /// The host abandoned this request (CANCEL, or INIT on its channel): stop waiting for the
    /// finger. An answer to it is no longer sent.
    case cancelled(CTAPHIDRequest)
    /// The report was dropped without an answer, for this reason (the spec answers some
    /// packets with silence: spurious continuations, reports of the wrong size).
    case ignored(String)
}
