/*
 * checker_int.h — private to checker/.
 *
 * ONE CHECK, FROM THE INSIDE. chk_run explores the main program breadth
 * first (level 0). Every state is a crash point: its crash images come from
 * a cache keyed by the state's persistency region (mdl_persist_key), since
 * states that differ only in threads share images. Images are interned in
 * one table per check. Recovery from image I with d further crashes allowed
 * is a pure function of (I, d): it is explored once (at level D - d, one
 * reusable space per level) and memoised as the recovered observations and
 * errors it can reach, each with the fewest steps needed. A crash inside
 * recovery contributes the memo of (I2, d - 1) for each image I2 of that
 * state, offset by the steps taken to reach it. Outcomes and verdicts are
 * computed from these sets at the end; witnesses are rebuilt by replaying
 * the main path (parent pointers) and re-exploring the recoveries on it.
 *
 * Determinism: states are numbered in discovery order, which is the BFS
 * order; every table assigns ids in insertion order; ties between equally
 * short witnesses go to the lowest id. Hash values never decide an order.
 */
#ifndef GPMC_CHECKER_INT_H
#define GPMC_CHECKER_INT_H

#include "checker/checker.h"
#include "model/model.h"

#define CHK_NONE 0xFFFFFFFFu

/* An interning table of word vectors: ids are dense, in insertion order;
   keys live in one growing array; lookups by open addressing. A slot holds
   the id + 1 (0: empty) in its low half and the top half of the key's hash
   in its high half, so a probe rejects most other keys without touching
   them. */
typedef struct {
    uint64_t off;                       /* first word in words */
    uint32_t len;
} ChkKey;

typedef struct {
    uint64_t *words;
    size_t nwords, capw;
    ChkKey *key;
    uint64_t *hash;                     /* full hashes, for growing */
    uint32_t n, cap;
    uint64_t *slot;
    uint32_t nslot;                     /* power of two */
} ChkTable;

void chk_table_init(ChkTable *t);
void chk_table_free(ChkTable *t);
void chk_table_reset(ChkTable *t);
/* 1 when the key is new, 0 when it was there, -1 out of memory. */
int chk_table_put(ChkTable *t, const uint64_t *key, uint32_t len,
                  uint64_t hash, uint32_t *id);
const uint64_t *chk_table_key(const ChkTable *t, uint32_t id, uint32_t *len);
uint64_t chk_hash_words(const uint64_t *w, uint32_t n);
size_t chk_table_bytes(const ChkTable *t);

/* A growing array of uint32_t. */
typedef struct {
    uint32_t *v;
    size_t n, cap;
} ChkVec;

int chk_vec_push(ChkVec *v, uint32_t x);
void chk_vec_free(ChkVec *v);

/* How the fewest steps to an outcome or error were achieved. */
enum { VIA_TERMINAL, VIA_NESTED, VIA_ERROR };

typedef struct {
    uint32_t id;                        /* observation or error id */
    uint32_t steps;
    uint32_t crashes;                   /* nested crashes on the way */
    uint32_t state;                     /* state index in the exploration */
    uint32_t aux;                       /* image (NESTED) or step (ERROR) */
    uint32_t via;
} ChkBest;

/* One breadth-first exploration (main program or one recovery). */
typedef struct {
    ChkTable states;
    uint32_t *parent, *step, *depth;
    size_t cap;
    ChkVec eoff, edges;                 /* successors, for livelock */
} ChkSpace;

typedef struct {
    uint32_t kind;                      /* MdlErrKind */
    int32_t gtid, kernel, line;
    int recovery;
    const char *text;                   /* full message */
} ChkErr;

typedef struct {
    uint32_t out_first, nout, err_first, nerr;
} ChkMemo;

/* Projection of a phase: the names its conditions mention. */
typedef struct {
    int nitems;
    struct ChkItem {
        int kind;                       /* 0 register, 1 location */
        int32_t a, b;                   /* gtid, reg / loc, index */
    } *items;
} ChkProj;

typedef struct ChkRun {
    const LitProgram *p;
    ChkOptions o;
    Model *m;
    LitArena *arena;                    /* the report's */
    ChkSpace *space;                    /* crash_depth + 1 levels */
    int nlevels;
    MdlState *lvl_state;                /* per level: state scratch */
    int64_t *pm, *dram;                 /* observation scratch */
    uint64_t *obuf;                     /* observation key scratch */

    ChkTable images;                    /* PM images, over the used words */
    int32_t *used;                      /* PM words that belong to a decl */
    uint32_t nused;
    uint64_t *ibuf;                     /* an image key */
    int64_t *ifull;                     /* an image, expanded */
    ChkVec img_state;                   /* first main crash point, or NONE */
    ChkTable pkeys;                     /* persistency region -> images */
    ChkVec pk_first, pk_count, pk_imgs; /* image ids per key */
    ChkVec pk_ofirst, pk_ocount;        /* crash outcomes per key: */
    ChkVec pk_outs, pk_outimg;          /* outcome id and one image of it */
    ChkVec img_stamp, out_stamp;        /* last key that listed an id */

    ChkProj proj[3];                    /* final, crash, recovered */
    ChkTable outs[3];                   /* projected outcomes per phase */
    ChkVec out_count[3];
    ChkVec out_best[3];                 /* fewest steps, CHK_NONE unknown */
    ChkVec out_state[3];                /* main state of that witness */
    ChkVec out_aux[3];                  /* crash: image; recovered: image */

    ChkTable robs;                      /* recovered observations (pm+dram) */
    ChkVec robs_out;                    /* -> recovered outcome id */

    ChkTable errs;
    ChkErr *err;
    size_t caperr;
    ChkVec err_best, err_state, err_aux;    /* main-program best */
    ChkVec err_total, err_img;          /* overall best; image if through
                                           recovery, else NONE */

    ChkTable memo_keys;
    ChkMemo *memo;
    size_t capmemo;
    ChkBest *mbest;                     /* memo contents */
    size_t nmbest, capmbest;
    ChkVec *lvl_touched;                /* per level: ids touched */
    ChkBest **lvl_out, **lvl_err;       /* per level: best by id */
    size_t *lvl_capout, *lvl_caperr;

    int status;
    const char *reason;
    int64_t states, transitions, crash_points, recoveries;
    ChkTable finals;                    /* observable terminal states */
    uint64_t *fbuf;
    double t0;
    double last_progress;               /* chk_now() of the last report */
    int64_t main_depth;                 /* deepest main-program state seen */
    int oom;
} ChkRun;

double chk_now(void);

/* chk_space.c */
void chk_space_init(ChkSpace *sp);
void chk_space_free(ChkSpace *sp);
void chk_space_reset(ChkSpace *sp);
/* Interns state s reached from parent by step; -1 oom. */
int chk_space_add(ChkSpace *sp, const MdlState *s, uint32_t parent,
                  uint32_t step, uint32_t depth, uint32_t *id);
void chk_space_state(const ChkSpace *sp, uint32_t id, MdlState *out);
/* Marks the states from which a terminal or failing state is reachable;
   returns the first state that cannot finish, or CHK_NONE. */
uint32_t chk_space_livelock(ChkSpace *sp, const uint8_t *ends);

/* chk_explore.c */
int chk_explore_main(ChkRun *R);
/* Memo index of recovery from image `img` with d more crashes allowed. */
uint32_t chk_recover(ChkRun *R, uint32_t img, int d);
/* Re-explores recovery (img, d) into its level's space, filling it; for
   witnesses. */
void chk_recover_space(ChkRun *R, uint32_t img, int d);
void chk_limit(ChkRun *R, const char *reason);
uint32_t chk_error_id(ChkRun *R, const MdlError *e, int recovery);
/* Image ids of state s (via the persistency-key cache): first index into
   pk_imgs and count; *fresh (if given) tells whether s is the first state
   with its key. */
uint32_t chk_images_of(ChkRun *R, const MdlState *s, uint32_t *first,
                       uint32_t *count, int *fresh);

/* An image as all pm_words words (gaps zero), into out. */
void chk_image_expand(const ChkRun *R, uint32_t img, int64_t *out);

/* chk_cond.c */
void chk_proj_build(ChkRun *R);
/* Projects an observation to phase `ph`'s outcome id (interned). */
uint32_t chk_outcome(ChkRun *R, int ph, const int64_t *pm,
                     const int64_t *dram, const MdlState *s);
int chk_cond_eval(const ChkRun *R, int ph, const LitCond *c,
                  const uint64_t *proj);
void chk_outcome_text(const ChkRun *R, int ph, const uint64_t *proj,
                      char *buf, size_t len);

/* chk_witness.c */
void chk_witness(ChkRun *R, ChkViolation *v, int ph, uint32_t outcome);
void chk_witness_error(ChkRun *R, ChkViolation *v, uint32_t err);

#endif
