import FPCore
import FPMatching
import Synchronization

/// Prints decoded and turned into bozorth3's pair tables, kept for the life of the process
/// and looked up by their bytes.
///
/// A table depends on the print alone, so it is built the first time a print takes part in
/// an identification and reused by every later one: fpbridged keeps them across requests,
/// the command line for its one call. Looking up by content means a print that changed on
/// disk is a new entry and a deleted one is simply never asked for again.
final class PreparedPrints: Sendable {
    /// A print as the host matcher sees it: decoded at once (so a damaged print is refused
    /// before the scan), its tables built the first time a comparison needs them.
    final class Entry: Sendable {
        let driver: String
        let deviceID: String
        /// nil: not an NBIS print (libfprint has to match it).
        let samples: [[NBISMinutia]]?
        private let tables = Locked<Bozorth3Print?>(nil)
        /// The cache's count of tables built (not the cache itself: no cycle).
        private let built: BuildCount

        init(_ template: NBISTemplate, built: BuildCount) {
            driver = template.driver
            deviceID = template.deviceID
            samples = template.samples
            self.built = built
        }

        /// The print's tables, built on first use; on an NBIS entry only.
        var print: Bozorth3Print {
            tables.withLock { tables in
                if let tables { return tables }
                let print = Bozorth3Print(samples: samples ?? [])
                built.value.add(1, ordering: .relaxed)
                tables = print
                return print
            }
        }
    }

    /// The one cache of the process.
    static let shared = PreparedPrints(bound: .prints)

    private let entries = Locked<[PrintData: Entry]>([:])
    private let built = BuildCount()
    /// How many prints are kept (``CacheBound``); past it the cache keeps the gallery being
    /// prepared and drops others down to the bound's target.
    let bound: CacheBound

    init(bound: CacheBound) {
        self.bound = bound
    }

    /// A cache of at most `maximumEntries` prints (tests).
    init(maximumEntries: Int) {
        bound = CacheBound(maximum: maximumEntries)
    }

    /// How many prints had their tables built (tests: a second identification builds none,
    /// and one that matches the first print builds few).
    var buildCount: Int { built.value.load(ordering: .relaxed) }

    /// The entries of `gallery`, in its order, building those not kept yet.
    ///
    /// - Throws: ``ReaderError/invalidPrint(_:)`` for a damaged print, as libfprint's path
    ///   refuses it, before any finger is asked for.
    func prepare(_ gallery: [PrintData]) throws(ReaderError) -> [Entry] {
        var found = entries.withLock { entries in gallery.map { entries[$0] } }
        var fresh: [PrintData: Entry] = [:]
        for index in found.indices where found[index] == nil {
            let data = gallery[index]
            if let entry = fresh[data] {
                found[index] = entry
                continue
            }
            let entry = Entry(try NBISTemplate(data), built: built)
            fresh[data] = entry
            found[index] = entry
        }
        if !fresh.isEmpty {
            let keep = Set(gallery)
            entries.withLock { entries in
                entries.merge(fresh) { _, new in new }
                guard bound.isExceeded(by: entries.count) else { return }
                for key in entries.keys where !keep.contains(key) && entries.count > bound.target {
                    entries[key] = nil
                }
            }
        }
        return found.map { $0! }
    }
}

/// How many prints had their tables built, shared by a cache and its entries.
final class BuildCount: Sendable {
    let value = Atomic<Int>(0)
}
