/* The module's reading of fpbridged's answers without a socket, for its tests and its fuzzing:
 * the stream's framing (pam/evaluation_stream.c) and the JSON reader (pam/json_reader.c).
 *
 *   stream_reader [PIECE]   the body of an answer on standard input (chunked, as fpbridged sends
 *                           it), fed PIECE bytes at a time (default: all at once); prints one
 *                           "line: KIND code=N left=N message=TEXT" per whole line, then
 *                           "end: ended" (the last chunk), "end: more" (the input ran out first)
 *                           or "end: refused" (framing or a line the buffers cannot hold).
 *
 * Built with -DFUZZING (scripts/fuzz.sh, clang's -fsanitize=fuzzer) it is libFuzzer's target
 * instead: FPBRIDGE_FUZZ_TARGET=pam-stream feeds the input as a body in pieces of the size its
 * first byte names; pam-json looks up the module's paths in the input as one JSON document. */
#include "../evaluation_stream.h"
#include "../json_reader.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(enum stream_line_kind kind)
{
    switch (kind) {
    case LINE_OTHER: return "other";
    case LINE_READY: return "ready";
    case LINE_NO_MATCH: return "no-match";
    case LINE_MATCHED: return "matched";
    case LINE_FAILED: return "failed";
    }
    return "?";
}

/* Feeds `size` bytes in pieces of `piece`, handing each whole line to `told` (NULL: none).
 * Returns 1 when the last chunk came, 0 when the input ran out first, -1 when refused. */
static int feed(const uint8_t *data, size_t size, size_t piece, void (*told)(const struct stream_line *))
{
    static struct evaluation_stream stream; /* 16 KiB: not on the fuzzer's stack */
    memset(&stream, 0, sizeof stream);
    stream.fd = -1;
    for (size_t at = 0; at < size; at += piece) {
        size_t count = size - at < piece ? size - at : piece;
        if (stream_take_bytes(&stream, (const char *)data + at, count) != 0)
            return -1;
        struct stream_line line;
        int popped;
        while ((popped = stream_pop_line(&stream, &line)) == 1)
            if (told != NULL)
                told(&line);
        if (popped < 0)
            return stream.ended ? 1 : -1;
    }
    return stream.ended ? 1 : 0;
}

#ifdef FUZZING
static void check_line(const struct stream_line *line)
{
    /* What reaches a terminal: printable ASCII, always ended. */
    size_t length = strnlen(line->message, sizeof line->message);
    if (length == sizeof line->message)
        abort();
    for (size_t i = 0; i < length; i++)
        if ((unsigned char)line->message[i] < 0x20 || (unsigned char)line->message[i] > 0x7e)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *target = getenv("FPBRIDGE_FUZZ_TARGET");
    if (target != NULL && strcmp(target, "pam-json") == 0) {
        static const char *const paths[][3] = { { "type", NULL }, { "error", "code" }, { "error", "message" } };
        for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
            const char *path[3] = { paths[i][0], paths[i][1], NULL };
            struct json_value value;
            if (json_lookup((const char *)data, size, path, &value) != 0)
                continue;
            if (value.kind != JSON_ABSENT && (value.text < (const char *)data || value.text + value.length > (const char *)data + size))
                abort();
            char text[64];
            int number;
            if (json_string_value(&value, text, sizeof text) == 0 && strnlen(text, sizeof text) == sizeof text)
                abort();
            (void)json_int_value(&value, &number);
        }
        return 0;
    }
    if (size == 0)
        return 0;
    size_t piece = data[0] == 0 ? 1 : data[0];
    feed(data + 1, size - 1, piece, check_line);
    return 0;
}
#else
static void print_line(const struct stream_line *line)
{
    printf("line: %s code=%d left=%d message=%s\n", kind_name(line->kind), line->code, line->attempts_left, line->message);
}

int main(int argc, char **argv)
{
    size_t piece = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 0;
    static uint8_t input[1 << 20];
    size_t size = fread(input, 1, sizeof input, stdin);
    int ended = feed(input, size, piece == 0 ? (size == 0 ? 1 : size) : piece, print_line);
    printf("end: %s\n", ended > 0 ? "ended" : ended == 0 ? "more" : "refused");
    return 0;
}
#endif
