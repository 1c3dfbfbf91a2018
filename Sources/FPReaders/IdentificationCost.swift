/// What the comparisons of one identification cost, for the person waiting and for benchmarks.
public struct IdentificationCost: Sendable, Hashable {
    /// Prints compared with the scan.
    public let compared: Int
    /// Prints in the gallery.
    public let galleryCount: Int
    /// Time spent comparing, from the scan's minutiae to the decision, when fpbridge compared
    /// (libfprint's own identify does not say where its time went).
    public let matchingSeconds: Double?

    /// A cost as the reader measured it.
    public init(compared: Int, galleryCount: Int, matchingSeconds: Double?) {
        self.compared = compared
        self.galleryCount = galleryCount
        self.matchingSeconds = matchingSeconds
    }
}
