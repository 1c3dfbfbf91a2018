/* JSON string text for the request bodies the module sends to fpbridged (reading its answers:
 * json_reader.h). */
#ifndef PAM_FPBRIDGE_JSON_TEXT_H
#define PAM_FPBRIDGE_JSON_TEXT_H

#include <stddef.h>

/* Appends `text` to `out` (which holds `*used` bytes of `size`) as a JSON string, quotes
 * included, and keeps `out` NUL-terminated. Returns 0, or -1 when it does not fit (`out` is
 * then unusable). */
int json_append_string(char *out, size_t size, size_t *used, const char *text);

/* Appends `text` as it is (JSON punctuation); same contract as json_append_string. */
int json_append_raw(char *out, size_t size, size_t *used, const char *text);

#endif
