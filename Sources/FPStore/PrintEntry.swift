/// One print file as found on disk: usable, or damaged and left as it is.
public enum PrintEntry: Sendable {
    /// A print file that could be read.
    case record(PrintRecord)
    /// The file could not be used; the error names its path and why.
    case damaged(StoreError)

    /// The record, nil for a damaged file.
    public var record: PrintRecord? {
        if case .record(let record) = self { record } else { nil }
    }
}
