/* One HTTP/1.1 request to fpbridged on its Unix socket, answered and closed within a deadline. */
#ifndef PAM_FPBRIDGE_SERVICE_REQUEST_H
#define PAM_FPBRIDGE_SERVICE_REQUEST_H

#include <stddef.h>

/* fpbridged's system socket (LocalAPI.systemSocket in the Swift sources). */
#define FPBRIDGE_SYSTEM_SOCKET "/run/fpbridge/fpbridged.sock"

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

#endif
