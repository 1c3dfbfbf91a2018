/* Reading one line of fpbridged's stream as JSON (RFC 8259): the whole text is parsed and
 * checked, and a value is found by its path of keys from the top object, never by searching the
 * text, so a key nested elsewhere (an error's `cause` holds a `code` of its own) or inside a
 * string never answers for another. A key on the path that occurs twice in its object makes the
 * text unreadable: which of the two counts is not for the module to guess. */
#ifndef PAM_FPBRIDGE_JSON_READER_H
#define PAM_FPBRIDGE_JSON_READER_H

#include <stddef.h>

enum json_kind { JSON_ABSENT, JSON_STRING, JSON_NUMBER, JSON_TRUE, JSON_FALSE, JSON_NULL, JSON_OBJECT, JSON_ARRAY };

/* A value found: its kind and its text in the document (a string's with its quotes). */
struct json_value {
    enum json_kind kind;
    const char *text;
    size_t length;
};

/* Nesting deeper than this is refused (the module's stack is the host's). */
#define JSON_MAX_DEPTH 32

/* Parses the `length` bytes at `text` as one JSON document and finds the value at `path`, a
 * NULL-terminated list of object keys from the top (`{"error", "code", NULL}`). Returns 0 when
 * the document is valid (`found->kind` is JSON_ABSENT when the path leads nowhere), -1 when it
 * is not JSON, nests too deep, or repeats a key of the path. */
int json_lookup(const char *text, size_t length, const char *const *path, struct json_value *found);

/* A string value, unescaped, into `out` (NUL-terminated): every character that is not
 * printable ASCII (controls, DEL, bytes of 0x80 and above, \u escapes beyond 0x7e) becomes
 * '?', so that nothing read reaches a terminal or a log as anything but text. Returns 0, or -1
 * when the value is no string or does not fit. */
int json_string_value(const struct json_value *value, char *out, size_t size);

/* An integer value (no fraction, no exponent) within [-1000000, 1000000]. Returns 0, or -1. */
int json_int_value(const struct json_value *value, int *out);

#endif
