/* The rules, in the order they are cheapest to check: two signs of a remote request (PAM_RHOST,
 * sshd), then the positive one, presence (presence.h), which a remote user cannot forge: the
 * process's cgroup and logind's records. */
#include "remote_rules.h"

#include "presence.h"

#include <security/pam_ext.h>

#include <pwd.h>
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
        if (read_stat(pid, &parent, command, sizeof command) != 0) {
            /* An ancestry that cannot be read is no evidence that sshd is not in it. */
            snprintf(why, why_size, "cannot read the process's ancestry (process %d)", (int)pid);
            return 1;
        }
        /* OpenSSH 9.8 and later run each connection as sshd-session (and sshd-auth). */
        if (strcmp(command, "sshd") == 0 || strncmp(command, "sshd-", 5) == 0) {
            snprintf(why, why_size, "started under sshd (process %d, %s)", (int)pid, command);
            return 1;
        }
        pid = parent;
    }
    return 0;
}

static const char *item_text(pam_handle_t *pamh, int item)
{
    const void *value = NULL;
    return pam_get_item(pamh, item, &value) == PAM_SUCCESS ? value : NULL;
}

int request_is_remote(pam_handle_t *pamh, const char *user, const char *shown_user, const struct remote_overrides *overrides,
                      char *why, size_t why_size)
{
    if (!overrides->allow_rhost && rhost_is_set(pamh, why, why_size))
        return 1;
    if (!overrides->allow_ssh && under_sshd(pamh, why, why_size))
        return 1;
    if (overrides->allow_seatless)
        return 0;
    struct passwd entry, *found = NULL;
    char buffer[4096];
    if (getpwnam_r(user, &entry, buffer, sizeof buffer, &found) != 0 || found == NULL) {
        snprintf(why, why_size, "no account %s to find at the seat", shown_user);
        return 1;
    }
    struct presence_options presence = { .seat = overrides->seat, .allow_remote_session = overrides->allow_remote_session };
    char reason[400];
    if (request_is_present(shown_user, entry.pw_uid, item_text(pamh, PAM_SERVICE), item_text(pamh, PAM_TTY), &presence,
                           reason, sizeof reason))
        return 0;
    snprintf(why, why_size, "no presence at %s: %s", overrides->seat != NULL ? overrides->seat : PRESENCE_DEFAULT_SEAT, reason);
    return 1;
}
