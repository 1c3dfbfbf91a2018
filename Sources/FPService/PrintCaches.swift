import FPAuthentication
import FPVocabulary

/// One cache of decoded print files per state directory the service serves, so that an
/// identification reads and checks each print file once, not once per request.
final class PrintCaches: Sendable {
    private let caches = Locked<[String: PrintFileCache]>([:])

    /// Print file reads saved by every cache so far.
    var savedReads: Int { caches.withLock { $0.values.reduce(0) { $0 + $1.savedReads } } }

    func cache(for directory: StateDirectory) -> PrintFileCache {
        caches.withLock { caches in
            if let known = caches[directory.path] { return known }
            let cache = PrintFileCache()
            caches[directory.path] = cache
            return cache
        }
    }
}
