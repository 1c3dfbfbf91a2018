/// Fixed-size working arrays for the matcher's hot loops, as raw pointers: an array written
/// inside a mutating method pays a uniqueness check and a bounds check at every store, a
/// third of the scoring's time when measured. Every size is bounded by bozorth3's own limits
/// (19,999 correspondences, 4,000 queue entries, 2,000 clusters, 200 minutiae), so each
/// array is allocated once, at its limit, and lives as long as its arena.
///
/// The pointers are shared by copies of the value that holds the arena; the holders keep
/// that from mattering (``Bozorth3Matcher`` replaces a shared scorer before it writes).
final class Bozorth3Arena {
    private var blocks: [UnsafeMutableRawPointer] = []

    init() {}

    /// `count` elements of a trivial type, each set to `value`.
    func make<Element: BitwiseCopyable>(_ count: Int, _ value: Element) -> UnsafeMutablePointer<Element> {
        let pointer = UnsafeMutablePointer<Element>.allocate(capacity: max(1, count))
        pointer.initialize(repeating: value, count: max(1, count))
        blocks.append(UnsafeMutableRawPointer(pointer))
        return pointer
    }

    deinit {
        for block in blocks { block.deallocate() }
    }
}
