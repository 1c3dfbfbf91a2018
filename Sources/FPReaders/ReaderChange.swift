import FPCore

/// A reader appearing or going away, as `ReaderSelection.watch()` reports it.
public enum ReaderChange: Sendable, Hashable {
    /// The reader was there when watching began.
    case present(ReaderInfo)
    /// The reader was plugged in.
    case added(ReaderInfo)
    /// The reader was unplugged.
    case removed(ReaderIdentity)
    /// What the reader says of itself changed while plugged in (its number of enrollment
    /// stages, its scan type), as its driver announced it.
    case changed(ReaderInfo)
}
