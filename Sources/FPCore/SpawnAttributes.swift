// sigset_t is declared by both; a release build takes CProcessSecurity's (as DetachedThread does).
internal import CProcessSecurity
#if canImport(Glibc)
import Glibc
#endif

/// The `posix_spawn` attributes every child of ours starts with: no signal blocked, and the
/// given signals at their default actions, whatever the spawning thread had. A child inherits
/// both otherwise: a thread with SIGTERM blocked (fpbridge's threads block it for their
/// signalfd; Dispatch's block most signals) gave children that ignored SIGTERM, and an ignored
/// SIGPIPE carried over would keep a tool running on a closed pipe.
public enum SpawnAttributes {
    /// Runs `body` with attributes that clear the signal mask and reset `defaults` (SIGPIPE
    /// always among them), destroyed after it.
    public static func withCleanSignals<T, E: Error>(
        defaults: [Int32] = [], _ body: (inout posix_spawnattr_t) throws(E) -> T
    ) throws(E) -> T {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), reset = sigset_t()
        sigemptyset(&none)
        sigemptyset(&reset)
        for signal in Set(defaults + [SIGPIPE]) { sigaddset(&reset, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &reset)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return try body(&attributes)
    }
}
