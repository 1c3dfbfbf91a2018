/* One HTTP/1.1 request to fpbridged on its Unix socket, answered and closed within a deadline. */
#ifndef PAM_FPBRIDGE_SERVICE_REQUEST_H
#define PAM_FPBRIDGE_SERVICE_REQUEST_H

#include <stddef.h>

/* fpbridged's system socket (LocalAPI.systemSocket in the Swift sources). */
#define FPBRIDGE_SYSTEM_SOCKET "/run/fpbridge/fpbridged.sock"
/* The service's own user (the packages' sysusers file): its socket's peer, or root. */
#define FPBRIDGE_SERVICE_USER "fpbridge"

/* The whole exchange (connect, send, answer) ends within this many seconds: a hung fpbridged
 * costs a login this long, never more. */
#define FPBRIDGE_REQUEST_SECONDS 5

struct service_answer {
    int status;         /* the HTTP status of the answer's status line */
    char detail[256];   /* the start of the answer's body, printable (for the log) */
};

/* POSTs `body` (JSON) to `path` on the socket at `socket_path`. Returns 0 when an answer's
 * status line was read (any status; `answer` holds it), or -1 when none was, with the reason
 * written to `why` (for the log). The socket is closed on every path; no signal is raised or
 * changed (a closed peer gives EPIPE, not SIGPIPE). */
int service_post(const char *socket_path, const char *path, const char *body,
                 struct service_answer *answer, char *why, size_t why_size);

/* Seconds on the monotonic clock: deadlines. */
double service_now(void);

/* A connected AF_UNIX stream socket to `socket_path` (CLOEXEC) whose peer is root or the
 * service's user (SO_PEERCRED), or -1 with the reason in `why`. Connecting ends by `deadline`
 * (service_now's clock). */
int service_connect(const char *socket_path, double deadline, char *why, size_t why_size);

/* Sends all of `request` by `deadline`. Returns 0, or -1 with the reason in `why`. */
int service_send(int fd, const char *socket_path, const char *request, size_t request_length, double deadline,
                 char *why, size_t why_size);

/* Writes a POST of `body` (JSON) to `path`, `Connection: close`, into `request`. Returns its
 * length, or -1 when it does not fit. */
int service_format_post(char *request, size_t size, const char *path, const char *body);

/* The status of an answer's status line ("HTTP/1.1 200 OK..."), or -1 when `text` starts with none. */
int service_status(const char *text);

/* Writes "WHAT SOCKET: REASON" into `why` (the reason from `error`, none for 0) and returns -1. */
int service_fail(char *why, size_t why_size, const char *what, const char *socket_path, int error);

#endif
