/*
 * model — what a gpmc program does, one atomic step at a time, under one
 * persistency model (DESIGN.md sections 2–4).
 *
 * Promises: a Model built from a LitProgram defines the initial state of the
 * main program and of recovery from a crash image; enumerates every
 * successor of a state (thread steps, and the model's own nondeterministic
 * events: persists, evictions, drains; all of them in naive mode, under hw
 * in the default mode the ones a thread's next step needs) together with the
 * runtime errors a step raises; enumerates every crash image a state allows;
 * and reads the observable memory and registers of a state. A state is a
 * canonical vector of 64-bit words (equal vectors = equal states) carrying
 * a hash maintained incrementally as words change. Every function is
 * deterministic: the same state gives the same successors, in the same
 * order. The model never allocates per state; its scratch lives in the
 * Model.
 */
#ifndef GPMC_MODEL_H
#define GPMC_MODEL_H

#include <assert.h>

#include "litmus/litmus.h"

typedef struct Model Model;

/* ---- what instructions do to the memory hierarchy (mdl_hwrule.c) --------
 *
 * The hardware's rules of DESIGN section 4 ("hw"), one row per opcode as
 * lit_opinfo is for the language: what an instruction does to the L2
 * lines, the write-back requests, the write-throughs and the controllers'
 * write-pending queues. The hw model's semantics (model/hw/: the naive
 * steps and the default mode's lazy events), the reductions' footprints
 * (model/reduce/) and the timing layer read these rows; none of them has
 * its own list of which opcode flushes, counts, fences or settles
 * (specs/hw.md states the rules, specs/timing.md their costs). A row is
 * empty for an instruction that leaves the hierarchy alone. */
enum {
    MDL_HW_WB = 1,                      /* MdlHwRule.write: into L2, the
                                           line becomes dirty (st, atomics) */
    MDL_HW_WT = 2                       /* … into L2 and, in the line's FIFO
                                           of write-throughs, toward its
                                           controller; the dirty bit stays
                                           (st.wt) */
};
enum {
    MDL_HW_RQ_LINE = 1,                 /* MdlHwRule.request: for the line
                                           of its word (clwb, clflush) */
    MDL_HW_RQ_DIRTY = 2                 /* … for every dirty line (l2wb) */
};

typedef struct {
    uint8_t write;                      /* MDL_HW_WB, MDL_HW_WT, or 0 */
    uint8_t request;                    /* a write-back request, complete
                                           once its line is written back
                                           (MDL_HW_RQ_*), or 0; only a dirty
                                           line gets one */
    uint8_t inval;                      /* the request also drops the line
                                           from the caches (clflush: the
                                           timing; the semantics keep no
                                           copy above L2) */
    uint8_t count;                      /* a request complete once every
                                           entry queued now, at every
                                           controller, has drained (pcommit) */
    uint8_t fence;                      /* waits until every request of the
                                           thread is complete (sfence,
                                           membar.*) */
    uint8_t settle;                     /* for its scope (the thread, or
                                           the group at a collective
                                           release), in this order: its
                                           requests and write-throughs
                                           complete, the dirty lines it
                                           wrote are written back, every
                                           queue drains (pbar*, psync: the
                                           NVW-FIFO barrier) */
} MdlHwRule;

/* The hardware's rows, and rows that are all empty (a model whose state
   has no cache lines: the abstract models). */
extern const MdlHwRule mdl_hwrules[LIT_NOPCODES];
extern const MdlHwRule mdl_hwrules_pcie[LIT_NOPCODES];   /* pm_path = pcie */
extern const MdlHwRule mdl_hwrules_none[LIT_NOPCODES];

/* Whether rule r does anything to the hierarchy. */
static inline int mdl_hwrule_acts(const MdlHwRule *r)
{
    return r->write || r->request || r->count || r->fence || r->settle;
}

/* ---- the persistency models as data (mdl_policy.c) ----------------------
 *
 * One MdlPolicy per model (GenMC/Redis dictType style): its semantics (an
 * ops table) and what the hardware's instructions do to its state (a rule
 * table), what a new PM store depends on, what each persist barrier forces
 * (persists, the thread stalling until it has) or orders (adds to the
 * thread's frontier F), and whether pbar.wg / pbar.kr are collective. The
 * semantics execute these rows; the timing layer and the reductions read
 * the same rows, so that a new model is a new row (and, if its state is
 * new, a new ops table), never a test of which model runs.
 * Sets a rule names, all subsets of P (the pending stores): */
enum {
    MDL_SET_OWN = 1,                    /* Own_t: t's own pending stores */
    MDL_SET_OBS = 2,                    /* Obs_t: read by t from PM */
    MDL_SET_F = 4,                      /* F_t: t's barrier frontier */
    MDL_SET_ALL = 8,                    /* all of P */
    MDL_SET_GROUP = 16                  /* Own of every thread of the group
                                           (a collective release) */
};

typedef struct {
    unsigned force;                     /* persisted; the thread stalls
                                           until they are */
    unsigned order;                     /* F ∪= these (order only); on a
                                           release, every thread's F */
    unsigned char clear_obs;            /* Obs_t := ∅ afterwards */
} MdlRule;

typedef struct {
    const char *name;                   /* "strict" … "hw" */
    const struct MdlOps *ops;           /* its semantics (model_int.h):
                                           abs_ops (a set of pending
                                           stores), hw_ops (the hierarchy) */
    const MdlHwRule *hw;                /* per opcode, what an instruction
                                           does to the cache lines of its
                                           state: mdl_hwrules, or
                                           mdl_hwrules_none when its state
                                           has none */
    unsigned store_deps;                /* besides the older stores to its
                                           word: MDL_SET_ALL or MDL_SET_F */
    unsigned tracks;                    /* per-thread sets kept: OBS, F */
    unsigned char collective;           /* pbar.wg / pbar.kr synchronize */
    MdlRule pbar;                       /* pbar.wi (and wg/kr when not
                                           collective) */
    MdlRule release;                    /* a collective pbar.wg / pbar.kr,
                                           when its group releases */
    MdlRule psync;
    unsigned char pipe;                 /* MDL_PIPE_*: how the model's
                                           reference hardware carries the
                                           persists its stores force (the
                                           timing layer, tm_pipe.c) */
} MdlPolicy;

enum {
    MDL_PIPE_NONE,                      /* stores force nothing as they
                                           issue (barriers do) */
    MDL_PIPE_INORDER                    /* every PM store persists in order
                                           through its SM's in-order persist
                                           buffer; the warp goes on */
};

/* The hierarchy's rules under configuration c: mdl_hwrules, or GPM's PCIe
   path (mdl_hwrules_pcie) when c says pm_path = pcie. What a program's own
   hardware instructions cost is read there, in every model (DESIGN
   section 4, Timing). */
const MdlHwRule *mdl_hw_hierarchy(const LitConfig *c);
/* The rules a model with policy pol follows under c: its row's, the
   hierarchy's taken from c. */
const MdlHwRule *mdl_hw_rules(const MdlPolicy *pol, const LitConfig *c);
const MdlPolicy *mdl_policy(int model);  /* NULL for an unknown model */
/* The rule instruction `op` follows (pbar.*, psync), or NULL. */
const MdlRule *mdl_policy_rule(const MdlPolicy *pol, int op);

/* Whether op is a persist barrier that synchronizes its group under pol,
   like bar.sync / grid.sync: pbar.wg and pbar.kr where the row says so. */
static inline int mdl_policy_collective(const MdlPolicy *pol, int op)
{
    return (lit_opflags(op) & LIT_OPF_SCOPED) && pol->collective;
}

/* A state vector (a BaseVec: w has room for cap words, and the words from
   len to cap are zero). No hash travels with it: the store names a state
   by its own encoding. */
typedef BaseVec MdlState;

static inline void mdl_set(MdlState *s, uint32_t i, uint64_t v)
{
    assert(i < s->cap);
    s->w[i] = v;
}
void mdl_state_copy(MdlState *dst, const MdlState *src);   /* dst->cap ok */

/* Runtime errors of the program (DESIGN section 3). MDL_E_LIMIT is not the
   program's fault: a bound of gpmc was hit; the checker reports it as an
   incomplete check. */
typedef enum {
    MDL_E_BOUNDS, MDL_E_ARITH, MDL_E_ASSERT, MDL_E_DEADLOCK,
    MDL_E_DIVERGENCE, MDL_E_LIVELOCK, MDL_E_LIMIT, MDL_NERRKINDS
} MdlErrKind;
extern const char *const mdl_err_names[MDL_NERRKINDS];

typedef struct {
    int kind;                           /* MdlErrKind */
    int32_t gtid;                       /* thread, or -1 */
    int32_t kernel;                     /* LitKernel index, or -1 */
    int32_t line;                       /* source line, or 0 */
    const char *file;                   /* its file (a PTX kernel's CUDA
                                           source), NULL: the test file */
    char msg[160];
} MdlError;

/* Steps are named by a code stable for a given state: thread slot i of the
   current launch is i; model events are MDL_STEP_EVENT | e. */
#define MDL_STEP_EVENT 0x1000000u
#define MDL_STEP_NONE 0xFFFFFFFFu

/* Nonzero stops mdl_successors at once: the steps after this one are not
   taken (a check that must stop, say at its timeout, need not wait for
   the 50,000 successors of one state). */
typedef int (*MdlSuccFn)(void *ctx, uint32_t step, const MdlState *succ);
typedef void (*MdlErrFn)(void *ctx, uint32_t step, const MdlError *e);

/* What one step did, for witnesses. */
typedef struct {
    int32_t gtid;                       /* thread, or -1 for a model event */
    int32_t kernel;                     /* LitKernel index, or -1 */
    int32_t line;                       /* source line, or 0 */
    const char *file;                   /* as in MdlError */
    char instr[96];                     /* canonical instruction or event */
    char effect[160];                   /* "x = 1", "r0 = 3 (from y)", … */
    int32_t ncreated;                   /* new pending stores (a vector
                                           store makes one per element) … */
    int32_t created[LIT_MAX_VEC];       /* … the slot each was inserted at,
                                           in order (slots at and above it
                                           move up) */
    uint64_t removed;                   /* pending slots (before the step)
                                           that left the pending set */
} MdlStepInfo;

/* What a step touched, for the timing model: the opcode executed by a
   thread (-1 for a model event) and the memory word it accessed. */
typedef struct {
    int32_t gtid;
    int32_t op;                         /* LitOpcode, or -1 */
    int32_t space;                      /* LitSpace, or -1 */
    int32_t word;                       /* word address in that space */
    int32_t cta;                        /* CTA of the thread (shared) */
    int waits;                          /* the thread now waits at a barrier */
    int done;                           /* the thread has finished */
} MdlAccess;

/* A crash image: PM word values, and for the abstract models the pending
   slots it includes (bit i = slot i). Returning nonzero stops the
   enumeration. */
typedef int (*MdlImageFn)(void *ctx, const int64_t *pm, uint64_t included);

/* One pending store, for witnesses (abstract models). */
typedef struct {
    int32_t word;                       /* PM word address */
    int64_t value;
    uint64_t deps;                      /* D(s) as slot bits */
} MdlPending;

/* How a Model explores (mdl_new's mode). MDL_NAIVE is DESIGN's literal
   semantics and excludes the others; the others are the reductions of the
   default mode, each of which keeps every crash image (on the words a
   check can observe), terminal state, runtime error and livelock
   (specs/checker.md, "Reductions"). */
enum {
    MDL_NAIVE = 1,
    MDL_FUSE = 2,                       /* a thread's invisible steps run in
                                           the step before them */
    MDL_POR = 4,                        /* one thread's step alone where it
                                           stands for all */
    MDL_SLICE = 8,                      /* persistency kept only for PM
                                           words a check can observe */
    MDL_CONFINE = 16,                   /* with the others: a PTX access
                                           through an unknown address
                                           derived from a location's stays
                                           in it (checked, below) */
    MDL_ONE = 32                        /* one schedule followed in place
                                           with mdl_step (the timing layer):
                                           states up to 2^28 words, no
                                           reductions, no buffers for
                                           successors until asked */
};

/* NULL with the reason in err: MDL_OOM when memory ran out, else why the
   program cannot be modelled (a state longer than the model's 2^20 words,
   2^28 with MDL_ONE: an input limit). */
#define MDL_OOM "out of memory"
Model *mdl_new(const LitProgram *p, int model, unsigned mode, char *err,
               size_t errlen);
void mdl_free(Model *m);
/* Whether some access this model executed left the location MDL_CONFINE
   assumed it stays in (specs/checker.md, "Provenance"): what the model
   explored is then not a reduction of the program's state graph, and the
   check must be run again without MDL_CONFINE. */
int mdl_confine_broken(const Model *m);
uint32_t mdl_max_words(const Model *m);  /* upper bound on any state's len */
const char *mdl_notes(const Model *m);   /* one-time notes, or "" */

void mdl_init_main(Model *m, MdlState *out);
void mdl_init_recovery(Model *m, const int64_t *pm_image, MdlState *out);

/* Calls succ for every successor and err for every failing step of s, in a
   fixed order, until succ returns nonzero; an error with step
   MDL_STEP_NONE belongs to s itself (deadlock, divergence). Returns the
   number of successors given to succ, or -1 when memory for them ran out
   (MDL_ONE makes that buffer on first use). */
int mdl_successors(Model *m, const MdlState *s, MdlSuccFn succ, MdlErrFn err,
                   void *ctx);
/* The number of instructions transition `step` of s (as mdl_successors
   gives it) executes: 1, or more when MDL_FUSE runs the invisible steps
   after it. A witness replays them one by one with mdl_apply. */
int mdl_chain(Model *m, const MdlState *s, uint32_t step);
/* Inside a MdlSuccFn: the number of instructions of the transition being
   reported (mdl_chain's count, without executing it again; 1 for a model
   event). */
int mdl_succ_steps(const Model *m);
/* Whether a crash image's PM word w can matter to a check: always, unless
   MDL_SLICE found that nothing reads it; then images hold its initial
   value. */
int mdl_observed(const Model *m, int32_t word);
/* Whether MDL_SLICE left the hierarchy state of some lines out of the
   states (hw keeps only the lines an observed word needs): a path of the
   reduced states may then skip events the full semantics takes, so it is
   no bound on a witness of the graph without reductions. */
int mdl_lines_projected(const Model *m);
/* Replays one instruction (or model event) of s into out; 0 ok, 1 the
   step failed (e filled), -1 no such step. */
int mdl_apply(Model *m, const MdlState *s, uint32_t step, MdlState *out,
              MdlStepInfo *info, MdlError *e);

/* Executes one instruction (or model event) `step` of s in place, without
   describing it (acc may be NULL); same results as mdl_apply. The cheap way to follow one given
   schedule, as the timing model does. */
int mdl_step(Model *m, MdlState *s, uint32_t step, MdlAccess *acc,
             MdlError *e);
/* What thread slot i's next instruction will do in state s: the one
   instruction decoder that execution, the reductions and the timing layer
   share (mdl_decode.c). Operands are evaluated on s; the memory operand is
   resolved to a word of its space. */
enum {
    MDL_I_READ = 1,                     /* reads its word (ld, atomics) */
    MDL_I_WRITE = 2,                    /* may write it (st, st.wt, atomics;
                                           a failing cas writes nothing) */
    MDL_I_BOUNDS = 4,                   /* index out of bounds: the step
                                           fails (word is -1) */
    MDL_I_WAITS = 8,                    /* a collective barrier: the thread
                                           waits for its group */
    MDL_I_GRID = 16,                    /* … whose group is the kernel (else
                                           the CTA) */
    MDL_I_PERSIST = 32,                 /* pbar*, psync, clwb, clflush, l2wb,
                                           pcommit, fences */
    MDL_I_BACK = 64,                    /* goes to an earlier or the same pc */
    MDL_I_ENDS = 128                    /* the thread finishes with it */
};

typedef struct {
    const LitInstr *in;
    int32_t op;                         /* LitOpcode; LIT_NOP when a false
                                           guard makes the step a nop */
    uint32_t pc, next;                  /* next: the pc after the step (a
                                           branch evaluated; a waiting
                                           thread stays at pc) */
    int32_t line;                       /* source line */
    int32_t gtid, cta, kernel;
    int64_t a, b, c;                    /* operands a, b and c, evaluated */
    int32_t loc;                        /* memory operand's location, or -1 */
    int32_t space;                      /* its LitSpace, or -1 */
    int32_t word;                       /* its word in that space, or -1 */
    int32_t nelem;                      /* elements it accesses: 1, or a
                                           vector access's count … */
    int32_t words[LIT_MAX_VEC];         /* … each one's word (words[0] is
                                           word), all in one space */
    int64_t va[LIT_MAX_VEC];            /* a store's value for each element
                                           (va[0] is a) */
    int64_t index;                      /* the evaluated index (a PTX
                                           address: the byte address; of
                                           the failing element when one
                                           fails) */
    unsigned flags;                     /* MDL_I_* */
} MdlInstr;

/* 0 with *out filled; -1 when slot cannot step in s (not running, no such
   slot, or s is terminal). */
int mdl_decode(const Model *m, const MdlState *s, int slot, MdlInstr *out);
/* What a store of v through decoded access d leaves in its element: the
   low bits the element's type keeps (DESIGN section 7). */
int64_t mdl_store_value(const Model *m, const MdlInstr *d, int64_t v);

/* Whether thread slot i of the current launch can take a step now
   (running, not waiting or done). */
int mdl_thread_ready(const Model *m, const MdlState *s, int slot);
/* Whether thread slot i of the current launch has finished (a thread that
   waits at a barrier at the end of its body finishes when it releases). */
int mdl_thread_done(const Model *m, const MdlState *s, int slot);
/* The current launch as a scheduler of its threads sees it (the timing
   layer): the kernel (LitKernel index) and, per thread slot, its global
   thread id, body and CTA; the slots of CTA c are [cta_first[c],
   cta_first[c] + cta_count[c]). Valid as long as the Model. */
typedef struct {
    int32_t kernel, nthreads, ncta;
    const int32_t *gtid, *body, *cta, *cta_first, *cta_count;
} MdlLaunchView;
void mdl_launch_view(const Model *m, const MdlState *s, MdlLaunchView *out);
/* Index of the next instruction of thread slot i in its body. */
uint32_t mdl_thread_pc(const Model *m, const MdlState *s, int slot);
/* Index of the current launch within its part (main or recovery). */
int mdl_launch_index(const Model *m, const MdlState *s);

int mdl_terminal(const Model *m, const MdlState *s);

/* Crash images of s: every image the model allows (default mode), or the
   persisted image alone (naive mode). They depend only on the words
   [key_off, len) of s (mdl_persist_key), so callers may cache by them.
   Returns nonzero when fn stopped the enumeration. */
int mdl_images(Model *m, const MdlState *s, MdlImageFn fn, void *ctx);
uint32_t mdl_persist_key(const Model *m, const MdlState *s);

/* Observable memory: PM as loads would see it, and dram. */
void mdl_observe(const Model *m, const MdlState *s, int64_t *pm, int64_t *dram);
/* The state as a program sees it: thread, shared and dram words followed
   by PM as loads would see it, with nothing of the persistency state.
   Writes at most mdl_max_words + pm_words words; returns how many. */
uint32_t mdl_observable(const Model *m, const MdlState *s, uint64_t *out);
/* Register N of global thread G of the current (or last) launch. */
int64_t mdl_reg(const Model *m, const MdlState *s, int32_t gtid, int reg);
/* "x", "out[3]": the location holding a word of a memory space. */
void mdl_word_name(const Model *m, int space, int32_t word, char *buf,
                   size_t len);
/* Pending stores of s (abstract models); returns how many. */
int mdl_pending(const Model *m, const MdlState *s, MdlPending *out, int max);

#endif
