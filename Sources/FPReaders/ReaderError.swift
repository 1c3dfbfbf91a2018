/// Why a reader operation failed. Retry requests are not errors: they come
/// back as ``MatchOutcome/retry(_:)`` or ``EnrollEvent/retry(_:)``.
public enum ReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No reader matched the selection.
    case noReader(String)
    /// The reader exists but cannot be opened (usually a USB permission problem).
    case permissionDenied(String)
    /// The reader does not support the operation.
    case notSupported(String)
    /// An operation came before `open()`.
    case notOpen
    /// `open()` on a reader already open through this handle.
    case alreadyOpen
    /// The reader is serving another operation.
    case busy
    /// The reader went away (unplugged) during or before the operation.
    case removed
    /// The reader overheated from continuous scanning and refuses to scan until it cools down,
    /// in about `usableInSeconds` of rest (nil when the reader cannot tell: the fake one).
    case tooHot(usableInSeconds: Double?)
    /// The operation was cancelled (task cancellation or the user cancelling an enrollment).
    case cancelled
    /// The reader gave up waiting.
    case timedOut
    /// A stored print could not be read: corrupt, truncated or from another reader.
    case invalidPrint(String)
    /// The reader itself reported its data as invalid (a reader fault, not our stored bytes).
    case dataInvalid(String)
    /// The print does not exist on the sensor.
    case printNotFound
    /// The sensor's storage is full.
    case storageFull
    /// The finger is already enrolled on the sensor.
    case duplicatePrint
    /// The reader answered with something the driver did not expect.
    case protocolError(String)
    /// Any other reader failure, with the driver's message.
    case general(String)
    /// The fake reader's script has no more events for the running operation.
    case scriptEnded(operation: String, line: Int)
    /// The `--reader` value names no kind of reader.
    case invalidSelection(String)
    /// The fake reader's script could not be parsed.
    case invalidScript(String)

    /// What went wrong, for people.
    public var description: String {
        switch self {
        case .noReader(let why): why
        case .permissionDenied(let why): "cannot open the reader: \(why)"
        case .notSupported(let what): "the reader does not support \(what)"
        case .notOpen: "the reader is not open"
        case .alreadyOpen: "the reader is already open"
        case .busy: "the reader is busy with another operation"
        case .removed: "the reader was disconnected"
        case .tooHot(let seconds?):
            "the reader is too hot from continuous scanning; it scans again after \(SecondsText.words(max(1, seconds.rounded(.up)))) of rest"
        case .tooHot(nil): "the reader is too hot from continuous scanning; let it cool down for a few minutes"
        case .cancelled: "the operation was cancelled"
        case .timedOut: "the reader timed out"
        case .invalidPrint(let why): "invalid print: \(why)"
        case .dataInvalid(let why): "the reader reported invalid data: \(why)"
        case .printNotFound: "the print is not stored on the reader"
        case .storageFull: "the reader's storage is full"
        case .duplicatePrint: "this finger is already enrolled on the reader"
        case .protocolError(let why): "reader protocol error: \(why)"
        case .general(let why): "reader error: \(why)"
        case .scriptEnded(let operation, let line):
            "the fake reader's script ran out of events during \(operation) (after line \(line)); add a line such as 'scan ID'"
        case .invalidSelection(let why): why
        case .invalidScript(let why): "invalid fake reader script: \(why)"
        }
    }
}

extension ReaderError {
    /// libfprint's device error this is, carried on in `AuthError.readerFault` (FPVocabulary); nil for what
    /// is no device error (no reader, a cancel, a timeout, our own stored bytes, the fake
    /// reader's script).
    public var fault: ReaderFault? {
        switch self {
        case .notSupported: .notSupported
        case .notOpen: .notOpen
        case .alreadyOpen: .alreadyOpen
        case .busy: .busy
        case .removed: .removed
        case .tooHot: .tooHot
        case .dataInvalid: .dataInvalid
        case .printNotFound: .dataNotFound
        case .storageFull: .dataFull
        case .duplicatePrint: .dataDuplicate
        case .protocolError: .protocolError
        case .general: .general
        case .noReader, .permissionDenied, .cancelled, .timedOut, .invalidPrint, .scriptEnded, .invalidSelection, .invalidScript: nil
        }
    }
}
