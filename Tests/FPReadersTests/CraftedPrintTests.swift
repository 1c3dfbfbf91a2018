@testable import FPReaders
import FPCore
import FPMatching
import Foundation
import Testing
import TestSupport

/// Issue 36, finding 4: a stored print holding what libfprint never makes (angles outside
/// -179...180, more samples than any reader enrolls, coordinates off any image) held the
/// reader for seconds to hours per identification. It is now refused when it is loaded, by
/// the same check that refuses a damaged print (so the file is named: CheckedPrints).
@Suite struct CraftedPrintTests {
    static let whorl = PrintData(bytes: Array(Data(base64Encoded: PrintFixtures.virtualImage, options: .ignoreUnknownCharacters)!))
    static let samples = try! NBISTemplate(whorl).samples!.map { $0.map { (x: $0.x, y: $0.y, theta: $0.theta) } }

    static func crafted(_ samples: [[CraftedPrint.Minutia]]) throws -> PrintData {
        PrintData(bytes: try #require(CraftedPrint.replacingSamples(of: whorl.bytes, with: samples)))
    }

    /// Why the check refuses `print`, nil when it accepts it.
    static func refusal(_ print: PrintData) -> String? {
        do {
            try LibfprintPrint.check(print)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func whatLibfprintMakesStillPasses() throws {
        #expect(Self.refusal(Self.whorl) == nil)
        // The crafting itself changes nothing: the same samples give an accepted print.
        #expect(Self.refusal(try Self.crafted(Self.samples)) == nil)
        // elanspi enrolls 7 samples, the most of any image reader.
        #expect(Self.refusal(try Self.crafted(Array(repeating: Self.samples[0], count: 7))) == nil)
        let edges = [(x: Int32(0), y: Int32(0), theta: Int32(-179)), (x: 16_383, y: 16_383, theta: 180)]
        #expect(Self.refusal(try Self.crafted([Array(Self.samples[0].prefix(20)) + edges])) == nil)
    }

    @Test(arguments: [181, -180, 1_000, Int32.min])
    func anAngleLibfprintNeverStoresIsRefused(angle: Int32) throws {
        var sample = Self.samples[0]
        sample[3].theta = angle
        let refusal = try #require(Self.refusal(try Self.crafted([sample])))
        #expect(refusal.contains("angle is \(angle) degrees"), "\(refusal)")
        // The host matcher's preparation refuses it too, before any finger is asked for.
        #expect(throws: ReaderError.self) { try PreparedPrints(maximumEntries: 4).prepare([Self.whorl, try Self.crafted([sample])]) }
    }

    @Test func moreSamplesThanAnyReaderEnrollsAreRefused() throws {
        let refusal = try #require(Self.refusal(try Self.crafted(Array(repeating: Self.samples[0], count: 8))))
        #expect(refusal.contains("8 samples"), "\(refusal)")
        #expect(Self.refusal(try Self.crafted(Array(repeating: Self.samples[1], count: 1_700))) != nil)
    }

    /// Each case is (x, y) of the first minutia.
    @Test(arguments: [[Int32(-1), 5], [5, -1], [16_384, 5], [5, Int32.max]])
    func aCoordinateOffAnyImageIsRefused(point: [Int32]) throws {
        var sample = Self.samples[0]
        sample[0] = (x: point[0], y: point[1], theta: 0)
        let refusal = try #require(Self.refusal(try Self.crafted([sample])))
        #expect(refusal.contains("coordinate"), "\(refusal)")
    }
}
