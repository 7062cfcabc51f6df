/*
 * model_int.h — private to model/.
 *
 * STATE ENCODING. A state is a vector of 64-bit words laid out for the
 * launch it is in (part = main program or recovery, launch index into that
 * part's sequence of kernels):
 *
 *   [0]            header: launch index (bits 0..15; == number of launches
 *                  when the part has run to completion, so a part has at
 *                  most HDR_LAUNCH_MAX launches), part (bit 16)
 *   thr_off        per active thread slot: one header word (pc bits 0..23,
 *                  status bits 24..25, wait kind bits 26..27) and then the
 *                  registers the kernel uses, in register order
 *   shared_off     grid * shared_words: each CTA's scratchpad
 *   dram_off       dram_words
 *   mthr_off       per active thread slot: mthr_stride words owned by the
 *                  persistency model (frontiers, observed sets, …)
 *   pm_off …       the persistency model's region, to the end of the vector:
 *                  a fixed part, then a variable part (pending stores, …)
 *
 * Only threads that have a body are stored (idle threads have no state and
 * read as exited with zero registers). Fresh threads are zero words, which
 * the store shares between all states. The persistency region comes last and
 * decides the crash images alone: the checker caches images by it.
 * At a kernel boundary the thread, shared and per-thread model words are
 * rebuilt for the next launch; dram and the persistency region carry over.
 * The finished state of a part keeps its last launch's layout, so the
 * registers of the last launch stay readable for `final` conditions.
 */
#ifndef GPMC_MODEL_INT_H
#define GPMC_MODEL_INT_H

#include <assert.h>

#include "model/model.h"

enum { TS_RUN = 0, TS_WAIT = 1, TS_DONE = 2 };
enum { WK_BAR = 0, WK_GRID = 1, WK_PWG = 2, WK_PKR = 3 };

#define TH_PC_MAX 0xFFFFFFu
#define TH_PC(h) ((uint32_t)((h) & TH_PC_MAX))
#define TH_STATUS(h) ((int)(((h) >> 24) & 3u))
#define TH_KIND(h) ((int)(((h) >> 26) & 3u))

/* A thread's header word; the parser keeps bodies below 2^24
   instructions. */
static inline uint64_t mdl_th_make(uint32_t pc, int st, int k)
{
    assert(pc <= TH_PC_MAX && st >= TS_RUN && st <= TS_DONE &&
           k >= WK_BAR && k <= WK_PKR);
    return (uint64_t)pc | ((uint64_t)st << 24) | ((uint64_t)k << 26);
}

#define HDR_LAUNCH_MAX 0xFFFF
#define HDR_PART_BIT (1u << 16)
#define HDR_LAUNCH(h) ((int32_t)((h) & (uint64_t)HDR_LAUNCH_MAX))
#define HDR_PART(h) (((h) & HDR_PART_BIT) != 0)

/* The state's header word: launch idx of part (0 main, 1 recovery). */
static inline uint64_t mdl_hdr_make(int32_t idx, int part)
{
    assert(idx >= 0 && idx <= HDR_LAUNCH_MAX && (part == 0 || part == 1));
    return (uint64_t)idx | (part ? HDR_PART_BIT : 0);
}

/* Step results of thread and model actions. */
enum { MDL_OK = 0, MDL_FAILED = 1, MDL_BLOCKED = 2, MDL_NOSTEP = 3 };

typedef struct {
    int32_t kernel;                     /* LitKernel index, -1: none */
    int32_t nthreads;                   /* active thread slots */
    int32_t *gtid, *body, *cta;         /* per slot */
    int32_t ncta;                       /* grid */
    int32_t *cta_first, *cta_count;     /* slots of CTA c, contiguous */
    int32_t nregs;                      /* registers stored per thread */
    int32_t nregslot;                   /* the kernel's register numbers */
    int32_t *regslot;                   /* register -> index, -1 unused */
    uint32_t thr_off, thr_stride;
    uint32_t shared_off, dram_off;
    uint32_t mthr_off, mthr_stride;
    uint32_t pm_off;
    uint32_t fixed_len;                 /* words up to the variable part */
} MdlLaunch;

typedef struct MdlOps MdlOps;
struct MdlRed;

/* What a step did to the persistency state, recorded by models that keep
   track (Model.fx_kept) and read by the reductions (reduce.h). */
enum {
    MDL_FX_GROW = 1,                    /* a pending store was added */
    MDL_FX_SHRINK = 2,                  /* pending stores were persisted */
    MDL_FX_SET = 4                      /* the persisted image changed */
};

struct Model {
    const LitProgram *p;
    int kind;                           /* LIT_STRICT … LIT_HW */
    const MdlPolicy *pol;               /* mdl_policy(kind) */
    const MdlHwRule *hw;                /* mdl_hw_rules(pol, config) */
    int naive;
    unsigned mode;                      /* MDL_NAIVE, MDL_FUSE, … */
    struct MdlRed *red;                 /* reductions' data, or NULL */
    int conf_broken;                    /* MDL_CONFINE's assumption failed
                                           (mdl_confine_broken) */
    unsigned fx;                        /* MDL_FX_* of the current step */
    int fx_kept;                        /* the model sets fx */
    int vec_first;                      /* the store hook's store is the
                                           first of its step … */
    int vec_more;                       /* … or others follow it in the
                                           step: a vector store's elements
                                           (mdl_exec.c) */
    uint32_t key_skip;                  /* region words before the part that
                                           decides the crash images */
    int projected;                      /* MDL_SLICE in effect: crash images
                                           hold unobserved words at their
                                           initial value */
    uint8_t *observed;                  /* per PM word: a check can see it
                                           (red_slice.c); NULL: every word */
    uint8_t *kept;                      /* per PM line, set by a model whose
                                           state has lines (hw, in its
                                           setup) under MDL_SLICE: it keeps
                                           the line's state; NULL: every
                                           line */
    int64_t *init_pm;                   /* declared initial PM, per word */
    const MdlOps *ops;
    int32_t nlaunch[2];                 /* main, recovery */
    MdlLaunch *launch[2];               /* nlaunch entries (at least 1) */
    uint32_t max_words;
    uint64_t *stash;                    /* dram_words: launch switches */
    MdlState succ;                      /* successors under construction */
    int chain;                          /* instructions of the successor
                                           being reported (mdl_succ_steps) */
    MdlState trial;                     /* a step tried by the reductions */
    int64_t *img;                       /* pm_words, image enumeration */
    char notes[512];
    int noted;                          /* bit per note already given */
    void *mstate;                       /* the persistency model's own */
    BaseArena *arena;
};

/* A persistency model plugs in through these hooks. Every hook that takes a
   MdlStepInfo may be given NULL (exploration) and then must not format
   text. Slots are thread slots of launch L. */
struct MdlOps {
    uint32_t (*thread_words)(const Model *m);       /* per thread slot */
    uint32_t (*fixed_words)(const Model *m);        /* at pm_off */
    uint32_t max_var_words;             /* variable part bound */
    int (*setup)(Model *m, char *err, size_t errlen);
    void (*init)(Model *m, MdlState *s, uint32_t pm_off, const int64_t *img);
    int64_t (*load)(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                    int32_t word, MdlStepInfo *info);
    /* op: LIT_ST, LIT_ST_WT or an atomic. 0 ok, MDL_FAILED when a bound
       of gpmc is hit (e is filled). */
    int (*store)(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                 int32_t word, int64_t v, int op, MdlStepInfo *info,
                 MdlError *e);
    /* Persistency instructions: clwb clflush l2wb pcommit fences, pbar.*
       when not collective, psync. MDL_OK, MDL_BLOCKED (naive stall), or
       MDL_FAILED when a bound of gpmc is hit (e is filled). */
    int (*instr)(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                 const LitInstr *in, int32_t word, MdlStepInfo *info,
                 MdlError *e);
    /* Whether a write of PM word `word` may change the crash images:
       the model keeps persistency state for it (with MDL_SLICE, not for
       every word). The reductions' FP_GROW. */
    int (*keeps)(const Model *m, int32_t word);
    /* Release of a collective pbar by the thread slots [first, first+n):
       MDL_OK, or MDL_BLOCKED while it must wait (naive mode). */
    int (*release)(Model *m, MdlState *s, const MdlLaunch *L, int first,
                   int n, int op, MdlStepInfo *info);
    /* The implicit join at the end of launch L, once every thread is done:
       MDL_OK, or MDL_BLOCKED while it must wait; the launch then stays, all
       threads done, until a model event unblocks it. */
    int (*join)(Model *m, MdlState *s, const MdlLaunch *L, MdlStepInfo *info);
    int (*images)(Model *m, const MdlState *s, uint32_t pm_off,
                  MdlImageFn fn, void *ctx);
    void (*visible)(const Model *m, const MdlState *s, uint32_t pm_off,
                    int64_t *pm);
    /* The model's enabled events, as codes < MDL_STEP_EVENT: in naive mode
       its nondeterministic actions; in the default mode normally none (hw:
       those some thread's next step waits for or would make unobservable). */
    int (*events)(Model *m, const MdlState *s, const MdlLaunch *L,
                  uint32_t *codes, int max);
    int (*event)(Model *m, MdlState *s, const MdlLaunch *L, uint32_t code,
                 MdlStepInfo *info);
    int (*pending)(const Model *m, const MdlState *s, uint32_t pm_off,
                   MdlPending *out, int max);
};

extern const MdlOps abs_ops;           /* model/abstract/ */
extern const MdlOps hw_ops;            /* model/hw/ */

/* Whether the model keeps the state of PM line l (Model.kept). */
static inline int mdl_kept(const Model *m, uint32_t l)
{
    return !m->kept || m->kept[l];
}

/* ---- the reductions (model/reduce/), as the core calls them ------------ */

/* red_access.c: setup allocates Model.red; launches (once the launches
   are built) the per-launch caches. */
int red_access_setup(Model *m);
int red_access_launches(Model *m);
/* MDL_CONFINE: records in conf_broken when decoded access d of slot, about
   to run, leaves the words its footprint assumed (red_access.c,
   PROVENANCE). */
void red_access_check(Model *m, const MdlLaunch *L, int slot,
                      const MdlInstr *d);
/* red_slice.c: fills Model.observed (before the model's own setup, which
   lays out its region by it). */
int red_slice_setup(Model *m);
/* Executes transition `step` of s into out: the step, then (MDL_FUSE)
   the invisible steps of the same thread after it; *n gets the number
   of instructions. MDL_OK, MDL_FAILED (e filled) or MDL_NOSTEP. */
int red_por_transition(Model *m, const MdlState *s, const MdlLaunch *L,
                       uint32_t step, MdlState *out, MdlError *e, int *n);
/* The slot whose step alone stands for every step of s (an ample
   singleton), its successor in out; -1 when s must be fully expanded.
   codes: the nev model events enabled at s (hw's default mode), which the
   step must commute with. */
int red_por_ample(Model *m, const MdlState *s, const MdlLaunch *L,
                  const uint32_t *codes, int nev, MdlState *out, int *n);


const MdlLaunch *mdl_launch_of(const Model *m, const MdlState *s);

/* mdl_decode.c: mdl_decode for a running slot of launch L; the operand
   evaluator and comparisons it shares with execution. */
void mdl_decode_at(const Model *m, const MdlState *s, const MdlLaunch *L,
                   int slot, MdlInstr *d);
int64_t mdl_operand(const Model *m, const MdlState *s, const MdlLaunch *L,
                    int slot, const LitOperand *o);
int64_t mdl_special(const LitKernel *k, int32_t gtid, int sreg);
/* Register reg of thread slot `slot`: the kernel uses it. */
int64_t mdl_reg_value(const Model *m, const MdlState *s, const MdlLaunch *L,
                      int slot, int reg);
void mdl_note(Model *m, int id, const char *text);
void mdl_info_effect(MdlStepInfo *info, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* mdl_exec.c: runs one instruction (or model event) `step` of s in place,
   with the releases and joins it enables. MDL_OK, MDL_FAILED, MDL_BLOCKED
   or MDL_NOSTEP. */
int mdl_exec_step(Model *m, MdlState *s, const MdlLaunch *L, uint32_t step,
                  MdlStepInfo *info, MdlAccess *acc, MdlError *e);

/* Bit sets over pending-store slots. */
static inline uint64_t mdl_bits_drop(uint64_t x, uint64_t removed)
{
    while (removed) {
        int p = 63 - __builtin_clzll(removed);
        uint64_t low = p ? (x & ((1ull << p) - 1)) : 0;
        x = low | ((p < 63 ? (x >> (p + 1)) : 0) << p);
        removed &= ~(1ull << p);
    }
    return x;
}

/* Opens a zero bit at position pos, moving the bits above it up. */
static inline uint64_t mdl_bits_insert(uint64_t x, int pos)
{
    uint64_t low;
    assert(pos >= 0 && pos < 64);
    low = pos ? (x & (~0ull >> (64 - pos))) : 0;
    if (pos >= 63)
        return low;
    return low | ((x >> pos) << (pos + 1));
}

#endif
