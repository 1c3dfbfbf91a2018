/// One CTAP2 answer: the status byte, the CBOR map that follows a success, and, for the log
/// and the tests, why a request was refused (the host sees only the status).
package struct CTAP2Answer: Sendable, Equatable {
    /// The status byte.
    package let status: CTAP2Status
    /// The answer's map on success (none for some commands).
    package let body: CBORValue?
    /// Why the request was refused; nil on success.
    package let reason: String?

    /// A success carrying `body`.
    package static func ok(_ body: CBORValue?) -> CTAP2Answer {
        CTAP2Answer(status: .ok, body: body, reason: nil)
    }

    /// A refusal.
    package init(_ error: CTAP2Error) {
        self.init(status: error.status, body: nil, reason: error.reason)
    }

    private init(status: CTAP2Status, body: CBORValue?, reason: String?) {
        self.status = status
        self.body = body
        self.reason = reason
    }

    /// The bytes of a CTAPHID CBOR answer: the status, then the canonical CBOR of the body.
    package var bytes: [UInt8] {
        [status.rawValue] + (body.map(CBOREncoder.encode) ?? [])
    }
}
