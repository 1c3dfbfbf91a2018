// The test process must never die of SIGPIPE (issue 53: whole suites ended by signal 13 under
// load, no output, no clue which write it was). A handler, not SIG_IGN: an ignored signal is
// passed on to every child the tests start (Foundation's Process included), a caught one is
// reset to its default at exec. The handler names the writer by its frames; the write itself
// then fails with EPIPE, which the writer reports as it reports any failed write.
#include "CTestProcess.h"

#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t watched;
/// stderr itself is a broken pipe (whoever read it has gone): the handler writes nothing more,
/// since each of its writes would raise SIGPIPE again once it returns, without end.
static volatile sig_atomic_t stderr_gone;

static void write_text(const char *text) {
    size_t length = strlen(text);
    while (length > 0 && !stderr_gone) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written < 0 && errno == EPIPE) stderr_gone = 1;
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static void on_sigpipe(int number) {
    (void)number;
    int saved = errno;
    if (stderr_gone) return;
    void *frames[48];
    int count = backtrace(frames, 48);
    write_text("\n" FPB_SIGPIPE_MARKER ": a write to a pipe or socket whose reader has gone; it fails with EPIPE "
               "and the test process goes on. The writer's frames:\n");
    if (!stderr_gone) backtrace_symbols_fd(frames, count, STDERR_FILENO);
    write_text("fpbridge-tests: end of the writer's frames\n");
    errno = saved;
}

__attribute__((constructor)) static void watch_sigpipe(void) {
    // backtrace() loads the unwinder at its first call, which a signal handler must not do.
    void *warm[1];
    (void)backtrace(warm, 1);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigpipe;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGPIPE, &action, NULL) == 0) watched = 1;
}

int fpb_tests_sigpipe_watched(void) {
    struct sigaction current;
    if (sigaction(SIGPIPE, NULL, &current) != 0) return 0;
    return watched && current.sa_handler == on_sigpipe;
}
