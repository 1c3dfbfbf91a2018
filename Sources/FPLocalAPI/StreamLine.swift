import FPVocabulary

/// One line of a streamed operation (evaluation, enrollment, passcode change, signature).
///
/// In order: `started` with the operation's id (for `/v1/operations/ID/{fallback,cancel,passcode}`),
/// then `event`, `enrollment` and `passcodeRequested` lines as they happen, then exactly one
/// `result`: `ok` with a `value`, or not `ok` with an `error`. A stream that ends without a
/// result was cut (the service stopped).
package struct StreamLine: Codable, Sendable {
    package enum Kind: String, Codable, Sendable {
        case started, event, enrollment, passcodeRequested, result
    }

    package var type: Kind
    package var operation: String?
    package var event: WireEvent?
    package var enrollment: WireEnrollment?
    package var reason: String?
    package var attemptsLeftBeforeLockout: Int?
    package var ok: Bool?
    package var value: JSONValue?
    package var error: WireError?

    package init(type: Kind) { self.type = type }

    package static func started(_ id: String) -> StreamLine {
        var line = StreamLine(type: .started)
        line.operation = id
        return line
    }

    package static func event(_ event: AuthEvent) -> StreamLine {
        var line = StreamLine(type: .event)
        line.event = WireEvent(event)
        return line
    }

    package static func passcodeRequested(reason: String, attemptsLeftBeforeLockout: Int) -> StreamLine {
        var line = StreamLine(type: .passcodeRequested)
        line.reason = reason
        line.attemptsLeftBeforeLockout = attemptsLeftBeforeLockout
        return line
    }

    package static func success(_ value: JSONValue) -> StreamLine {
        var line = StreamLine(type: .result)
        line.ok = true
        line.value = value
        return line
    }

    package static func failure(_ error: AuthError) -> StreamLine {
        var line = StreamLine(type: .result)
        line.ok = false
        line.error = WireError(error)
        return line
    }
}
