/*
 * abs_pending.c — the pending set P of the abstract models: entries sorted
 * by word and age (abs_int.h), and every slot set (D, Obs, F, shadows)
 * renumbered when an entry comes or goes.
 */
#include <string.h>

#include "model/abstract/abs_int.h"

#ifdef GPMC_DEBUG
/* CANONICAL ORDER and the slot sets (abs_int.h), in O(|P| + threads):
   after every change of P when built with -DGPMC_DEBUG (make asan). */
static void check(const Model *m, const MdlState *s, const MdlLaunch *L)
{
    const Abs *a = abs_of(m);
    int np = abs_npend(m, s, L->pm_off);
    for (int j = 0; j < np; j++) {
        uint64_t e = s->w[ENT(m, L->pm_off, j)];
        uint64_t d = s->w[ENT(m, L->pm_off, j) + 2];
        assert(E_WORD(e) >= 0 && E_WORD(e) < m->p->pm_words &&
               a->cidx[E_WORD(e)] >= 0);
        assert(j == 0 || E_WORD(s->w[ENT(m, L->pm_off, j - 1)]) <= E_WORD(e));
        assert(E_OWNER(e) >= -1 && E_OWNER(e) < L->nthreads);
        assert(!(d & ~abs_all(np)) && !(d & 1ull << j));
    }
    for (int32_t t = 0; t < L->nthreads; t++) {
        assert(a->obs < 0 || !(s->w[abs_tword(L, t, a->obs)] & ~abs_all(np)));
        assert(a->f < 0 || !(s->w[abs_tword(L, t, a->f)] & ~abs_all(np)));
    }
}
#else
#define check(m, s, L) ((void)0)
#endif

/* Own of the threads [first, first+n) of launch L (with PROJECTION, the
   shadows of their unobserved stores stand for those). */
uint64_t abs_pending_own(const Model *m, const MdlState *s, const MdlLaunch *L,
                       int first, int n)
{
    const Abs *a = abs_of(m);
    uint64_t own = 0;
    int np = abs_npend(m, s, L->pm_off);
    for (int j = 0; j < np; j++) {
        int32_t o = E_OWNER(s->w[ENT(m, L->pm_off, j)]);
        if (o >= first && o < first + n)
            own |= 1ull << j;
    }
    for (int t = first; a->ownu >= 0 && t < first + n; t++)
        own |= s->w[abs_tword(L, t, a->ownu)];
    return own;
}

int abs_pending_newest(const Model *m, const MdlState *s, uint32_t pm_off,
                      int32_t word)
{
    for (int j = abs_npend(m, s, pm_off) - 1; j >= 0; j--)
        if (E_WORD(s->w[ENT(m, pm_off, j)]) == word)
            return j;
    return -1;
}

/* Applies f(x, arg) to the slot set in word i, which f leaves alone when
   it holds no slot at or above the first one f moves (bit `low`). */
static inline void remap_word(MdlState *s, uint32_t i, uint64_t low,
                              uint64_t (*f)(uint64_t, uint64_t), uint64_t arg)
{
    if (s->w[i] >= low)
        mdl_set(s, i, f(s->w[i], arg));
}

/* Applies f(x, arg) to every slot set of s: D of every entry, and the
   per-thread sets of launch L. Slots below bit `low` keep their number. */
static void remap(Model *m, MdlState *s, const MdlLaunch *L, int np,
                  uint64_t low, uint64_t (*f)(uint64_t, uint64_t),
                  uint64_t arg)
{
    const Abs *a = abs_of(m);
    for (int j = 0; j < np; j++)
        remap_word(s, ENT(m, L->pm_off, j) + 2, low, f, arg);
    for (int32_t t = 0; t < L->nthreads; t++) {
        if (a->obs >= 0)
            remap_word(s, abs_tword(L, t, a->obs), low, f, arg);
        if (a->f >= 0)
            remap_word(s, abs_tword(L, t, a->f), low, f, arg);
        if (a->ownu >= 0)
            remap_word(s, abs_tword(L, t, a->ownu), low, f, arg);
    }
    for (int32_t u = 0; a->shadow && u < a->nun; u++)
        remap_word(s, USH(m, L->pm_off, u), low, f, arg);
}

static uint64_t f_drop(uint64_t x, uint64_t gone)
{
    return mdl_bits_drop(x, gone);
}

static uint64_t f_insert(uint64_t x, uint64_t pos)
{
    return mdl_bits_insert(x, (int)pos);
}

/* Removes the pending slots in `gone` (their values must already be in the
   persisted image) and renumbers every slot set. */
void abs_pending_drop(Model *m, MdlState *s, const MdlLaunch *L, uint64_t gone)
{
    uint32_t pm_off = L->pm_off;
    int np = abs_npend(m, s, pm_off), k;
    if (!gone)
        return;
    /* the entries below the first gone stay where they are */
    k = __builtin_ctzll(gone);
    assert(!(gone & ~abs_all(np)));
    for (int j = k; j < np; j++) {
        if (gone & (1ull << j))
            continue;
        for (uint32_t w = 0; w < 3; w++)
            mdl_set(s, ENT(m, pm_off, k) + w, s->w[ENT(m, pm_off, j) + w]);
        k++;
    }
    for (int j = k; j < np; j++)
        for (uint32_t w = 0; w < 3; w++)
            mdl_set(s, ENT(m, pm_off, j) + w, 0);
    s->len = ENT(m, pm_off, k);
    remap(m, s, L, k, gone & -gone, f_drop, gone);
    check(m, s, L);
}

static uint64_t closure(const Model *m, const MdlState *s, uint32_t pm_off,
                        uint64_t set)
{
    int np = abs_npend(m, s, pm_off);
    uint64_t prev;
    do {
        prev = set;
        for (int j = 0; j < np; j++)
            if (set & (1ull << j))
                set |= s->w[ENT(m, pm_off, j) + 2];
    } while (set != prev);
    return set;
}

/* Force S: persist S and, transitively, its dependencies. */
void abs_pending_force(Model *m, MdlState *s, const MdlLaunch *L, uint64_t set,
                  MdlStepInfo *info)
{
    uint32_t pm_off = L->pm_off;
    int np = abs_npend(m, s, pm_off);
    set = closure(m, s, pm_off, set);
    if (!set)
        return;
    m->fx |= MDL_FX_SHRINK;
    for (int j = 0; j < np; j++) {
        uint64_t e0;
        if (!(set & (1ull << j)))
            continue;
        e0 = s->w[ENT(m, pm_off, j)];
        mdl_set(s, PERS(m, pm_off, E_WORD(e0)), s->w[ENT(m, pm_off, j) + 1]);
        if (info) {
            char nm[64];
            mdl_word_name(m, LIT_PM, E_WORD(e0), nm, sizeof nm);
            mdl_info_effect(info, "persists %s = %lld", nm,
                            (long long)s->w[ENT(m, pm_off, j) + 1]);
        }
    }
    if (info)
        info->removed |= set;
    abs_pending_drop(m, s, L, set);
}


int abs_pending_insert(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                       int32_t word, int64_t v, uint64_t deps)
{
    uint32_t pm_off = L->pm_off;
    int np = abs_npend(m, s, pm_off), pos = 0;
    assert(np < ABS_MAXP && slot >= 0 && slot < L->nthreads && word >= 0);
    assert(!(deps & ~abs_all(np)));     /* D names pending slots only */
    while (pos < np && E_WORD(s->w[ENT(m, pm_off, pos)]) <= word)
        pos++;
    /* CANONICAL ORDER: by word, and by age (newest last) within a word */
    assert(pos == np || E_WORD(s->w[ENT(m, pm_off, pos)]) > word);
    s->len = ENT(m, pm_off, np + 1);
    for (int k = np; k > pos; k--)
        for (uint32_t w = 0; w < 3; w++)
            mdl_set(s, ENT(m, pm_off, k) + w, s->w[ENT(m, pm_off, k - 1) + w]);
    remap(m, s, L, np + 1, 1ull << pos, f_insert, (uint64_t)pos);
    mdl_set(s, ENT(m, pm_off, pos), (uint64_t)(uint32_t)word |
                                    (uint64_t)(slot + 1) << 32);
    mdl_set(s, ENT(m, pm_off, pos) + 1, (uint64_t)v);
    mdl_set(s, ENT(m, pm_off, pos) + 2, mdl_bits_insert(deps, pos));
    check(m, s, L);
    return pos;
}

int abs_pending_list(const Model *m, const MdlState *s, uint32_t pm_off,
                       MdlPending *out, int max)
{
    int np = abs_npend(m, s, pm_off);
    for (int j = 0; j < np && j < max; j++) {
        out[j].word = E_WORD(s->w[ENT(m, pm_off, j)]);
        out[j].value = (int64_t)s->w[ENT(m, pm_off, j) + 1];
        out[j].deps = s->w[ENT(m, pm_off, j) + 2];
    }
    return np;
}

