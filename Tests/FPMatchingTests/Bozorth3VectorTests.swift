@testable import FPMatching
import Testing

/// The test vectors of docs/bozorth3.md §11.4, scored there with libfprint's own bozorth3.
@Suite struct Bozorth3VectorTests {
    /// The spec's generator G(seed, n): a linear congruential sequence, angles as libfprint
    /// stores mindtct's 32 directions, sorted by x then y (a stable sort).
    static func generated(seed: UInt64, count: Int, width: UInt64 = 256, height: UInt64 = 360) -> [NBISMinutia] {
        var state = seed
        func next() -> UInt64 {
            state = (state &* 1_103_515_245 &+ 12_345) % (1 << 31)
            return state >> 8
        }
        var points: [NBISMinutia] = []
        for _ in 0..<count {
            let x = Int32(next() % width), y = Int32(next() % height), code = Int32(next() % 32)
            var theta = (270 - code * 1125 / 100) % 360
            if theta < 0 { theta += 360 }
            if theta > 180 { theta -= 360 }
            points.append(NBISMinutia(x: x, y: y, theta: theta))
        }
        return sortedAsStored(points)
    }

    static func sortedAsStored(_ points: [NBISMinutia]) -> [NBISMinutia] {
        points.enumerated().sorted { l, r in
            (l.element.x, l.element.y, l.offset) < (r.element.x, r.element.y, r.offset)
        }.map(\.element)
    }

    static func shifted(_ points: [NBISMinutia], dx: Int32, dy: Int32) -> [NBISMinutia] {
        sortedAsStored(points.map { NBISMinutia(x: $0.x + dx, y: $0.y + dy, theta: $0.theta) })
    }

    /// The score, nil when the comparison exceeded its steps (which fails every expectation here).
    static func score(_ probe: [NBISMinutia], _ stored: [NBISMinutia]) -> Int? {
        try? Bozorth3.score(probe: Bozorth3PairTable(minutiae: probe), stored: Bozorth3PairTable(minutiae: stored))
    }

    let a = generated(seed: 1, count: 40)

    @Test func theGeneratorIsTheSpecsOne() {
        #expect(a.prefix(5).map { [$0.x, $0.y, $0.theta] } == [[5, 178, 113], [6, 122, -22], [13, 181, 0], [21, 225, -45], [23, 345, 158]])
    }

    @Test func aSamplesTableIsSortedAndCutAsBozorth3Does() {
        let table = Bozorth3PairTable(minutiae: a)
        #expect(table.usedRows == 252)
        let firstRows = (0..<4).map {
            [table.squaredLength[$0], table.smallerAngle($0), table.largerAngle($0), Int32(table.first[$0]), Int32(table.second[$0]), table.direction($0)]
        }
        #expect(firstRows == [[17, -104, -48, 7, 8, -14], [73, -159, -92, 1, 3, 421], [130, 18, 165, 36, 38, -15], [170, 103, 136, 29, 30, 58]])
        let list = Bozorth3Correspondences(probe: table, stored: table)
        #expect(list.count == 322)
        #expect([list.rotation[0], list.probeFirst[0], list.probeSecond[0], list.storedFirst[0], list.storedSecond[0]] == [0, 1, 2, 1, 2])
    }

    @Test func scoresOfTheSpecsVectors() {
        let b = Self.generated(seed: 2, count: 40)
        #expect(Self.score(a, a) == 251)
        #expect(Self.score(a, b) == 0)
        #expect(Self.score(b, a) == 0)
        #expect(Self.score(a, Self.shifted(a, dx: 7, dy: -5)) == 251)
        let h = Array(Self.shifted(a, dx: 3, dy: -2).dropLast(3))
        #expect(Self.score(a, h) == 223)
    }

    @Test func fewerThanTenMinutiaeScoreZeroAndTheRolesDiffer() {
        #expect(Self.score(Array(a.prefix(9)), a) == 0)
        #expect(Self.score(Array(a.prefix(10)), a) == 28)
        #expect(Self.score(Array(a.prefix(11)), a) == 33)
        #expect(Self.score(a, Array(a.prefix(10))) == 29)
        #expect(Self.score(a, Array(a.prefix(11))) == 34)
    }

    @Test func fullSamplesAndTheCorrespondenceCap() {
        let e = Self.generated(seed: 5, count: 200), f = Self.generated(seed: 6, count: 200)
        #expect(Self.score(e, e) == 2913)
        #expect(Self.score(e, f) == 26)
        let grid = (0..<200).map { (i: Int32) -> NBISMinutia in
            let column: Int32 = i / 10, row: Int32 = i % 10
            return NBISMinutia(x: 10 + 12 * column, y: 10 + 12 * row, theta: 0)
        }
        let table = Bozorth3PairTable(minutiae: grid)
        #expect(table.usedRows == 7635)
        #expect(Bozorth3Correspondences(probe: table, stored: table).count == 19_999)
        #expect(Self.score(grid, grid) == 72)
    }

    @Test func emptyAndOversizedSamples() throws {
        let empty = Bozorth3PairTable(minutiae: [])
        #expect(empty.usedRows == 0)
        #expect(try Bozorth3.score(probe: empty, stored: empty) == 0)
        #expect(Self.score([NBISMinutia(x: 1, y: 2, theta: 3)], a) == 0)
        // libfprint refuses to load a sample of more than 200; the table keeps the first 200.
        let many = Self.generated(seed: 9, count: 230)
        #expect(Bozorth3PairTable(minutiae: many).minutiae == Array(many.prefix(200)))
    }

    /// Enough minutiae to be scored, none within 125 pixels of another: an empty table that
    /// pairing still reads (it once read a buffer never allocated). Nothing pairs: 0 both ways.
    @Test func aSampleWithAnEmptyTableScoresZero() {
        let sparse = (0..<12).map { (index: Int) -> NBISMinutia in
            let i = Int32(index)
            return NBISMinutia(x: i * 130, y: (i % 2) * 140, theta: i * 30 - 150)
        }
        #expect(Bozorth3PairTable(minutiae: sparse).usedRows == 0)
        #expect(Self.score(sparse, a) == 0)
        #expect(Self.score(a, sparse) == 0)
        #expect(Self.score(sparse, sparse) == 0)
    }
}
