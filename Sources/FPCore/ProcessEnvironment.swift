#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Environment variables, read one at a time.
///
/// `ProcessInfo.processInfo.environment` copies the whole environment into a new dictionary
/// at every use, about 0.4 million instructions each: six uses were 2 of the 37 million
/// instructions of a `fpbridge status` (BENCHMARKS.md). A command that needs three variables
/// reads three.
public enum ProcessEnvironment {
    /// The variable's value, or nil when it is unset or empty.
    public static func value(_ name: String) -> String? {
        guard let raw = getenv(name), raw.pointee != 0 else { return nil }
        return String(cString: raw)
    }

    /// The variables among `names` that are set and not empty.
    public static func values(_ names: String...) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = value(name) { values[name] = value }
        }
        return values
    }
}
