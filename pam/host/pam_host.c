/* A small PAM application for the module's tests (Tests/CLITests/PamTouchOrTypeTests.swift):
 * it authenticates once, with Linux-PAM's misc_conv as its conversation (su's and login's), and
 * reports what the stack left behind in the process: threads, open descriptors, signal actions
 * and the signal mask, compared between just before and just after pam_authenticate.
 *
 *   PAM_HOST_SERVICE=NAME PAM_HOST_USER=NAME [PAM_HOST_RHOST=HOST] [PAM_HOST_TTY=TTY]
 *   [PAM_HOST_BLOCK_ALL=1] [PAM_HOST_READ_AFTER=1] [PAM_HOST_SILENT=1] [PAM_HOST_SHOW_TTY=1] pam_host [ARGUMENTS...]
 *
 * The arguments are not read: they are the command line a module sees in /proc/self/cmdline
 * (sudo's options, say). Prints "result: <pam_strerror>", then "threads", "descriptors",
 * "signal actions" and "signal mask" lines, each "unchanged" or what changed; with
 * PAM_HOST_READ_AFTER, "typed and left: N bytes", what the command run next would read.
 * PAM_HOST_SILENT=1 authenticates with PAM_SILENT, as sudo does by default (pam_silent).
 * PAM_HOST_SHOW_TTY=1 prints "terminal: PATH" (its terminal) before authenticating.
 * PAM_HOST_PAM_ENV=NAME=VALUE puts one variable into PAM's environment (pam_putenv). Exits 0 when
 * pam_authenticate succeeded, 1 when it did not, 2 on a usage or setup error. */
#include <security/pam_appl.h>
#include <security/pam_misc.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* the kernel's flag (asm/signal.h), which glibc does not name */
#endif

struct snapshot {
    int threads;
    int descriptors;
    struct sigaction actions[NSIG];
    sigset_t mask;
};

static int count_entries(const char *directory)
{
    DIR *listing = opendir(directory);
    if (listing == NULL)
        return -1;
    int count = 0;
    for (struct dirent *entry; (entry = readdir(listing)) != NULL;)
        if (entry->d_name[0] != '.')
            count++;
    closedir(listing);
    return count;
}

static void take(struct snapshot *snapshot)
{
    snapshot->threads = count_entries("/proc/self/task");
    snapshot->descriptors = count_entries("/proc/self/fd") - 1; /* the listing's own */
    for (int number = 1; number < NSIG; number++)
        if (sigaction(number, NULL, &snapshot->actions[number]) != 0)
            memset(&snapshot->actions[number], 0, sizeof snapshot->actions[number]);
    sigprocmask(SIG_BLOCK, NULL, &snapshot->mask);
}

static void compare(const struct snapshot *before, const struct snapshot *after)
{
    if (before->threads == after->threads)
        printf("threads: unchanged (%d)\n", after->threads);
    else
        printf("threads: %d before, %d after\n", before->threads, after->threads);
    if (before->descriptors == after->descriptors)
        printf("descriptors: unchanged (%d)\n", after->descriptors);
    else
        printf("descriptors: %d before, %d after\n", before->descriptors, after->descriptors);
    int changed = 0;
    for (int number = 1; number < NSIG; number++) {
        const struct sigaction *a = &before->actions[number], *b = &after->actions[number];
        /* glibc adds SA_RESTORER to every action it hands the kernel, SIG_DFL put back
         * included, and reads it back; it is no change a program sees. */
        int a_flags = a->sa_flags & ~SA_RESTORER, b_flags = b->sa_flags & ~SA_RESTORER;
        if (a->sa_handler != b->sa_handler || a_flags != b_flags) {
            printf("%ssignal %d (handler %p flags %#x, then %p %#x)", changed ? ", " : "signal actions: changed: ", number,
                   (void *)a->sa_handler, (unsigned)a->sa_flags, (void *)b->sa_handler, (unsigned)b->sa_flags);
            changed = 1;
        }
    }
    printf(changed ? "\n" : "signal actions: unchanged\n");
    int mask_changed = 0;
    for (int number = 1; number < NSIG; number++)
        if (sigismember(&before->mask, number) != sigismember(&after->mask, number))
            mask_changed = 1;
    printf("signal mask: %s\n", mask_changed ? "changed" : "unchanged");
}

/* What the command run next would read from the terminal: every byte typed and not yet taken,
 * a line not yet ended too (read with the line discipline's editing off). */
static void report_typed(void)
{
    struct termios before, raw;
    if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &before) != 0) {
        printf("typed and left: no terminal\n");
        return;
    }
    raw = before;
    raw.c_lflag &= (tcflag_t)~(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 2; /* tenths of a second: whatever is there comes at once */
    tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    char left[256];
    ssize_t count = read(STDIN_FILENO, left, sizeof left - 1);
    tcsetattr(STDIN_FILENO, TCSANOW, &before);
    printf("typed and left: %zd bytes\n", count < 0 ? (ssize_t)0 : count);
}

int main(void)
{
    const char *service = getenv("PAM_HOST_SERVICE"), *user = getenv("PAM_HOST_USER");
    if (service == NULL || user == NULL) {
        fprintf(stderr, "pam_host: set PAM_HOST_SERVICE and PAM_HOST_USER\n");
        return 2;
    }
    /* As su or login started from a shell: nothing blocked, and what misc_conv prints to
     * standard output (PAM_TEXT_INFO) seen at once, as on a terminal. PAM_HOST_BLOCK_ALL=1
     * blocks every signal instead, as a host that handles its own by signalfd might. */
    sigset_t mask;
    if (getenv("PAM_HOST_BLOCK_ALL") != NULL)
        sigfillset(&mask);
    else
        sigemptyset(&mask);
    sigprocmask(SIG_SETMASK, &mask, NULL);
    setvbuf(stdout, NULL, _IONBF, 0);
    struct pam_conv conversation = { misc_conv, NULL };
    pam_handle_t *pamh = NULL;
    int started = pam_start(service, user, &conversation, &pamh);
    if (started != PAM_SUCCESS) {
        fprintf(stderr, "pam_host: pam_start: %s\n", pam_strerror(pamh, started));
        return 2;
    }
    /* What a remote program sets: sshd PAM_RHOST and PAM_TTY "ssh". */
    const char *rhost = getenv("PAM_HOST_RHOST"), *tty = getenv("PAM_HOST_TTY");
    if ((rhost != NULL && pam_set_item(pamh, PAM_RHOST, rhost) != PAM_SUCCESS)
        || (tty != NULL && pam_set_item(pamh, PAM_TTY, tty) != PAM_SUCCESS)) {
        fprintf(stderr, "pam_host: pam_set_item failed\n");
        return 2;
    }
    /* What a display manager puts in PAM's environment before authenticating (XDG_SEAT=seat0). */
    const char *pam_env = getenv("PAM_HOST_PAM_ENV");
    if (pam_env != NULL && pam_putenv(pamh, pam_env) != PAM_SUCCESS) {
        fprintf(stderr, "pam_host: pam_putenv failed\n");
        return 2;
    }
    if (getenv("PAM_HOST_SHOW_TTY") != NULL && isatty(STDIN_FILENO))
        printf("terminal: %s\n", ttyname(STDIN_FILENO));
    struct snapshot *before = calloc(1, sizeof *before), *after = calloc(1, sizeof *after);
    if (before == NULL || after == NULL)
        return 2;
    take(before);
    int result = pam_authenticate(pamh, getenv("PAM_HOST_SILENT") != NULL ? PAM_SILENT : 0);
    take(after);
    printf("result: %s\n", pam_strerror(pamh, result));
    compare(before, after);
    if (getenv("PAM_HOST_READ_AFTER") != NULL)
        report_typed();
    fflush(stdout);
    pam_end(pamh, result);
    free(before);
    free(after);
    return result == PAM_SUCCESS ? 0 : 1;
}
