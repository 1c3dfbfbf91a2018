/* JSON string text for the request bodies the module sends to fpbridged. */
#ifndef PAM_FPBRIDGE_JSON_TEXT_H
#define PAM_FPBRIDGE_JSON_TEXT_H

#include <stddef.h>

/* Appends `text` to `out` (which holds `*used` bytes of `size`) as a JSON string, quotes
 * included, and keeps `out` NUL-terminated. Returns 0, or -1 when it does not fit (`out` is
 * then unusable). */
int json_append_string(char *out, size_t size, size_t *used, const char *text);

/* Appends `text` as it is (JSON punctuation); same contract as json_append_string. */
int json_append_raw(char *out, size_t size, size_t *used, const char *text);

/* Reading fpbridged's answers, one line of JSON each: the value after the first `"key":` in
 * `json` (fpbridged writes compact JSON; a key inside a string value cannot match, its quotes
 * being escaped there). These take the first occurrence, so a key the answer nests twice must
 * be looked up in the part that holds it. */

/* A string value, unescaped (\uXXXX, control characters and bytes of 0x7f and above become '?'), into
 * `out`. Returns 0, or -1 when the key or a string value is missing or does not fit. */
int json_find_string(const char *json, const char *key, char *out, size_t size);

/* An integer value. Returns 0, or -1 when the key or an integer is missing. */
int json_find_int(const char *json, const char *key, int *value);

/* 1 for true, 0 for false, -1 when the key or a boolean is missing. */
int json_find_bool(const char *json, const char *key);

#endif
