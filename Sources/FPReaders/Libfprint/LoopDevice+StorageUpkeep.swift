internal import CLibfprint
import FPCore

extension LoopDevice {
    /// The sensor's own prints that are none of `known` (libfprint's print equality), in the
    /// order fprintd gives them up when the sensor is full: the most recently enrolled first,
    /// prints without an enroll date last (fprintd's comparator says "older first" but sorts
    /// newer first, and its own test pins that order; prints nobody knows are an earlier
    /// installation's either way).
    func storedPrintsNobodyKnows(_ known: [PrintData]) async throws -> [PrintData] {
        try await withStoredPrints { device, prints in
            let knownPrints = try known.map { GObjectRef(taking: UnsafeMutableRawPointer(try LibfprintPrint.deserialize($0, for: device))) }
            var nobodys: [(julian: UInt32, position: Int, print: PrintData)] = []
            for (index, print) in prints.enumerated() {
                guard !knownPrints.contains(where: { fp_print_equal(print, OpaquePointer($0.pointer)) != 0 }) else { continue }
                var julian: UInt32 = 0
                if let date = fp_print_get_enroll_date(print), g_date_valid(date) != 0 { julian = g_date_get_julian(date) }
                nobodys.append((julian, index, try LibfprintPrint.serialize(print)))
            }
            return nobodys.sorted { ($0.julian, -$0.position) > ($1.julian, -$1.position) }.map(\.print)
        }
    }
}
