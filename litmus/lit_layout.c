/* lit_layout: word addresses and cache lines of the declarations (DESIGN
   section 2, Layout). Words are 8 bytes; a line holds line_bytes / 8. */
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

static int64_t last_line(const LitLoc *l, int32_t wpl)
{
    return ((int64_t)l->addr + l->size - 1) / wpl;
}

static int fits(LitParser *P, const LitLocX *x, int64_t addr)
{
    if (addr + x->l.size <= LIT_MAX_SPACE)
        return 1;
    lit_parse_error(P, x->l.pin >= 0 ? x->pin_pos : x->l.pos,
                    "'%s' does not fit: the %s space holds at most %d words",
                    x->l.name, space_names[x->l.space], LIT_MAX_SPACE);
    return 0;
}

/* Overlap of pinned i with a pinned declaration of another line, earlier
   in the file: the first such one is named. Only called for a
   declaration known to overlap something (find_overlaps), so the scan is
   paid by erroneous files alone. */
static void overlap(LitParser *P, int32_t i, int32_t wpl)
{
    const LitLoc *l = &P->locs[i].l;
    int64_t first = l->line, last = last_line(l, wpl);
    for (int32_t j = 0; j < i; j++) {
        const LitLoc *o = &P->locs[j].l;
        if (o->space != l->space || o->pin < 0 || o->pin == l->pin)
            continue;
        int64_t ofirst = o->line, olast = last_line(o, wpl);
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
static void find_overlaps(LitParser *P, int32_t *idx, int32_t n, int32_t wpl)
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
        int64_t end = last_line(l, wpl);
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
        int64_t last = last_line(l, wpl);
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
            overlap(P, idx[k], wpl);
    }
}

/* pm or dram: pinned declarations first, packed per pinned line; then the
   others, each on fresh lines after every pinned line. */
static int32_t line_space(LitParser *P, int space, int32_t wpl)
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
    int64_t addr = 0;
    for (int32_t k = 0; k < n; k++) {
        LitLocX *x = &P->locs[idx[k]];
        if (k == 0 || x->l.pin != P->locs[idx[k - 1]].l.pin)
            addr = (int64_t)x->l.pin * wpl;
        if (!fits(P, x, addr)) {
            x->l.pin = -1;              /* keep it out of overlap checks */
            continue;
        }
        x->l.addr = (int32_t)addr;
        x->l.line = (int32_t)(addr / wpl);
        addr += x->l.size;
        idx[placed++] = idx[k];
        if (last_line(&x->l, wpl) + 1 > next)
            next = last_line(&x->l, wpl) + 1;
    }
    find_overlaps(P, idx, placed, wpl);
    for (int32_t i = 0; i < P->nlocs; i++) {
        LitLocX *x = &P->locs[i];
        /* A pinned one that failed above stays where it is. */
        if (x->l.space != space || x->pin_pos.line || !fits(P, x, next * wpl))
            continue;
        x->l.addr = (int32_t)(next * wpl);
        x->l.line = (int32_t)next;
        next += (x->l.size + wpl - 1) / wpl;
    }
    return (int32_t)(next * wpl);
}

/* shared: one CTA's copy, packed in declaration order. */
static int32_t packed_space(LitParser *P, int32_t wpl)
{
    int64_t next = 0;
    for (int32_t i = 0; i < P->nlocs; i++) {
        LitLocX *x = &P->locs[i];
        if (x->l.space != LIT_SHARED || !fits(P, x, next))
            continue;
        x->l.addr = (int32_t)next;
        x->l.line = (int32_t)(next / wpl);
        next += x->l.size;
    }
    return (int32_t)next;
}

void lit_layout(LitParser *P)
{
    LitProgram *p = P->prog;
    int32_t wpl = (int32_t)p->config.val[LIT_CFG_LINE_BYTES] / 8;
    p->words_per_line = wpl;
    p->pm_words = line_space(P, LIT_PM, wpl);
    p->dram_words = line_space(P, LIT_DRAM, wpl);
    p->shared_words = packed_space(P, wpl);
}
