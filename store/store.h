/*
 * store — the visited-state stores and the interning tables of the
 * explorer. It knows nothing of models: a state is a BaseVec of words.
 *
 * Promises: sto_store_put maps a word vector to a dense id, the same id for
 * the same vector, ids in insertion order (several threads may insert at
 * once; sto_store_renumber restores the order one thread would give), and
 * sto_store_get gives the vector back. Two stores (flat, tree) keep the
 * same ids for the same vectors in the same order, so no report depends on
 * the choice. StoTable interns vectors of any length for one thread.
 * Every block is charged to a BaseBudget: a store that cannot grow says
 * so (-1) and keeps what it has.
 *
 * THE STATE STORE. A state is the model's vector of 64-bit
 * words w[0..len). Two stores keep it (`--state`; auto: flat for vectors
 * of at most CHK_FLAT_MAX_WORDS words, else tree), behind one set of
 * operations (StoStoreOps), with the same ids for the same vectors in the
 * same order, so a report does not depend on the choice.
 *
 * The flat store (sto_flat.c) packs the vector into a record
 * of bytes (a word below 4 in half a byte, a small address with a small
 * owner in one or two; the format is described there), appends it to an
 * arena and indexes it in one open-addressing table: a lookup hashes the
 * record and compares it with at most one stored record, as SPIN does with
 * its state vectors. P01 5x6 `--naive`: records of 36 bytes on average,
 * 53 bytes a state with the table and `order` (78 as the segments are
 * allocated), a peak of 360 MB against the tree's 330 MB, in a third less
 * time.
 *
 * The tree store (sto_tree.c) keeps it in LTSmin's tree compression
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
 * (StoCursor), re-interning only the paths above changed atoms, level by
 * level from the bottom, through a per-thread cache of recent node keys.
 * A node whose two children are both below 2^15 (small atoms, the first
 * nodes interned: zero subtrees, idle threads) is not interned at all: its
 * parent names it inline, IMM | left << 15 | right. Whether a node is
 * inline depends only on its children, so every vector still has exactly
 * one root (tests/test_sto_store.c puts vectors from scratch and as
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
 * compare-and-swap, the dense arrays are segmented (StoSeg) so they never
 * move, and the slot arrays are doubled by one thread while the others wait
 * at the gate between two states (StoGate).
 */
#ifndef GPMC_STORE_H
#define GPMC_STORE_H

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#include "base/base.h"

enum { STO_FLAT, STO_TREE };            /* the two stores */
#define STO_NONE 0xFFFFFFFFu            /* no id */

/* ---- segmented arrays (sto_seg.c) --------------------------------------- */

#define STO_SEG_SHIFT 12
#define STO_SEG_FIRST (1u << STO_SEG_SHIFT)
#define STO_SEG_MAX 21

typedef struct {
    void *_Atomic seg[STO_SEG_MAX];
    size_t elem;
    BaseBudget *mem;
    pthread_mutex_t mu;
} StoSeg;

void sto_seg_init(StoSeg *a, BaseBudget *mem, size_t elem);
void sto_seg_free(StoSeg *a);
/* Makes element i addressable: 0, or -1 out of memory. */
int sto_seg_ensure(StoSeg *a, uint64_t i);
size_t sto_seg_bytes(const StoSeg *a);

static inline int sto_seg_index(uint64_t i)
{
    return 63 - __builtin_clzll((i >> STO_SEG_SHIFT) + 1);
}

/* Element i, made addressable by sto_seg_ensure before. */
static inline void *sto_seg_at(const StoSeg *a, uint64_t i)
{
    int s = sto_seg_index(i);
    uint64_t off = i - ((((uint64_t)1 << s) - 1) << STO_SEG_SHIFT);
    void *p = atomic_load_explicit(&((StoSeg *)a)->seg[s],
                                   memory_order_relaxed);
    return (char *)p + off * a->elem;
}

/* ---- the gate (sto_gate.c) ---------------------------------------------- */

typedef struct {
    _Atomic int active, want;
    int nthreads;
    pthread_mutex_t mu;
} StoGate;

void sto_gate_init(StoGate *g, int nthreads);
void sto_gate_free(StoGate *g);
void sto_gate_enter(StoGate *g);
void sto_gate_leave(StoGate *g);
/* From inside: runs fn alone, every other thread outside the gate. */
void sto_gate_exclusive(StoGate *g, void (*fn)(void *), void *arg);

/* ---- interning tables (sto_table.c) -------------------------------------- */

/* Word vectors of any length to dense ids in insertion order (images,
   outcomes, errors, memo keys: nothing per state). Keys live in one growing
   array; a slot holds the id + 1 in its low half and the top half of the
   key's hash in its high half, so a probe rejects most other keys without
   touching them. One thread only. */
typedef struct {
    uint64_t off;                       /* first word in words */
    uint64_t hash;                      /* for growing the index */
    uint32_t len;
} StoKey;

typedef struct {
    BaseBudget *mem;
    uint64_t *words;
    size_t nwords, capw;
    StoKey *key;
    size_t cap;
    uint32_t n;
    uint64_t *slot;
    uint32_t nslot;                     /* power of two */
} StoTable;

void sto_table_init(StoTable *t, BaseBudget *mem);
void sto_table_free(StoTable *t);
void sto_table_reset(StoTable *t);
/* 1 when the key is new, 0 when it was there, -1 out of memory. */
int sto_table_put(StoTable *t, const uint64_t *key, uint32_t len, uint32_t *id);
const uint64_t *sto_table_key(const StoTable *t, uint32_t id, uint32_t *len);
uint64_t sto_hash_words(const uint64_t *w, uint32_t n);
size_t sto_table_bytes(const StoTable *t);

/* ---- the state store (sto_store.c) --------------------------------------- */

#define STO_CLASSES 20                  /* vectors up to 2^19 words */
/* The longest vector a store holds (words): the tree's largest size class
   holds the vector and its mark. The checker refuses to explore a model
   whose states may be longer (chk_run.c), never reaching the stores with
   one. */
#define STO_MAX_WORDS ((1u << (STO_CLASSES - 1)) - 1)

typedef struct {
    _Atomic uint64_t *slot;             /* root keys (2 words), 0: empty */
    _Atomic uint32_t *id;               /* state id + 1 per slot */
    uint64_t mask;
    _Atomic uint32_t used;
} StoRoots;

typedef struct StoStoreOps StoStoreOps;

/* Both stores' open-addressing tables (mask + 1 slots) are doubled at 3/4
   load. */
static inline int sto_full(uint64_t used, uint64_t mask)
{
    return used * 4 >= (mask + 1) * 3;
}

/* Common to both stores: ids, `order` (id -> where the state is), the
   limit; then each store's own part. */
typedef struct {
    const StoStoreOps *ops;
    BaseBudget *mem;
    StoGate *gate;
    uint32_t natoms;                    /* 1 + max_words */
    _Atomic uint32_t nroot;             /* states */
    StoSeg order;                       /* uint32_t per id: tree, class |
                                           slot; flat, the record's offset
                                           in 4-byte units */
    uint32_t limit;                     /* ids at and above are dropped */
    _Atomic int failed;
    /* flat (sto_flat.c) */
    _Atomic uint64_t *fslot;            /* hash top | id + 1, 0: empty */
    uint64_t fmask;
    _Atomic uint32_t fused;
    StoSeg arena;                       /* the records, 4-byte units */
    _Atomic uint64_t ftop;              /* units of the arena in use */
    /* tree (sto_tree.c) */
    int nclass;
    uint32_t zh[STO_CLASSES];           /* all-zero subtree per height */
    /* nodes: slots (hash top | id), keys by id */
    _Atomic uint64_t *nslot;
    uint64_t nmask;
    _Atomic uint32_t nnode, nused;
    StoSeg node;                        /* uint64_t key per id */
    StoRoots root[STO_CLASSES];         /* per size class */
    unsigned epoch;                     /* node resets so far */
} StoStore;

/* A node key the cursor interned lately, and its id + 1 (0: none); key
   and id share a cache line. */
typedef struct {
    uint64_t key;
    uint32_t id;
} StoCached;

#define STO_RING 16                     /* flat: records encoded ahead */

/* A thread's view of a store. Tree: the state it decoded last, its atoms
   and the ids of its tree's internal nodes (heap order), which encoding a
   successor reuses, and a cache of node keys it interned lately. Flat: a
   ring of packed records, of which the last STO_RING / 2 encoded stay
   valid (a caller may encode that many ahead before adding them). */
typedef struct {
    const StoStoreOps *ops;
    uint8_t *ring;                      /* flat: STO_RING records */
    size_t ringrec;                     /* bytes per record */
    unsigned next;                      /* the next record of the ring */
    uint32_t *pid, *atom;
    uint64_t half[2];                   /* the root's keys */
    uint32_t *idx[2], *val[2];          /* encoding: the changed nodes of
                                           a level and their ids */
    uint64_t *key;                      /* and their keys */
    uint32_t len;
    int cls;
    StoCached *cache;                   /* recently interned keys */
    const StoStore *store;              /* whose ids the cache holds */
    unsigned epoch;
    const uint64_t *buf;                /* where the state was decoded to */
} StoCursor;

/* kind: STO_FLAT or STO_TREE. -1 when max_words > STO_MAX_WORDS or out of
   memory. */
int sto_store_init(StoStore *st, uint32_t max_words, BaseBudget *mem,
                   StoGate *gate, int kind);
void sto_store_free(StoStore *st);
int sto_store_reset(StoStore *st);
int sto_cursor_init(StoCursor *c, const StoStore *st);
void sto_cursor_free(StoCursor *c);
/* An encoded state. Tree: its root key and size class. Flat: the hash
   of its packed record, and the record (in the cursor's ring). */
typedef struct {
    uint64_t key[2];
    int cls;
    const uint8_t *rec;
    uint32_t nrec;
} StoRoot;


/* Interns s, a successor of prev (the state last decoded into c), or of
   nothing (prev NULL). 1 new, 0 seen before (*id set either way); -1 out of
   memory. */
int sto_store_put(StoStore *st, StoCursor *c, const BaseVec *prev,
                  const BaseVec *s, uint32_t *id);
/* sto_store_put in two halves, so that a caller can encode the next
   successor while the root slot of this one (prefetched) comes in:
   encode interns s's nodes and fills *r (0, or -1 out of memory); add
   numbers the root as put does. */
int sto_store_encode(StoStore *st, StoCursor *c, const BaseVec *prev,
                     const BaseVec *s, StoRoot *r);
int sto_store_add(StoStore *st, const StoRoot *r, uint32_t *id);
/* The same without inserting: 0 found (*id), 1 absent. */
int sto_store_find(StoStore *st, StoCursor *c, const BaseVec *prev,
                   const BaseVec *s, uint32_t *id);
/* Decodes state id into out (out->cap >= max_words) and c. When out is
   where c decoded last and nobody wrote to it since, only what differs is
   decoded again; a caller that writes to such a buffer calls
   sto_cursor_forget. */
void sto_store_get(const StoStore *st, StoCursor *c, uint32_t id,
                   BaseVec *out);
void sto_cursor_forget(StoCursor *c);
/* Starts fetching what decoding state id (a stored state) will read: its
   root slot (far), or, once that is in, the nodes under its root. */
void sto_store_prefetch(const StoStore *st, uint32_t id, int far);
uint32_t sto_store_count(const StoStore *st);
/* Ids [lo, lo + n) become perm's order: new id lo + r is old lo + perm[r].
   tmp holds n entries. */
void sto_store_renumber(StoStore *st, uint32_t lo, uint32_t n,
                        const uint32_t *perm, uint32_t *tmp);
/* Drops the states numbered n and above (the end of an exploration). */
void sto_store_truncate(StoStore *st, uint32_t n);
size_t sto_store_bytes(const StoStore *st);
uint32_t sto_store_nodes(const StoStore *st);

#endif
