/// How far a cache of prints may grow in a long-running process, one rule for both: the
/// files read (FPStore's `PrintFileCache`) and the matcher's prepared tables (FPReaders'
/// `PreparedPrints`). Past ``maximum`` entries a cache drops some down to ``target``, so that a
/// service whose users come and go does not keep every print it ever saw, and does not trim
/// again at every new entry.
package struct CacheBound: Sendable, Equatable {
    /// The most entries kept.
    package let maximum: Int

    /// A bound of `maximum` entries (at least one).
    package init(maximum: Int) {
        self.maximum = max(1, maximum)
    }

    /// The bound of a service's caches of prints: 20,000 (a gallery of 10,000 users' prints
    /// with room to spare).
    package static let prints = CacheBound(maximum: 20_000)

    /// What a cache that went past ``maximum`` is trimmed down to: three quarters of it.
    package var target: Int { maximum * 3 / 4 }

    /// Whether a cache holding `count` entries must be trimmed.
    package func isExceeded(by count: Int) -> Bool { count > maximum }
}
