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
 * Under hw a write-back carries its whole line, and with a volatile WPQ a
 * controller's queue orders its lines: the hw model keeps the hierarchy
 * state of a line (red->kept) when one of its words is observed (durable
 * WPQ), or one of its controller's words (volatile); on the others steps
 * only write what loads see (specs/hw.md, "Projection").
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

/* red->kept: per PM line, whether some observed word shares its line
   (durable WPQ) or its controller (volatile). */
static int kept_lines(Model *m, const uint8_t *obs)
{
    const LitProgram *p = m->p;
    int32_t nl = p->pm_lines;
    int64_t nctl = m->red->durable
                       ? 0
                       : (int64_t)p->config.val[LIT_CFG_CONTROLLERS];
    uint8_t *kept = base_arena_alloc(m->arena, (size_t)nl + 1);
    if (!kept)
        return -1;
    for (int32_t w = 0; w < p->pm_words; w++)
        if (obs[w])
            for (int32_t l = nctl ? (int32_t)(p->pm_line[w] % nctl) : p->pm_line[w];
                 l < nl; l += nctl ? (int32_t)nctl : nl)
                kept[l] = 1;
    m->kept = kept;
    return 0;
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
    return m->pol->hierarchy ? kept_lines(m, obs) : 0;
}
