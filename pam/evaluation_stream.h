/* A verify for one user on fpbridged's socket (POST /v1/evaluations, operation verify), read one
 * line at a time as the scan goes on. Closing the stream cancels the scan: fpbridged counts only
 * scans that finished (api/fpbridged.openapi.yaml, OperationStream.swift). */
#ifndef PAM_FPBRIDGE_EVALUATION_STREAM_H
#define PAM_FPBRIDGE_EVALUATION_STREAM_H

#include <stddef.h>

#define STREAM_LINE_SIZE 2048
#define STREAM_BUFFER_SIZE 8192

struct evaluation_stream {
    int fd;
    /* Bytes received and not yet taken apart: chunk framing (HTTP/1.1 chunked) and lines. */
    char raw[STREAM_BUFFER_SIZE];
    size_t raw_used;
    size_t chunk_left;   /* payload bytes of the current chunk not yet moved to `lines` */
    int in_chunk;        /* 1 between a chunk's size line and its payload's end */
    int ended;           /* the last chunk (size 0) was seen, or fpbridged closed */
    char lines[STREAM_BUFFER_SIZE];
    size_t lines_used;
};

/* What one line of the stream says, as far as the module cares. */
enum stream_line_kind {
    LINE_OTHER,          /* started, presentFinger, fingerDetected, ...: nothing to do */
    LINE_READY,          /* event presentFinger: the reader waits for the finger */
    LINE_NO_MATCH,       /* event noMatch: a finger did not match; the scan goes on */
    LINE_MATCHED,        /* result ok: the user's finger */
    LINE_FAILED,         /* result with an error: `code` and `message` say which */
};

struct stream_line {
    enum stream_line_kind kind;
    int code;                 /* LINE_FAILED: the WireError code (-8 biometryLockout, ...) */
    int attempts_left;        /* LINE_NO_MATCH: attemptsLeftInEvaluation, or -1 */
    char message[512];        /* LINE_FAILED: the error's message, printable */
};

/* The error codes the module tells apart (api/fpbridged.openapi.yaml, WireError). */
#define CODE_AUTHENTICATION_FAILED (-1)
#define CODE_BIOMETRY_LOCKOUT (-8)
#define CODE_READER_BUSY (-2002)
#define CODE_TIMED_OUT (-2003)

/* Connects, sends the request and reads the answer's head, all within `seconds`. `body` is the
 * request's JSON. Returns 0, or -1 with the reason in `why` (the stream is then closed). */
int stream_open(struct evaluation_stream *stream, const char *socket_path, const char *body, int seconds,
                char *why, size_t why_size);

/* The next line, waiting until `deadline` at most (service_now()'s clock; negative: until one
 * comes or the stream ends). Returns 1 with `line` filled, 0 when the deadline passed, -1 when
 * the stream ended or failed. */
int stream_next(struct evaluation_stream *stream, struct stream_line *line, double deadline);

/* The two steps of stream_next without the socket (the tests' and the fuzzer's way in): bytes
 * of the answer's body as they come (0, or -1 on framing fpbridged never sends or more than the
 * buffer holds), and the next whole line (1 with `line` filled, 0 when none is whole yet, -1
 * when the stream ended or a line overflowed). */
int stream_take_bytes(struct evaluation_stream *stream, const char *bytes, size_t count);
int stream_pop_line(struct evaluation_stream *stream, struct stream_line *line);

/* Ends the exchange so that a reader blocked in stream_next returns at once; fpbridged sees the
 * connection close and cancels the scan. The descriptor stays open until stream_close. */
void stream_hang_up(struct evaluation_stream *stream);

void stream_close(struct evaluation_stream *stream);

#endif
