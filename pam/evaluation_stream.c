/* fpbridged answers an evaluation with HTTP/1.1 chunked transfer (Hummingbird streams NDJSON,
 * one line per event), so the bytes go through two steps: chunks into payload, payload into
 * lines. Waiting is poll() with a timeout, never a socket timeout, so that a reader thread can be
 * woken by stream_hang_up (shutdown) from another thread. */
#include "evaluation_stream.h"

#include "json_reader.h"
#include "service_request.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define REQUEST_SIZE 4096

static void take_raw(struct evaluation_stream *stream, size_t count)
{
    memmove(stream->raw, stream->raw + count, stream->raw_used - count);
    stream->raw_used -= count;
}

/* Moves what the chunk framing holds into `lines`. Returns -1 on framing fpbridged never sends. */
static int unchunk(struct evaluation_stream *stream)
{
    for (;;) {
        if (stream->in_chunk) {
            size_t room = sizeof stream->lines - 1 - stream->lines_used;
            size_t count = stream->chunk_left < stream->raw_used ? stream->chunk_left : stream->raw_used;
            if (count > room)
                count = room;
            if (count == 0 && stream->chunk_left > 0)
                return room == 0 ? -1 : 0;
            memcpy(stream->lines + stream->lines_used, stream->raw, count);
            stream->lines_used += count;
            take_raw(stream, count);
            stream->chunk_left -= count;
            if (stream->chunk_left > 0)
                return 0;
            if (stream->raw_used < 2)
                return 0;
            if (memcmp(stream->raw, "\r\n", 2) != 0)
                return -1;
            take_raw(stream, 2);
            stream->in_chunk = 0;
        }
        char *end = memchr(stream->raw, '\n', stream->raw_used);
        if (end == NULL)
            return stream->raw_used < 32 ? 0 : -1;
        /* The size line: hex digits, then CRLF (an extension after ';' is allowed and ignored).
         * Read by hand: `raw` is no C string. */
        size_t size = 0, digits = 0;
        const char *c = stream->raw;
        for (; c < end && isxdigit((unsigned char)*c); c++, digits++) {
            if (digits == 7)
                return -1; /* over 256 MiB: nothing fpbridged sends */
            size = size * 16 + (size_t)(isdigit((unsigned char)*c) ? *c - '0' : (tolower((unsigned char)*c) - 'a' + 10));
        }
        if (digits == 0 || (c < end && *c != '\r' && *c != ';') || size > 1024 * 1024)
            return -1;
        take_raw(stream, (size_t)(end - stream->raw) + 1);
        if (size == 0) {
            stream->ended = 1;
            return 0;
        }
        stream->chunk_left = size;
        stream->in_chunk = 1;
    }
}

/* Milliseconds until `deadline` for poll(): -1 for none (deadline < 0), 0 once it passed. */
static int until(double deadline)
{
    if (deadline < 0)
        return -1;
    double left = deadline - service_now();
    return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

/* Waits for bytes and takes them in. 1: bytes came; 0: the deadline passed; -1: closed or failed.
 * A signal the program handles (SIGWINCH, SIGCHLD) ends no wait: poll() is asked again with
 * what is left. */
static int receive(struct evaluation_stream *stream, double deadline)
{
    if (stream->raw_used >= sizeof stream->raw)
        return -1;
    struct pollfd wait = { .fd = stream->fd, .events = POLLIN };
    int ready;
    do {
        ready = poll(&wait, 1, until(deadline));
    } while (ready < 0 && errno == EINTR);
    if (ready < 0)
        return -1;
    if (ready == 0)
        return 0;
    ssize_t count = recv(stream->fd, stream->raw + stream->raw_used, sizeof stream->raw - stream->raw_used, MSG_DONTWAIT);
    if (count < 0 && (errno == EAGAIN || errno == EINTR))
        return 1; /* nothing after all: the caller looks again, within its deadline */
    if (count <= 0)
        return -1;
    stream->raw_used += (size_t)count;
    return 1;
}

/* One line of the stream: JSON, read whole (json_reader.h). A line that is not JSON ends the
 * finger as a failure: what it meant cannot be known, and a guess could be a match. */
static void read_line(const char *text, size_t length, struct stream_line *line)
{
    line->kind = LINE_OTHER;
    line->code = 0;
    line->attempts_left = -1;
    line->message[0] = '\0';
    static const char *const type_path[] = { "type", NULL }, *const kind_path[] = { "event", "kind", NULL },
                             *const left_path[] = { "event", "attemptsLeftInEvaluation", NULL }, *const ok_path[] = { "ok", NULL },
                             *const code_path[] = { "error", "code", NULL }, *const message_path[] = { "error", "message", NULL };
    struct json_value value;
    char type[32], kind[32];
    if (json_lookup(text, length, type_path, &value) != 0) {
        line->kind = LINE_FAILED;
        snprintf(line->message, sizeof line->message, "fpbridged sent a line that is not JSON");
        return;
    }
    if (json_string_value(&value, type, sizeof type) != 0)
        return;
    if (strcmp(type, "event") == 0) {
        if (json_lookup(text, length, kind_path, &value) != 0 || json_string_value(&value, kind, sizeof kind) != 0)
            return;
        if (strcmp(kind, "presentFinger") == 0)
            line->kind = LINE_READY;
        if (strcmp(kind, "noMatch") == 0) {
            line->kind = LINE_NO_MATCH;
            if (json_lookup(text, length, left_path, &value) != 0 || json_int_value(&value, &line->attempts_left) != 0
                || line->attempts_left < 0)
                line->attempts_left = -1;
        }
        return;
    }
    if (strcmp(type, "result") != 0)
        return;
    if (json_lookup(text, length, ok_path, &value) == 0 && value.kind == JSON_TRUE) {
        line->kind = LINE_MATCHED;
        return;
    }
    /* Anything else that ends the stream is a failure, a result we cannot read included. */
    line->kind = LINE_FAILED;
    if (json_lookup(text, length, code_path, &value) != 0 || json_int_value(&value, &line->code) != 0)
        line->code = 0;
    if (json_lookup(text, length, message_path, &value) != 0
        || json_string_value(&value, line->message, sizeof line->message) != 0)
        snprintf(line->message, sizeof line->message, "fpbridged ended the scan");
}

int stream_take_bytes(struct evaluation_stream *stream, const char *bytes, size_t count)
{
    if (count > sizeof stream->raw - stream->raw_used)
        return -1;
    memcpy(stream->raw + stream->raw_used, bytes, count);
    stream->raw_used += count;
    return unchunk(stream);
}

int stream_pop_line(struct evaluation_stream *stream, struct stream_line *line)
{
    char *end = memchr(stream->lines, '\n', stream->lines_used);
    if (end == NULL)
        return (stream->ended || stream->lines_used >= sizeof stream->lines - 1) ? -1 : 0;
    size_t length = (size_t)(end - stream->lines);
    read_line(stream->lines, length, line);
    size_t taken = length + 1;
    memmove(stream->lines, stream->lines + taken, stream->lines_used - taken);
    stream->lines_used -= taken;
    return 1;
}

int stream_next(struct evaluation_stream *stream, struct stream_line *line, double deadline)
{
    for (;;) {
        int popped = stream_pop_line(stream, line);
        if (popped != 0)
            return popped;
        int received = receive(stream, deadline);
        if (received <= 0)
            return received;
        if (unchunk(stream) != 0)
            return -1;
    }
}

/* The answer's head: "HTTP/1.1 200 ..." through the blank line; the rest stays in `raw`. */
static int read_head(struct evaluation_stream *stream, double deadline, const char *socket_path, char *why, size_t why_size)
{
    for (;;) {
        char *blank = NULL;
        if (stream->raw_used > 0) {
            stream->raw[stream->raw_used < sizeof stream->raw ? stream->raw_used : sizeof stream->raw - 1] = '\0';
            blank = strstr(stream->raw, "\r\n\r\n");
        }
        if (blank != NULL) {
            int status = service_status(stream->raw);
            if (status < 0) {
                snprintf(why, why_size, "not an HTTP answer from %s", socket_path);
                return -1;
            }
            if (status != 200) {
                snprintf(why, why_size, "fpbridged at %s refused the verify (HTTP %d)", socket_path, status);
                return -1;
            }
            /* Every other answer of fpbridged's has a length; a stream is chunked. */
            if (strcasestr(stream->raw, "transfer-encoding: chunked") == NULL) {
                snprintf(why, why_size, "fpbridged at %s answered the verify without a stream", socket_path);
                return -1;
            }
            take_raw(stream, (size_t)(blank - stream->raw) + 4);
            return 0;
        }
        int received = deadline > service_now() ? receive(stream, deadline) : 0;
        if (received == 0)
            return service_fail(why, why_size, "no answer from fpbridged at", socket_path, EAGAIN);
        if (received < 0)
            return service_fail(why, why_size, "no answer from fpbridged at", socket_path, 0);
    }
}

int stream_open(struct evaluation_stream *stream, const char *socket_path, const char *body, int seconds,
                char *why, size_t why_size)
{
    memset(stream, 0, sizeof *stream);
    stream->fd = -1;
    char request[REQUEST_SIZE];
    int length = service_format_post(request, sizeof request, "/v1/evaluations", body);
    if (length < 0)
        return service_fail(why, why_size, "request too long for", socket_path, 0);
    double deadline = service_now() + seconds;
    stream->fd = service_connect(socket_path, deadline, why, why_size);
    if (stream->fd < 0)
        return -1;
    if (service_send(stream->fd, socket_path, request, (size_t)length, deadline, why, why_size) != 0
        || read_head(stream, deadline, socket_path, why, why_size) != 0
        || unchunk(stream) != 0) {
        stream_close(stream);
        return -1;
    }
    return 0;
}

void stream_hang_up(struct evaluation_stream *stream)
{
    if (stream->fd >= 0)
        shutdown(stream->fd, SHUT_RDWR);
}

void stream_close(struct evaluation_stream *stream)
{
    if (stream->fd >= 0)
        close(stream->fd);
    stream->fd = -1;
}
