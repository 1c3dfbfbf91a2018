/* The remote rules, in the order they are cheapest to check.
 *
 * logind's session of this process is found as sd_pid_get_session(3) finds it (the
 * `session-ID.scope` in /proc/self/cgroup) and its record read as sd_session_is_remote(3) and
 * sd_session_get_seat(3) read it (REMOTE= and SEAT= in /run/systemd/sessions/ID). Reading the
 * two files here keeps libsystemd, and the libraries it loads, out of every program that loads
 * the module. The process's session is the polkit subject's too: polkit-agent-helper-1 runs in
 * its agent's session, and polkitd asks only the agent registered for the subject's session. */
#include "remote_rules.h"

#include <security/pam_ext.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define ANCESTORS_CHECKED 64

static int rhost_is_set(pam_handle_t *pamh, char *why, size_t why_size)
{
    const void *rhost = NULL;
    if (pam_get_item(pamh, PAM_RHOST, &rhost) != PAM_SUCCESS || rhost == NULL || *(const char *)rhost == '\0')
        return 0;
    snprintf(why, why_size, "PAM_RHOST is set (%.64s)", (const char *)rhost);
    return 1;
}

/* The parent and the command name of `pid`, from /proc/PID/stat ("PID (COMM) STATE PPID ..."). */
static int read_stat(pid_t pid, pid_t *parent, char *command, size_t command_size)
{
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *file = fopen(path, "re");
    if (file == NULL)
        return -1;
    size_t length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[length] = '\0';
    /* The name may hold spaces and parentheses: it ends at the last ')'. */
    char *open = strchr(text, '('), *close = strrchr(text, ')');
    int ppid = 0;
    if (open == NULL || close == NULL || close < open || sscanf(close + 1, " %*c %d", &ppid) != 1)
        return -1;
    size_t name_length = (size_t)(close - open - 1);
    if (name_length >= command_size)
        name_length = command_size - 1;
    memcpy(command, open + 1, name_length);
    command[name_length] = '\0';
    *parent = (pid_t)ppid;
    return 0;
}

static int under_sshd(pam_handle_t *pamh, char *why, size_t why_size)
{
    const void *tty = NULL;
    if (pam_get_item(pamh, PAM_TTY, &tty) == PAM_SUCCESS && tty != NULL && strcmp(tty, "ssh") == 0) {
        snprintf(why, why_size, "PAM_TTY is ssh");
        return 1;
    }
    pid_t pid = getppid();
    for (int step = 0; step < ANCESTORS_CHECKED && pid > 1; step++) {
        char command[32];
        pid_t parent = 0;
        if (read_stat(pid, &parent, command, sizeof command) != 0)
            return 0;
        /* OpenSSH 9.8 and later run each connection as sshd-session (and sshd-auth). */
        if (strcmp(command, "sshd") == 0 || strncmp(command, "sshd-", 5) == 0) {
            snprintf(why, why_size, "started under sshd (process %d, %s)", (int)pid, command);
            return 1;
        }
        pid = parent;
    }
    return 0;
}

/* The ID of `session-ID.scope` in this process's cgroup (the unified hierarchy's line "0::"
 * or systemd's named one), or -1 when the process is in no logind session. */
static int own_session(char *id, size_t id_size)
{
    FILE *file = fopen("/proc/self/cgroup", "re");
    if (file == NULL)
        return -1;
    char line[1024];
    int found = -1;
    while (found != 0 && fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, "0::", 3) != 0 && strstr(line, ":name=systemd:") == NULL)
            continue;
        const char *scope = strstr(line, "/session-");
        if (scope == NULL)
            continue;
        scope += strlen("/session-");
        size_t length = 0;
        while (isalnum((unsigned char)scope[length]) && length + 1 < id_size)
            length++;
        if (length == 0 || strncmp(scope + length, ".scope", 6) != 0)
            continue;
        memcpy(id, scope, length);
        id[length] = '\0';
        found = 0;
    }
    fclose(file);
    return found;
}

static int session_rules(const struct remote_overrides *overrides, char *why, size_t why_size)
{
    char id[64];
    if ((overrides->allow_remote_session && overrides->allow_seatless) || own_session(id, sizeof id) != 0)
        return 0;
    char path[256];
    snprintf(path, sizeof path, "/run/systemd/sessions/%s", id);
    FILE *file = fopen(path, "re");
    if (file == NULL)
        return 0;
    char line[512];
    int remote = 0, seated = 0, active = 0;
    while (fgets(line, sizeof line, file) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        active = 1;
        if (strcmp(line, "REMOTE=1") == 0)
            remote = 1;
        else if (strncmp(line, "SEAT=", 5) == 0 && line[5] != '\0')
            seated = 1;
    }
    fclose(file);
    if (!active)
        return 0;
    if (remote && !overrides->allow_remote_session) {
        snprintf(why, why_size, "logind session %s is remote", id);
        return 1;
    }
    if (!seated && !overrides->allow_seatless) {
        snprintf(why, why_size, "logind session %s has no seat", id);
        return 1;
    }
    return 0;
}

int request_is_remote(pam_handle_t *pamh, const struct remote_overrides *overrides, char *why, size_t why_size)
{
    if (!overrides->allow_rhost && rhost_is_set(pamh, why, why_size))
        return 1;
    if (!overrides->allow_ssh && under_sshd(pamh, why, why_size))
        return 1;
    return session_rules(overrides, why, why_size);
}
