/* lit_str: a growable string for the printer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus_int.h"

void lit_str_printf(LitStr *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || s->failed)
        return;
    if (s->len + (size_t)n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 128;
        while (cap < s->len + (size_t)n + 1)
            cap *= 2;
        char *t = realloc(s->s, cap);
        if (!t) {
            s->failed = 1;
            return;
        }
        s->s = t;
        s->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(s->s + s->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    s->len += (size_t)n;
}

void lit_str_copy(const LitStr *s, char *buf, size_t len)
{
    if (!len)
        return;
    size_t n = s->failed || !s->s ? 0 : s->len < len - 1 ? s->len : len - 1;
    if (n)
        memcpy(buf, s->s, n);
    buf[n] = '\0';
}

void lit_str_free(LitStr *s)
{
    free(s->s);
    memset(s, 0, sizeof *s);
}
