#ifndef FPBRIDGE_CPROCESSSECURITY_SHIM_H
#define FPBRIDGE_CPROCESSSECURITY_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

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

/// 1 when the kernel started this program with elevated rights that its caller does not have
/// (setuid, setgid, file capabilities: AT_SECURE, what glibc's secure_getenv reads), else 0.
static inline int fpb_is_secure_execution(void) { return getauxval(AT_SECURE) != 0; }

/// Swaps what two paths name, atomically (renameat2 with RENAME_EXCHANGE: either may be a
/// file, a directory or a link). 0 on success, else -1 with errno set.
static inline int fpb_exchange(const char *first, const char *second) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 2 /* RENAME_EXCHANGE */);
}

/// Opens `path` read-only with the rights of another user (its uid and gid, and no
/// supplementary group: never more than the client has) instead of this process's: a service
/// running as root reads a file a client named as that client could. Only the calling thread's
/// credentials change, and only for the open: the kernel keeps them per thread, and these calls
/// (glibc's setfsuid and setfsgid, and setgroups made as a raw system call) are not broadcast to
/// other threads as glibc's setgroups is. A file on procfs is refused: as the process's own,
/// /proc/self would be readable whatever the client's rights. Returns the descriptor, or
/// -errno (EPERM when this process may not take the client's rights, so that nothing is read
/// with more than the client's; EACCES for procfs).
static inline int fpb_open_as(const char *path, uid_t uid, gid_t gid) {
    gid_t saved[1024];
    int saved_count = getgroups(1024, saved);
    if (saved_count < 0) return -errno;
    if (syscall(SYS_setgroups, (size_t)0, (gid_t *)0) != 0) return -errno;
    uid_t old_uid = (uid_t)setfsuid(uid);
    gid_t old_gid = (gid_t)setfsgid(gid);
    int fd = -1, error = EPERM;
    // setfsuid reports no failure: ask for the current values (an invalid id changes nothing).
    if ((uid_t)setfsuid((uid_t)-1) == uid && (gid_t)setfsgid((gid_t)-1) == gid) {
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        error = fd < 0 ? errno : 0;
    }
    setfsuid(old_uid);
    setfsgid(old_gid);
    // A thread left with a client's rights must not go on serving anyone.
    if (syscall(SYS_setgroups, (size_t)saved_count, saved) != 0 || (uid_t)setfsuid((uid_t)-1) != old_uid
        || (gid_t)setfsgid((gid_t)-1) != old_gid) abort();
    if (fd < 0) return -error;
    struct statfs filesystem;
    if (fstatfs(fd, &filesystem) != 0 || filesystem.f_type == 0x9fa0 /* PROC_SUPER_MAGIC */) {
        close(fd);
        return -EACCES;
    }
    return fd;
}

#endif
