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
 * path (parent links) and re-exploring the recoveries on it.
 *
 * Determinism: states are numbered in discovery order, which is the BFS
 * order; every table assigns ids in insertion order; ties between equally
 * short witnesses go to the lowest id. Hash values never decide an order.
 *
 * THE STATE STORE (chk_store.c). A state is the model's vector of 64-bit
 * words w[0..len). Two stores keep it (`--state`; auto: flat for vectors
 * of at most CHK_FLAT_MAX_WORDS words, else tree), behind one set of
 * operations (ChkStoreOps), with the same ids for the same vectors in the
 * same order, so a report does not depend on the choice.
 *
 * The flat store (chk_flat.c) packs the vector into a record
 * of bytes (a word below 4 in half a byte, a small address with a small
 * owner in one or two; the format is described there), appends it to an
 * arena and indexes it in one open-addressing table: a lookup hashes the
 * record and compares it with at most one stored record, as SPIN does with
 * its state vectors. P01 5x6 `--naive`: records of 36 bytes on average,
 * 53 bytes a state with the table and `order` (78 as the segments are
 * allocated), a peak of 360 MB against the tree's 330 MB, in a third less
 * time.
 *
 * The tree store (chk_tree.c) keeps it in LTSmin's tree compression
 * (Laarman, van de Pol, Weber, "Parallel Recursive State Compression for
 * Free", SPIN 2011). The vector is first read as natoms = 1 + max_words
 * 32-bit atoms: atom a < len is word a, atom len is a mark (MARK, not
 * zero), the atoms beyond it are zero, so len is the position of the last
 * atom that is not zero. (The mark sits where a successor's changes mostly
 * are already: the pending entries at the end of the vector come and go
 * with len. Kept in atom 0 as first, len cost a path of its own at almost
 * every transition of P01: 18 node computations per transition, not 15,
 * and 3.5x the nodes.) A word
 * below 2^31 is its own atom; a larger one is BIG | the id of a node holding
 * the whole word. A fixed balanced binary tree over the atoms (heap order,
 * the same for every state of a size class) turns each internal node into
 * a 64-bit key, left | right << 32, of its children's atoms or node ids;
 * the keys of the nodes below the root's two children are interned in one
 * node table, so the subtrees that states share (a thread's registers, the
 * persisted image, the zero tail) are stored once. The root's two children
 * are not nodes: their two keys, 128 bits, identify the state and are the
 * entry of the root table. (They would be nodes nearly as new as the state
 * itself, each an extra lookup that misses the cache; a wider root entry
 * costs less.) The second key holds the mark (len >= 2^(class - 1)), so it
 * is never 0 and claims the slot. So a state costs its root (16 bytes plus
 * index slack) and
 * the nodes nobody had before it, usually few: successors differ from
 * their parent in a few atoms, and encoding starts from the parent's tree
 * (ChkCursor), re-interning only the paths above changed atoms, level by
 * level from the bottom, through a per-thread cache of recent node keys.
 * A node whose two children are both below 2^15 (small atoms, the first
 * nodes interned: zero subtrees, idle threads) is not interned at all: its
 * parent names it inline, IMM | left << 15 | right. Whether a node is
 * inline depends only on its children, so every vector still has exactly
 * one root (tests/test_chk_store.c puts vectors from scratch and as
 * successors of other states and compares).
 *
 * Both tables are open-addressing with linear probing, grown at 3/4 load.
 * Node slots hold 32 bits of the key's hash and the node id, so a probe
 * rejects other keys without leaving the slot array; node keys live in a
 * dense array. Root slots hold the root key itself (a probe compares in
 * place, one cache miss for a state seen before, prefetched while up to
 * eight later successors are encoded) and a parallel array the state id;
 * `order` maps ids back to slots for decoding. Ids are dense, in insertion
 * order. Several threads insert at once: a slot is claimed by
 * compare-and-swap, the dense arrays are segmented (ChkSeg) so they never
 * move, and the slot arrays are doubled by one thread while the others wait
 * at the gate between two states (ChkGate).
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

#define CHK_NONE 0xFFFFFFFFu

/* The 64-bit finalizer of MurmurHash3: every bit of x moves every bit of
   the result. The tables' hashes all end in it. */
static inline uint64_t chk_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
}

/* ---- memory budget (chk_mem.c) ------------------------------------------ */

enum { CHK_MEM_OK, CHK_MEM_OOM, CHK_MEM_BUDGET };

typedef struct {
    _Atomic int64_t used, peak;         /* bytes charged */
    int64_t limit;                      /* 0: none */
    _Atomic int failed;                 /* CHK_MEM_*: why a block was refused */
} ChkMem;

void chk_mem_init(ChkMem *m, int64_t limit);
int64_t chk_mem_default_limit(void);
/* A zeroed block charged to m; NULL (and m->failed set) when refused. */
void *chk_mem_alloc(ChkMem *m, size_t n);
void chk_mem_free(ChkMem *m, void *p);
void chk_mem_fail(ChkMem *m, int why);
/* LIT_GROW for charged blocks: room for `need` elements, doubling. */
int chk_mem_grow(ChkMem *m, void *arrp, size_t *cap, size_t need, size_t elem);
#define CHK_GROW(mem, arr, cap, need) \
    chk_mem_grow((mem), &(arr), &(cap), (need), sizeof *(arr))

/* ---- segmented arrays (chk_seg.c) --------------------------------------- */

#define CHK_SEG_SHIFT 12
#define CHK_SEG_FIRST (1u << CHK_SEG_SHIFT)
#define CHK_SEG_MAX 21

typedef struct {
    void *_Atomic seg[CHK_SEG_MAX];
    size_t elem;
    ChkMem *mem;
    pthread_mutex_t mu;
} ChkSeg;

void chk_seg_init(ChkSeg *a, ChkMem *mem, size_t elem);
void chk_seg_free(ChkSeg *a);
/* Makes element i addressable: 0, or -1 out of memory. */
int chk_seg_ensure(ChkSeg *a, uint64_t i);
size_t chk_seg_bytes(const ChkSeg *a);

static inline int chk_seg_index(uint64_t i)
{
    return 63 - __builtin_clzll((i >> CHK_SEG_SHIFT) + 1);
}

static inline void *chk_seg_at(const ChkSeg *a, uint64_t i)
{
    int s = chk_seg_index(i);
    uint64_t off = i - ((((uint64_t)1 << s) - 1) << CHK_SEG_SHIFT);
    void *p = atomic_load_explicit(&((ChkSeg *)a)->seg[s],
                                   memory_order_relaxed);
    return (char *)p + off * a->elem;
}

/* ---- threads (chk_pool.c) ----------------------------------------------- */

typedef struct {
    _Atomic int active, want;
    int nthreads;
    pthread_mutex_t mu;
} ChkGate;

void chk_gate_init(ChkGate *g, int nthreads);
void chk_gate_free(ChkGate *g);
void chk_gate_enter(ChkGate *g);
void chk_gate_leave(ChkGate *g);
/* From inside: runs fn alone, every other thread outside the gate. */
void chk_gate_exclusive(ChkGate *g, void (*fn)(void *), void *arg);

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

/* ---- interning tables (chk_table.c) -------------------------------------- */

/* Word vectors of any length to dense ids in insertion order (images,
   outcomes, errors, memo keys: nothing per state). Keys live in one growing
   array; a slot holds the id + 1 in its low half and the top half of the
   key's hash in its high half, so a probe rejects most other keys without
   touching them. One thread only. */
typedef struct {
    uint64_t off;                       /* first word in words */
    uint64_t hash;                      /* for growing the index */
    uint32_t len;
} ChkKey;

typedef struct {
    ChkMem *mem;
    uint64_t *words;
    size_t nwords, capw;
    ChkKey *key;
    size_t cap;
    uint32_t n;
    uint64_t *slot;
    uint32_t nslot;                     /* power of two */
} ChkTable;

void chk_table_init(ChkTable *t, ChkMem *mem);
void chk_table_free(ChkTable *t);
void chk_table_reset(ChkTable *t);
/* 1 when the key is new, 0 when it was there, -1 out of memory. */
int chk_table_put(ChkTable *t, const uint64_t *key, uint32_t len, uint32_t *id);
const uint64_t *chk_table_key(const ChkTable *t, uint32_t id, uint32_t *len);
uint64_t chk_hash_words(const uint64_t *w, uint32_t n);
size_t chk_table_bytes(const ChkTable *t);

/* ---- the state store (chk_store.c) --------------------------------------- */

#define CHK_CLASSES 20                  /* vectors up to 2^19 words */

typedef struct {
    _Atomic uint64_t *slot;             /* root keys (2 words), 0: empty */
    _Atomic uint32_t *id;               /* state id + 1 per slot */
    uint64_t mask;
    _Atomic uint32_t used;
} ChkRoots;

typedef struct ChkStoreOps ChkStoreOps;

/* Both stores' open-addressing tables (mask + 1 slots) are doubled at 3/4
   load. */
static inline int chk_full(uint64_t used, uint64_t mask)
{
    return used * 4 >= (mask + 1) * 3;
}

/* Common to both stores: ids, `order` (id -> where the state is), the
   limit; then each store's own part. */
typedef struct {
    const ChkStoreOps *ops;
    ChkMem *mem;
    ChkGate *gate;
    uint32_t natoms;                    /* 1 + max_words */
    _Atomic uint32_t nroot;             /* states */
    ChkSeg order;                       /* uint32_t per id: tree, class |
                                           slot; flat, the record's offset
                                           in 4-byte units */
    uint32_t limit;                     /* ids at and above are dropped */
    _Atomic int failed;
    /* flat (chk_flat.c) */
    _Atomic uint64_t *fslot;            /* hash top | id + 1, 0: empty */
    uint64_t fmask;
    _Atomic uint32_t fused;
    ChkSeg arena;                       /* the records, 4-byte units */
    _Atomic uint64_t ftop;              /* units of the arena in use */
    /* tree (chk_tree.c) */
    int nclass;
    uint32_t zh[CHK_CLASSES];           /* all-zero subtree per height */
    /* nodes: slots (hash top | id), keys by id */
    _Atomic uint64_t *nslot;
    uint64_t nmask;
    _Atomic uint32_t nnode, nused;
    ChkSeg node;                        /* uint64_t key per id */
    ChkRoots root[CHK_CLASSES];         /* per size class */
    unsigned epoch;                     /* node resets so far */
} ChkStore;

/* A node key the cursor interned lately, and its id + 1 (0: none); key
   and id share a cache line. */
typedef struct {
    uint64_t key;
    uint32_t id;
} ChkCached;

#define CHK_RING 16                     /* flat: records encoded ahead */

/* A thread's view of a store. Tree: the state it decoded last, its atoms
   and the ids of its tree's internal nodes (heap order), which encoding a
   successor reuses, and a cache of node keys it interned lately. Flat: a
   ring of packed records, of which the last CHK_RING / 2 encoded stay
   valid (a caller may encode that many ahead before adding them). */
typedef struct {
    const ChkStoreOps *ops;
    uint8_t *ring;                      /* flat: CHK_RING records */
    size_t ringrec;                     /* bytes per record */
    unsigned next;                      /* the next record of the ring */
    uint32_t *pid, *atom;
    uint64_t half[2];                   /* the root's keys */
    uint32_t *idx[2], *val[2];          /* encoding: the changed nodes of
                                           a level and their ids */
    uint64_t *key;                      /* and their keys */
    uint32_t len;
    int cls;
    ChkCached *cache;                   /* recently interned keys */
    const ChkStore *store;              /* whose ids the cache holds */
    unsigned epoch;
    const uint64_t *buf;                /* where the state was decoded to */
} ChkCursor;

/* kind: CHK_STATE_*. */
int chk_store_init(ChkStore *st, uint32_t max_words, ChkMem *mem,
                   ChkGate *gate, int kind);
void chk_store_free(ChkStore *st);
int chk_store_reset(ChkStore *st);
int chk_cursor_init(ChkCursor *c, const ChkStore *st);
void chk_cursor_free(ChkCursor *c);
/* An encoded state. Tree: its root key and size class. Flat: the hash
   of its packed record, and the record (in the cursor's ring). */
typedef struct {
    uint64_t key[2];
    int cls;
    const uint8_t *rec;
    uint32_t nrec;
} ChkRoot;

/* One store's implementation (chk_tree.c, chk_flat.c): chk_store.c
   dispatches, and keeps the common part (ids, order, limit). */
struct ChkStoreOps {
    int (*init)(ChkStore *st);
    void (*free)(ChkStore *st);
    int (*reset)(ChkStore *st);
    int (*cursor_init)(ChkCursor *c, const ChkStore *st);
    void (*cursor_free)(ChkCursor *c);
    int (*encode)(ChkStore *st, ChkCursor *c, const MdlState *prev,
                  const MdlState *s, ChkRoot *r);
    int (*add)(ChkStore *st, const ChkRoot *r, uint32_t *id);
    int (*find)(ChkStore *st, ChkCursor *c, const MdlState *prev,
                const MdlState *s, uint32_t *id);
    void (*get)(const ChkStore *st, ChkCursor *c, uint32_t id,
                MdlState *out);
    void (*prefetch)(const ChkStore *st, uint32_t id, int far);
    void (*renumber)(ChkStore *st, uint32_t lo, uint32_t n,
                     const uint32_t *perm, uint32_t *tmp);
    size_t (*bytes)(const ChkStore *st);
    uint32_t (*nodes)(const ChkStore *st);
};
extern const ChkStoreOps chk_tree_ops, chk_flat_ops;

/* Interns s, a successor of prev (the state last decoded into c), or of
   nothing (prev NULL). 1 new, 0 seen before (*id set either way); -1 out of
   memory. */
int chk_store_put(ChkStore *st, ChkCursor *c, const MdlState *prev,
                  const MdlState *s, uint32_t *id);
/* chk_store_put in two halves, so that a caller can encode the next
   successor while the root slot of this one (prefetched) comes in:
   encode interns s's nodes and fills *r (0, or -1 out of memory); add
   numbers the root as put does. */
int chk_store_encode(ChkStore *st, ChkCursor *c, const MdlState *prev,
                     const MdlState *s, ChkRoot *r);
int chk_store_add(ChkStore *st, const ChkRoot *r, uint32_t *id);
/* The same without inserting: 0 found (*id), 1 absent. */
int chk_store_find(ChkStore *st, ChkCursor *c, const MdlState *prev,
                   const MdlState *s, uint32_t *id);
/* Decodes state id into out (out->cap >= max_words) and c. When out is
   where c decoded last and nobody wrote to it since, only what differs is
   decoded again; a caller that writes to such a buffer calls
   chk_cursor_forget. */
void chk_store_get(const ChkStore *st, ChkCursor *c, uint32_t id,
                   MdlState *out);
void chk_cursor_forget(ChkCursor *c);
/* Starts fetching what decoding state id (a stored state) will read: its
   root slot (far), or, once that is in, the nodes under its root. */
void chk_store_prefetch(const ChkStore *st, uint32_t id, int far);
uint32_t chk_store_count(const ChkStore *st);
/* Ids [lo, lo + n) become perm's order: new id lo + r is old lo + perm[r].
   tmp holds n entries. */
void chk_store_renumber(ChkStore *st, uint32_t lo, uint32_t n,
                        const uint32_t *perm, uint32_t *tmp);
/* Drops the states numbered n and above (the end of an exploration). */
void chk_store_truncate(ChkStore *st, uint32_t n);
size_t chk_store_bytes(const ChkStore *st);
uint32_t chk_store_nodes(const ChkStore *st);


/* ---- one exploration's states (chk_space.c) ----------------------------- */

typedef struct {
    ChkMem *mem;
    ChkStore store;
    uint32_t *parent;                   /* BFS parent; CHK_NONE: the root */
    size_t capparent;
    uint32_t *level;                    /* first id of each depth */
    size_t nlevel, caplevel;
    uint64_t *end;                      /* bit per state: can end here */
    size_t capend;
} ChkSpace;

int chk_space_init(ChkSpace *sp, uint32_t max_words, ChkMem *mem,
                   ChkGate *gate, int kind);
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
static inline uint32_t chk_space_parent(const ChkSpace *sp, uint32_t id)
{
    return sp->parent[id];
}
static inline void chk_space_set_end(ChkSpace *sp, uint32_t id)
{
    sp->end[id >> 6] |= 1ull << (id & 63);
}
static inline int chk_space_end(const ChkSpace *sp, uint32_t id)
{
    return (int)(sp->end[id >> 6] >> (id & 63) & 1);
}
/* The step by which `parent` first reaches `child` (re-expanding the
   parent), or MDL_STEP_NONE. a and b are scratch states. */
uint32_t chk_space_step(ChkSpace *sp, Model *m, ChkCursor *c, uint32_t parent,
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

/* A thread of the explorer: its model instance (models keep scratch),
   store cursor, states, and what its expansions found. */
typedef struct {
    Model *m;
    ChkCursor cur;
    MdlState s;
    ChkErrLog *log;
    size_t nlog, caplog;
    int failed;
} ChkWorker;

/* A recovery level (crash depth): its space, scratch state and the best
   witness so far of each observation and error reached. */
typedef struct {
    ChkSpace space;
    ChkCursor cur;
    MdlState state;
    uint32_t *touched;                  /* ids with a best, err bit 31 */
    size_t ntouched, captouched;
    ChkBest *out, *err;
    size_t capout, caperr;
    uint32_t until;                     /* a replay ends with the level that
                                           finds this state; else CHK_NONE */
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
    ChkTable tab;                       /* projected outcomes */
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
    ChkTable tab;                       /* images over the used PM words */
    ChkImg *img;
    size_t capimg;
    int32_t *used;                      /* PM words that belong to a decl */
    uint32_t nused;
    uint64_t *key;                      /* an image key being built */
    uint32_t last;                      /* the image of key, or CHK_NONE */
    int64_t *full;                      /* an image, expanded */
    ChkStore regions;                   /* persistency regions */
    ChkGate rgate;                      /* its own: one thread uses it */
    ChkCursor rcur;
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
} ChkMemo;

typedef struct ChkRun {
    const LitProgram *p;
    ChkOptions o;
    Model *m;
    LitArena *arena;                    /* the report's */
    ChkMem mem;
    ChkPool pool;
    ChkGate gate;
    ChkWorker *wk;                      /* one per thread; wk[0] the caller */
    int nwk;
    ChkLevel *lvl;                      /* crash_depth + 1 levels */
    int nlevels;
    int64_t *pm, *dram;                 /* observation scratch */
    uint64_t *obuf, *fbuf;              /* observation key scratch */

    ChkImages img;
    ChkProj proj[3];                    /* final, crash, recovered */
    ChkOutcomes outs[3];
    ChkTable robs;                      /* recovered observations (pm+dram) */
    uint32_t *robs_out;                 /* -> recovered outcome id */
    size_t caprobs;
    ChkTable errs;
    ChkErr *err;
    size_t caperr;
    ChkTable memo_keys;
    ChkMemo *memo;
    size_t capmemo;
    ChkBest *mbest;                     /* memo contents */
    size_t nmbest, capmbest;
    ChkTable finals;                    /* observable terminal states */

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
} ChkRun;

double chk_now(void);
/* The model's mode for these options: the literal semantics, or the
   default mode with the reductions in use. */
unsigned chk_model_mode(const ChkOptions *o);

/* chk_error.c: limits, progress, runtime errors */
/* The check is incomplete, the first reason given says why; the
   exploration running stops (and so, through the status, does the
   check, unless it is re-exploring for a witness). */
void chk_limit(ChkRun *R, const char *reason);
/* Ends the check for lack of memory (the budget's reason if it was the
   budget). */
void chk_fail(ChkRun *R);
/* Calls the progress hook about once a second; applies the timeout
   (not to replays: witnesses are built after it). */
void chk_tick(ChkRun *R);
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
    return s->key == CHK_NONE ? s->one.img
                              : R->img.list[R->img.pk[s->key].first + k];
}
static inline ChkPOut chk_set_out(const ChkRun *R, const ChkImgSet *s,
                                  uint32_t k)
{
    return s->key == CHK_NONE ? s->one
                              : R->img.outs[R->img.pk[s->key].ofirst + k];
}

/* chk_main.c: the main program */
void chk_explore_main(ChkRun *R);

/* chk_memo.c: recovery */
/* Memo index of recovery from image `img` with d more crashes allowed. */
uint32_t chk_recover(ChkRun *R, uint32_t img, int d);
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

/* chk_witness.c */
void chk_witness(ChkRun *R, ChkViolation *v, int ph, uint32_t outcome);
void chk_witness_error(ChkRun *R, ChkViolation *v, uint32_t err);

#endif
