/* lit_layout: byte offsets, cache lines and word numbers of the
   declarations (DESIGN sections 2 and 7, Layout). Layout counts bytes: an
   element of type uN takes N/8 bytes, aligned to its size, and a line
   holds line_bytes of them, so elements share lines as in the CUDA
   program. Pinned declarations are packed in declaration order from the
   start of their line; every other one starts a fresh line after every
   line a pin uses. The elements of all declarations of a space are then
   its words, numbered densely in byte order; LitProgram.pm_line and
   dram_line give each word's line. */
#include <stdio.h>
#include <stdlib.h>

#include "litmus/litmus_int.h"

static const char *const space_names[] = {"pm", "dram", "shared"};

static void lines_text(char *buf, size_t len, int64_t first, int64_t last)
{
    if (first == last)
        snprintf(buf, len, "line %lld", (long long)first);
    else
        snprintf(buf, len, "lines %lld..%lld", (long long)first,
                 (long long)last);
}

static int64_t last_line(const LitLoc *l, int32_t lb)
{
    return (l->byte + (int64_t)l->size * l->elem - 1) / lb;
}

static int64_t align(int64_t byte, int elem)
{
    return (byte + elem - 1) / elem * elem;
}

/* Whether a declaration starting at byte `byte` fits in its space
   (LIT_MAX_SPACE words of 8 bytes). */
static int fits(LitParser *P, const LitLocX *x, int64_t byte)
{
    if (byte + (int64_t)x->l.size * x->l.elem <= (int64_t)LIT_MAX_SPACE * 8)
        return 1;
    lit_parse_error(P, x->l.pin >= 0 ? x->pin_pos : x->l.pos,
                    "'%s' does not fit: the %s space holds at most %lld "
                    "bytes", x->l.name, space_names[x->l.space],
                    (long long)LIT_MAX_SPACE * 8);
    return 0;
}

/* Overlap of pinned i with a pinned declaration of another line, earlier
   in the file: the first such one is named. Only called for a
   declaration known to overlap something (find_overlaps), so the scan is
   paid by erroneous files alone. */
static void overlap(LitParser *P, int32_t i, int32_t lb)
{
    const LitLoc *l = &P->locs[i].l;
    int64_t first = l->line, last = last_line(l, lb);
    for (int32_t j = 0; j < i; j++) {
        const LitLoc *o = &P->locs[j].l;
        if (o->space != l->space || o->pin < 0 || o->pin == l->pin)
            continue;
        int64_t ofirst = o->line, olast = last_line(o, lb);
        if (first <= olast && ofirst <= last) {
            char a[64], b[64];
            lines_text(a, sizeof a, first, last);
            lines_text(b, sizeof b, ofirst, olast);
            lit_parse_error(P, P->locs[i].pin_pos, "pinned '%s' (%s) "
                            "overlaps '%s' (%s)", l->name, a, o->name, b);
            return;
        }
    }
}

static const LitParser *sort_parser;    /* for the qsort comparators */

/* By pin, then declaration order. */
static int by_pin(const void *x, const void *y)
{
    int32_t i = *(const int32_t *)x, j = *(const int32_t *)y;
    int32_t a = sort_parser->locs[i].l.pin, b = sort_parser->locs[j].l.pin;
    return a != b ? (a < b ? -1 : 1) : (i > j) - (i < j);
}

/* By first line, then declaration order. */
static int by_line(const void *x, const void *y)
{
    int32_t i = *(const int32_t *)x, j = *(const int32_t *)y;
    int32_t a = sort_parser->locs[i].l.line, b = sort_parser->locs[j].l.line;
    return a != b ? (a < b ? -1 : 1) : (i > j) - (i < j);
}

/* The n placed pinned declarations idx[], sorted by first line: report
   each that overlaps one of another pin. best[k] keeps, over idx[0..k],
   the two furthest last lines of distinct pins, so "does any declaration
   starting at or before my last line reach my first line, on another
   pin" is a binary search. */
static void find_overlaps(LitParser *P, int32_t *idx, int32_t n, int32_t lb)
{
    typedef struct { int64_t end1, end2; int32_t pin1; } Best;
    if (n < 2)
        return;
    sort_parser = P;
    qsort(idx, (size_t)n, sizeof *idx, by_line);
    Best *best = lit_parse_alloc(P, (size_t)n * sizeof *best);
    Best b = {-1, -1, -1};
    for (int32_t k = 0; k < n; k++) {
        const LitLoc *l = &P->locs[idx[k]].l;
        int64_t end = last_line(l, lb);
        if (l->pin == b.pin1) {
            if (end > b.end1)
                b.end1 = end;
        } else if (end > b.end1) {
            b.end2 = b.end1;
            b.end1 = end;
            b.pin1 = l->pin;
        } else if (end > b.end2) {
            b.end2 = end;
        }
        best[k] = b;
    }
    for (int32_t k = 0; k < n && !P->errs.full; k++) {
        const LitLoc *l = &P->locs[idx[k]].l;
        int64_t last = last_line(l, lb);
        int32_t lo = 0, hi = n - 1;     /* the last start <= last */
        while (lo < hi) {
            int32_t mid = lo + (hi - lo + 1) / 2;
            if (P->locs[idx[mid]].l.line <= last)
                lo = mid;
            else
                hi = mid - 1;
        }
        int64_t reach = best[lo].pin1 == l->pin ? best[lo].end2
                                                 : best[lo].end1;
        if (reach >= l->line)
            overlap(P, idx[k], lb);
    }
}

/* pm or dram: pinned declarations first, packed per pinned line; then the
   others, each on fresh lines after every pinned line. Returns the number
   of lines up to the last one used. */
static int32_t line_space(LitParser *P, int space, int32_t lb)
{
    int64_t next = 0;                   /* first line no one uses yet */
    int32_t n = 0;
    for (int32_t i = 0; i < P->nlocs; i++)
        n += P->locs[i].l.space == space && P->locs[i].l.pin >= 0;
    int32_t *idx = lit_parse_alloc(P, (size_t)n * sizeof *idx);
    n = 0;
    for (int32_t i = 0; i < P->nlocs; i++)
        if (P->locs[i].l.space == space && P->locs[i].l.pin >= 0)
            idx[n++] = i;
    sort_parser = P;
    qsort(idx, (size_t)n, sizeof *idx, by_pin);
    int32_t placed = 0;
    int64_t byte = 0;
    for (int32_t k = 0; k < n; k++) {
        LitLocX *x = &P->locs[idx[k]];
        if (k == 0 || x->l.pin != P->locs[idx[k - 1]].l.pin)
            byte = (int64_t)x->l.pin * lb;
        byte = align(byte, x->l.elem);
        if (!fits(P, x, byte)) {
            x->l.pin = -1;              /* keep it out of overlap checks */
            continue;
        }
        x->l.byte = byte;
        x->l.line = (int32_t)(byte / lb);
        byte += (int64_t)x->l.size * x->l.elem;
        idx[placed++] = idx[k];
        if (last_line(&x->l, lb) + 1 > next)
            next = last_line(&x->l, lb) + 1;
    }
    find_overlaps(P, idx, placed, lb);
    for (int32_t i = 0; i < P->nlocs; i++) {
        LitLocX *x = &P->locs[i];
        /* A pinned one that failed above stays where it is. */
        if (x->l.space != space || x->pin_pos.line ||
            !fits(P, x, next * lb))
            continue;
        x->l.byte = next * lb;
        x->l.line = (int32_t)next;
        next += ((int64_t)x->l.size * x->l.elem + lb - 1) / lb;
    }
    return (int32_t)next;
}

/* By byte offset, then declaration order. */
static int by_byte(const void *x, const void *y)
{
    int32_t i = *(const int32_t *)x, j = *(const int32_t *)y;
    int64_t a = sort_parser->locs[i].l.byte, b = sort_parser->locs[j].l.byte;
    return a != b ? (a < b ? -1 : 1) : (i > j) - (i < j);
}

/* Numbers the words of a space densely in byte order and fills *line_of
   with each word's line. Returns the number of words. */
static int32_t number_words(LitParser *P, int space, int32_t lb,
                            int32_t **line_of)
{
    int32_t n = 0, words = 0;
    for (int32_t i = 0; i < P->nlocs; i++)
        n += P->locs[i].l.space == space;
    int32_t *idx = lit_parse_alloc(P, (size_t)n * sizeof *idx + 1);
    n = 0;
    for (int32_t i = 0; i < P->nlocs; i++)
        if (P->locs[i].l.space == space)
            idx[n++] = i;
    sort_parser = P;
    qsort(idx, (size_t)n, sizeof *idx, by_byte);
    P->prog->nspace[space] = n;
    P->prog->space_locs[space] = idx;
    for (int32_t k = 0; k < n; k++) {
        LitLoc *l = &P->locs[idx[k]].l;
        l->addr = words;
        if ((int64_t)words + l->size > LIT_MAX_SPACE) {
            lit_parse_error(P, l->pos, "'%s' does not fit: the %s space "
                            "holds at most %d words", l->name,
                            space_names[space], LIT_MAX_SPACE);
            l->size = 0;
        }
        words += l->size;
    }
    *line_of = lit_parse_alloc(P, (size_t)words * sizeof **line_of + 1);
    for (int32_t k = 0; k < n; k++) {
        const LitLoc *l = &P->locs[idx[k]].l;
        for (int32_t j = 0; j < l->size; j++)
            (*line_of)[l->addr + j] =
                (int32_t)((l->byte + (int64_t)j * l->elem) / lb);
    }
    return words;
}

/* shared: one CTA's copy, packed in declaration order; its byte size. */
static int64_t packed_space(LitParser *P, int32_t lb)
{
    int64_t next = 0;
    for (int32_t i = 0; i < P->nlocs; i++) {
        LitLocX *x = &P->locs[i];
        if (x->l.space != LIT_SHARED)
            continue;
        next = align(next, x->l.elem);
        if (!fits(P, x, next))
            continue;
        x->l.byte = next;
        x->l.line = (int32_t)(next / lb);
        next += (int64_t)x->l.size * x->l.elem;
    }
    return next;
}

void lit_layout(LitParser *P)
{
    LitProgram *p = P->prog;
    int32_t lb = (int32_t)p->config.val[LIT_CFG_LINE_BYTES];
    p->line_bytes = lb;
    p->pm_lines = line_space(P, LIT_PM, lb);
    p->dram_lines = line_space(P, LIT_DRAM, lb);
    p->shared_bytes = packed_space(P, lb);
    p->pm_words = number_words(P, LIT_PM, lb, &p->pm_line);
    p->dram_words = number_words(P, LIT_DRAM, lb, &p->dram_line);
    p->shared_words = number_words(P, LIT_SHARED, lb, &p->shared_line);
}
