import FPCore
import FPMatching
import FPReaders
import FoundationEssentials

/// A serialized libfprint print read from a file: its bytes' digest (the cache's key) and
/// its distinct samples' pair tables.
struct PrintFile: Sendable {
    let path: String
    let digest: UInt64
    /// The print's distinct samples, in its order (at most ``SampleScores/slots`` are scored).
    let samples: [Bozorth3PairTable]

    /// Reads and decodes `path`; a print that is not an NBIS print, or that libfprint's
    /// checks refuse, is an error naming the file.
    init(path: String) throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let template: NBISTemplate
        do {
            template = try NBISTemplate(PrintData(bytes: bytes))
        } catch {
            throw ToolError("\(path): not a readable libfprint print (\(error))")
        }
        guard let minutiae = template.samples, !minutiae.isEmpty else {
            throw ToolError("\(path): not an NBIS print (no minutiae to compare)")
        }
        self.path = path
        digest = Digest.fnv1a(bytes)
        samples = Bozorth3Print(samples: minutiae).distinctSamples
    }

    /// Reads many files on `jobs` threads, in the given order.
    static func readAll(_ paths: [String], jobs: Int) throws -> [PrintFile] {
        let results = try Workers.map(paths.count, jobs: jobs) { index in try PrintFile(path: paths[index]) }
        return results
    }
}

/// 64-bit FNV-1a: a file's cache key (not a security digest: the cache is the benchmark's own).
enum Digest {
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// An error that ends the tool with its message.
struct ToolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
