/*
 * red_slice.c — the PM words a check can observe (MDL_SLICE; the rule and
 * its argument are in specs/checker.md, "Projection").
 *
 * A crash image is seen by `crash` conditions, which name PM words, and by
 * recovery, which starts from it: recovery can see what its kernels load
 * (or read with an atomic) and, through `recovered` conditions, the words
 * those name. Every other PM word of an image changes nothing a check
 * reports; the abstract models then keep no persistency state for it, and
 * images hold its initial value.
 *
 * A model whose state has cache lines decides from these words which
 * lines it keeps (Model.kept: hw keeps a line's state when one of its
 * words, or with a volatile WPQ one of its controller's words, is
 * observed; specs/hw.md, "Projection").
 */
#include "model/reduce/red_int.h"

static void mark_cond(const LitProgram *p, const LitCond *c, uint8_t *obs)
{
    const LitLoc *l;
    if (!c)
        return;
    mark_cond(p, c->l, obs);
    mark_cond(p, c->r, obs);
    if (c->kind != LIT_C_LOC && c->kind != LIT_C_ARREQ &&
        c->kind != LIT_C_ARRNE)
        return;
    l = &p->locs[c->loc];
    if (l->space != LIT_PM)
        return;
    if (c->kind == LIT_C_LOC)
        obs[l->addr + c->index] = 1;
    else
        for (int32_t j = 0; j < l->size; j++)
            obs[l->addr + j] = 1;
}

int red_slice_setup(Model *m)
{
    const LitProgram *p = m->p;
    uint8_t *obs = base_arena_alloc(m->arena, (size_t)p->pm_words + 1);
    if (!obs)
        return -1;
    for (int c = 0; c < p->nchecks; c++)
        if (p->checks[c].phase == LIT_CRASH ||
            p->checks[c].phase == LIT_RECOVERED)
            mark_cond(p, p->checks[c].cond, obs);
    if (p->has_recover)
        for (int32_t k = 0; k < p->nrecover; k++)
            if (red_access_pm_reads(m, p->recover_seq[k], obs))
                return -1;
    m->observed = obs;
    return 0;
}
