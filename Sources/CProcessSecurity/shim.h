#ifndef FPBRIDGE_CPROCESSSECURITY_SHIM_H
#define FPBRIDGE_CPROCESSSECURITY_SHIM_H

#include <sys/prctl.h>
#include <sys/resource.h>

// prctl is variadic, which Swift does not import: one typed twin per use.

/// No core dump for this process (it may hold a passcode), and no ptrace or
/// /proc/PID/mem access by other processes of the same user. 0 on success.
static inline int fpb_forbid_core_dumps(void) {
    struct rlimit none = {0, 0};
    int limit = setrlimit(RLIMIT_CORE, &none);
    int dumpable = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return limit == 0 && dumpable == 0 ? 0 : -1;
}

/// 1 when the process may dump core, 0 when not.
static inline int fpb_is_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }

/// Names the calling thread (the kernel keeps 15 bytes). 0 on success.
static inline int fpb_name_this_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }

#endif
