import FoundationEssentials
import Glibc

/// Scores already computed, kept on disk so that a later run (a larger gallery, another
/// rule, an interrupted run) computes only what is new. One file per probe, named by its
/// digest, of fixed-size records appended as rows finish: a print's digest (8 bytes) and
/// its ``SampleScores/slots`` slot values (2 bytes each), little-endian. A later record for
/// the same print supersedes an earlier one (it holds more computed slots).
///
/// Keyed by content: a probe or a print that changed is a new key. The directory's name
/// carries the matcher's version, so a changed matcher starts a new cache.
struct ScoreCache: Sendable {
    let directory: String
    static let recordSize = 8 + 2 * SampleScores.slots

    init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    private func path(_ probe: UInt64) -> String {
        directory + "/" + String(probe, radix: 16) + ".rows"
    }

    /// Every record kept for `probe`: print digest → slots.
    func load(probe: UInt64) -> [UInt64: [Int16]] {
        guard let data = FileManager.default.contents(atPath: path(probe)) else { return [:] }
        let bytes = [UInt8](data)
        var records: [UInt64: [Int16]] = [:]
        var offset = 0
        while offset + Self.recordSize <= bytes.count {
            var digest: UInt64 = 0
            for i in 0..<8 { digest |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
            records[digest] = (0..<SampleScores.slots).map { slot in
                let low = UInt16(bytes[offset + 8 + 2 * slot]), high = UInt16(bytes[offset + 9 + 2 * slot])
                return Int16(bitPattern: low | high << 8)
            }
            offset += Self.recordSize
        }
        return records
    }

    /// Appends records for `probe` in one write (a torn last record is ignored on load).
    func append(probe: UInt64, _ records: [(digest: UInt64, slots: [Int16])]) throws {
        guard !records.isEmpty else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * Self.recordSize)
        for record in records {
            for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: record.digest >> (8 * UInt64(i)))) }
            for value in record.slots {
                let bits = UInt16(bitPattern: value)
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
            }
        }
        let descriptor = open(path(probe), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ToolError("cannot write \(path(probe))") }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw ToolError("short write to \(path(probe))") }
    }
}
