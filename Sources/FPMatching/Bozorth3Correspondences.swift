/// The correspondence list of one comparison: every probe edge paired with every stored
/// edge of about the same length and the same angles (docs/bozorth3.md §5).
///
/// A row says "probe minutiae (pk, pj) may be stored minutiae (gk, gj), the stored edge
/// turned by `rotation`". Rows are sorted by (pk, gk, pj), equal keys in the order they
/// were found, as bozorth3 keeps them: the scoring walks groups of rows that share
/// (pk, gk) and its results depend on that order.
///
/// The columns are read as `list.rotation[row]` for `row < count`. Copies of a list share
/// its memory: each scorer keeps its own list and fills only that one.
struct Bozorth3Correspondences {
    /// Where bozorth3 stops adding rows; reachable with dense 200-minutia samples.
    static let cap = 19_999

    private let arena = Bozorth3Arena()
    let rotation, probeFirst, probeSecond, storedFirst, storedSecond: UnsafeMutablePointer<Int32>
    /// The rows packed for sorting, in the order pairing finds them, and the sort's second buffer.
    private let keys, spare: UnsafeMutablePointer<UInt64>
    /// The sort's counts: 256 per sorted byte (pj, gk, pk).
    private let counts: UnsafeMutablePointer<Int>
    /// Pairing's flags, one a stored row of a window (and 8 spare for reading words).
    private let flags: UnsafeMutablePointer<UInt8>

    private(set) var count = 0

    /// An empty list.
    init() {
        rotation = arena.make(Self.cap, 0)
        probeFirst = arena.make(Self.cap, 0)
        probeSecond = arena.make(Self.cap, 0)
        storedFirst = arena.make(Self.cap, 0)
        storedSecond = arena.make(Self.cap, 0)
        keys = arena.make(Self.cap, 0)
        spare = arena.make(Self.cap, 0)
        counts = arena.make(3 * 256, 0)
        flags = arena.make(Bozorth3PairTable.rowCap + 8, 0)
    }

    /// The list of a probe's and a stored sample's tables.
    init(probe: Bozorth3PairTable, stored: Bozorth3PairTable) {
        self.init()
        fill(probe: probe, stored: stored)
    }

    /// Fills the list (reusing its memory) with the pairs of the probe's and the stored
    /// sample's tables.
    mutating func fill(probe: Bozorth3PairTable, stored: Bozorth3PairTable) {
        counts.update(repeating: 0, count: 3 * 256)
        let found: Int
        if probe.regular && stored.regular {
            found = pairWindows(probe: probe, stored: stored)
        } else {
            found = pairLiterally(probe: probe, stored: stored)
        }
        sort(found)
        count = found
    }

    /// A row packed into one integer: (pk, gk, pj) in the top bytes, the list's order; the
    /// stored row below them (equal (pk, gk, pj) come from one probe row, in stored-row
    /// order); gj and the rotation ride at the bottom. Minutiae are numbered 1...200
    /// (8 bits), stored rows < 20,000 (16 bits).
    @inline(__always)
    private func append(_ n: Int, pk: Int32, pj: Int32, storedRow b: Int, gk: Int32, gj: Int32, rotation: Int32) {
        var key = UInt64(UInt8(truncatingIfNeeded: pk)) << 56
        key |= UInt64(UInt8(truncatingIfNeeded: gk)) << 48
        key |= UInt64(UInt8(truncatingIfNeeded: pj)) << 40
        key |= UInt64(UInt16(truncatingIfNeeded: b)) << 24
        key |= UInt64(UInt8(truncatingIfNeeded: gj)) << 16
        key |= UInt64(UInt16(truncatingIfNeeded: rotation &+ 180))
        keys[n] = key
        // The sort's counts, gathered here rather than in a pass of their own.
        counts[Int(UInt8(truncatingIfNeeded: pj))] += 1
        counts[256 + Int(UInt8(truncatingIfNeeded: gk))] += 1
        counts[512 + Int(UInt8(truncatingIfNeeded: pk))] += 1
    }

    /// Emits probe row `a` paired with stored row `b` (the angles already passed).
    @inline(__always)
    private func emit(_ n: Int, probe: Bozorth3PairTable, a: Int, stored: Bozorth3PairTable, b: Int) {
        let rotation = Bozorth3Numerics.normalized(Int32(probe.foldedDirection[a]) &- Int32(stored.foldedDirection[b]))
        // Edges stored the other way round on one side only: the stored ends swap.
        let sameWay = probe.swapped[a] == stored.swapped[b]
        append(n, pk: Int32(probe.first[a]), pj: Int32(probe.second[a]), storedRow: b,
               gk: Int32(sameWay ? stored.first[b] : stored.second[b]), gj: Int32(sameWay ? stored.second[b] : stored.first[b]),
               rotation: rotation)
    }

    /// Pairing as the library loops (§5), for any tables. Returns the rows found.
    private func pairLiterally(probe: Bozorth3PairTable, stored: Bozorth3PairTable) -> Int {
        var n = 0
        let storedRows = stored.usedRows
        // The probe side leaves out its last used row: a fact of the library's loop bounds.
        let probeRows = probe.usedRows - 1
        // Stored rows too short for every probe row so far; only grows, since both tables
        // are sorted by length.
        var start = 0
        pairing: for a in 0..<max(0, probeRows) {
            let length = probe.squaredLength[a]
            var b = start
            while b < storedRows {
                let other = stored.squaredLength[b]
                if Self.outside(other, length) {
                    // The sign of the difference as the library computes it (wrapping).
                    if other &- length < 0 {
                        start = b + 1
                        b += 1
                        continue
                    }
                    break
                }
                if Bozorth3Numerics.tooFar(probe.smallerAngle(a) &- stored.smallerAngle(b))
                    || Bozorth3Numerics.tooFar(probe.largerAngle(a) &- stored.largerAngle(b)) {
                    b += 1
                    continue
                }
                emit(n, probe: probe, a: a, stored: stored, b: b)
                n += 1
                if n == Self.cap { break pairing }
                b += 1
            }
        }
        return n
    }

    /// Sets `flags[i]` to 1 when both angles of stored row `i` are compatible with the probe
    /// row's, |e| <= 11 or |e| >= 349 (tooFar's complement), else to 0. Exact for angles
    /// within ±2,047: the differences fit in 16 bits. Branch-free and on plain pointers, so
    /// that the compiler vectorises it.
    private static func flag(_ flags: UnsafeMutablePointer<UInt8>, _ smallers: UnsafePointer<Int16>,
                             _ largers: UnsafePointer<Int16>, count: Int, smaller: Int16, larger: Int16) {
        for i in 0..<count {
            let e1 = smaller &- smallers[i], e2 = larger &- largers[i]
            let m1 = (e1 ^ (e1 >> 15)) &- (e1 >> 15), m2 = (e2 ^ (e2 >> 15)) &- (e2 >> 15)
            // |e| - 12 as unsigned is below 337 exactly when 12 <= |e| <= 348.
            let far1 = UInt16(bitPattern: m1 &- 12) >= 337, far2 = UInt16(bitPattern: m2 &- 12) >= 337
            flags[i] = far1 && far2 ? 1 : 0
        }
    }

    /// The length test, in single precision and squared, as the library does it: a window
    /// computed any other way differs at the boundary.
    @inline(__always)
    private static func outside(_ other: Int32, _ length: Int32) -> Bool {
        let difference = Float(other &- length)
        let limit = Bozorth3Numerics.tenth * Float(other &+ length)
        return difference * difference > limit * limit
    }

    /// Pairing of two regular tables: the same rows in the same order as ``pairLiterally``,
    /// with less work. For lengths in 0...15,625 the stored rows a probe row pairs with are
    /// one run of the stored table whose ends only move forward (checked for every pair of
    /// lengths, §5), so each end is found once by walking it forward; and angles within
    /// ±2,047 fit in 16 bits, differences included, for the vectorised angle test.
    private func pairWindows(probe: Bozorth3PairTable, stored: Bozorth3PairTable) -> Int {
        var n = 0
        let storedRows = stored.usedRows
        let probeRows = probe.usedRows - 1
        var low = 0, high = 0
        // No stored rows, no pairs (and no base address to read the window from).
        if storedRows == 0 { return 0 }
        return stored.squaredLength.withUnsafeBufferPointer { storedLength in
            stored.smallerAngle16.withUnsafeBufferPointer { storedSmaller in
                stored.largerAngle16.withUnsafeBufferPointer { storedLarger in
                    for a in 0..<max(0, probeRows) {
                        let length = probe.squaredLength[a]
                        // Too short: outside the tolerance and shorter.
                        while low < storedRows && storedLength[low] < length
                            && Self.outside(storedLength[low], length) {
                            low += 1
                        }
                        high = max(high, low)
                        while high < storedRows && !Self.outside(storedLength[high], length) { high += 1 }
                        let smaller = probe.smallerAngle16[a], larger = probe.largerAngle16[a]
                        // First a flag per stored row of the window, in a loop the compiler
                        // vectorises (few rows pass), then the passing rows in order.
                        let count = high - low
                        Self.flag(flags, storedSmaller.baseAddress! + low, storedLarger.baseAddress! + low, count: count,
                                  smaller: smaller, larger: larger)
                        var i = 0
                        while i < count {
                            // Eight flags at a time; past the window the flags are stale and masked off.
                            var word = UnsafeRawPointer(flags + i).loadUnaligned(as: UInt64.self)
                            if count - i < 8 { word &= (1 << UInt64(8 * (count - i))) &- 1 }
                            while word != 0 {
                                let b = low + i + word.trailingZeroBitCount / 8
                                emit(n, probe: probe, a: a, stored: stored, b: b)
                                n += 1
                                if n == Self.cap { return n }
                                word &= word &- 1
                            }
                            i += 8
                        }
                    }
                    return n
                }
            }
        }
    }

    /// Sorts the `found` keys into the list's order and unpacks them into the columns.
    /// The keys are unique and each probe row's come out in stored-row order, so three
    /// stable counting passes, on pj, then gk, then pk, give the order of a full sort
    /// of the keys: (pk, gk, pj), then the order found.
    private func sort(_ found: Int) {
        // Each count becomes the position of its byte's first key.
        for pass in 0..<3 {
            var position = 0
            for byte in 0..<256 {
                let c = counts[pass * 256 + byte]
                counts[pass * 256 + byte] = position
                position += c
            }
        }
        for i in 0..<found {
            let key = keys[i]
            let slot = Int((key >> 40) & 0xFF)
            spare[counts[slot]] = key
            counts[slot] += 1
        }
        for i in 0..<found {
            let key = spare[i]
            let slot = 256 + Int((key >> 48) & 0xFF)
            keys[counts[slot]] = key
            counts[slot] += 1
        }
        for i in 0..<found {
            let key = keys[i]
            let slot = 512 + Int(key >> 56)
            let row = counts[slot]
            counts[slot] += 1
            probeFirst[row] = Int32(key >> 56)
            storedFirst[row] = Int32((key >> 48) & 0xFF)
            probeSecond[row] = Int32((key >> 40) & 0xFF)
            storedSecond[row] = Int32((key >> 16) & 0xFF)
            rotation[row] = Int32(key & 0xFFFF) - 180
        }
    }
}
