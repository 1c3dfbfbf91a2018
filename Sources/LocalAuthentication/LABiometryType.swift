/// The kind of biometry a context can use, with all of Apple's cases and raw values.
///
/// A fingerprint reader is always ``touchID``. ``faceID`` and ``opticID`` are
/// never reported on Linux; they exist so that code written for iOS, which
/// switches over every case, compiles unchanged.
public enum LABiometryType: Int, Sendable, Hashable, CaseIterable {
    /// No biometry is available (no reader, or ``LAContext/canEvaluatePolicy(_:error:)`` not called yet).
    case none = 0
    /// A fingerprint reader.
    case touchID = 1
    /// Face recognition; never reported on Linux.
    case faceID = 2
    /// Iris recognition; never reported on Linux.
    case opticID = 4

    /// The old name of ``none``.
    @available(*, deprecated, renamed: "none")
    public static var LABiometryNone: LABiometryType { .none }
}
