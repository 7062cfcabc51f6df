/*
 * checker — the explicit-state explorer (DESIGN.md sections 3 and 4).
 *
 * Promises: chk_run explores every interleaving of a LitProgram's main
 * program under one persistency model (breadth first, states merged by their
 * canonical encoding), treats every reachable state as a crash point,
 * enumerates the crash images the model allows there, runs recovery on each
 * distinct image (nested crashes up to crash_depth), evaluates every `check`,
 * and returns verdicts, herd-style outcome lists, one shortest witness per
 * violation, and statistics. Same program and options: same report, byte for
 * byte (timing figures aside). Limits end a check as CHK_INCOMPLETE with a
 * reason, never as a silent pass; runtime errors of the program are
 * violations, never failures of gpmc.
 */
#ifndef GPMC_CHECKER_H
#define GPMC_CHECKER_H

#include "litmus/litmus.h"

/* How a long exploration talks to its user (SPIN's pan progress lines):
   while chk_run works it calls ChkOptions.progress about once a second with
   these figures; the caller prints them. */
typedef struct {
    int64_t states;                     /* explored so far, every level */
    int64_t transitions;
    int64_t depth;                      /* main-program BFS depth reached */
    int64_t recoveries;
    int64_t peak_kb;                    /* the process's peak resident set */
    double elapsed_s;
} ChkProgress;

typedef void (*ChkProgressFn)(void *ctx, const ChkProgress *p);

/* Reductions of the default mode (specs/checker.md proves each keeps every
   verdict, outcome and crash-image set of --naive). `--no-reduce` clears
   them all; `--no-fuse` … one each. */
enum {
    CHK_R_FUSE = 1,                     /* invisible steps fused */
    CHK_R_POR = 2,                      /* partial-order reduction */
    CHK_R_SLICE = 4,                    /* property-directed projection */
    CHK_R_SYMMETRY = 8,                 /* symmetric threads */
    CHK_R_ALL = 15
};

/* State stores (`--state`): a flat table of byte-packed vectors (fast on
   short vectors), or a tree of shared nodes (less memory, and less time,
   where vectors are long and a step changes few of their words). auto:
   flat when the model's longest vector has at most CHK_FLAT_MAX_WORDS
   words, else tree. */
enum { CHK_STATE_FLAT, CHK_STATE_TREE, CHK_STATE_AUTO };
extern const char *const chk_state_names[3];      /* flat tree auto */
#define CHK_FLAT_MAX_WORDS 1024

typedef struct {
    int model;                          /* LIT_STRICT … LIT_HW */
    int naive;                          /* literal semantics, see DESIGN */
    int crash_depth;                    /* >= 1; default 2 */
    int64_t max_states;                 /* per exploration; default 1000000 */
    int64_t max_steps;                  /* program steps of an execution, per
                                           exploration; default 10000 */
    double timeout_s;                   /* wall clock per check; 0 = none */
    int list_images;                    /* fill ChkReport.images */
    unsigned reduce;                    /* CHK_R_* in use; default all */
    int threads;                        /* explorer threads; 0: all cores.
                                           The report is the same for any */
    int64_t max_memory_kb;              /* 0: half of physical memory;
                                           reaching it ends the check
                                           incomplete */
    int state;                          /* CHK_STATE_*: how states are
                                           stored; the report is the same
                                           (default auto) */
    ChkProgressFn progress;             /* NULL: no progress reports */
    void *progress_ctx;
} ChkOptions;

void chk_options_default(ChkOptions *o);

/* Interrupting checks (SIGINT, as SPIN's pan does): chk_interrupt sets a
   process-wide flag (async-signal-safe: one lock-free atomic store) that
   every running check polls with its timeout: every 1024 states visited
   and every 256 successors of one state. A check that sees it stops
   exploring and ends incomplete, reason "interrupted", with the outcomes,
   verdicts (Unknown unless a witness decides, DESIGN section 3) and
   statistics of what it explored; its witnesses are still built. A check
   that starts while the flag is set stops at its first poll. */
void chk_interrupt(void);
int chk_interrupted(void);
/* For `jobs` checks running at once (`suite --jobs`): default thread count
   and memory budget divided among them; values set explicitly stay. */
void chk_options_share(ChkOptions *o, int jobs);

/* CHK_ERROR: the program cannot be checked under this model at all (a
   state longer than the stores hold, STO_MAX_WORDS, or than the model's
   layout allows), known before anything is explored; `reason` says why,
   and the report has no results. An input limit, not a limit met while
   exploring (CHK_INCOMPLETE). */
typedef enum { CHK_DONE, CHK_INCOMPLETE, CHK_ERROR } ChkStatus;
extern const char *const chk_status_names[3];     /* done incomplete error */

typedef enum { CHK_V_COUNTEREXAMPLE, CHK_V_EXAMPLE, CHK_V_ERROR } ChkVKind;
extern const char *const chk_vkind_names[3];

/* A verdict. Unknown: the check is incomplete and no witness found before
   the limit decides it (DESIGN section 3); it never passes. */
typedef enum { CHK_NO, CHK_OK, CHK_UNKNOWN } ChkVerdict;
extern const char *const chk_verdict_names[3];    /* No Ok Unknown */

typedef struct {
    int cond_index;
    int phase, quant;                   /* LitPhase, LitQuant */
    const char *cond;                   /* canonical text */
    int verdict;                        /* ChkVerdict */
    int expected;                       /* -1 none, 0 No, 1 Ok */
    int64_t positive, negative;
} ChkResult;

typedef struct {
    int phase;                          /* LitPhase */
    const char *state;                  /* "name=value; name[i]=value" */
    int64_t count;
} ChkOutcome;

typedef struct {
    int cond_index;
    int kind;                           /* ChkVKind */
    const char *image;                  /* crash image, or NULL */
    const char *witness;                /* text, several lines */
    const char *witness_json;
    int depth;                          /* crashes in the witness */
} ChkViolation;

typedef struct {
    int model;
    int status;                         /* ChkStatus */
    const char *reason;                 /* why incomplete / error, or NULL */
    int64_t states, transitions, crash_points, crash_images, recoveries;
    double elapsed_ms;
    int64_t peak_kb;
    int64_t store_states, store_bytes, store_nodes;
                                        /* the main program's state store
                                           when its exploration ended: its
                                           states, tables' bytes, nodes */
    int nresults, noutcomes, nviolations;
    ChkResult *results;                 /* one per `check`, cond_index order */
    ChkOutcome *outcomes;               /* sorted by phase, then state */
    ChkViolation *violations;           /* cond_index order */
    int nerrors;
    const char **errors;                /* distinct runtime errors, sorted */
    int nimages;
    const char **images;                /* with list_images: every distinct
                                           main-program crash image, as
                                           "w0 w1 …" over all PM words,
                                           sorted */
    const char *notes;                  /* one-time notes, '\n'-separated */
    BaseArena *arena;                    /* owns everything above */
} ChkReport;

/* 0 and *out set (whatever the verdicts); nonzero only when gpmc itself
   fails (out of memory, internal error), with a message in err. */
int chk_run(const LitProgram *p, const ChkOptions *o, ChkReport **out,
            char *err, size_t errlen);
void chk_report_free(ChkReport *r);

/* A check passes when its verdict equals its expectation, or there is none
   and the verdict is Ok (DESIGN section 5). */
int chk_result_passes(const ChkResult *r);

#endif
