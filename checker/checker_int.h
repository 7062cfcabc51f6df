/*
 * checker_int.h — private to checker/.
 *
 * ONE CHECK, FROM THE INSIDE. chk_run explores the main program breadth
 * first (level 0). Every state is a crash point: its crash images come from
 * a cache keyed by the state's persistency region (mdl_persist_key), since
 * states that differ only in threads share images; in --naive mode the one
 * image is read off the state directly. Images are interned in one table
 * per check. Recovery from image I with d further crashes allowed is a pure
 * function of (I, d): it is explored once (at level D - d, one reusable
 * space per level) and memoised as the recovered observations and errors it
 * can reach, each with the fewest steps needed. A crash inside recovery
 * contributes the memo of (I2, d - 1) for each image I2 of that state,
 * offset by the steps taken to reach it. Outcomes and verdicts are computed
 * from these sets at the end; witnesses are rebuilt by replaying the main
 * path (parent links) and re-exploring the recoveries on it. A reducing run
 * keeps every outcome but not the distances to them, so its report takes
 * its witnesses from a second run without reductions that explores only as
 * deep as the shortest of them (chk_short.c); steps are program steps
 * throughout (a fused transition of k instructions is k of them).
 *
 * Determinism: states are numbered in discovery order, which is the BFS
 * order; every table assigns ids in insertion order; ties between equally
 * short witnesses go to the lowest id. Hash values never decide an order.
 *
 * The states of an exploration are kept by store/ (store.h).
 *
 * THE SPACE AND ITS EXPLORER (chk_space.c, chk_explore.c). A space is one
 * exploration: its store, the BFS parent of every state (the only per-state
 * link, for witnesses; the step from parent to child is found again by
 * re-expanding the parent), the first id of every depth, and one bit per
 * state, "can end" (terminal, or some step fails). The explorer goes level
 * by level. Each state of a level is visited (crash images, outcomes) in id
 * order and expanded; with several threads one visits while the others
 * expand, then the visiting thread joins them. A new state found by a
 * worker gets a provisional id; at the end of the level the new states are
 * sorted by their first discovery, (parent id, successor index), the least
 * over every thread that found them, which is exactly the order one thread
 * would have found them in: ids, parents and everything downstream are the
 * same for any number of threads. Errors of failing steps are logged per
 * thread and applied in (state, step) order after the visits.
 *
 * LIMITS. Visits stop at the first visit that hits a limit (crash images at
 * one state, memory). Expansion limits (max-steps, a model bound, max-states)
 * let the level's visits finish. The level's cut is the first state at
 * which any limit appeared (for max-states: the state that discovered the
 * state beyond the bound); errors and new states of states after the cut are
 * dropped, the space keeps at most max-states states, and the check ends
 * incomplete. `states` counts the states stored, the number --max-states
 * bounds. Timeouts and allocation failures stop at once.
 *
 * LIVELOCK (chk_live.c) is found on demand, with no successor lists: a
 * part without a backward branch, or whose exploration met no edge back to
 * a state of the same BFS level or an earlier one (a cycle needs one), has
 * an acyclic state graph, so it can only livelock at a state with no
 * successor that is neither terminal nor failing; otherwise (or if there is
 * such a state) a fixpoint over re-expanded states marks every state that
 * can reach an end.
 */
#ifndef GPMC_CHECKER_INT_H
#define GPMC_CHECKER_INT_H

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#include "checker/checker.h"
#include "model/model.h"
#include "store/store.h"

#define CHK_NONE 0xFFFFFFFFu

/* ---- threads (chk_pool.c) ----------------------------------------------- */

typedef struct ChkPool ChkPool;

typedef struct {
    ChkPool *pool;
    int index;
    pthread_t tid;
} ChkPoolThread;

struct ChkPool {
    int nthreads;                       /* the caller is thread 0 */
    ChkPoolThread *th;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned gen;
    int running, quit;
    void (*fn)(void *, int);
    void *ctx;
};

int chk_pool_start(ChkPool *pl, int nthreads);
/* Runs fn(ctx, thread) on every thread; returns when all are done. */
void chk_pool_run(ChkPool *pl, void (*fn)(void *, int), void *ctx);
void chk_pool_stop(ChkPool *pl);

/* ---- one exploration's states (chk_space.c) ----------------------------- */

typedef struct {
    BaseBudget *mem;
    StoStore store;
    uint32_t *parent;                   /* BFS parent; CHK_NONE: the root */
    size_t capparent;
    uint32_t *steps;                    /* weighted: program steps of the
                                           path of parent links */
    size_t capsteps;
    int weighted;                       /* a transition may run several
                                           instructions (fusion) */
    uint32_t *level;                    /* first id of each depth */
    size_t nlevel, caplevel;
    uint64_t *end;                      /* bit per state: can end here */
    size_t capend;
} ChkSpace;

int chk_space_init(ChkSpace *sp, uint32_t max_words, BaseBudget *mem,
                   StoGate *gate, int kind, int weighted);
void chk_space_free(ChkSpace *sp);
int chk_space_reset(ChkSpace *sp);
uint32_t chk_space_count(const ChkSpace *sp);
/* Bytes of its tables: store, parents, levels, end bits. */
size_t chk_space_bytes(const ChkSpace *sp);
/* Room for ids below n in the per-state arrays; -1 out of memory. */
int chk_space_reserve(ChkSpace *sp, uint32_t n);
/* Starts depth nlevel at id `first`. */
int chk_space_level(ChkSpace *sp, uint32_t first);
uint32_t chk_space_depth(const ChkSpace *sp, uint32_t id);
/* The program steps (instructions and model events) of the path of parent
   links to id: the length of its witness, the count --max-steps bounds.
   Its BFS depth unless transitions are weighted. */
static inline uint32_t chk_space_steps(const ChkSpace *sp, uint32_t id)
{
    return sp->weighted ? sp->steps[id] : chk_space_depth(sp, id);
}
/* The BFS parent of a stored state: discovered before it. */
static inline uint32_t chk_space_parent(const ChkSpace *sp, uint32_t id)
{
    assert(id < sp->capparent);
    assert(sp->parent[id] == CHK_NONE ? id == 0 : sp->parent[id] < id);
    return sp->parent[id];
}
static inline void chk_space_set_end(ChkSpace *sp, uint32_t id)
{
    assert(id / 64 < sp->capend);
    sp->end[id >> 6] |= 1ull << (id & 63);
}
static inline int chk_space_end(const ChkSpace *sp, uint32_t id)
{
    assert(id / 64 < sp->capend);
    return (int)(sp->end[id >> 6] >> (id & 63) & 1);
}
/* The step by which `parent` first reaches `child` (re-expanding the
   parent), or MDL_STEP_NONE. a and b are scratch states. */
uint32_t chk_space_step(ChkSpace *sp, Model *m, StoCursor *c, uint32_t parent,
                        uint32_t child, MdlState *a, MdlState *b);

/* ---- the run ------------------------------------------------------------- */

/* How the fewest steps to an outcome or error were achieved. */
enum { VIA_TERMINAL, VIA_NESTED, VIA_ERROR };

/* The order of witnesses (specs/checker.md, Witnesses): one of `steps`
   steps and `crashes` crashes beats one of `than_steps` and `than_crashes`
   when it has fewer steps, or as many and fewer crashes (CHK_NONE steps:
   no witness yet, which any beats). */
static inline int chk_shorter(uint32_t steps, uint32_t crashes,
                              uint32_t than_steps, uint32_t than_crashes)
{
    return steps < than_steps ||
           (steps == than_steps && crashes < than_crashes);
}

typedef struct {
    uint32_t id;                        /* observation or error id */
    uint32_t steps;
    uint32_t crashes;                   /* nested crashes on the way */
    uint32_t state;                     /* state index in the exploration */
    uint32_t aux;                       /* image (NESTED) or step (ERROR) */
    uint32_t via;
} ChkBest;

/* One failing step (or a limit) met while expanding, kept until the
   level's errors are applied in (state, order) order. */
typedef struct {
    uint32_t state, seq, step;
    MdlError e;
} ChkErrLog;

/* A discovery of a new state that was the least so far when it was made,
   with the state's program steps by that way (weighted spaces). */
typedef struct {
    uint64_t key;                       /* parent << 32 | successor index */
    uint32_t t;                         /* provisional id - level end */
    uint32_t steps;
} ChkWin;

/* A thread of the explorer: its model instance (models keep scratch),
   store cursor, states, and what its expansions found. */
typedef struct {
    Model *m;
    StoCursor cur;
    MdlState s;
    ChkErrLog *log;
    size_t nlog, caplog;
    ChkWin *win;
    size_t nwin, capwin;
    int failed;
} ChkWorker;

/* A recovery level (crash depth): its space, scratch state and the best
   witness so far of each observation and error reached. */
typedef struct {
    ChkSpace space;
    StoCursor cur;
    MdlState state;
    uint32_t *touched;                  /* ids with a best, err bit 31 */
    size_t ntouched, captouched;
    ChkBest *out, *err;
    size_t capout, caperr;
    uint32_t until;                     /* a replay ends with the level that
                                           finds this state; else CHK_NONE */
    uint32_t bound;                     /* explore no level deeper (a search
                                           for witnesses); else CHK_NONE */
    int cut;                            /* the last exploration stopped at
                                           the bound with states left */
    Model *m;                           /* expands this level's states, if
                                           not the run's model (a search for
                                           witnesses); states are the same */
} ChkLevel;

/* Projection of a phase: the names its conditions mention. */
typedef struct {
    int nitems;                         /* -1: the phase has no check */
    struct ChkItem {
        int kind;                       /* 0 register, 1 location */
        int32_t a, b;                   /* gtid, reg / loc, index */
    } *items;
} ChkProj;

/* A phase's outcome: how often it was seen, and its shortest witness. */
typedef struct {
    uint32_t count;                     /* crash points / terminal states /
                                           main crash images showing it */
    uint32_t best;                      /* fewest steps, CHK_NONE unknown */
    uint32_t state;                     /* main state (recovered: the
                                           observation) of that witness */
    uint32_t aux;                       /* crash, recovered: its image */
    uint32_t stamp;                     /* last persistency key listing it */
    uint32_t crashes;                   /* recovered: crashes of the best */
} ChkOut;

typedef struct {
    StoTable tab;                       /* projected outcomes */
    ChkOut *o;
    size_t cap;
} ChkOutcomes;

typedef struct {
    uint32_t kind;                      /* MdlErrKind */
    int32_t gtid, kernel, line;
    int recovery;
    const char *text;                   /* full message */
    uint32_t main_best;                 /* fewest steps in the main program */
    uint32_t main_state, main_step;     /* its state and failing step */
    uint32_t total;                     /* fewest overall */
    uint32_t crashes;                   /* fewest crashes at that total */
    uint32_t img;                       /* through recovery from this main
                                           image, or CHK_NONE */
} ChkErr;

/* A crash image: the first main-program state showing it (CHK_NONE: seen
   only in recovery) and the last persistency key that listed it. */
typedef struct {
    uint32_t state, stamp;
    uint32_t out;                       /* its crash outcome, CHK_NONE:
                                           not yet projected */
} ChkImg;

/* A persistency region's images and crash outcomes (default mode). */
typedef struct {
    uint32_t first, count;              /* into ChkImages.list */
    uint32_t ofirst, ocount;            /* into ChkImages.outs */
} ChkPKey;

typedef struct {
    uint32_t out, img;                  /* a crash outcome, an image of it */
} ChkPOut;

typedef struct {
    StoTable tab;                       /* images over the used PM words */
    ChkImg *img;
    size_t capimg;
    int32_t *used;                      /* PM words that belong to a decl */
    uint32_t nused;
    uint64_t *key;                      /* an image key being built */
    uint32_t last;                      /* the image of key, or CHK_NONE */
    int64_t *full;                      /* an image, expanded */
    StoStore regions;                   /* persistency regions */
    StoGate rgate;                      /* its own: one thread uses it */
    StoCursor rcur;
    MdlState rlast;                     /* the region put last */
    ChkPKey *pk;
    size_t cappk;
    uint32_t *list;                     /* image ids of every region */
    size_t nlist, caplist;
    ChkPOut *outs;                      /* crash outcomes of every region */
    size_t nouts, capouts;
} ChkImages;

/* The images and crash outcomes of one state: a region's lists (which a
   nested recovery may move, hence indexes), or naive mode's one image. */
typedef struct {
    uint32_t key;                       /* region, or CHK_NONE: naive */
    uint32_t nimg, nout;
    ChkPOut one;                        /* naive */
    int fresh;                          /* its region is new */
} ChkImgSet;

typedef struct {
    uint32_t out_first, nout, err_first, nerr;
    uint32_t bound;                     /* exact for every entry of at most
                                           this many steps; CHK_NONE: all */
} ChkMemo;

typedef struct ChkGoals ChkGoals;

typedef struct ChkRun {
    const LitProgram *p;
    ChkOptions o;                       /* o.state: the store taken */
    int auto_state;                     /* the options left it to the run */
    unsigned mode;                      /* the model's (mdl_new) */
    Model *m;
    BaseArena *arena;                    /* the report's */
    BaseBudget mem;
    ChkPool pool;
    StoGate gate;
    ChkWorker *wk;                      /* one per thread; wk[0] the caller */
    int nwk;
    ChkLevel *lvl;                      /* crash_depth + 1 levels */
    int nlevels;
    int64_t *pm, *dram;                 /* observation scratch */
    uint64_t *obuf, *fbuf;              /* observation key scratch */

    ChkImages img;
    int images;                         /* main states' images are needed */
    uint32_t *mimg;                     /* main images, in the order of the
                                           first main state showing each */
    size_t nmimg, capmimg;
    ChkProj proj[3];                    /* final, crash, recovered */
    ChkOutcomes outs[3];
    StoTable robs;                      /* recovered observations (pm+dram) */
    uint32_t *robs_out;                 /* -> recovered outcome id */
    size_t caprobs;
    StoTable errs;
    ChkErr *err;
    size_t caperr;
    StoTable memo_keys;
    ChkMemo *memo;
    size_t capmemo;
    ChkBest *mbest;                     /* memo contents */
    size_t nmbest, capmbest;
    StoTable finals;                    /* observable terminal states */

    int status;
    const char *reason;
    int failed;                         /* out of memory, budget included */
    int64_t states, transitions, crash_points, recoveries;
    int64_t main_depth;                 /* deepest main-program state seen */
    int main_done;                      /* the main program is explored */
    double t0, last_progress;
    uint32_t work;                      /* states visited or re-expanded,
                                           in every exploration (chk_work) */
    uint32_t limits;                    /* chk_limit calls so far, the ones
                                           after the first included */
    int replay;                         /* explorations re-explore spaces
                                           for witnesses */
    int recover_any;                    /* chk_recover takes a memo found
                                           however far it went */
    int64_t max_total;                  /* states of every exploration
                                           together (a search for
                                           witnesses); 0: no bound */
    ChkGoals *goals;                    /* a search for witnesses (chk_short.c):
                                           what it looks for; else NULL */
    char note[192];                     /* for the report's notes, or "" */
} ChkRun;

double chk_now(void);
/* The model's mode for these options: the literal semantics, or the
   default mode with the reductions in use. */
unsigned chk_model_mode(const ChkOptions *o);
/* A run of program p with options o and model mode `mode` (its arena, the
   report's, is given): the fields before the model; then, once R->m is
   made, chk_run_setup for the rest; chk_run_teardown frees both (not the
   arena). */
void chk_run_init(ChkRun *R, const LitProgram *p, const ChkOptions *o,
                  unsigned mode, BaseArena *arena, int64_t mem_limit);
int chk_run_setup(ChkRun *R, char *err, size_t errlen);
void chk_run_teardown(ChkRun *R);
/* The outcome of phase ph whose condition c is `want` with the shortest
   witness (fewest steps, then fewest crashes, then the first), or
   CHK_NONE; the same for runtime errors. */
uint32_t chk_best_outcome(const ChkRun *R, int ph, const LitCond *c, int want);
uint32_t chk_best_error(const ChkRun *R);

/* chk_error.c: limits, progress, runtime errors */
/* The check is incomplete, the first reason given says why; the
   exploration running stops (and so, through the status, does the
   check, unless it is re-exploring for a witness). */
void chk_limit(ChkRun *R, const char *reason);
/* Ends the check for lack of memory (the budget's reason if it was the
   budget). */
void chk_fail(ChkRun *R);
/* Calls the progress hook about once a second; applies the timeout and
   an interrupt (chk_interrupt) as limits (not to replays: witnesses are
   built after them). */
void chk_tick(ChkRun *R);
/* Whether chk_tick would end the check now (past the timeout, or
   interrupted): a read any thread may make. */
int chk_must_stop(const ChkRun *R);
/* Successors of one state between two chk_must_stop polls (a power of
   two): a state with 50,000 successors took 8 s of CPU, and a timeout of
   2 s waited for all of them. */
#define CHK_POLL_SUCCS 256
/* Counts a state visited or re-expanded, and ticks at every 1024th: by
   the work of all explorations together, so that thousands of small
   recoveries (each far below 1024 states) tick as one large exploration
   does. 1 when it ticked. One thread only (the one that visits). */
static inline int chk_work(ChkRun *R)
{
    if (++R->work & 1023)
        return 0;
    chk_tick(R);
    return 1;
}
uint32_t chk_error_id(ChkRun *R, const MdlError *e, int recovery);
/* A failing step (or MDL_E_LIMIT) met at state `state` of `level`. */
void chk_error_at(ChkRun *R, int level, int recovery, uint32_t state,
                  uint32_t depth, uint32_t step, const MdlError *e);
/* Errors of the main program: their best witness is there unless a
   recovery offers a strictly shorter one (folded in afterwards). */
void chk_errors_main(ChkRun *R);

/* chk_explore.c: the breadth-first explorer */
/* What an exploration does at each state besides expanding it: returns 1
   when the state is terminal, 0 otherwise, -1 to stop (failure). */
typedef int (*ChkVisitFn)(ChkRun *R, void *ctx, uint32_t id, uint32_t depth,
                          const MdlState *s);
/* Explores level `level` from `init` (which it may overwrite); the main
   program (level 0) on every thread. */
void chk_explore(ChkRun *R, int level, int recovery, MdlState *init,
                 ChkVisitFn visit, void *ctx);
int chk_workers_init(ChkRun *R, int nthreads, char *err, size_t errlen);
void chk_workers_free(ChkRun *R);

/* chk_live.c */
/* The first state of level `level`'s fully explored space that cannot
   reach a state marked "can end", or CHK_NONE. */
uint32_t chk_live(ChkRun *R, int level);

/* chk_image.c: crash images */
int chk_images_init(ChkRun *R);
void chk_images_free(ChkRun *R);
/* The images and crash outcomes of state s; -1 on failure or limit. */
int chk_images_of(ChkRun *R, const MdlState *s, ChkImgSet *set);
/* An image as all pm_words words (gaps zero), into out. */
void chk_image_expand(const ChkRun *R, uint32_t img, int64_t *out);
static inline uint32_t chk_set_img(const ChkRun *R, const ChkImgSet *s,
                                   uint32_t k)
{
    assert(k < s->nimg);
    assert(s->key == CHK_NONE ||
           R->img.pk[s->key].first + k < R->img.nlist);
    return s->key == CHK_NONE ? s->one.img
                              : R->img.list[R->img.pk[s->key].first + k];
}
static inline ChkPOut chk_set_out(const ChkRun *R, const ChkImgSet *s,
                                  uint32_t k)
{
    assert(k < s->nout);
    assert(s->key == CHK_NONE ||
           R->img.pk[s->key].ofirst + k < R->img.nouts);
    return s->key == CHK_NONE ? s->one
                              : R->img.outs[R->img.pk[s->key].ofirst + k];
}

/* chk_main.c: the main program */
void chk_explore_main(ChkRun *R);

/* chk_memo.c: recovery */
/* Memo index of recovery from image `img` with d more crashes allowed,
   exact for what it reaches in at most `bound` steps (CHK_NONE: all):
   explored, or explored again, unless a memo good for that is known. */
uint32_t chk_recover(ChkRun *R, uint32_t img, int d, uint32_t bound);
/* Re-explores recovery (img, d) into its level's space, for a witness
   that ends at state `until` of it: as far as the level that finds it. */
void chk_recover_space(ChkRun *R, uint32_t img, int d, uint32_t until);
/* Recovery from every main crash image, folded into the `recovered`
   outcomes and the errors' best witnesses. */
void chk_recover_all(ChkRun *R);
/* Best-so-far entry of level `level` for an observation or error. */
void chk_relax(ChkRun *R, int level, int err, uint32_t id, uint32_t steps,
               uint32_t crashes, uint32_t state, uint32_t aux, uint32_t via);

/* chk_cond.c */
int chk_proj_build(ChkRun *R);
/* Projects an observation to phase `ph`'s outcome id (interned). */
uint32_t chk_outcome(ChkRun *R, int ph, const int64_t *pm,
                     const int64_t *dram, const MdlState *s);
int chk_cond_eval(const ChkRun *R, int ph, const LitCond *c,
                  const uint64_t *proj);
void chk_outcome_text(const ChkRun *R, int ph, const uint64_t *proj,
                      char *buf, size_t len);

/* chk_witness.c: fill v with the witness of an outcome or an error,
   replaying it; the number of steps replayed, or -1 when the replay
   went astray (a step missing or failing otherwise, an image or error
   not met) or ran out of memory. */
int chk_witness(ChkRun *R, ChkViolation *v, int ph, uint32_t outcome);
int chk_witness_error(ChkRun *R, ChkViolation *v, uint32_t err);

/* chk_short.c: the witnesses a report needs */
/* A witness wanted: of the outcomes of phase ph on which condition cond is
   `want`, or (ph < 0) of the runtime errors, the shortest; v to fill. */
typedef struct {
    ChkViolation *v;
    int ph;
    const LitCond *cond;
    int want;
} ChkWant;
/* Fills each want's violation, as short as --no-reduce's where R reduces
   (a search without reductions; R's own witness where it cannot finish).
   Returns the peak memory it used besides R's, in bytes. */
int64_t chk_short_witnesses(ChkRun *R, ChkWant *w, int n);
/* In a search: whether every goal is met by depth `depth` (the main
   program's level just explored), nothing deeper being shorter. */
int chk_short_settled(ChkRun *R, uint32_t depth);

/* chk_nearest.c: final witnesses by weight over R's own reduced space */
/* Whether R's main space keeps the distances (in program steps) to its
   terminal states, and holds all of them. */
int chk_nearest_applies(const ChkRun *R);
/* For each final want not done: the nearest terminal state showing one of
   its outcomes, and its witness replayed along the search's links, which
   must take as many steps (then done[k] is set). 0, or -1 out of memory. */
int chk_nearest_final(ChkRun *R, ChkWant *w, int n, int *done);

#endif
