/*
 * mdl_abstract.c — the abstract persistency models strict, epoch, bepoch,
 * scoped and bscoped (DESIGN section 4).
 *
 * REGION. At pm_off: the persisted image of the PM words that belong to a
 * declaration (layout gaps are not stored), then one entry of three words
 * per pending store, to the end of the vector (their number n is the
 * vector's len less the fixed part, over three: a count word of its own
 * would change with every store and persist, one more path for the store
 * to encode). When no PM word is observed, a zero word stands before the
 * entries: the part that decides the crash images is never empty (the
 * checker interns it as a vector):
 *   [0] PM word address | (owner slot + 1) << 32   (owner 0: an earlier
 *       launch, whose threads are gone)
 *   [1] value
 *   [2] D(s): the pending slots s depends on
 * Per thread slot, in the launch's model words: Obs_t (epoch, bepoch) and
 * F_t (bepoch, bscoped), both sets of pending slots. Own_t is derived from
 * the owners.
 *
 * CANONICAL ORDER. Entries are sorted by word address, and stores to one
 * word by age. Nothing in the semantics depends on the creation order of
 * stores to different words once D is explicit (D(s) records every order
 * the model imposes, strong persist atomicity included), so executions that
 * create the same pending stores in a different interleaving reach the same
 * state. Inserting or removing a slot renumbers every slot set (D, Obs, F).
 * D is a DAG over slots; closures iterate to a fixpoint and image
 * enumeration follows a topological order.
 *
 * STRICT in the default mode persists every store at once. Under strict,
 * D(s) is every older pending store, so the images at a state are exactly
 * the prefixes of its pending sequence, and the prefix of length k is the
 * visible PM of the state right after the k-th of those stores, which is
 * itself a reachable crash point. The set of crash images over all crash
 * points is therefore the set of visible PM images, and nothing else of
 * the pending set is observable (strict has no stalls). The naive mode
 * keeps the literal pending chain; the equivalence test checks both agree.
 */
#include <assert.h>
#include <string.h>

#include "model/mdl_reduce.h"

#define MAXP 64

typedef struct {
    int obs, f, ownu;                   /* model-word index, or -1 */
    int at_once;                        /* stores persist at once */
    int shadow;                         /* PROJECTION keeps shadows */
    uint32_t stride;
    int32_t nused;                      /* observed PM words of a decl */
    int32_t *cidx;                      /* word -> stored index, or -1 */
    int32_t *cword;                     /* stored index -> word */
    int32_t nun;                        /* unobserved PM words of a decl */
    int32_t *uidx;                      /* word -> unobserved index, or -1 */
    int32_t *uword;                     /* unobserved index -> word */
    uint32_t pre;                       /* region words before the
                                           persisted image */
    uint32_t ent;                       /* region word of the first entry */
} Abs;

static const Abs *abs_of(const Model *m)
{
    return m->mstate;
}

static uint32_t abs_thread_words(const Model *m)
{
    return abs_of(m)->stride;
}

static uint32_t abs_fixed_words(const Model *m)
{
    return abs_of(m)->ent;
}

static int abs_setup(Model *m, char *err, size_t errlen)
{
    const LitProgram *p = m->p;
    Abs *a = lit_arena_alloc(m->arena, sizeof *a);
    (void)err;
    (void)errlen;
    const uint8_t *observed = m->red ? m->red->observed : NULL;
    if (!a)
        return -1;
    a->obs = a->f = a->ownu = -1;
    a->stride = 0;
    if (m->pol->tracks & MDL_SET_OBS)
        a->obs = (int)a->stride++;
    if (m->pol->tracks & MDL_SET_F)
        a->f = (int)a->stride++;
    for (int k = 0; k < 3; k++) {
        const MdlRule *r = k == 0 ? &m->pol->pbar
                         : k == 1 ? &m->pol->release : &m->pol->psync;
        unsigned sets = r->force | r->order;
        assert(!r->order || (m->pol->tracks & MDL_SET_F));
        assert(!(sets & MDL_SET_OBS) || (m->pol->tracks & MDL_SET_OBS));
        assert(!(sets & MDL_SET_F) || (m->pol->tracks & MDL_SET_F));
        assert(!r->clear_obs || (m->pol->tracks & MDL_SET_OBS));
    }
    m->fx_kept = 1;
    /* the shortcut of STRICT above: D(s) = all of P */
    a->at_once = !m->naive && (m->pol->store_deps & MDL_SET_ALL);
    a->cidx = lit_arena_alloc(m->arena,
                              ((size_t)p->pm_words + 1) * sizeof *a->cidx);
    a->cword = lit_arena_alloc(m->arena,
                               ((size_t)p->pm_words + 1) * sizeof *a->cword);
    a->uidx = lit_arena_alloc(m->arena,
                              ((size_t)p->pm_words + 1) * sizeof *a->uidx);
    a->uword = lit_arena_alloc(m->arena,
                               ((size_t)p->pm_words + 1) * sizeof *a->uword);
    if (!a->cidx || !a->cword || !a->uidx || !a->uword)
        return -1;
    for (int32_t w = 0; w < p->pm_words; w++)
        a->cidx[w] = a->uidx[w] = -1;
    for (int i = 0; i < p->nlocs; i++)
        if (p->locs[i].space == LIT_PM)
            for (int32_t j = 0; j < p->locs[i].size; j++)
                a->cidx[p->locs[i].addr + j] = 0;
    for (int32_t w = 0; w < p->pm_words; w++) {
        if (a->cidx[w] < 0)
            continue;
        if (observed && !observed[w]) {
            a->cidx[w] = -1;
            a->uidx[w] = a->nun;
            a->uword[a->nun++] = w;
        } else {
            a->cidx[w] = a->nused;
            a->cword[a->nused++] = w;
        }
    }
    a->shadow = a->nun && (m->pol->store_deps & MDL_SET_F);
    if (a->shadow)
        a->ownu = (int)a->stride++;
    a->pre = (uint32_t)a->nun * (a->shadow ? 3u : 1u);
    a->ent = a->pre + (uint32_t)a->nused + (a->nused == 0);
    m->key_skip = a->pre;
    m->projected = a->nun > 0;
    m->mstate = a;
    return 0;
}

/* Word indexes of the region. */
#define UVAL(m, off, u) ((off) + (uint32_t)(u))
#define USH(m, off, u) ((off) + (uint32_t)abs_of(m)->nun + (uint32_t)(u))
#define UOWN(m, off, u) ((off) + 2u * (uint32_t)abs_of(m)->nun + (uint32_t)(u))
#define PERS(m, off, w) ((off) + abs_of(m)->pre + (uint32_t)abs_of(m)->cidx[w])
#define ENT(m, off, j) ((off) + abs_of(m)->ent + 3u * (uint32_t)(j))
#define E_WORD(x) ((int32_t)((x) & 0xFFFFFFFFu))
#define E_OWNER(x) ((int32_t)((x) >> 32) - 1)

static void abs_init(Model *m, MdlState *s, uint32_t pm_off,
                     const int64_t *img)
{
    const Abs *a = abs_of(m);
    for (int32_t u = 0; u < a->nun; u++)
        s->w[UVAL(m, pm_off, u)] = (uint64_t)img[a->uword[u]];
    for (uint32_t i = (uint32_t)a->nun; i < a->pre; i++)
        s->w[pm_off + i] = 0;
    for (int32_t i = 0; i < a->nused; i++)
        s->w[PERS(m, pm_off, a->cword[i])] = (uint64_t)img[a->cword[i]];
    if (!a->nused)
        s->w[pm_off + a->pre] = 0;
}

static int npend(const Model *m, const MdlState *s, uint32_t pm_off)
{
    assert(s->len >= ENT(m, pm_off, 0) &&
           (s->len - ENT(m, pm_off, 0)) % 3 == 0);
    return (int)((s->len - ENT(m, pm_off, 0)) / 3);
}

static uint32_t tword(const MdlLaunch *L, int slot, int idx)
{
    return L->mthr_off + (uint32_t)slot * L->mthr_stride + (uint32_t)idx;
}

/* Own of the threads [first, first+n) of launch L (with PROJECTION, the
   shadows of their unobserved stores stand for those). */
static uint64_t own_of(const Model *m, const MdlState *s, const MdlLaunch *L,
                       int first, int n)
{
    const Abs *a = abs_of(m);
    uint64_t own = 0;
    int np = npend(m, s, L->pm_off);
    for (int j = 0; j < np; j++) {
        int32_t o = E_OWNER(s->w[ENT(m, L->pm_off, j)]);
        if (o >= first && o < first + n)
            own |= 1ull << j;
    }
    for (int t = first; a->ownu >= 0 && t < first + n; t++)
        own |= s->w[tword(L, t, a->ownu)];
    return own;
}

static uint64_t all_of(int np)
{
    return np ? (~0ull >> (64 - np)) : 0;
}

static int newest_for(const Model *m, const MdlState *s, uint32_t pm_off,
                      int32_t word)
{
    for (int j = npend(m, s, pm_off) - 1; j >= 0; j--)
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
            remap_word(s, tword(L, t, a->obs), low, f, arg);
        if (a->f >= 0)
            remap_word(s, tword(L, t, a->f), low, f, arg);
        if (a->ownu >= 0)
            remap_word(s, tword(L, t, a->ownu), low, f, arg);
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
static void drop(Model *m, MdlState *s, const MdlLaunch *L, uint64_t gone)
{
    uint32_t pm_off = L->pm_off;
    int np = npend(m, s, pm_off), k;
    if (!gone)
        return;
    /* the entries below the first gone stay where they are */
    k = __builtin_ctzll(gone);
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
}

static uint64_t closure(const Model *m, const MdlState *s, uint32_t pm_off,
                        uint64_t set)
{
    int np = npend(m, s, pm_off);
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
static void force(Model *m, MdlState *s, const MdlLaunch *L, uint64_t set,
                  MdlStepInfo *info)
{
    uint32_t pm_off = L->pm_off;
    int np = npend(m, s, pm_off);
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
    drop(m, s, L, set);
}

static int64_t abs_load(Model *m, MdlState *s, const MdlLaunch *L, int slot,
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
            mdl_set(s, tword(L, slot, a->obs), s->w[tword(L, slot, a->obs)] |
                                               s->w[USH(m, L->pm_off, u)]);
        return (int64_t)s->w[UVAL(m, L->pm_off, u)];
    }
    j = newest_for(m, s, L->pm_off, word);
    if (j < 0)
        return (int64_t)s->w[PERS(m, L->pm_off, word)];
    if (a->obs >= 0 && E_OWNER(s->w[ENT(m, L->pm_off, j)]) != slot)
        mdl_set(s, tword(L, slot, a->obs),
                s->w[tword(L, slot, a->obs)] | 1ull << j);
    return (int64_t)s->w[ENT(m, L->pm_off, j) + 1];
}

static int abs_store(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                     int32_t word, int64_t v, int op, MdlStepInfo *info,
                     MdlError *e)
{
    const Abs *a = abs_of(m);
    uint32_t pm_off = L->pm_off;
    int np = npend(m, s, pm_off), pos = 0, j;
    uint64_t deps = 0;
    int32_t u = a->uidx[word];
    (void)op;
    if (u >= 0) {
        mdl_set(s, UVAL(m, pm_off, u), (uint64_t)v);
        if (a->shadow) {
            uint64_t sh = s->w[USH(m, pm_off, u)] | s->w[tword(L, slot, a->f)];
            mdl_set(s, USH(m, pm_off, u), sh);
            mdl_set(s, UOWN(m, pm_off, u), (uint64_t)(slot + 1));
            mdl_set(s, tword(L, slot, a->ownu),
                    s->w[tword(L, slot, a->ownu)] | sh);
        }
        return MDL_OK;
    }
    if (a->at_once) {
        mdl_set(s, PERS(m, pm_off, word), (uint64_t)v);
        m->fx |= MDL_FX_SET;
        return MDL_OK;
    }
    if (np >= MAXP) {
        e->kind = MDL_E_LIMIT;
        snprintf(e->msg, sizeof e->msg,
                 "more than %d pending persists in one state", MAXP);
        return MDL_FAILED;
    }
    j = newest_for(m, s, pm_off, word);
    if (j >= 0)
        deps |= 1ull << j;
    if (m->pol->store_deps & MDL_SET_ALL)
        deps |= all_of(np);
    if (m->pol->store_deps & MDL_SET_F)
        deps |= s->w[tword(L, slot, a->f)];
    while (pos < np && E_WORD(s->w[ENT(m, pm_off, pos)]) <= word)
        pos++;
    s->len = ENT(m, pm_off, np + 1);
    for (int k = np; k > pos; k--)
        for (uint32_t w = 0; w < 3; w++)
            mdl_set(s, ENT(m, pm_off, k) + w, s->w[ENT(m, pm_off, k - 1) + w]);
    remap(m, s, L, np + 1, 1ull << pos, f_insert, (uint64_t)pos);
    mdl_set(s, ENT(m, pm_off, pos), (uint64_t)(uint32_t)word |
                                    (uint64_t)(slot + 1) << 32);
    mdl_set(s, ENT(m, pm_off, pos) + 1, (uint64_t)v);
    mdl_set(s, ENT(m, pm_off, pos) + 2, mdl_bits_insert(deps, pos));
    m->fx |= MDL_FX_GROW;
    if (info)
        info->created = pos;
    return MDL_OK;
}

/* Stall until `set` is persistent: the default mode forces it; the naive
   mode waits until persist steps have emptied it. */
static int settle(Model *m, MdlState *s, const MdlLaunch *L, uint64_t set,
                  MdlStepInfo *info)
{
    if (m->naive)
        return set ? MDL_BLOCKED : MDL_OK;
    force(m, s, L, set, info);
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
        set |= all_of(npend(m, s, L->pm_off));
    if (sets & MDL_SET_OWN)
        set |= own_of(m, s, L, slot, 1);
    if (sets & MDL_SET_GROUP)
        set |= own_of(m, s, L, first, n);
    if (sets & MDL_SET_OBS)
        set |= s->w[tword(L, slot, a->obs)];
    if (sets & MDL_SET_F)
        set |= s->w[tword(L, slot, a->f)];
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
        mdl_set(s, tword(L, slot, a->f), s->w[tword(L, slot, a->f)] | order);
    if (r->clear_obs)
        mdl_set(s, tword(L, slot, a->obs), 0);
    return MDL_OK;
}

static int abs_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
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

static int abs_collective(const Model *m, int op)
{
    (void)op;
    return m->pol->collective;
}

static int abs_release(Model *m, MdlState *s, const MdlLaunch *L, int first,
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
            mdl_set(s, tword(L, t, a->f), s->w[tword(L, t, a->f)] | order);
    return MDL_OK;
}

/* The threads of the launch are gone: their pending stores stay, owned by
   no one; frontiers and observations start empty in the next launch. */
static int abs_join(Model *m, MdlState *s, const MdlLaunch *L,
                    MdlStepInfo *info)
{
    int np = npend(m, s, L->pm_off);
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

typedef struct {
    int n;
    int order[MAXP];                    /* a topological order of D */
    int32_t word[MAXP];
    int64_t val[MAXP];
    uint64_t dep[MAXP];
    uint64_t silent;                    /* stores of the value beneath them */
    int64_t *img;
    MdlImageFn fn;
    void *ctx;
} Ideals;

/* Decides the slots in topological order: each is left out, or taken when
   everything it depends on is taken. A silent store (its value equals the
   value beneath it: the older pending store to its word, or the persisted
   value) changes no image, so whenever it may be taken it is: every set
   that leaves it out has the same image as the set that takes it, which is
   enumerated, and taking it only enables more. */
static int ideals(Ideals *E, int k, uint64_t inc)
{
    int64_t old;
    int r, j;
    if (k == E->n)
        return E->fn(E->ctx, E->img, inc);
    j = E->order[k];
    if (E->dep[j] & ~inc)
        return ideals(E, k + 1, inc);
    if (!(E->silent & (1ull << j)) && ideals(E, k + 1, inc))
        return 1;
    old = E->img[E->word[j]];
    E->img[E->word[j]] = E->val[j];
    r = ideals(E, k + 1, inc | 1ull << j);
    E->img[E->word[j]] = old;
    return r;
}

/* The persisted image of s into pm (every word), unobserved words with
   their visible value (visible) or their initial one (a crash image:
   PROJECTION). */
static void expand(const Model *m, const MdlState *s, uint32_t pm_off,
                   int64_t *pm, int visible)
{
    const Abs *a = abs_of(m);
    memset(pm, 0, (size_t)m->p->pm_words * sizeof *pm);
    for (int32_t i = 0; i < a->nused; i++)
        pm[a->cword[i]] = (int64_t)s->w[PERS(m, pm_off, a->cword[i])];
    for (int32_t u = 0; u < a->nun; u++)
        pm[a->uword[u]] = visible ? (int64_t)s->w[UVAL(m, pm_off, u)]
                                  : m->init_pm[a->uword[u]];
}

static int abs_images(Model *m, const MdlState *s, uint32_t pm_off,
                      MdlImageFn fn, void *ctx)
{
    Ideals E;
    uint64_t placed = 0;
    expand(m, s, pm_off, m->img, 0);
    if (m->naive)
        return fn(ctx, m->img, 0);
    E.n = npend(m, s, pm_off);
    E.silent = 0;
    for (int j = 0; j < E.n; j++) {
        E.word[j] = E_WORD(s->w[ENT(m, pm_off, j)]);
        E.val[j] = (int64_t)s->w[ENT(m, pm_off, j) + 1];
        E.dep[j] = s->w[ENT(m, pm_off, j) + 2];
        if (E.val[j] == (j && E.word[j - 1] == E.word[j] ? E.val[j - 1]
                                                         : m->img[E.word[j]]))
            E.silent |= 1ull << j;
    }
    for (int k = 0; k < E.n; k++) {
        int j = 0;
        while ((placed & (1ull << j)) || (E.dep[j] & ~placed))
            j++;
        E.order[k] = j;
        placed |= 1ull << j;
    }
    E.img = m->img;
    E.fn = fn;
    E.ctx = ctx;
    return ideals(&E, 0, 0);
}

static void abs_visible(const Model *m, const MdlState *s, uint32_t pm_off,
                        int64_t *pm)
{
    int np = npend(m, s, pm_off);
    expand(m, s, pm_off, pm, 1);
    for (int j = 0; j < np; j++)
        pm[E_WORD(s->w[ENT(m, pm_off, j)])] =
            (int64_t)s->w[ENT(m, pm_off, j) + 1];
}

/* Naive mode: any pending store whose dependencies have persisted may
   persist. */
static int abs_events(Model *m, const MdlState *s, const MdlLaunch *L,
                      uint32_t *codes, int max)
{
    int np = npend(m, s, L->pm_off), n = 0;
    if (!m->naive)
        return 0;
    for (int j = 0; j < np && n < max; j++)
        if (!s->w[ENT(m, L->pm_off, j) + 2])
            codes[n++] = (uint32_t)j;
    return n;
}

static int abs_event(Model *m, MdlState *s, const MdlLaunch *L, uint32_t code,
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
    drop(m, s, L, 1ull << code);
    return MDL_OK;
}

static int abs_pending(const Model *m, const MdlState *s, uint32_t pm_off,
                       MdlPending *out, int max)
{
    int np = npend(m, s, pm_off);
    for (int j = 0; j < np && j < max; j++) {
        out[j].word = E_WORD(s->w[ENT(m, pm_off, j)]);
        out[j].value = (int64_t)s->w[ENT(m, pm_off, j) + 1];
        out[j].deps = s->w[ENT(m, pm_off, j) + 2];
    }
    return np;
}

const MdlOps mdl_abstract_ops = {
    abs_thread_words, abs_fixed_words, 3 * MAXP, abs_setup, abs_init,
    abs_load, abs_store, abs_instr, abs_collective, abs_release, abs_join,
    abs_images, abs_visible, abs_events, abs_event, abs_pending
};
