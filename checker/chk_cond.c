/*
 * chk_cond.c — conditions: what each phase observes, its outcomes and the
 * evaluation of `check` conditions on them.
 *
 * A phase's outcome is its observation projected on the names that the
 * conditions of that phase mention (herd7 lists the same): registers
 * `G:rN` first, by thread then register, then memory locations by name and
 * index; a whole-array comparison mentions every element. Conditions only
 * read mentioned names, so each distinct outcome is evaluated once.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "checker/checker_int.h"

static int add_item(ChkProj *pr, int kind, int32_t a, int32_t b,
                    size_t *cap)
{
    for (int i = 0; i < pr->nitems; i++)
        if (pr->items[i].kind == kind && pr->items[i].a == a &&
            pr->items[i].b == b)
            return 0;
    if (BASE_GROW(pr->items, *cap, (size_t)pr->nitems + 1))
        return -1;
    pr->items[pr->nitems].kind = kind;
    pr->items[pr->nitems].a = a;
    pr->items[pr->nitems].b = b;
    pr->nitems++;
    return 0;
}

static int collect(const LitProgram *p, ChkProj *pr, const LitCond *c,
                   size_t *cap)
{
    if (!c)
        return 0;
    switch (c->kind) {
    case LIT_C_LOC:
        return add_item(pr, 1, c->loc, c->index, cap);
    case LIT_C_REG:
        return add_item(pr, 0, c->gtid, c->reg, cap);
    case LIT_C_ARREQ:
    case LIT_C_ARRNE:
        for (int32_t i = 0; i < p->locs[c->loc].size; i++)
            if (add_item(pr, 1, c->loc, i, cap))
                return -1;
        return 0;
    default:
        return collect(p, pr, c->l, cap) || collect(p, pr, c->r, cap) ? -1
                                                                       : 0;
    }
}

static const LitProgram *sort_prog;

static int cmp_item(const void *x, const void *y)
{
    const struct ChkItem *a = x, *b = y;
    int c;
    if (a->kind != b->kind)
        return a->kind - b->kind;
    if (a->kind == 1) {
        c = strcmp(sort_prog->locs[a->a].name, sort_prog->locs[b->a].name);
        if (c)
            return c;
    } else if (a->a != b->a) {
        return a->a < b->a ? -1 : 1;
    }
    return a->b < b->b ? -1 : a->b > b->b;
}

int chk_proj_build(ChkRun *R)
{
    for (int ph = 0; ph < 3; ph++) {
        ChkProj *pr = &R->proj[ph];
        size_t cap = 0;
        int any = 0;
        pr->nitems = 0;
        pr->items = NULL;
        for (int k = 0; k < R->p->nchecks; k++)
            if (R->p->checks[k].phase == ph) {
                any = 1;
                if (collect(R->p, pr, R->p->checks[k].cond, &cap))
                    return -1;
            }
        if (!any) {
            pr->nitems = -1;
            continue;
        }
        sort_prog = R->p;
        if (pr->nitems > 1)
            qsort(pr->items, (size_t)pr->nitems, sizeof *pr->items, cmp_item);
    }
    return 0;
}

uint32_t chk_outcome(ChkRun *R, int ph, const int64_t *pm,
                     const int64_t *dram, const MdlState *s)
{
    const ChkProj *pr = &R->proj[ph];
    uint32_t id;
    int r;
    if (pr->nitems < 0)
        return CHK_NONE;
    for (int i = 0; i < pr->nitems; i++) {
        const struct ChkItem *it = &pr->items[i];
        if (it->kind == 0) {
            R->obuf[i] = (uint64_t)mdl_reg(R->m, s, it->a, it->b);
        } else {
            const LitLoc *l = &R->p->locs[it->a];
            const int64_t *mem = l->space == LIT_PM ? pm : dram;
            R->obuf[i] = (uint64_t)mem[l->addr + it->b];
        }
    }
    /* room for a new outcome first: every outcome in the table has its
       row, even when memory runs out here */
    if (BASE_BUDGET_GROW(&R->mem, R->outs[ph].o, R->outs[ph].cap,
                 (size_t)R->outs[ph].tab.n + 1) ||
        (r = sto_table_put(&R->outs[ph].tab, R->obuf, (uint32_t)pr->nitems,
                           &id)) < 0) {
        chk_fail(R);
        return CHK_NONE;
    }
    assert(id < R->outs[ph].cap);
    if (r == 1) {
        ChkOut *o = &R->outs[ph].o[id];
        o->count = 0;
        o->best = o->state = o->aux = o->stamp = o->crashes = CHK_NONE;
    }
    return id;
}

static int64_t item_value(const ChkRun *R, int ph, int kind, int32_t a,
                          int32_t b, const uint64_t *proj)
{
    const ChkProj *pr = &R->proj[ph];
    for (int i = 0; i < pr->nitems; i++)
        if (pr->items[i].kind == kind && pr->items[i].a == a &&
            pr->items[i].b == b)
            return (int64_t)proj[i];
    return 0;
}

static int64_t term(const ChkRun *R, int ph, const LitCond *c,
                    const uint64_t *proj)
{
    switch (c->kind) {
    case LIT_C_INT:
        return c->val;
    case LIT_C_LOC:
        return item_value(R, ph, 1, c->loc, c->index, proj);
    case LIT_C_REG:
        return item_value(R, ph, 0, c->gtid, c->reg, proj);
    case LIT_C_ADD:
        return (int64_t)((uint64_t)term(R, ph, c->l, proj) +
                         (uint64_t)term(R, ph, c->r, proj));
    case LIT_C_SUB:
        return (int64_t)((uint64_t)term(R, ph, c->l, proj) -
                         (uint64_t)term(R, ph, c->r, proj));
    case LIT_C_MUL:
        return (int64_t)((uint64_t)term(R, ph, c->l, proj) *
                         (uint64_t)term(R, ph, c->r, proj));
    case LIT_C_NEG:
        return (int64_t)(0 - (uint64_t)term(R, ph, c->l, proj));
    default:
        return chk_cond_eval(R, ph, c, proj);
    }
}

int chk_cond_eval(const ChkRun *R, int ph, const LitCond *c,
                  const uint64_t *proj)
{
    int64_t a, b;
    switch (c->kind) {
    case LIT_C_EQ: case LIT_C_NE: case LIT_C_LT: case LIT_C_LE:
    case LIT_C_GT: case LIT_C_GE:
        a = term(R, ph, c->l, proj);
        b = term(R, ph, c->r, proj);
        /* the comparison kinds run in LitCmp's order */
        return lit_compare(LIT_CMP_EQ + (c->kind - LIT_C_EQ), LIT_S64, a, b);
    case LIT_C_NOT:
        return !chk_cond_eval(R, ph, c->l, proj);
    case LIT_C_AND:
        return chk_cond_eval(R, ph, c->l, proj) &&
               chk_cond_eval(R, ph, c->r, proj);
    case LIT_C_OR:
        return chk_cond_eval(R, ph, c->l, proj) ||
               chk_cond_eval(R, ph, c->r, proj);
    case LIT_C_IMP:
        return !chk_cond_eval(R, ph, c->l, proj) ||
               chk_cond_eval(R, ph, c->r, proj);
    case LIT_C_ARREQ:
    case LIT_C_ARRNE: {
        int eq = 1;
        for (int32_t i = 0; i < c->n; i++)
            if (item_value(R, ph, 1, c->loc, i, proj) != c->vals[i])
                eq = 0;
        return c->kind == LIT_C_ARREQ ? eq : !eq;
    }
    default:
        return term(R, ph, c, proj) != 0;
    }
}

void chk_outcome_text(const ChkRun *R, int ph, const uint64_t *proj,
                      char *buf, size_t len)
{
    const ChkProj *pr = &R->proj[ph];
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < pr->nitems && n < len; i++) {
        const struct ChkItem *it = &pr->items[i];
        const char *sep = i ? "; " : "";
        if (it->kind == 0) {
            n += (size_t)snprintf(buf + n, len - n, "%s%d:r%d=%lld", sep,
                                  (int)it->a, (int)it->b,
                                  (long long)(int64_t)proj[i]);
        } else {
            const LitLoc *l = &R->p->locs[it->a];
            if (l->is_array)
                n += (size_t)snprintf(buf + n, len - n, "%s%s[%d]=%lld", sep,
                                      l->name, (int)it->b,
                                      (long long)(int64_t)proj[i]);
            else
                n += (size_t)snprintf(buf + n, len - n, "%s%s=%lld", sep,
                                      l->name, (long long)(int64_t)proj[i]);
        }
    }
}
