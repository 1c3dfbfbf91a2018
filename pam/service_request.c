/* The module's one way to fpbridged: a blocking AF_UNIX connection with a deadline, one request
 * with `Connection: close`, the answer read until fpbridged closes it. fpbridged checks the
 * caller's uid itself (SO_PEERCRED: the effective uid, root under su and sudo), so nothing here
 * proves who the caller is. */
#include "service_request.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define REQUEST_SIZE 4096 /* any body password_proved.c builds, and the head */
#define ANSWER_SIZE 4096

double service_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* Bounds the next blocking call (connect and send by SO_SNDTIMEO, recv by SO_RCVTIMEO) by what
 * is left of the deadline. Returns -1 once it has passed. */
static int limit_to_deadline(int fd, double deadline)
{
    double left = deadline - service_now();
    if (left <= 0)
        return -1;
    struct timeval limit = { .tv_sec = (time_t)left, .tv_usec = (suseconds_t)((left - (double)(time_t)left) * 1e6) };
    if (limit.tv_sec == 0 && limit.tv_usec == 0)
        limit.tv_usec = 1; /* zero would mean no limit */
    if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit) != 0
        || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit) != 0)
        return -1;
    return 0;
}

int service_fail(char *why, size_t why_size, const char *what, const char *socket_path, int error)
{
    if (error == EAGAIN || error == EWOULDBLOCK)
        snprintf(why, why_size, "%s %s: no answer within %d s", what, socket_path, FPBRIDGE_REQUEST_SECONDS);
    else if (error != 0) {
        char text[128];
        /* strerror_r (GNU): the host may be threaded; strerror's buffer is shared. */
        snprintf(why, why_size, "%s %s: %s", what, socket_path, strerror_r(error, text, sizeof text));
    }
    else
        snprintf(why, why_size, "%s %s", what, socket_path);
    return -1;
}

/* The socket's other end must be root or the service's own user (FPBRIDGE_SERVICE_USER): a
 * socket someone else bound at the path (a stale directory's, a test's) never answers a login. */
static int peer_is_fpbridged(int fd, const char *socket_path, char *why, size_t why_size)
{
    struct ucred peer;
    socklen_t length = sizeof peer;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 || length != sizeof peer)
        return service_fail(why, why_size, "cannot tell who listens at", socket_path, errno) + 1;
    if (peer.uid == 0)
        return 1;
    struct passwd entry, *found = NULL;
    char buffer[4096];
    if (getpwnam_r(FPBRIDGE_SERVICE_USER, &entry, buffer, sizeof buffer, &found) == 0 && found != NULL
        && entry.pw_uid == peer.uid)
        return 1;
    snprintf(why, why_size, "the socket %s is not fpbridged's: its peer is uid %u, neither root nor %s", socket_path,
             (unsigned)peer.uid, FPBRIDGE_SERVICE_USER);
    return 0;
}

int service_connect(const char *socket_path, double deadline, char *why, size_t why_size)
{
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (socket_path[0] != '/' || strlen(socket_path) >= sizeof address.sun_path)
        return service_fail(why, why_size, "not an absolute socket path of at most 107 bytes:", socket_path, 0);
    memcpy(address.sun_path, socket_path, strlen(socket_path) + 1);
    /* CLOEXEC: a host that forks and execs while this runs (a threaded one) leaks nothing. */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return service_fail(why, why_size, "cannot make a socket for", socket_path, errno);
    for (;;) {
        if (limit_to_deadline(fd, deadline) != 0) {
            close(fd);
            return service_fail(why, why_size, "cannot reach fpbridged at", socket_path, EAGAIN);
        }
        if (connect(fd, (const struct sockaddr *)&address, sizeof address) == 0) {
            if (peer_is_fpbridged(fd, socket_path, why, why_size))
                return fd;
            close(fd);
            return -1;
        }
        if (errno != EINTR) {
            int error = errno;
            close(fd);
            return service_fail(why, why_size, "cannot reach fpbridged at", socket_path, error);
        }
    }
}

int service_send(int fd, const char *socket_path, const char *request, size_t request_length, double deadline,
                 char *why, size_t why_size)
{
    for (size_t sent = 0; sent < request_length;) {
        if (limit_to_deadline(fd, deadline) != 0)
            return service_fail(why, why_size, "cannot send to fpbridged at", socket_path, EAGAIN);
        ssize_t count = send(fd, request + sent, request_length - sent, MSG_NOSIGNAL);
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0)
            return service_fail(why, why_size, "cannot send to fpbridged at", socket_path, errno);
        sent += (size_t)count;
    }
    return 0;
}

int service_format_post(char *request, size_t size, const char *path, const char *body)
{
    int length = snprintf(request, size,
                          "POST %s HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                          "Content-Length: %zu\r\nConnection: close\r\n\r\n%s", path, strlen(body), body);
    return (length < 0 || (size_t)length >= size) ? -1 : length;
}

static int exchange(int fd, const char *socket_path, const char *request, size_t request_length, double deadline,
                    char *answer, size_t *answer_length, char *why, size_t why_size)
{
    if (service_send(fd, socket_path, request, request_length, deadline, why, why_size) != 0)
        return -1;
    *answer_length = 0;
    while (*answer_length < ANSWER_SIZE - 1) {
        if (limit_to_deadline(fd, deadline) != 0)
            return service_fail(why, why_size, "no answer from fpbridged at", socket_path, EAGAIN);
        ssize_t count = recv(fd, answer + *answer_length, ANSWER_SIZE - 1 - *answer_length, 0);
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0)
            return service_fail(why, why_size, "no answer from fpbridged at", socket_path, errno);
        if (count == 0)
            break;
        *answer_length += (size_t)count;
    }
    answer[*answer_length] = '\0';
    return 0;
}

int service_status(const char *text)
{
    int status = 0;
    char after = 0;
    if (sscanf(text, "HTTP/1.%*1[01] %3d%c", &status, &after) != 2 || status < 100 || status > 599 || after != ' ')
        return -1;
    return status;
}

/* "HTTP/1.1 200 OK\r\n...\r\n\r\nBODY": the status, and the body's start made printable. */
static int read_answer(const char *text, struct service_answer *answer)
{
    int status = service_status(text);
    if (status < 0)
        return -1;
    answer->status = status;
    const char *body = strstr(text, "\r\n\r\n");
    body = body ? body + 4 : "";
    size_t length = 0;
    for (; body[length] != '\0' && length < sizeof answer->detail - 1; length++) {
        unsigned char c = (unsigned char)body[length];
        answer->detail[length] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
    }
    while (length > 0 && answer->detail[length - 1] == '?' && (body[length - 1] == '\n' || body[length - 1] == '\r'))
        length--; /* the body's last newline */
    answer->detail[length] = '\0';
    return 0;
}

int service_post(const char *socket_path, const char *path, const char *body,
                 struct service_answer *answer, char *why, size_t why_size)
{
    char request[REQUEST_SIZE];
    int length = service_format_post(request, sizeof request, path, body);
    if (length < 0)
        return service_fail(why, why_size, "request too long for", socket_path, 0);
    double deadline = service_now() + FPBRIDGE_REQUEST_SECONDS;
    int fd = service_connect(socket_path, deadline, why, why_size);
    if (fd < 0)
        return -1;
    char text[ANSWER_SIZE];
    size_t text_length = 0;
    int result = exchange(fd, socket_path, request, (size_t)length, deadline, text, &text_length, why, why_size);
    close(fd);
    if (result != 0)
        return result;
    if (read_answer(text, answer) != 0) {
        snprintf(why, why_size, "not an HTTP answer from %s (%zu bytes)", socket_path, text_length);
        return -1;
    }
    return 0;
}
