/*
 * abs_rules.c — the abstract models' rules as the ops hooks run them: a
 * load adds what it read to Obs, a store joins P with the dependencies its
 * policy row names, a barrier forces or orders the sets its row names (a
 * collective one at its release), a join leaves the pending stores owned
 * by nobody; in naive mode, persisting a store whose dependencies have
 * persisted is a model event.
 */
#include <stdio.h>

#include "model/abstract/abs_int.h"

int64_t abs_rules_load(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                        int32_t word, MdlStepInfo *info)
{
    const Abs *a = abs_of(m);
    int32_t u = a->uidx[word];
    int j;
    (void)info;
    if (u >= 0) {
        /* PROJECTION: the newest store's shadow stands for it */
        if (a->shadow && a->obs >= 0 &&
            s->w[UOWN(m, L->pm_off, u)] != (uint64_t)(slot + 1))
            mdl_set(s, abs_tword(L, slot, a->obs), s->w[abs_tword(L, slot, a->obs)] |
                                               s->w[USH(m, L->pm_off, u)]);
        return (int64_t)s->w[UVAL(m, L->pm_off, u)];
    }
    j = abs_pending_newest(m, s, L->pm_off, word);
    if (j < 0)
        return (int64_t)s->w[PERS(m, L->pm_off, word)];
    if (a->obs >= 0 && E_OWNER(s->w[ENT(m, L->pm_off, j)]) != slot)
        mdl_set(s, abs_tword(L, slot, a->obs),
                s->w[abs_tword(L, slot, a->obs)] | 1ull << j);
    return (int64_t)s->w[ENT(m, L->pm_off, j) + 1];
}

int abs_rules_store(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                     int32_t word, int64_t v, int op, MdlStepInfo *info,
                     MdlError *e)
{
    const Abs *a = abs_of(m);
    uint32_t pm_off = L->pm_off;
    int np = abs_npend(m, s, pm_off), pos, j;
    uint64_t deps = 0;
    int32_t u = a->uidx[word];
    (void)op;
    if (u >= 0) {
        mdl_set(s, UVAL(m, pm_off, u), (uint64_t)v);
        if (a->shadow) {
            uint64_t sh = s->w[USH(m, pm_off, u)] | s->w[abs_tword(L, slot, a->f)];
            mdl_set(s, USH(m, pm_off, u), sh);
            mdl_set(s, UOWN(m, pm_off, u), (uint64_t)(slot + 1));
            mdl_set(s, abs_tword(L, slot, a->ownu),
                    s->w[abs_tword(L, slot, a->ownu)] | sh);
        }
        return MDL_OK;
    }
    if (a->at_once) {
        /* Stores persist in order, each at once; but the elements of a
           vector store (one step, DESIGN section 7) are stores of their
           own, so the state after one has the images of every prefix of
           them, as in the naive semantics: they are pending, each
           depending on the ones before, until the next store persists
           them. The step stays visible to the reductions. */
        if (m->vec_first && np) {
            abs_pending_force(m, s, L, abs_all(np), info);
            np = 0;
        }
        m->fx |= MDL_FX_SET;
        if (m->vec_first && !m->vec_more) {
            mdl_set(s, PERS(m, pm_off, word), (uint64_t)v);
            return MDL_OK;
        }
    }
    if (np >= ABS_MAXP) {
        e->kind = MDL_E_LIMIT;
        snprintf(e->msg, sizeof e->msg,
                 "more than %d pending persists in one state", ABS_MAXP);
        return MDL_FAILED;
    }
    j = abs_pending_newest(m, s, pm_off, word);
    if (j >= 0)
        deps |= 1ull << j;
    if (m->pol->store_deps & MDL_SET_ALL)
        deps |= abs_all(np);
    if (m->pol->store_deps & MDL_SET_F)
        deps |= s->w[abs_tword(L, slot, a->f)];
    pos = abs_pending_insert(m, s, L, slot, word, v, deps);
    m->fx |= MDL_FX_GROW;
    if (info && info->ncreated < LIT_MAX_VEC)
        info->created[info->ncreated++] = pos;
    return MDL_OK;
}

/* Stall until `set` is persistent: the default mode forces it; the naive
   mode waits until persist steps have emptied it. */
static int settle(Model *m, MdlState *s, const MdlLaunch *L, uint64_t set,
                  MdlStepInfo *info)
{
    if (m->naive)
        return set ? MDL_BLOCKED : MDL_OK;
    abs_pending_force(m, s, L, set, info);
    return MDL_OK;
}

/* The pending slots that `sets` (MDL_SET_*) name for thread `slot`; group
   [first, first+n) for MDL_SET_GROUP. */
static uint64_t rule_set(const Model *m, const MdlState *s, const MdlLaunch *L,
                         int slot, unsigned sets, int first, int n)
{
    const Abs *a = abs_of(m);
    uint64_t set = 0;
    if (sets & MDL_SET_ALL)
        set |= abs_all(abs_npend(m, s, L->pm_off));
    if (sets & MDL_SET_OWN)
        set |= abs_pending_own(m, s, L, slot, 1);
    if (sets & MDL_SET_GROUP)
        set |= abs_pending_own(m, s, L, first, n);
    if (sets & MDL_SET_OBS)
        set |= s->w[abs_tword(L, slot, a->obs)];
    if (sets & MDL_SET_F)
        set |= s->w[abs_tword(L, slot, a->f)];
    return set;
}

/* Thread `slot` follows rule r: force, then order, then forget what it
   observed. */
static int apply_rule(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                      const MdlRule *r, MdlStepInfo *info)
{
    const Abs *a = abs_of(m);
    uint64_t order = rule_set(m, s, L, slot, r->order, slot, 1);
    int st;
    assert(!(r->force && r->order));    /* forcing would renumber `order` */
    st = settle(m, s, L, rule_set(m, s, L, slot, r->force, slot, 1),
                    info);
    if (st != MDL_OK)
        return st;
    if (order)      /* nothing was forced: order names live slots */
        mdl_set(s, abs_tword(L, slot, a->f), s->w[abs_tword(L, slot, a->f)] | order);
    if (r->clear_obs)
        mdl_set(s, abs_tword(L, slot, a->obs), 0);
    return MDL_OK;
}

int abs_rules_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                     const LitInstr *in, int32_t word, MdlStepInfo *info,
                     MdlError *e)
{
    const MdlRule *r = mdl_policy_rule(m->pol, in->op);
    (void)word;
    (void)e;
    if (!r)
        return MDL_OK;                  /* hardware instructions: no effect */
    return apply_rule(m, s, L, slot, r, info);
}

int abs_rules_release(Model *m, MdlState *s, const MdlLaunch *L, int first,
                       int n, int op, MdlStepInfo *info)
{
    const Abs *a = abs_of(m);
    const MdlRule *r = &m->pol->release;
    uint64_t order;
    int st;
    (void)op;
    assert(!(r->force & ~MDL_SET_GROUP) && !(r->order & ~MDL_SET_GROUP));
    st = settle(m, s, L, rule_set(m, s, L, first, r->force, first, n), info);
    if (st != MDL_OK)
        return st;
    order = rule_set(m, s, L, first, r->order, first, n);
    if (order)
        for (int t = first; t < first + n; t++)
            mdl_set(s, abs_tword(L, t, a->f), s->w[abs_tword(L, t, a->f)] | order);
    return MDL_OK;
}

/* The threads of the launch are gone: their pending stores stay, owned by
   no one; frontiers and observations start empty in the next launch. */
int abs_rules_join(Model *m, MdlState *s, const MdlLaunch *L,
                    MdlStepInfo *info)
{
    int np = abs_npend(m, s, L->pm_off);
    (void)info;
    for (int j = 0; j < np; j++) {
        uint32_t i = ENT(m, L->pm_off, j);
        mdl_set(s, i, s->w[i] & 0xFFFFFFFFu);
    }
    for (uint32_t i = 0; i < (uint32_t)L->nthreads * L->mthr_stride; i++)
        mdl_set(s, L->mthr_off + i, 0);
    for (int32_t u = 0; abs_of(m)->shadow && u < abs_of(m)->nun; u++)
        mdl_set(s, UOWN(m, L->pm_off, u), 0);
    return MDL_OK;
}

/* Naive mode: any pending store whose dependencies have persisted may
   persist. */
int abs_rules_events(Model *m, const MdlState *s, const MdlLaunch *L,
                      uint32_t *codes, int max)
{
    int np = abs_npend(m, s, L->pm_off), n = 0;
    if (!m->naive)
        return 0;
    for (int j = 0; j < np && n < max; j++)
        if (!s->w[ENT(m, L->pm_off, j) + 2])
            codes[n++] = (uint32_t)j;
    return n;
}

int abs_rules_event(Model *m, MdlState *s, const MdlLaunch *L, uint32_t code,
                     MdlStepInfo *info)
{
    uint32_t pm_off = L->pm_off;
    uint64_t e0 = s->w[ENT(m, pm_off, code)];
    int64_t v = (int64_t)s->w[ENT(m, pm_off, code) + 1];
    mdl_set(s, PERS(m, pm_off, E_WORD(e0)), (uint64_t)v);
    m->fx |= MDL_FX_SHRINK;
    if (info) {
        char nm[64];
        mdl_word_name(m, LIT_PM, E_WORD(e0), nm, sizeof nm);
        snprintf(info->instr, sizeof info->instr, "persist");
        mdl_info_effect(info, "%s = %lld persists", nm, (long long)v);
        info->removed |= 1ull << code;
    }
    abs_pending_drop(m, s, L, 1ull << code);
    return MDL_OK;
}
