internal import CProcessSecurity
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
///
/// In a program started with rights its caller does not have (setuid, setgid or file
/// capabilities: the kernel's `AT_SECURE`), every variable reads as unset, as glibc's
/// `secure_getenv` does: otherwise whoever runs such a program could choose its fake reader
/// (`FPBRIDGE_READER=fake`), its state directory or its service, and be let in by a fake finger.
public enum ProcessEnvironment {
    /// True when this process was started with elevated rights (`AT_SECURE`); its environment is then ignored.
    public static let isSecureExecution = fpb_is_secure_execution() != 0

    /// The variable's value, or nil when it is unset or empty, or the process runs with elevated rights.
    public static func value(_ name: String) -> String? {
        guard !isSecureExecution, let raw = getenv(name), raw.pointee != 0 else { return nil }
        return String(cString: raw)
    }

    /// How many times `name` is in the environment. `getenv` answers with the first; a program that
    /// appends its own value to an environment it was handed (`pam_exec` appends `PAM_USER` to the
    /// PAM environment) needs to know that no earlier one hides it.
    public static func occurrences(_ name: String) -> Int {
        // Imported as non-optional, though C lets a program clear it (clearenv sets it to NULL).
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var entry = start else { return 0 }
        let prefix = Array((name + "=").utf8CString.dropLast())
        var count = 0
        while let pointer = entry.pointee {
            if strncmp(pointer, prefix, prefix.count) == 0 { count += 1 }
            entry += 1
        }
        return count
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
