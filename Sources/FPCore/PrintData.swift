/// An enrolled print as the reader serialised it: opaque bytes that only the
/// reader (driver) that made them can interpret.
public struct PrintData: Sendable, Hashable, Codable {
    /// The serialised bytes (libfprint's `fp_print_serialize` output, or the
    /// fake reader's own format).
    public let bytes: [UInt8]

    /// Print data with these bytes, as the reader serialised them.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}
