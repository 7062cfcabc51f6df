/* base_str: growable strings, and the one JSON string escaper of gpmc. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"

/* Room for `more` bytes and the NUL after them; -1 (sticky) when there
   is none. The text so far is NUL-terminated whenever it exists. */
static int reserve(BaseStr *s, size_t more)
{
    assert(!s->s ? s->len == 0 : s->len < s->cap && s->s[s->len] == '\0');
    if (s->failed)
        return -1;
    if (more > SIZE_MAX - s->len - 1 || BASE_GROW(s->s, s->cap, s->len + more + 1)) {
        s->failed = 1;
        return -1;
    }
    assert(s->len + more < s->cap);
    return 0;
}

void base_str_putn(BaseStr *s, const char *text, size_t n)
{
    if (reserve(s, n))
        return;
    memcpy(s->s + s->len, text, n);
    s->len += n;
    s->s[s->len] = '\0';
}

void base_str_printf(BaseStr *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || reserve(s, (size_t)n))
        return;
    va_start(ap, fmt);
    int m = vsnprintf(s->s + s->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    assert(m == n);                     /* the same arguments, twice */
    (void)m;
    s->len += (size_t)n;
}

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs,
   no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 &&
                       (p[3] & 0xC0) == 0x80
                   ? 4
                   : 0;
    }
    return 0;
}

void base_str_json(BaseStr *s, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    base_str_putn(s, "\"", 1);
    while (*p) {
        size_t k = utf8_len(p);
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            base_str_putn(s, esc, 2);
        } else if (*p == '\n') {
            base_str_putn(s, "\\n", 2);
        } else if (*p == '\t') {
            base_str_putn(s, "\\t", 2);
        } else if (*p < 0x20 || *p == 0x7F) {
            base_str_printf(s, "\\u%04x", *p);
        } else if (k == 0) {
            base_str_putn(s, "\\ufffd", 6);
            k = 1;
        } else {
            base_str_putn(s, (const char *)p, k);
        }
        p += k ? k : 1;
    }
    base_str_putn(s, "\"", 1);
}

int base_str_copy(const BaseStr *s, char *buf, size_t len)
{
    if (len) {
        size_t n = s->failed || !s->s ? 0 : s->len < len - 1 ? s->len
                                                             : len - 1;
        if (n)
            memcpy(buf, s->s, n);
        buf[n] = '\0';
    }
    return s->failed ? -1 : 0;
}

void base_str_clear(BaseStr *s)
{
    base_str_truncate(s, 0);
}

void base_str_truncate(BaseStr *s, size_t len)
{
    assert(len <= s->len);
    s->len = len;
    if (s->s)
        s->s[len] = '\0';
}

void base_str_free(BaseStr *s)
{
    base_free(s->s);
    memset(s, 0, sizeof *s);
}
