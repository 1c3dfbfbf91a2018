/* Presence (issue 49; shared by pam_fpbridge.so and fpbridged's passkey device, issue 52): the module offers the finger only when it can show that PAM_USER herself
 * asks, at the seat the reader belongs to. No evidence is no finger.
 *
 * What counts as evidence, read from logind's records (/run/systemd/{seats,sessions,users}) and
 * the process's own cgroup (/proc/self/cgroup), which no unprivileged process can change:
 *   the seat       SEAT (seat0 unless seat=NAME) has an active session A, local (REMOTE=0);
 *   the request    comes from A itself (its scope: sudo in a tmux pane or terminal of A, su),
 *                  from PAM_USER's own user manager while A is hers (a GNOME Terminal tab,
 *                  `systemd-run --user` at the desk), from a display manager's worker (its
 *                  PAM service, in no session: the login and lock screens), or, in no session,
 *                  on the seat's active virtual console (PAM_TTY ttyN, `login` from getty);
 *   the person     A's user is PAM_USER, or A is the seat's greeter (the login screen, where
 *                  the person at the seat names the user);
 *   nobody else    PAM_USER has no session elsewhere, closing ones too: none remote, none on
 *                  another seat, none without a seat (an SSH login of hers, and so whoever
 *                  holds it, could see the prompt: a tmux pane, a user service).
 * Anything that cannot be read (no logind, a vanished record, two cgroup hierarchies that
 * disagree) is no evidence. */
#ifndef PAM_FPBRIDGE_PRESENCE_H
#define PAM_FPBRIDGE_PRESENCE_H

#include <stddef.h>
#include <sys/types.h>

/* Where logind keeps its records, and where the kernel says which console is shown. Fixed at
 * build time, never read from the environment: su and sudo are setuid, and whoever runs them
 * chooses their environment. */
#define PRESENCE_LOGIND_DIR "/run/systemd"
#define PRESENCE_ACTIVE_CONSOLE "/sys/class/tty/tty0/active"
#define PRESENCE_DEFAULT_SEAT "seat0"

struct presence_options {
    const char *seat;          /* seat=NAME: the reader's seat */
    int allow_remote_session;  /* allow-remote-session: PAM_USER's sessions elsewhere are no reason */
};

/* Where /proc/self/cgroup puts the process. */
enum place_kind { PLACE_OTHER, PLACE_SESSION, PLACE_USER_MANAGER, PLACE_UNKNOWN };

struct place {
    enum place_kind kind;
    char session[64];          /* PLACE_SESSION: logind's session ID */
    uid_t manager_uid;         /* PLACE_USER_MANAGER: the uid of user@UID.service */
};

/* Reads the place from the text of /proc/PID/cgroup (systemd's named hierarchy and the unified
 * one; when both name a place they must agree). PLACE_UNKNOWN when the text cannot be read. */
struct place place_from_cgroup(const char *text);

/* 1 when the request shows presence as above; 0 with the reason in `why`. `service` is
 * PAM_SERVICE and `tty` PAM_TTY (either may be NULL). */
int request_is_present(const char *user, uid_t uid, const char *service, const char *tty,
                       const struct presence_options *options, char *why, size_t why_size);

/* The person at the seat, for a door that cannot see who asks (fpbridged's passkey device: a
 * hidraw node says nothing of the process that wrote to it). 1 when SEAT's active session is a
 * local user session (not a greeter's, not a lock screen's), active, and its user has no
 * session elsewhere (as above: none remote, none on another seat, none without one, closing
 * ones too); its uid and ID are written to `uid` and `session`. 0 with the reason otherwise. */
int seat_user(const struct presence_options *options, uid_t *uid, char *session, size_t session_size, char *why,
              size_t why_size);

#endif
