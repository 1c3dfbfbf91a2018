/// The reader's own error behind an ``AuthError``, as libfprint names its device errors.
///
/// Several of them share one ``AuthErrorCode`` (a full sensor and a protocol error are both
/// ``AuthErrorCode/readerFailure``); a front end that must name them as another program does
/// (fpbridged's fprintd face) reads this instead of the message.
public enum ReaderFault: Sendable, Hashable, CaseIterable {
    /// Any other failure of the reader or its driver.
    case general
    /// The reader cannot do the operation.
    case notSupported
    /// The reader was not open.
    case notOpen
    /// The reader was open already.
    case alreadyOpen
    /// The reader is serving another operation.
    case busy
    /// The reader answered with something its driver did not expect.
    case protocolError
    /// The reader reported the data it was given or holds as invalid.
    case dataInvalid
    /// The print asked for is not on the sensor.
    case dataNotFound
    /// The sensor's storage is full.
    case dataFull
    /// The sensor holds this finger already.
    case dataDuplicate
    /// The reader went away.
    case removed
    /// The reader is too hot to scan.
    case tooHot
}
