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

/* Where the value of the first `"key":` starts, or NULL. */
static const char *value_of(const char *json, const char *key)
{
    char pattern[64];
    int length = snprintf(pattern, sizeof pattern, "\"%s\":", key);
    if (length < 0 || (size_t)length >= sizeof pattern)
        return NULL;
    const char *found = strstr(json, pattern);
    return found ? found + length : NULL;
}

int json_find_string(const char *json, const char *key, char *out, size_t size)
{
    const char *p = value_of(json, key);
    if (p == NULL || *p != '"' || size == 0)
        return -1;
    size_t used = 0;
    for (p++; *p != '"'; p++) {
        if (*p == '\0' || used + 1 >= size)
            return -1;
        char c = *p;
        if (c == '\\') {
            p++;
            switch (*p) {
            case 'n': case 'r': case 't': case 'b': case 'f': c = ' '; break;
            case 'u':
                for (int digit = 1; digit <= 4; digit++)
                    if (p[digit] == '\0')
                        return -1;
                c = '?';
                p += 4;
                break;
            case '\0': return -1;
            default: c = *p; break;
            }
        }
        /* Printable ASCII alone reaches a terminal or the log: a control byte, DEL, and every
         * byte of 0x80 and above (C1 controls such as 0x9b, CSI on 8-bit terminals, and the
         * UTF-8 that could encode them) become '?'. */
        out[used++] = ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f) ? '?' : c;
    }
    out[used] = '\0';
    return 0;
}

int json_find_int(const char *json, const char *key, int *value)
{
    const char *p = value_of(json, key);
    if (p == NULL || !(*p == '-' || (*p >= '0' && *p <= '9')))
        return -1;
    char *end = NULL;
    long number = strtol(p, &end, 10);
    if (end == p || number < -1000000 || number > 1000000)
        return -1;
    *value = (int)number;
    return 0;
}

int json_find_bool(const char *json, const char *key)
{
    const char *p = value_of(json, key);
    if (p == NULL)
        return -1;
    if (strncmp(p, "true", 4) == 0)
        return 1;
    if (strncmp(p, "false", 5) == 0)
        return 0;
    return -1;
}
