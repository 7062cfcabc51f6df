/*
 * hw_int.h — private to model/hw/: the hw persistency model, a GPU memory
 * hierarchy of L2 lines, write-through requests, memory controllers with
 * write-pending queues and NVM (DESIGN section 4; specs/hw.md is the long
 * form, with the argument that the two modes agree).
 *
 *   hw_model.c    the ops table, the layout of PM words into lines and
 *                 controllers, loads and visibility
 *   hw_hier.c     the hierarchy as DESIGN states it: its state, the
 *                 thread actions, and every eviction, write-through
 *                 completion and queue drain as a model event
 *   hw_lazy.c     default mode: which of those events are explored
 *   hw_closure.c  default mode: the crash images of a state
 *
 * Both modes run on the same states and steps. --naive explores every
 * event; the default mode only the events some thread's next step depends
 * on (hw_lazy.c), and takes as a state's crash images the NVM of every
 * state its events alone can reach (hw_closure.c). With a durable WPQ
 * a store of the value L2 holds, to a clean line without write-throughs,
 * leaves it clean (hw_hier.c): the naive store, then a write-back that
 * writes nothing new. Its states are therefore naive states: it never
 * stores more of them than --naive (with the projection below, naive
 * states with what no check sees forgotten).
 *
 * PROJECTION (default mode with MDL_SLICE, when some PM word is not
 * observed; specs/hw.md, "Projection"). Only the NVM of observed words
 * can reach a check, and NVM is never read by a step, so the model keeps
 * NVM, queued and write-through values of unobserved words at their
 * initial value and 0. A line the reductions do not keep (reduce.h:
 * none of its words, or with a volatile WPQ none of its controller's
 * words, is observed) has no hierarchy state at all: a store to it only
 * writes VIS, so it is never dirty and has no write-throughs, requests or
 * queue entries; what fences would wait for there only delays them.
 *
 * Lines and controllers are dense: line l is the l-th PM line holding a
 * declared word, controller c the c-th controller owning such a line, both
 * in ascending order. Declared PM words are dense too (layout gaps are not
 * stored), and the words of one line are consecutive.
 *
 * REGION (from pm_off):
 *   VIS    per dense word: the L2 contents, what loads see
 *   NVM    per dense word: persistent memory
 *   DIRTY  line bit set
 *   NWT    number of outstanding write-throughs
 *   QL     per controller, volatile WPQ only: entries | words << 16
 *   then the write-throughs not yet written toward their controller,
 *   sorted by line and by age within a line (two words: dense word |
 *   (owner slot + 1) << 32, value), then each controller's queue, head
 *   first: a header (dense line | HWQ_LINE, or dense word | HWQ_WT | (owner
 *   slot + 1) << HWQ_OWNER_SHIFT when the write-through's request completes
 *   only at the drain, wt_ack = nvm), then the line's values or the word's.
 *
 * THREAD WORDS (per slot of the launch): the line bit set of outstanding
 * write-back requests, the lines written since launch, then (volatile) one
 * byte per controller: queue entries ahead of the thread's pcommit (at
 * most HW_MAXCOUNT: a pcommit with more ahead of it ends the check as
 * incomplete).
 *
 * Canonical form: a write-back request exists only on a dirty line (one on
 * a clean line may complete at once with no effect); one thread's requests
 * on one line are one bit (completing either writes the same line); a
 * thread's pcommits are one count per controller (the newest waits for at
 * least as many entries).
 */
#ifndef GPMC_HW_INT_H
#define GPMC_HW_INT_H

#include <assert.h>

#include "model/model_int.h"

#define HW_MAXWT 64             /* outstanding write-throughs */
#define HW_VAR_WORDS 8192       /* variable part of the region */
#define HW_MAXEVENTS 128        /* mdl_successors asks for at most this */

/* Event kinds: write back a line, complete its oldest write-through,
   drain a controller's head; and, default mode only, a write-back followed
   by the drain of its whole queue (several naive events in one step). */
enum { HW_EV_WB = 0, HW_EV_WT = 1, HW_EV_DRAIN = 2, HW_EV_WBD = 3 };
#define HW_EV_ARG_MAX 0xFFFFF
#define HW_EV_KIND(code) ((int)((code) >> 20))
#define HW_EV_ARG(code) ((int)((code) & (uint32_t)HW_EV_ARG_MAX))

/* An event's code (a step code below MDL_STEP_EVENT): the kind in the
   bits above 20, the line or controller below. */
static inline uint32_t hw_ev_code(int k, int32_t i)
{
    assert(k >= HW_EV_WB && k <= HW_EV_WBD && i >= 0 && i <= HW_EV_ARG_MAX);
    return (uint32_t)k << 20 | (uint32_t)i;
}

#define HWQ_LINE (1ull << 32)
#define HWQ_WT (2ull << 32)
#define HWQ_OWNER_SHIFT 40
#define HW_LOW(x) ((int32_t)((x) & 0xFFFFFFFFu))
#define HW_WT_OWNER(x) ((int32_t)((x) >> 32) - 1)
#define HWQ_OWNER(x) ((int32_t)((x) >> HWQ_OWNER_SHIFT) - 1)

typedef struct {
    int naive;                          /* explore every event */
    int pcie;                           /* pm_path = pcie: every word is a
                                           line of its own (hw_model.c) */
    int vol;                            /* wpq = volatile */
    int ack_drain;                      /* a write-through's request
                                           completes at its drain (volatile
                                           WPQ, wt_ack = nvm) */
    int32_t nw, nl, nc;                 /* dense words, lines, controllers */
    uint32_t nlw, ncw, npw;             /* words of a line bit set, of a
                                           controller bit set, of the
                                           per-controller byte vector */
    int32_t *cword;                     /* dense word -> PM word address */
    int32_t *cidx;                      /* PM word -> dense word, -1 gap */
    int32_t *wline;                     /* dense word -> line */
    int32_t *lfirst, *lnw, *lno;        /* line -> first word, count, number */
    int32_t *lctl;                      /* line -> controller */
    int32_t *cfirst, *cnl, *cno;        /* controller -> first index into
                                           clines, count, number */
    int32_t *clines;                    /* lines grouped by controller */
    /* region offsets */
    uint32_t r_nvm, r_dirty, r_nwt, r_ql, r_fixed;
    /* thread word offsets */
    uint32_t t_rq, t_wr, t_pc, t_stride;
    uint8_t *wobs;                      /* projection: per dense word,
                                           observed; NULL: every word */
    uint8_t *lkept;                     /* projection: per dense line, its
                                           hierarchy state is kept; NULL:
                                           every line */
    /* default-mode scratch */
    uint64_t *need;                     /* hw_lazy.c: 3 line and 2
                                           controller bit sets */
    int64_t *opt;                       /* hw_closure.c: per line, its
                                           contents at optat[l] */
    int32_t *nopt, *optat;
} Hw;

static inline Hw *hw_of(const Model *m)
{
    return m->mstate;
}

static inline int hw_wobs(const Hw *h, int32_t dw)
{
    return !h->wobs || h->wobs[dw];
}

static inline int hw_kept(const Hw *h, int l)
{
    return !h->lkept || h->lkept[l];
}

static inline uint32_t hw_tw(const MdlLaunch *L, int slot, uint32_t off)
{
    assert(slot >= 0 && slot < L->nthreads && off < L->mthr_stride);
    return L->mthr_off + (uint32_t)slot * L->mthr_stride + off;
}

static inline int hw_bit(const MdlState *s, uint32_t at, int i)
{
    assert(i >= 0);
    return (int)((s->w[at + (uint32_t)i / 64] >> (i % 64)) & 1u);
}

static inline void hw_setbit(MdlState *s, uint32_t at, int i, int v)
{
    uint32_t k = at + (uint32_t)i / 64;
    uint64_t b = 1ull << (i % 64);
    assert(i >= 0);
    mdl_set(s, k, v ? (s->w[k] | b) : (s->w[k] & ~b));
}

/* One byte of a per-controller byte vector (a pcommit's count: the step
   that sets one keeps it below HW_MAXCOUNT). */
#define HW_MAXCOUNT 0xFF
static inline int hw_byte(const MdlState *s, uint32_t at, int c)
{
    assert(c >= 0);
    return (int)((s->w[at + (uint32_t)c / 8] >> (8 * (c % 8))) & 0xFFu);
}

static inline void hw_setbyte(MdlState *s, uint32_t at, int c, int v)
{
    uint32_t k = at + (uint32_t)c / 8;
    int sh = 8 * (c % 8);
    assert(c >= 0 && v >= 0 && v <= HW_MAXCOUNT);
    mdl_set(s, k, (s->w[k] & ~(0xFFull << sh)) | ((uint64_t)v << sh));
}

static inline int hw_nwt(const Hw *h, const MdlState *s, uint32_t pm_off)
{
    assert(s->w[pm_off + h->r_nwt] <= HW_MAXWT);
    return (int)s->w[pm_off + h->r_nwt];
}

/* Index of outstanding write-through j. */
static inline uint32_t hw_wt_at(const Hw *h, uint32_t pm_off, int j)
{
    assert(j >= 0 && j <= HW_MAXWT);
    return pm_off + h->r_fixed + 2u * (uint32_t)j;
}

/* A write-through's first word: its dense word and owner slot. */
static inline uint64_t hw_wt_make(int32_t dw, int slot)
{
    assert(dw >= 0 && slot >= 0);
    return (uint64_t)(uint32_t)dw | (uint64_t)(slot + 1) << 32;
}

/* Entries and words of controller c's queue (HW_VAR_WORDS bounds both,
   far below the 16 bits of the count). */
static inline int hw_ql_n(const Hw *h, const MdlState *s, uint32_t pm_off,
                          int c)
{
    assert(h->vol && c >= 0 && c < h->nc);
    return (int)(s->w[pm_off + h->r_ql + (uint32_t)c] & 0xFFFFu);
}

static inline uint32_t hw_ql_words(const Hw *h, const MdlState *s,
                                   uint32_t pm_off, int c)
{
    assert(h->vol && c >= 0 && c < h->nc);
    return (uint32_t)(s->w[pm_off + h->r_ql + (uint32_t)c] >> 16);
}

static inline uint64_t hw_ql_make(int n, uint32_t words)
{
    assert(n >= 0 && n <= 0xFFFF && words <= HW_VAR_WORDS);
    return (uint64_t)n | (uint64_t)words << 16;
}

/* A queue entry's header: line l, or the word dw of a write-through
   whose request completes at its drain by owner slot (or -1). */
static inline uint64_t hwq_line(int l)
{
    assert(l >= 0);
    return (uint64_t)l | HWQ_LINE;
}

static inline uint64_t hwq_wt(int32_t dw, int owner)
{
    assert(dw >= 0 && owner >= -1 && owner + 1 < (1 << 24));
    return (uint64_t)dw | HWQ_WT |
           (uint64_t)(owner + 1) << HWQ_OWNER_SHIFT;
}

/* Index of the head of controller c's queue. */
static inline uint32_t hw_queue_at(const Hw *h, const MdlState *s,
                                   uint32_t pm_off, int c)
{
    uint32_t at = hw_wt_at(h, pm_off, hw_nwt(h, s, pm_off));
    for (int k = 0; k < c; k++)
        at += hw_ql_words(h, s, pm_off, k);
    return at;
}

/* Words of the queue entry whose header is hd. */
static inline uint32_t hw_entry_len(const Hw *h, uint64_t hd)
{
    return hd & HWQ_LINE ? (uint32_t)h->lnw[HW_LOW(hd)] + 1 : 2;
}

/* Opens n zero words at index at (the tail moves up) / closes n words at
   at (the tail moves down), keeping the zero tail. */
void hw_open(MdlState *s, uint32_t at, uint32_t n);
void hw_close(MdlState *s, uint32_t at, uint32_t n);
/* "line 0 (x = 1, y = 0)" into buf, from values v of the line's words. */
void hw_describe(const Model *m, int l, const uint64_t *v, char *buf,
                     size_t len);
void hw_limit(MdlError *e, const char *what);

/* Every invariant of the region above and of the threads' words, in
   O(size of the state): checked after each step of the hierarchy when
   built with -DGPMC_DEBUG (make asan). */
#ifdef GPMC_DEBUG
void hw_check(const Model *m, const MdlState *s, const MdlLaunch *L);
#else
#define hw_check(m, s, L) ((void)0)
#endif

/* hw_hier.c */
void hw_hier_init(Model *m, MdlState *s, uint32_t pm_off);
int hw_hier_store(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                      int32_t dw, int64_t v, int op, MdlStepInfo *info,
                      MdlError *e);
int hw_hier_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                      const LitInstr *in, int32_t dw, MdlStepInfo *info,
                      MdlError *e);
int hw_hier_pbar(Model *m, MdlState *s, const MdlLaunch *L, int first,
                     int n, MdlStepInfo *info);
/* Whether thread slot t has a request outstanding. */
int hw_hier_outstanding(const Hw *h, const MdlState *s,
                            const MdlLaunch *L, int t);
int hw_hier_join(Model *m, MdlState *s, const MdlLaunch *L);
int hw_hier_events(Model *m, const MdlState *s, const MdlLaunch *L,
                       uint32_t *codes, int max);
int hw_hier_event(Model *m, MdlState *s, const MdlLaunch *L,
                      uint32_t code, MdlStepInfo *info);

/* hw_lazy.c: the events of s the default mode explores. */
int hw_lazy_events(Model *m, const MdlState *s, const MdlLaunch *L,
                       uint32_t *codes, int max);

/* hw_closure.c: the NVM of every state the events of s can reach. */
int hw_closure_images(Model *m, const MdlState *s, uint32_t pm_off,
                          MdlImageFn fn, void *ctx);

#endif
