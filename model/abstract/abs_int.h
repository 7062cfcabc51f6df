/*
 * abs_int.h — private to model/abstract/: the abstract persistency models
 * strict, epoch, bepoch, scoped and bscoped (DESIGN section 4), which
 * execute the rows of the policy table (model/mdl_policy.c) on a set of
 * pending stores.
 *
 *   abs_model.c    the ops table, the layout of the region, initial states
 *   abs_pending.c  the pending set: insertion, persisting, renumbering
 *   abs_rules.c    loads, stores, barriers, releases, joins and (naive
 *                  mode) persist events: the policy's rules applied
 *   abs_image.c    crash images (every subset closed under D) and what
 *                  loads see
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
#ifndef GPMC_ABS_INT_H
#define GPMC_ABS_INT_H

#include <assert.h>

#include "model/model_int.h"

#define ABS_MAXP 64                     /* pending stores in one state */
_Static_assert(ABS_MAXP <= 64, "slot sets are one 64-bit word");

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

static inline const Abs *abs_of(const Model *m)
{
    return m->mstate;
}

/* Word indexes of the region. */
#define UVAL(m, off, u) ((off) + (uint32_t)(u))
#define USH(m, off, u) ((off) + (uint32_t)abs_of(m)->nun + (uint32_t)(u))
#define UOWN(m, off, u) ((off) + 2u * (uint32_t)abs_of(m)->nun + (uint32_t)(u))
#define PERS(m, off, w) ((off) + abs_of(m)->pre + (uint32_t)abs_of(m)->cidx[w])
#define ENT(m, off, j) ((off) + abs_of(m)->ent + 3u * (uint32_t)(j))
#define E_WORD(x) ((int32_t)((x) & 0xFFFFFFFFu))
#define E_OWNER(x) ((int32_t)((x) >> 32) - 1)

static inline int abs_npend(const Model *m, const MdlState *s, uint32_t pm_off)
{
    assert(s->len >= ENT(m, pm_off, 0) &&
           (s->len - ENT(m, pm_off, 0)) % 3 == 0);
    return (int)((s->len - ENT(m, pm_off, 0)) / 3);
}

/* Model word idx of thread slot `slot` of launch L. */
static inline uint32_t abs_tword(const MdlLaunch *L, int slot, int idx)
{
    assert(slot >= 0 && slot < L->nthreads && idx >= 0 &&
           (uint32_t)idx < L->mthr_stride);
    return L->mthr_off + (uint32_t)slot * L->mthr_stride + (uint32_t)idx;
}

/* Every slot of a set of np pending stores. */
static inline uint64_t abs_all(int np)
{
    return np ? (~0ull >> (64 - np)) : 0;
}

/* abs_pending.c */
uint64_t abs_pending_own(const Model *m, const MdlState *s,
                         const MdlLaunch *L, int first, int n);
int abs_pending_newest(const Model *m, const MdlState *s, uint32_t pm_off,
                       int32_t word);
/* Inserts a pending store of v to word by thread slot at its canonical
   place, depending on deps (slot bits before the insertion); its slot. */
int abs_pending_insert(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                       int32_t word, int64_t v, uint64_t deps);
void abs_pending_drop(Model *m, MdlState *s, const MdlLaunch *L,
                      uint64_t gone);
void abs_pending_force(Model *m, MdlState *s, const MdlLaunch *L,
                       uint64_t set, MdlStepInfo *info);
int abs_pending_list(const Model *m, const MdlState *s, uint32_t pm_off,
                     MdlPending *out, int max);

/* abs_rules.c: the ops hooks that execute the policy's rules. */
int64_t abs_rules_load(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                       int32_t word, MdlStepInfo *info);
int abs_rules_store(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                    int32_t word, int64_t v, int op, MdlStepInfo *info,
                    MdlError *e);
int abs_rules_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                    const LitInstr *in, int32_t word, MdlStepInfo *info,
                    MdlError *e);
int abs_rules_release(Model *m, MdlState *s, const MdlLaunch *L, int first,
                      int n, int op, MdlStepInfo *info);
int abs_rules_join(Model *m, MdlState *s, const MdlLaunch *L,
                   MdlStepInfo *info);
int abs_rules_events(Model *m, const MdlState *s, const MdlLaunch *L,
                     uint32_t *codes, int max);
int abs_rules_event(Model *m, MdlState *s, const MdlLaunch *L, uint32_t code,
                    MdlStepInfo *info);

/* abs_image.c */
int abs_image_enum(Model *m, const MdlState *s, uint32_t pm_off,
                   MdlImageFn fn, void *ctx);
void abs_image_visible(const Model *m, const MdlState *s, uint32_t pm_off,
                       int64_t *pm);

#endif
