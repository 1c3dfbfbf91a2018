@testable import FPReaders
import FPCore
import FPMatching
import Foundation
import Testing

/// The host matcher's view of stored prints: decoded as libfprint stores them, refused as
/// libfprint's path refuses them, tables built once and only when a comparison needs them.
@Suite struct PreparedPrintsTests {
    static func print(_ base64: String) throws -> PrintData {
        PrintData(bytes: Array(try #require(Data(base64Encoded: base64, options: .ignoreUnknownCharacters))))
    }

    @Test func anNBISPrintDecodesIntoItsSamples() throws {
        let template = try NBISTemplate(Self.print(PrintFixtures.virtualImage))
        #expect(template.driver == "virtual_image")
        #expect(template.deviceID == "0")
        let samples = try #require(template.samples)
        #expect(samples.count == 5)
        for sample in samples {
            #expect(sample.count >= 10 && sample.count <= Bozorth3PairTable.maximumMinutiae)
            // As libfprint stores them: sorted by x, angles in -179...180.
            #expect(zip(sample, sample.dropFirst()).allSatisfy { $0.x <= $1.x })
            #expect(sample.allSatisfy { (-179...180).contains($0.theta) })
        }
        // A print compared with itself matches (every sample is an impression of the whorl).
        let print = Bozorth3Print(samples: samples)
        #expect(try Bozorth3.score(probe: print.samples[0], stored: print.samples[0]) >= Bozorth3.defaultThreshold)
    }

    @Test func aMatchOnChipPrintHasNoSamplesAndADamagedOneIsRefused() throws {
        #expect(try NBISTemplate(Self.print(PrintFixtures.virtualDevice)).samples == nil)
        var bytes = try Self.print(PrintFixtures.virtualImage).bytes
        bytes.removeLast(40)
        #expect(throws: ReaderError.self) { try NBISTemplate(PrintData(bytes: bytes)) }
        #expect(throws: ReaderError.self) { try NBISTemplate(PrintData(bytes: Array("FP3 not a print".utf8))) }
    }

    @Test func tablesAreBuiltOnceAndOnlyWhenNeeded() throws {
        let cache = PreparedPrints(maximumEntries: 10)
        let whorl = try Self.print(PrintFixtures.virtualImage)
        let chip = try Self.print(PrintFixtures.virtualDevice)
        let first = try cache.prepare([whorl, chip, whorl])
        #expect(first.count == 3)
        #expect(first[0] === first[2])
        #expect(cache.buildCount == 0)
        _ = first[0].print
        _ = first[2].print
        #expect(cache.buildCount == 1)
        // The next identification finds the same entry with its tables.
        let second = try cache.prepare([whorl])
        #expect(second[0] === first[0])
        _ = second[0].print
        #expect(cache.buildCount == 1)
    }

    /// Prints are found by their bytes, hashed as one block (PrintData.hash(into:)): the same
    /// bytes read again into another array find the same entry, and any byte changed is
    /// another print.
    @Test func aPrintIsFoundByItsBytesWhicheverArrayHoldsThem() throws {
        let cache = PreparedPrints(maximumEntries: 10)
        let whorl = try Self.print(PrintFixtures.virtualImage)
        let first = try cache.prepare([whorl])
        let reread = PrintData(bytes: whorl.bytes.map { $0 })
        #expect(try cache.prepare([reread])[0] === first[0])
        #expect(reread.hashValue == whorl.hashValue)
        for position in [0, whorl.bytes.count / 2, whorl.bytes.count - 1] {
            var bytes = whorl.bytes
            bytes[position] ^= 1
            #expect(PrintData(bytes: bytes) != whorl)
            #expect(PrintData(bytes: bytes).hashValue != whorl.hashValue)
        }
        // A byte more or less: the length is hashed too.
        #expect(PrintData(bytes: whorl.bytes + [0]).hashValue != whorl.hashValue)
        #expect(PrintData(bytes: []).hashValue == PrintData(bytes: []).hashValue)
    }

    @Test func aDamagedPrintInTheGalleryRefusesThePreparation() throws {
        let cache = PreparedPrints(maximumEntries: 10)
        let whorl = try Self.print(PrintFixtures.virtualImage)
        #expect(throws: ReaderError.self) { try cache.prepare([whorl, PrintData(bytes: Array("FP3xx".utf8))]) }
    }
}
