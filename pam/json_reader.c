/* A recursive-descent JSON parser over a bounded text, for json_reader.h. It builds nothing:
 * it checks the grammar and notes where the value at the path is. */
#include "json_reader.h"

#include <string.h>

struct parser {
    const char *at;
    const char *end;
    const char *const *path;  /* the keys still to match below the current on-path object */
    struct json_value *found;
};

static void skip_space(struct parser *p)
{
    while (p->at < p->end && (*p->at == ' ' || *p->at == '\t' || *p->at == '\n' || *p->at == '\r'))
        p->at++;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A string at p->at (its opening quote). With `key` (size > 0), its unescaped text, or "" when
 * it does not fit (then it matches no key of a path). Returns 0, or -1 when malformed. */
static int parse_string(struct parser *p, char *key, size_t key_size)
{
    if (p->at >= p->end || *p->at != '"')
        return -1;
    p->at++;
    size_t used = 0;
    int fits = 1;
    while (p->at < p->end && *p->at != '"') {
        unsigned char c = (unsigned char)*p->at;
        int code = c;
        if (c < 0x20)
            return -1;
        if (c == '\\') {
            if (p->at + 1 >= p->end)
                return -1;
            char escape = p->at[1];
            p->at += 2;
            switch (escape) {
            case '"': code = '"'; break;
            case '\\': code = '\\'; break;
            case '/': code = '/'; break;
            case 'b': code = '\b'; break;
            case 'f': code = '\f'; break;
            case 'n': code = '\n'; break;
            case 'r': code = '\r'; break;
            case 't': code = '\t'; break;
            case 'u':
                if (p->end - p->at < 4)
                    return -1;
                code = 0;
                for (int i = 0; i < 4; i++) {
                    int digit = hex_digit(p->at[i]);
                    if (digit < 0)
                        return -1;
                    code = code * 16 + digit;
                }
                p->at += 4;
                break;
            default:
                return -1;
            }
        } else {
            p->at++;
        }
        if (key_size > 0) {
            /* A key with a character beyond ASCII is none the module looks up. */
            /* \u0000 too: C's strings would end the key there, and "ok\u0000x" would be "ok". */
            if (code == 0 || code > 0x7f || used + 1 >= key_size)
                fits = 0;
            else
                key[used++] = (char)code;
        }
    }
    if (p->at >= p->end)
        return -1;
    p->at++;
    if (key_size > 0)
        key[fits ? used : 0] = '\0';
    return 0;
}

static int parse_number(struct parser *p)
{
    const char *start = p->at;
    if (p->at < p->end && *p->at == '-')
        p->at++;
    if (p->at >= p->end)
        return -1;
    if (*p->at == '0')
        p->at++;
    else if (*p->at >= '1' && *p->at <= '9')
        while (p->at < p->end && *p->at >= '0' && *p->at <= '9')
            p->at++;
    else
        return -1;
    if (p->at < p->end && *p->at == '.') {
        p->at++;
        const char *digits = p->at;
        while (p->at < p->end && *p->at >= '0' && *p->at <= '9')
            p->at++;
        if (p->at == digits)
            return -1;
    }
    if (p->at < p->end && (*p->at == 'e' || *p->at == 'E')) {
        p->at++;
        if (p->at < p->end && (*p->at == '+' || *p->at == '-'))
            p->at++;
        const char *digits = p->at;
        while (p->at < p->end && *p->at >= '0' && *p->at <= '9')
            p->at++;
        if (p->at == digits)
            return -1;
    }
    return p->at > start ? 0 : -1;
}

static int literal(struct parser *p, const char *word)
{
    size_t length = strlen(word);
    if ((size_t)(p->end - p->at) < length || memcmp(p->at, word, length) != 0)
        return -1;
    p->at += length;
    return 0;
}

static int parse_value(struct parser *p, int depth, const char *const *path);

/* After a member of an object or an array: 1 for a comma (another follows), 0 for `close`
 * (taken), -1 for anything else. */
static int after_member(struct parser *p, char close)
{
    skip_space(p);
    if (p->at >= p->end)
        return -1;
    if (*p->at == ',' || *p->at == close) {
        p->at++;
        return p->at[-1] == ',' ? 1 : 0;
    }
    return -1;
}

/* An object. `path`: the keys to match inside it (NULL when this object is off the path). */
static int parse_object(struct parser *p, int depth, const char *const *path)
{
    p->at++; /* '{' */
    skip_space(p);
    if (p->at < p->end && *p->at == '}') {
        p->at++;
        return 0;
    }
    int matches = 0;
    for (;;) {
        char key[64];
        skip_space(p);
        if (parse_string(p, key, sizeof key) != 0)
            return -1;
        skip_space(p);
        if (p->at >= p->end || *p->at != ':')
            return -1;
        p->at++;
        skip_space(p);
        const char *const *below = NULL;
        if (path != NULL && *path != NULL && strcmp(key, *path) == 0) {
            if (++matches > 1)
                return -1; /* the path's key twice in one object */
            below = path + 1;
        }
        const char *value_start = p->at;
        if (parse_value(p, depth + 1, below) != 0)
            return -1;
        if (below != NULL && *below == NULL) {
            /* The path ends here: this is the value. Its kind from its first byte. */
            p->found->text = value_start;
            p->found->length = (size_t)(p->at - value_start);
            switch (*value_start) {
            case '"': p->found->kind = JSON_STRING; break;
            case '{': p->found->kind = JSON_OBJECT; break;
            case '[': p->found->kind = JSON_ARRAY; break;
            case 't': p->found->kind = JSON_TRUE; break;
            case 'f': p->found->kind = JSON_FALSE; break;
            case 'n': p->found->kind = JSON_NULL; break;
            default: p->found->kind = JSON_NUMBER; break;
            }
        }
        int more = after_member(p, '}');
        if (more <= 0)
            return more;
    }
}

static int parse_array(struct parser *p, int depth)
{
    p->at++; /* '[' */
    skip_space(p);
    if (p->at < p->end && *p->at == ']') {
        p->at++;
        return 0;
    }
    for (;;) {
        skip_space(p);
        /* No path goes through an array: the module looks up none. */
        if (parse_value(p, depth + 1, NULL) != 0)
            return -1;
        int more = after_member(p, ']');
        if (more <= 0)
            return more;
    }
}

static int parse_value(struct parser *p, int depth, const char *const *path)
{
    if (depth > JSON_MAX_DEPTH || p->at >= p->end)
        return -1;
    switch (*p->at) {
    case '{': return parse_object(p, depth, path);
    case '[': return parse_array(p, depth);
    case '"': return parse_string(p, NULL, 0);
    case 't': return literal(p, "true");
    case 'f': return literal(p, "false");
    case 'n': return literal(p, "null");
    default: return parse_number(p);
    }
}

int json_lookup(const char *text, size_t length, const char *const *path, struct json_value *found)
{
    found->kind = JSON_ABSENT;
    found->text = NULL;
    found->length = 0;
    struct parser p = { .at = text, .end = text + length, .path = path, .found = found };
    skip_space(&p);
    /* The top is an object whose keys the path names. */
    if (p.at >= p.end || *p.at != '{' || parse_value(&p, 0, path) != 0)
        goto invalid;
    skip_space(&p);
    if (p.at != p.end)
        goto invalid;
    return 0;
invalid:
    found->kind = JSON_ABSENT;
    return -1;
}

int json_string_value(const struct json_value *value, char *out, size_t size)
{
    if (value->kind != JSON_STRING || size == 0)
        return -1;
    /* The string was checked by json_lookup: its escapes are whole. */
    const char *at = value->text + 1, *end = value->text + value->length - 1;
    size_t used = 0;
    while (at < end) {
        int code = (unsigned char)*at;
        if (*at == '\\') {
            char escape = at[1];
            at += 2;
            if (escape == 'u') {
                code = 0;
                for (int i = 0; i < 4; i++)
                    code = code * 16 + hex_digit(at[i]);
                at += 4;
            } else {
                code = escape == '"' || escape == '\\' || escape == '/' ? escape : ' ';
            }
        } else {
            at++;
        }
        if (used + 1 >= size)
            return -1;
        out[used++] = (code >= 0x20 && code < 0x7f) ? (char)code : '?';
    }
    out[used] = '\0';
    return 0;
}

int json_int_value(const struct json_value *value, int *out)
{
    if (value->kind != JSON_NUMBER)
        return -1;
    const char *at = value->text, *end = value->text + value->length;
    int negative = at < end && *at == '-';
    if (negative)
        at++;
    long number = 0;
    for (; at < end; at++) {
        if (*at < '0' || *at > '9')
            return -1; /* a fraction or an exponent */
        number = number * 10 + (*at - '0');
        if (number > 1000000)
            return -1;
    }
    *out = (int)(negative ? -number : number);
    return 0;
}
