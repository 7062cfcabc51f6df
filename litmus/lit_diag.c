/* lit_diag: error messages "path:line:col: error: message", collected while
   a file is read and handed over sorted by position. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus_int.h"

int lit_diag_verror(LitErrs *e, LitPos pos, const char *fmt, va_list ap)
{
    return lit_diag_verror_in(e, NULL, pos, fmt, ap);
}

int lit_diag_verror_in(LitErrs *e, const char *path, LitPos pos,
                       const char *fmt, va_list ap)
{
    char buf[512];
    if (e->n >= LIT_MAX_ERRORS) {
        e->full = 1;
        return 0;
    }
    vsnprintf(buf, sizeof buf, fmt, ap);
    if (e->n == e->cap) {
        LitErr *v = base_arena_grow(e->arena, e->v, e->n, &e->cap, sizeof *v);
        if (!v)
            return -1;
        e->v = v;
    }
    char *msg = base_arena_strdup(e->arena, buf);
    if (!msg)
        return -1;
    e->v[e->n] = (LitErr){pos, e->n, msg, path};
    e->n++;
    return 0;
}

int lit_diag_error_in(LitErrs *e, const char *path, LitPos pos,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = lit_diag_verror_in(e, path, pos, fmt, ap);
    va_end(ap);
    return rc;
}

int lit_diag_error(LitErrs *e, LitPos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = lit_diag_verror(e, pos, fmt, ap);
    va_end(ap);
    return rc;
}

static int by_pos(const void *x, const void *y)
{
    const LitErr *a = x, *b = y;
    if (a->path != b->path) {          /* the test file first */
        int c = !a->path ? -1 : !b->path ? 1 : strcmp(a->path, b->path);
        if (c)
            return c;
    }
    if (a->pos.line != b->pos.line)
        return a->pos.line < b->pos.line ? -1 : 1;
    if (a->pos.col != b->pos.col)
        return a->pos.col < b->pos.col ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Where excerpts have got to in the source: line `line` starts at p. */
typedef struct {
    const char *p;
    int32_t line;
} Cursor;

enum { EXCERPT_WIDTH = 100 };           /* bytes of a long line shown */

/* Under an error at pos of the test file: its source line and, when the
   column is known, a caret under it (gcc's layout: "    2 | text",
   "      |   ^"). A tab stays a tab in both lines, so the caret lines up
   in any terminal; a control byte shows as '?'; a UTF-8 character takes
   one column. A line longer than EXCERPT_WIDTH bytes is shown around the
   column, cut ends marked "...". */
static void excerpt(const LitErrs *e, Cursor *c, LitPos pos, BaseDiag *d)
{
    const char *end = e->src + e->srclen;
    if (pos.line < c->line) {
        c->p = e->src;
        c->line = 1;
    }
    while (c->line < pos.line) {
        const char *nl = memchr(c->p, '\n', (size_t)(end - c->p));
        if (!nl)
            return;                     /* past the last line */
        c->p = nl + 1;
        c->line++;
    }
    const char *eol = memchr(c->p, '\n', (size_t)(end - c->p));
    size_t n = (size_t)((eol ? eol : end) - c->p);
    if (n && c->p[n - 1] == '\r')
        n--;
    size_t col = pos.col > 0 ? (size_t)pos.col - 1 : 0, from = 0, to = n;
    if (col > n)
        col = n;
    if (n > EXCERPT_WIDTH) {
        from = col > EXCERPT_WIDTH / 2 ? col - EXCERPT_WIDTH / 2 : 0;
        if (from + EXCERPT_WIDTH > n)
            from = n - EXCERPT_WIDTH;
        to = from + EXCERPT_WIDTH;
    }
    BaseStr s = {0};
    base_str_printf(&s, "%5d | %s", pos.line, from ? "..." : "");
    for (size_t i = from; i < to; i++) {
        unsigned char b = (unsigned char)c->p[i];
        base_str_putn(&s, b == '\t' || (b >= 0x20 && b != 0x7f)
                              ? c->p + i : "?", 1);
    }
    if (to < n)
        base_str_printf(&s, "...");
    if (pos.col > 0) {
        base_str_printf(&s, "\n%5s | %s", "", from ? "   " : "");
        for (size_t i = from; i < col; i++) {
            unsigned char b = (unsigned char)c->p[i];
            if ((b & 0xc0) != 0x80)     /* not a UTF-8 continuation */
                base_str_putn(&s, b == '\t' ? "\t" : " ", 1);
        }
        base_str_putn(&s, "^", 1);
    }
    if (s.failed)
        d->failed = 1;
    else
        base_diag_append(d, s.s);
    base_str_free(&s);
}

void lit_diag_flush(LitErrs *e, BaseDiag *d)
{
    Cursor c = {e->src, 1};
    if (e->n > 1)
        qsort(e->v, (size_t)e->n, sizeof *e->v, by_pos);
    for (int32_t i = 0; i < e->n; i++) {
        const LitErr *x = &e->v[i];
        if (i > 0 && x->pos.line == x[-1].pos.line &&
            x->pos.col == x[-1].pos.col && !strcmp(x->msg, x[-1].msg) &&
            (x->path == x[-1].path ||
             (x->path && x[-1].path && !strcmp(x->path, x[-1].path))))
            continue;
        char line[1024];
        const char *path = x->path ? x->path : e->path;
        if (x->pos.line > 0 && x->pos.col > 0)
            snprintf(line, sizeof line, "%s:%d:%d: error: %s", path,
                     x->pos.line, x->pos.col, x->msg);
        else if (x->pos.line > 0)
            snprintf(line, sizeof line, "%s:%d: error: %s", path,
                     x->pos.line, x->msg);
        else
            snprintf(line, sizeof line, "%s: error: %s", path, x->msg);
        base_diag_append(d, line);
        d->nerrors++;
        if (d->excerpt && e->src && !x->path && x->pos.line > 0)
            excerpt(e, &c, x->pos, d);
    }
    if (e->full) {
        char line[1024];
        snprintf(line, sizeof line, "%s: error: too many errors; stopped "
                 "after %d", e->path, LIT_MAX_ERRORS);
        base_diag_append(d, line);
        d->nerrors++;
    }
    e->n = 0;
}
