/* "Nobody there, no finger" (issues 39 and 49): the rules that keep the module from starting a
 * scan for a request that PAM_USER herself did not make at the reader's seat. Each can be turned
 * off for a service by an argument on that service's line. */
#ifndef PAM_FPBRIDGE_REMOTE_RULES_H
#define PAM_FPBRIDGE_REMOTE_RULES_H

#include <security/pam_modules.h>
#include <stddef.h>

struct remote_overrides {
    int allow_rhost;          /* allow-rhost: PAM_RHOST set is no reason */
    int allow_ssh;            /* allow-ssh: sshd among the ancestors, or PAM_TTY "ssh", is none */
    int allow_remote_session; /* allow-remote-session: PAM_USER's sessions elsewhere are none */
    int allow_seatless;       /* allow-seatless: presence is not asked (a machine without seats) */
    const char *seat;         /* seat=NAME: the reader's seat (NULL: seat0) */
};

/* Returns 1 and names the rule in `why` when the finger must not be offered: a sign of a remote
 * request, or no evidence that PAM_USER asks at the seat (presence.h). `shown_user` is PAM_USER
 * escaped for the log. What cannot be read is no evidence: the password alone. */
int request_is_remote(pam_handle_t *pamh, const char *user, const char *shown_user, const struct remote_overrides *overrides,
                      char *why, size_t why_size);

#endif
