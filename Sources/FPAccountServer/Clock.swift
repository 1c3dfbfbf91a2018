import Foundation

/// Wall-clock time as the database keeps it: milliseconds since 1970.
enum Clock {
    static func milliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }
}
