/* JSON string escaping (RFC 8259, section 7): the quote, the backslash and every control
 * character are escaped; every other byte is copied, so UTF-8 stays as it is and a name that
 * is not UTF-8 reaches fpbridged as it is, which refuses it (400) with the field named. */
#include "json_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int append_bytes(char *out, size_t size, size_t *used, const char *bytes, size_t count)
{
    if (count >= size - *used)
        return -1;
    memcpy(out + *used, bytes, count);
    *used += count;
    out[*used] = '\0';
    return 0;
}

int json_append_raw(char *out, size_t size, size_t *used, const char *text)
{
    return append_bytes(out, size, used, text, strlen(text));
}

int json_append_string(char *out, size_t size, size_t *used, const char *text)
{
    if (append_bytes(out, size, used, "\"", 1) != 0)
        return -1;
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        char escaped[7];
        size_t count;
        if (*p == '"' || *p == '\\') {
            escaped[0] = '\\';
            escaped[1] = (char)*p;
            count = 2;
        } else if (*p < 0x20 || *p == 0x7f) {
            /* DEL needs no escape in JSON; escaped anyway so that a log of the body stays printable. */
            count = (size_t)snprintf(escaped, sizeof escaped, "\\u%04x", *p);
        } else {
            escaped[0] = (char)*p;
            count = 1;
        }
        if (append_bytes(out, size, used, escaped, count) != 0)
            return -1;
    }
    return append_bytes(out, size, used, "\"", 1);
}
