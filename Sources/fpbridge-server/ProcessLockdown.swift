import ArgumentParser
internal import CProcessSecurity
import Foundation
import SystemPackage
import FPCore

/// The server holds password hashes and session digests, and passwords and tokens pass
/// through its memory: like fpbridge and fpbridged it leaves no core dump, and no other
/// process of its user may ptrace it or read its /proc/PID/mem (issue 28 §6).
enum ProcessLockdown {
    /// RLIMIT_CORE 0 and PR_SET_DUMPABLE 0 (CProcessSecurity's shim), or no server at all: one
    /// that cannot lock itself down says why and ends with 3, as fpbridged does, before it
    /// opens the database or a port.
    static func apply() throws {
        guard fpb_forbid_core_dumps() == 0 else {
            let reason = Errno.last.description
            FileHandle.standardError.write(Data("fpbridge-server: cannot turn core dumps and tracing off (\(reason)); refusing to run\n".utf8))
            throw ExitCode(3)
        }
    }
}
