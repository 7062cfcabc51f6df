/* lit_layout: word addresses and cache lines of the declarations (DESIGN
   section 2, Layout). Words are 8 bytes; a line holds line_bytes / 8. */
#include <stdio.h>

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

/* Overlap of pinned x with a pinned declaration of another line, earlier
   in the file. */
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

/* pm or dram: pinned declarations first, packed per pinned line; then the
   others, each on fresh lines after every pinned line. */
static int32_t line_space(LitParser *P, int space, int32_t wpl)
{
    int64_t next = 0;                   /* first line no one uses yet */
    for (int32_t i = 0; i < P->nlocs; i++) {
        LitLocX *x = &P->locs[i];
        if (x->l.space != space || x->l.pin < 0)
            continue;
        int64_t addr = (int64_t)x->l.pin * wpl;
        for (int32_t j = 0; j < i; j++)
            if (P->locs[j].l.space == space && P->locs[j].l.pin == x->l.pin)
                addr += P->locs[j].l.size;
        if (!fits(P, x, addr)) {
            x->l.pin = -1;              /* keep it out of overlap checks */
            continue;
        }
        x->l.addr = (int32_t)addr;
        x->l.line = (int32_t)(addr / wpl);
        overlap(P, i, wpl);
        if (last_line(&x->l, wpl) + 1 > next)
            next = last_line(&x->l, wpl) + 1;
    }
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
