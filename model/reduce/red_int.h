/*
 * red_int.h — private to model/reduce/: the reductions of the default mode
 * (specs/checker.md, "Reductions", has the rules and the soundness
 * argument).
 *
 *   red_access.c  static analysis of a launch: which words each thread's
 *                 instructions may touch (register value sets), and the
 *                 FOOTPRINT of a thread from a pc: everything it may do
 *                 before another given thread moves again
 *   red_por.c     what a step does to the crash images (its class), which
 *                 steps may be taken alone (persistent singletons), and
 *                 the fusion of a thread's invisible steps into the step
 *                 before them
 *   red_slice.c   the PM words a check can observe (projection)
 *
 * WORD IDS. One id space over all memory: PM word w is w; dram word w is
 * pm_words + w; shared word w of CTA c is pm_words + dram_words +
 * c * shared_words + w. A set of words is a sorted list of disjoint
 * intervals [lo, hi].
 *
 * FOOTPRINTS. For thread j at pc and a variant v (0: j shares a CTA with
 * the thread asking, so j stops at every collective barrier; 1: another
 * CTA, so j stops only at kernel-wide ones), the instructions j can reach
 * from pc in its control-flow graph without passing a barrier that the
 * asking thread must also reach (the barrier's arrival itself included):
 * their reads, writes and flags. Before the asking thread moves, j can
 * execute nothing else (its barriers cannot release, the kernel cannot
 * end). Footprints are computed on first use and kept per (slot, pc, v).
 * Under a model whose state has cache lines (hw) they also hold the lines
 * on which the thread may write or flush PM, or that it may act on all at
 * once.
 *
 * LINES. What an instruction acts on is read off the model's rule table
 * (MdlPolicy.hw, model.h): a PM write or flush acts on its word's line, a
 * fence or settle on the thread's lines or every line, a count on every
 * line; under a model whose rows are all empty (the abstract models)
 * nothing acts on lines. With a durable WPQ lines persist independently
 * of each other, with a volatile one a controller's queue orders its
 * lines. With the projection the hw model keeps no hierarchy state for a
 * line none of whose words a check observes (durable), or none of whose
 * controller's words (volatile): steps on such a line only write what
 * loads see (specs/hw.md, "Projection"; Model.kept).
 *
 * STICKY JUMPS. Every cycle of states contains a backward jump (every
 * other step moves a pc forward, or a launch on). A backward jump from b
 * to t cannot be on one when some register r only ever grows in the
 * thread (its every definition is `add r, r, K` with 0 < K <= 2^32, or
 * `sub` of such a -K) and one of those definitions lies on every path
 * from t to b: each way around adds to r, so the thread never returns to
 * the state it jumped from (wrapping around would take 2^32 passes, more
 * states than an exploration can number). The other backward jumps are
 * sticky: never taken alone.
 */
#ifndef GPMC_RED_INT_H
#define GPMC_RED_INT_H

#include <assert.h>

#include "model/model_int.h"

/* Flags of an instruction and of a footprint. */
enum {
    FP_GROW = 1,                        /* a PM write that may change the
                                           crash images (grow them, or
                                           visibly) */
    FP_PBAR_CTA = 2,                    /* arrives at a collective pbar.wg */
    FP_PBAR_GRID = 4,                   /* … at a collective pbar.kr */
    FP_ENDS = 8,                        /* may finish the thread */
    FP_WAIT_CTA = 16,                   /* a CTA-wide collective arrival */
    FP_WAIT_GRID = 32,                  /* a kernel-wide one */
    FP_HIER_ALL = 64,                   /* may act on every line (l2wb, a
                                           collective release, the join;
                                           with a volatile WPQ also fences,
                                           settles and counts) */
    FP_LINE = 128,                      /* acts on the line of its word: a
                                           PM write or a flush (clwb,
                                           clflush) */
    FP_SETTLE = 256,                    /* a fence, pbar or psync with a
                                           durable WPQ: acts on the lines
                                           the thread may write or flush */
    FP_ENDS_DIRTY = 512,                /* an instruction that finishes
                                           the thread and writes memory,
                                           may grow the images, or acts on
                                           the hierarchy */
    FP_WT = 1024                        /* a write-through to a line the
                                           model keeps */
};

/* Threads per launch beyond which footprints are not computed: the steps
   that need them are then never taken alone. */
#define RED_MAX_THREADS 64

typedef struct {
    uint32_t first;                     /* intervals in the slot's pool */
    uint16_t n;
    uint16_t flags;                     /* FP_* */
    uint8_t rw;                         /* MDL_I_READ | MDL_I_WRITE */
} MdlAcc;

typedef struct {
    const uint32_t *r, *w;              /* word intervals, 2 words each */
    const uint32_t *h;                  /* the lines its PM writes and
                                           flushes act on (FP_LINE, or a
                                           settle's FP_SETTLE) */
    uint32_t nr, nw, nh;
    unsigned flags;                     /* FP_*, or-ed over the reach */
} MdlFoot;

typedef struct {
    MdlAcc *acc;                        /* per pc */
    uint8_t *sticky;                    /* per pc: a backward jump that may
                                           close a cycle of states */
    uint32_t *pool;                     /* intervals of acc */
    uint32_t *lines, nlines;            /* the lines the thread may write
                                           or flush (FP_LINE; every line
                                           with a request for every dirty
                                           line) */
    MdlFoot **foot[2];                  /* per pc and variant, or NULL */
} MdlSlotRed;

typedef struct MdlRed {
    int durable;                        /* the WPQ is durable, so lines
                                           persist independently of each
                                           other */
    unsigned release;                   /* FP_* of the release of a
                                           collective pbar: what a thread
                                           that may complete one acts on */
    MdlSlotRed **slots[2];              /* per part, launch: per slot */
    uint8_t *coll;                      /* per kernel: some thread may
                                           arrive at a collective pbar */
    MdlState ev[2];                     /* red_por.c: a step and a model
                                           event tried in both orders */
} MdlRed;

/* The footprint of slot j from pc in variant v; NULL when it cannot be
   computed (too many threads, out of memory): assume anything. */
const MdlFoot *red_access_foot(Model *m, const MdlLaunch *L, int j,
                               uint32_t pc, int v);
/* The word id of a decoded access of slot i. */
uint32_t red_access_id(const Model *m, const MdlLaunch *L, int i,
                       int space, int32_t word);
/* Whether slot j's backward jump at pc may close a cycle of states (else
   a counter it alone increments grows on every way around). */
int red_access_sticky(Model *m, const MdlLaunch *L, int j, uint32_t pc);
/* Marks the PM words kernel's threads may load or read with an atomic. */
int red_access_pm_reads(const Model *m, int32_t kernel, uint8_t *mark);
/* The lines slot j may write or flush in its launch (*n intervals), or
   NULL when unknown. */
const uint32_t *red_access_lines(Model *m, const MdlLaunch *L, int j,
                                 uint32_t *n);
/* What instruction op acts on (FP_LINE, FP_SETTLE, FP_HIER_ALL), from
   the model's rule for it; 0 when the rule is empty. */
unsigned red_access_hier(const Model *m, int op);
/* Whether a thread of L's kernel may arrive at a collective pbar. */
int red_access_collective(const Model *m, const MdlLaunch *L);
/* Whether two interval lists share an id. */
int red_access_meet(const uint32_t *a, uint32_t na, const uint32_t *b,
                    uint32_t nb);
/* Whether interval list iv (n intervals) holds id. */
int red_access_has(const uint32_t *iv, uint32_t n, uint32_t id);


/* red_por.c */
enum { CL_INVISIBLE, CL_GROW, CL_SHRINK, CL_VISIBLE };
/* The class (CL_*) of slot i's next instruction at s, executed into out;
   -1 when it cannot step or fails. For tests of the classes. */
int red_por_class(Model *m, const MdlState *s, int i, MdlState *out);
#endif
