@testable import FPStore
import FPCore
import Foundation
import Testing
import TestSupport

/// Issue 27 §2: the service's print cache never evicted, so every print it ever read stayed in
/// memory. It is bounded, and what it drops first is what no longer exists.
@Suite struct PrintFileCacheTests {
    @Test func theCacheStaysWithinItsBoundAndDropsGoneFilesFirst() throws {
        let directory = TemporaryDirectory()
        let cache = PrintFileCache(maximumEntries: 8)
        let record = PrintRecord(user: "alice", finger: .rightIndex, reader: ReaderIdentity(driver: "fake", deviceID: "0"),
                                 enrolledAt: Date(), storedOnDevice: false, print: PrintData(bytes: [1, 2, 3, 4]))
        func store(_ name: String) throws {
            let path = directory.file(name)
            try Data(name.utf8).write(to: URL(fileURLWithPath: path))
            cache.store(record, path: path, signature: try #require(PrintFileCache.Signature(path: path)))
        }
        // Six files, four of them then deleted (users who left).
        for index in 0..<6 { try store("old-\(index)") }
        for index in 0..<4 { try FileManager.default.removeItem(atPath: directory.file("old-\(index)")) }
        for index in 0..<100 {
            try store("new-\(index)")
            #expect(cache.count <= 8)
        }
        // The first sweep took the gone files and kept the live ones it could.
        #expect(cache.record(directory.file("old-0"), PrintFileCache.Signature(path: directory.file("new-99"))!) == nil)
        #expect(cache.count >= 1)
    }
}
