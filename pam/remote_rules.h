/* "Nobody there, no finger" (issue 39): the rules that keep the module from starting a scan
 * for a request that does not come from someone at the machine. Each can be turned off for a
 * service by an argument on that service's line. */
#ifndef PAM_FPBRIDGE_REMOTE_RULES_H
#define PAM_FPBRIDGE_REMOTE_RULES_H

#include <security/pam_modules.h>
#include <stddef.h>

struct remote_overrides {
    int allow_rhost;          /* allow-rhost: PAM_RHOST set is no reason */
    int allow_ssh;            /* allow-ssh: sshd among the ancestors, or PAM_TTY "ssh", is none */
    int allow_remote_session; /* allow-remote-session: a logind session marked remote is none */
    int allow_seatless;       /* allow-seatless: a logind session without a seat is none */
};

/* Returns 1 and names the rule in `why` when a rule says the request is remote; 0 otherwise.
 * What cannot be read (no logind, a process whose /proc entry vanished) is no reason: a scan
 * only ever adds a way in for a finger on this machine's reader, never takes the password's. */
int request_is_remote(pam_handle_t *pamh, const struct remote_overrides *overrides, char *why, size_t why_size);

#endif
