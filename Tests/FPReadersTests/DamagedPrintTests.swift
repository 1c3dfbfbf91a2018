@testable import FPReaders
import CLibfprint
import FPCore
import Foundation
import Testing

/// A damaged serialised print must be refused with an error, never reach
/// `fp_print_deserialize` in a form that aborts the process (libfprint.md, gotcha 8).
/// Before the check, about one mutation in six of a virtual_device print killed the
/// test process with SIGTRAP.
@Suite struct DamagedPrintTests {
    /// Deterministic mutations: flipped, zeroed and saturated bytes, truncations,
    /// insertions, deletions and duplicated runs.
    static func mutations(of bytes: [UInt8], count: Int, seed: UInt64) -> [[UInt8]] {
        var state = seed
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        return (0..<count).map { index in
            var mutated = bytes
            let at = 3 + next() % (bytes.count - 3)
            switch index % 6 {
            case 0: mutated[at] ^= UInt8(1 << (next() % 8))
            case 1: mutated[at] = [0, 0xFF, 0x7F, 0x80][next() % 4]
            case 2: mutated = Array(mutated.prefix(at))
            case 3: mutated.insert(UInt8(next() % 256), at: at)
            case 4: mutated.remove(at: at)
            default:
                let length = min(1 + next() % 16, mutated.count - at)
                mutated.insert(contentsOf: mutated[at..<(at + length)], at: at)
            }
            return mutated
        }
    }

    @Test(arguments: [("virtual_device", PrintFixtures.virtualDevice), ("virtual_image", PrintFixtures.virtualImage)])
    func aDamagedPrintIsAnErrorNeverACrash(reader: String, base64: String) async throws {
        // libfprint reads its environment once per process: the storage reader's first.
        _ = LibfprintStorageTests.socket
        let original = try #require(Data(base64Encoded: base64, options: .ignoreUnknownCharacters))
        // The intact print decodes.
        let intact = PrintData(bytes: Array(original))
        #expect(try await Self.decodes(intact))
        var refused = 0, decoded = 0
        for mutated in Self.mutations(of: Array(original), count: 300, seed: reader == "virtual_device" ? 1 : 8) {
            let print = PrintData(bytes: mutated)
            if try await Self.decodes(print) { decoded += 1 } else { refused += 1 }
        }
        #expect(refused > 0, "\(reader): \(refused) refused, \(decoded) decoded")
        #expect(throws: ReaderError.self) { try LibfprintPrint.check(PrintData(bytes: Array("XYZ1234".utf8))) }
    }

    /// True when libfprint decoded the bytes, false when they were refused.
    @GLibLoop
    private static func decodes(_ print: PrintData) throws -> Bool {
        do {
            let decoded = try LibfprintPrint.decode(print)
            g_object_unref(UnsafeMutableRawPointer(decoded))
            return true
        } catch is ReaderError {
            return false
        }
    }
}
