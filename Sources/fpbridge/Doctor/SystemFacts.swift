import FPReaders
import FoundationEssentials
import Glibc

/// Facts about this machine that decide whether a reader works for this user.
enum SystemFacts {
    /// libfprint's version as the package manager (or pkg-config) knows it.
    static func libfprintVersion() -> String? {
        run("/usr/bin/dpkg-query", ["-W", "-f", "${Version}", "libfprint-2-2"])
            ?? run("/usr/bin/pkg-config", ["--modversion", "libfprint-2"])
    }

    /// Where an installed copy of the rules lives, if anywhere.
    static func installedRules() -> String? {
        ["/etc/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d", "/usr/local/lib/udev/rules.d"]
            .map { $0 + "/" + UdevRules.fileName }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The login name of this process's user.
    static func userName() -> String {
        getpwuid(geteuid()).flatMap { String(cString: $0.pointee.pw_name) } ?? "uid \(geteuid())"
    }

    /// Whether the group exists, and whether this process (or its user, after a new login) is in it.
    static func groupMembership(_ name: String) -> (exists: Bool, inProcess: Bool, listed: Bool) {
        guard let group = getgrnam(name) else { return (false, false, false) }
        let gid = group.pointee.gr_gid
        var members: [String] = []
        var cursor = group.pointee.gr_mem
        while let member = cursor?.pointee {
            members.append(String(cString: member))
            cursor = cursor?.advanced(by: 1)
        }
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        _ = getgroups(count, &groups)
        let inProcess = getegid() == gid || groups.contains(gid)
        return (true, inProcess, members.contains(userName()))
    }

    /// The environment variables that make libfprint show virtual readers or replay hardware.
    static func virtualReaderVariables() -> [(String, String)] {
        let names = ["FP_VIRTUAL_IMAGE", "FP_VIRTUAL_DEVICE", "FP_VIRTUAL_DEVICE_STORAGE", "FP_VIRTUAL_DEVICE_STORAGE_NO_LIST",
                     "FP_DEVICE_EMULATION", "FP_DRIVERS_WHITELIST", "FP_DRIVERS_ALLOWLIST", "FPBRIDGE_READER"]
        let environment = ProcessInfo.processInfo.environment
        return names.compactMap { name in environment[name].map { (name, $0) } }
    }

    /// Whether fprintd is running (it may hold a reader open).
    static func fprintdRunning() -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.contains { entry in
            guard Int(entry) != nil, let comm = FileManager.default.contents(atPath: "/proc/\(entry)/comm") else { return false }
            return String(decoding: comm, as: UTF8.self).trimmed == "fprintd"
        }
    }

    private static func run(_ tool: String, _ arguments: [String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: tool) else { return nil }
        guard let process = try? SpawnedProcess(tool, arguments, quiet: true) else { return nil }
        let text = String(decoding: process.readAll(), as: UTF8.self).trimmed
        return process.wait() == 0 && !text.isEmpty ? text : nil
    }
}
