/*
 * sto_tree.c — the tree store (`--state tree`): tree compression of state
 * vectors, and the set of states it numbers. The encoding is described
 * beside StoStore in checker_int.h.
 */
#include <sched.h>
#include <string.h>

#include "store/store_int.h"

#define BIG 0x80000000u                 /* atom: a node holding a word */
#define IMM 0x80000000u                 /* above the atoms: a pair inline */
#define IMM_LIM 0x8000u                 /* children below this go inline */
#define BUSY 0xFFFFFFFFu                /* node slot claimed, id not yet */
#define MAX_NODES 0x7FFFFFF0u
#define MAX_STATES 0x7FFFFFF0u
#define SLOT_BITS 27                    /* order[id] = class | slot */
#define MIN_SLOTS 256u
#define CACHE_BITS 16
#define NODES_KEPT (1u << 20)           /* a reset keeps up to these nodes */
#define MARK 1u                         /* the atom after the last word */

/* A node id is below IMM (an inline pair is not an id) and BUSY, and
   never 0 (the empty slot); a root's place in `order` is its class and
   a slot of SLOT_BITS. */
_Static_assert(MAX_NODES < IMM && MAX_NODES < BUSY, "node ids");
_Static_assert(STO_CLASSES <= 1 << (32 - SLOT_BITS), "class in order");
_Static_assert(IMM_LIM == 1u << 15, "an inline pair is two 15-bit names");

/* A root's hash: both halves. */
static inline uint64_t root_hash(const uint64_t *key)
{
    return base_mix(key[0] ^ key[1] * 0x9E3779B97F4A7C15ull);
}

static inline uint64_t node_key(const StoStore *st, uint32_t id)
{
    return *(const uint64_t *)sto_seg_at(&st->node, id);
}

/* The size class of a vector of len words: its len words and the mark
   after them fill a perfect tree of 2^class leaves. */
static inline int class_of(uint32_t len)
{
    return 64 - __builtin_clzll((uint64_t)len);   /* ceil(log2(len + 1)) */
}

/* ---- growing the indexes ----------------------------------------------- */

typedef struct {
    StoStore *st;
    int cls;                            /* root class, or -1: nodes */
} Grow;

static int rehash_nodes(StoStore *st, uint64_t nslots)
{
    _Atomic uint64_t *ns = base_budget_alloc(st->mem, nslots * sizeof *ns);
    uint64_t mask = nslots - 1;
    assert(nslots >= MIN_SLOTS && (nslots & mask) == 0);
    if (!ns)
        return -1;
    for (uint64_t i = 0; i <= st->nmask; i++) {
        uint64_t s = atomic_load_explicit(&st->nslot[i], memory_order_relaxed);
        uint64_t j;
        if (!s)
            continue;
        assert((uint32_t)s != BUSY);
        for (j = base_mix(node_key(st, (uint32_t)s)) & mask;
             atomic_load_explicit(&ns[j], memory_order_relaxed);
             j = (j + 1) & mask)
            ;
        atomic_store_explicit(&ns[j], s, memory_order_relaxed);
    }
    base_budget_free(st->mem, (void *)st->nslot);
    st->nslot = ns;
    st->nmask = mask;
    return 0;
}

/* A root slot holds the second half first: it claims the slot, and it is
   never 0 (it holds the mark: len >= 2^(class - 1)). */
static inline uint64_t slot_key(const StoRoots *r, uint64_t i, int half)
{
    return atomic_load_explicit(&r->slot[2 * i + (half ^ 1)],
                                memory_order_relaxed);
}

static int rehash_roots(StoStore *st, int cls, uint64_t nslots)
{
    StoRoots *r = &st->root[cls];
    _Atomic uint64_t *ns = base_budget_alloc(st->mem, 2 * nslots * sizeof *ns);
    _Atomic uint32_t *nid = base_budget_alloc(st->mem, nslots * sizeof *nid);
    uint64_t mask = nslots - 1;
    assert(nslots >= MIN_SLOTS && (nslots & mask) == 0);
    if (!ns || !nid || nslots > (1u << SLOT_BITS)) {
        base_budget_free(st->mem, (void *)ns);
        base_budget_free(st->mem, (void *)nid);
        return -1;
    }
    for (uint64_t i = 0; r->slot && i <= r->mask; i++) {
        uint64_t key[2] = {slot_key(r, i, 0), slot_key(r, i, 1)};
        uint32_t id = atomic_load_explicit(&r->id[i], memory_order_relaxed);
        uint64_t j;
        if (!key[1])
            continue;
        assert(id != 0);
        for (j = root_hash(key) & mask;
             atomic_load_explicit(&ns[2 * j], memory_order_relaxed);
             j = (j + 1) & mask)
            ;
        atomic_store_explicit(&ns[2 * j], key[1], memory_order_relaxed);
        atomic_store_explicit(&ns[2 * j + 1], key[0], memory_order_relaxed);
        atomic_store_explicit(&nid[j], id, memory_order_relaxed);
        *(uint32_t *)sto_seg_at(&st->order, id - 1) =
            (uint32_t)cls << SLOT_BITS | (uint32_t)j;
    }
    base_budget_free(st->mem, (void *)r->slot);
    base_budget_free(st->mem, (void *)r->id);
    r->slot = ns;
    r->id = nid;
    r->mask = mask;
    return 0;
}

/* Under the gate's exclusion: doubles the index if it is still too full
   (every thread that saw it full asks; the first one does it). */
static void grow(void *arg)
{
    Grow *g = arg;
    StoStore *st = g->st;
    int r = 0;
    if (atomic_load(&st->failed))
        return;
    if (g->cls < 0) {
        if (sto_full(atomic_load(&st->nused), st->nmask))
            r = rehash_nodes(st, (st->nmask + 1) * 2);
    } else if (!st->root[g->cls].slot) {
        r = rehash_roots(st, g->cls, MIN_SLOTS);
    } else if (sto_full(atomic_load(&st->root[g->cls].used),
                    st->root[g->cls].mask)) {
        r = rehash_roots(st, g->cls, (st->root[g->cls].mask + 1) * 2);
    }
    if (r)
        atomic_store(&st->failed, 1);
}

static int ensure_room(StoStore *st, int cls)
{
    int f = cls < 0 ? sto_full(atomic_load(&st->nused), st->nmask)
                    : !st->root[cls].slot ||
                          sto_full(atomic_load(&st->root[cls].used),
                               st->root[cls].mask);
    if (f) {
        Grow g = {st, cls};
        sto_gate_exclusive(st->gate, grow, &g);
    }
    return atomic_load(&st->failed) ? -1 : 0;
}

/* ---- nodes --------------------------------------------------------------- */

/* Interns a 64-bit node key; with find only, STO_NONE when absent. */
static uint32_t node_put(StoStore *st, uint64_t key, int find)
{
    uint64_t h = base_mix(key), tag = h & 0xFFFFFFFF00000000ull;
    _Atomic uint64_t *slot;
    uint64_t mask, i;
    if (!find && ensure_room(st, -1))
        return STO_NONE;
    slot = st->nslot;
    mask = st->nmask;
    for (i = h & mask;; i = (i + 1) & mask) {
        uint64_t s = atomic_load_explicit(&slot[i], memory_order_acquire);
        if (!s) {
            uint32_t id;
            if (find)
                return STO_NONE;
            if (!atomic_compare_exchange_strong(&slot[i], &s, tag | BUSY)) {
                i = (i - 1) & mask;     /* look at what took the slot */
                continue;
            }
            id = atomic_fetch_add(&st->nnode, 1);
            if (id >= MAX_NODES || sto_seg_ensure(&st->node, id)) {
                atomic_store(&st->failed, 1);
                return STO_NONE;
            }
            assert(id >= 1);            /* nodes_reset keeps 0 out */
            *(uint64_t *)sto_seg_at(&st->node, id) = key;
            atomic_store_explicit(&slot[i], tag | id, memory_order_release);
            atomic_fetch_add(&st->nused, 1);
            return id;
        }
        if ((s & 0xFFFFFFFF00000000ull) != tag)
            continue;
        while ((uint32_t)s == BUSY) {
            if (atomic_load(&st->failed))
                return STO_NONE;
            sched_yield();
            s = atomic_load_explicit(&slot[i], memory_order_acquire);
        }
        if (node_key(st, (uint32_t)s) == key)
            return (uint32_t)s;
    }
}

/* node_put through the thread's cache of recent keys: node ids never
   change, so a hit needs no look at the shared table. */
static inline uint32_t cache_index(uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - CACHE_BITS));
}

static inline uint32_t cached_put(StoStore *st, StoCursor *c, uint64_t key,
                                  int find)
{
    uint32_t i = cache_index(key);
    StoCached *e = &c->cache[i];
    uint32_t id;
    if (e->id && e->key == key)
        return e->id - 1;
    id = node_put(st, key, find);
    if (id != STO_NONE) {
        e->key = key;
        e->id = id + 1;
    }
    return id;
}

static inline uint32_t atomize(StoStore *st, StoCursor *c, uint64_t w,
                               int find)
{
    uint32_t id;
    if (w < BIG)
        return (uint32_t)w;
    id = cached_put(st, c, w, find);
    return id == STO_NONE ? STO_NONE : BIG | id;
}

static inline uint64_t atom_word(const StoStore *st, uint32_t a)
{
    return a & BIG ? node_key(st, a & ~BIG) : a;
}

/* A subtree above the atoms is named by its node id, or, when both its
   children's names are below IMM_LIM (small atoms, early nodes), by the
   pair itself: IMM | left << 15 | right, with no node and no lookup. The
   choice depends on the children alone, so every subtree still has one
   name. Ids stay below IMM (MAX_NODES). */
static inline int inline_pair(uint64_t key)
{
    return (uint32_t)key < IMM_LIM && (uint32_t)(key >> 32) < IMM_LIM;
}

static inline uint32_t inline_name(uint64_t key)
{
    return IMM | (uint32_t)key << 15 | (uint32_t)(key >> 32);
}

static inline uint32_t pair_name(StoStore *st, StoCursor *c, uint64_t key,
                                 int find)
{
    return inline_pair(key) ? inline_name(key) : cached_put(st, c, key, find);
}

static inline uint64_t name_key(const StoStore *st, uint32_t name)
{
    if (name & IMM)
        return (name >> 15 & (IMM_LIM - 1)) |
               (uint64_t)(name & (IMM_LIM - 1)) << 32;
    return node_key(st, name);
}

/* ---- encoding ------------------------------------------------------------ */

#define BLOCK 8                         /* words compared at once */

/* The atom (h == 0) or node id of the subtree of height h at index j in the
   tree of prev, the state c decoded last (plen its len, -1: no prev, pcls
   its class); STO_NONE on failure. A subtree past plen is zero. A half of
   prev's root (h = pcls - 1) is not a node: it becomes one when a longer
   successor needs it. One that prev's tree does not hold (j == 0 at or
   above pcls) is never asked for: a change of class encodes the path of
   atom 0 anew. */
static inline uint32_t old_atom(StoStore *st, StoCursor *c, int64_t plen,
                                int pcls, int h, uint32_t j, int find)
{
    if ((int64_t)((uint64_t)j << h) > plen)
        return h ? st->zh[h] : 0;
    assert(h < pcls);
    if (!h)
        return c->atom[j];
    if (h == pcls - 1)
        return pair_name(st, c, c->half[j], find);
    return c->pid[(1u << (pcls - h)) + j];
}

/* Sets the atom at tree position pos in the sorted change list (idx, val,
   *m entries); one already there is kept unless `over`. */
static inline void change_at(uint32_t *idx, uint32_t *val, uint32_t *m,
                             uint32_t pos, uint32_t v, int over)
{
    uint32_t k = *m;
    while (k > 0 && idx[k - 1] > pos)
        k--;
    if (k > 0 && idx[k - 1] == pos) {
        if (over)
            val[k - 1] = v;
        return;
    }
    for (uint32_t j = *m; j > k; j--) {
        idx[j] = idx[j - 1];
        val[j] = val[j - 1];
    }
    idx[k] = pos;
    val[k] = v;
    (*m)++;
}

/* The root of s, encoded from the tree of prev, the state last decoded
   into c (NULL: from nothing); -1 on failure. Bottom up: the atoms that
   differ from prev's, then level by level the nodes above them, each from
   its two children (new where they changed, prev's where not), up to the
   two halves of the root. A successor differs from its parent in a few
   words, so this costs a few paths, not the vector. */
static int encode(StoStore *st, StoCursor *c, const BaseVec *prev,
                  const BaseVec *s, int find, StoRoot *root)
{
    int64_t plen = prev ? (int64_t)prev->len : -1;
    int pcls = prev ? c->cls : 0, top = class_of(s->len), done[2] = {0, 0};
    /* words past the tree of s (prev was longer) are zero in s */
    uint32_t n = s->len > plen ? s->len : (uint32_t)plen;
    uint32_t *idx = c->idx[0], *val = c->val[0], m = 0;
    const uint64_t *pw = prev ? prev->w : NULL;
    assert(s->len >= 1 && s->len + 1 <= st->natoms);
    if (n > 1u << top)
        n = 1u << top;
    /* the words that differ (both vectors are zero past their len), a
       block at a time (a fixed-size memcmp compiles to vector compares) */
    for (uint32_t i = 0; i < n; i += BLOCK) {
        uint32_t e = n - i < BLOCK ? n : i + BLOCK;
        if (pw && e == i + BLOCK &&
            !memcmp(s->w + i, pw + i, BLOCK * sizeof *pw))
            continue;
        for (uint32_t j = i; j < e; j++) {
            uint64_t w = s->w[j];
            uint32_t x;
            if (pw ? w == pw[j] : !w)
                continue;
            x = atomize(st, c, w, find);
            if (x == STO_NONE)
                return -1;
            idx[m] = j;
            val[m++] = x;
        }
    }
    /* the mark moved: where it was, a word of s is (zero, as the diff saw
       nothing there) */
    if ((int64_t)s->len != plen) {
        if (plen >= 0 && plen < (int64_t)1 << top)
            change_at(idx, val, &m, (uint32_t)plen, 0, 0);
        change_at(idx, val, &m, s->len, MARK, 1);
    }
    /* a new shape (no prev, another class): atom 0's path anew */
    if ((!prev || top != pcls) && (m == 0 || idx[0] != 0)) {
        uint32_t x = atomize(st, c, s->w[0], find);
        if (x == STO_NONE)
            return -1;
        change_at(idx, val, &m, 0, x, 0);
    }
    root->cls = top;
    if (top == 1) {                     /* word 0 and the mark */
        root->key[0] = m > 0 && idx[0] == 0 ? val[0] : c->atom[0];
        root->key[1] = MARK;
        return 0;
    }
    /* level h from level h - 1, up to the halves (level top - 1), which
       are keys of the root, not nodes */
    for (int h = 1; h < top; h++) {
        uint32_t *nidx = c->idx[h & 1], *nval = c->val[h & 1], nm = 0;
        for (uint32_t k = 0; k < m; k++) {
            uint32_t j = idx[k] >> 1, l, r;
            if (idx[k] & 1) {
                l = old_atom(st, c, plen, pcls, h - 1, 2 * j, find);
                r = val[k];
            } else {
                l = val[k];
                if (k + 1 < m && idx[k + 1] == idx[k] + 1)
                    r = val[++k];
                else
                    r = old_atom(st, c, plen, pcls, h - 1, 2 * j + 1, find);
            }
            if (l == STO_NONE || r == STO_NONE)
                return -1;
            if (h == top - 1) {
                root->key[j] = (uint64_t)l | (uint64_t)r << 32;
                done[j] = 1;
                continue;
            }
            nidx[nm] = j;
            c->key[nm] = (uint64_t)l | (uint64_t)r << 32;
            if (!inline_pair(c->key[nm]))
                __builtin_prefetch(&c->cache[cache_index(c->key[nm])]);
            nm++;
        }
        /* the level's nodes, their cache entries on the way meanwhile */
        for (uint32_t k = 0; k < nm; k++)
            if ((nval[k] = pair_name(st, c, c->key[k], find)) == STO_NONE)
                return -1;
        idx = nidx;
        val = nval;
        m = nm;
    }
    /* the halves that did not change: prev's (a node of a longer prev), or
       zero past its len */
    for (uint32_t j = 0; j < 2; j++) {
        if (done[j])
            continue;
        if ((int64_t)((uint64_t)j << (top - 1)) > plen)
            root->key[j] = (uint64_t)st->zh[top - 2] |
                           (uint64_t)st->zh[top - 2] << 32;
        else if (pcls == top)
            root->key[j] = c->half[j];
        else
            root->key[j] = name_key(st, c->pid[(1u << (pcls - top + 1)) + j]);
    }
    return 0;
}

/* ---- roots --------------------------------------------------------------- */

/* 1 inserted (new id), 0 there (its id), -1 failure; finding, 1 absent.
   A slot is claimed by the second half (slot_key); the first is written
   before the id is published, and a reader compares it after seeing the
   id. */
static int root_put(StoStore *st, const StoRoot *r, int find, uint32_t *id)
{
    StoRoots *rt = &st->root[r->cls];
    uint64_t i;
    uint32_t x;
    assert(r->key[1]);
    if (!find && ensure_room(st, r->cls))
        return -1;
    if (!rt->slot)
        return 1;                       /* finding in an empty class */
    for (i = root_hash(r->key) & rt->mask;; i = (i + 1) & rt->mask) {
        uint64_t s = atomic_load_explicit(&rt->slot[2 * i],
                                          memory_order_acquire);
        if (!s) {
            if (find)
                return 1;
            if (atomic_compare_exchange_strong(&rt->slot[2 * i], &s,
                                               r->key[1])) {
                atomic_store_explicit(&rt->slot[2 * i + 1], r->key[0],
                                      memory_order_relaxed);
                break;
            }
        }
        if (s != r->key[1])
            continue;
        while (!(x = atomic_load_explicit(&rt->id[i], memory_order_acquire))) {
            if (atomic_load(&st->failed))
                return -1;
            sched_yield();
        }
        if (atomic_load_explicit(&rt->slot[2 * i + 1], memory_order_relaxed) !=
            r->key[0])
            continue;
        *id = x - 1;
        return find && *id >= st->limit;
    }
    x = atomic_fetch_add(&st->nroot, 1);
    if (x >= MAX_STATES || sto_seg_ensure(&st->order, x)) {
        atomic_store(&st->failed, 1);
        return -1;
    }
    assert(i <= rt->mask && rt->mask < 1u << SLOT_BITS);
    *(uint32_t *)sto_seg_at(&st->order, x) =
        (uint32_t)r->cls << SLOT_BITS | (uint32_t)i;
    atomic_store_explicit(&rt->id[i], x + 1, memory_order_release);
    atomic_fetch_add(&rt->used, 1);
    *id = x;
    return 1;
}

/* ---- decoding ------------------------------------------------------------ */

/* Decodes heap node k (height h, first atom lo) with key `key` into w.
   Where w still holds the state decoded before (same class), a subtree of
   its words whose id is unchanged is skipped: decoding BFS neighbours in
   turn costs their difference, not their length. `had` is that state's
   len, or -1 (its mark, at had, may be a word of this one). */
static void decode(const StoStore *st, StoCursor *c, uint32_t k, int h,
                   uint32_t lo, uint64_t key, uint64_t *w, int64_t had)
{
    uint32_t x[2] = {(uint32_t)key, (uint32_t)(key >> 32)};
    for (int i = 0; i < 2; i++) {
        uint32_t ck = 2 * k + (uint32_t)i;
        uint32_t clo = lo + (uint32_t)i * (1u << (h - 1));
        if (h == 1) {
            if (clo < had && c->atom[clo] == x[i])
                continue;
            c->atom[clo] = x[i];
            if (clo < c->len)
                w[clo] = atom_word(st, x[i]);
        } else if (clo <= c->len) {
            /* a subtree past the mark is zero: encoding knows without pid;
               one inside the last len has its nodes on record */
            if (clo + (1u << (h - 1)) <= had && c->pid[ck] == x[i])
                continue;
            c->pid[ck] = x[i];
            decode(st, c, ck, h - 1, clo, name_key(st, x[i]), w, had);
        }
    }
}

/* The len of the state with root key: the position of its mark, the last
   atom that is not zero, found from the right half down (the mark is at
   2^(cls - 1) or beyond). */
static uint32_t len_of(const StoStore *st, int cls, const uint64_t *key)
{
    uint32_t lo = 1u << (cls - 1);
    uint64_t k = key[1];
    assert(cls >= 1 && cls < STO_CLASSES);
    if (cls == 1)
        return 1;
    for (int g = cls - 1; g > 1; g--) {
        uint32_t r = (uint32_t)(k >> 32);
        if (r != st->zh[g - 1]) {
            lo += 1u << (g - 1);
            k = name_key(st, r);
        } else {
            k = name_key(st, (uint32_t)k);
        }
    }
    return k >> 32 ? lo + 1 : lo;
}

/* Decodes a root (c->len set): its two halves are the keys of the nodes
   under it (of a class-1 root, word 0's atom and the mark). */
static void decode_root(const StoStore *st, StoCursor *c, int cls,
                        const uint64_t *key, uint64_t *w, int64_t had)
{
    if (cls == 1) {
        c->atom[0] = (uint32_t)key[0];
        c->atom[1] = MARK;
        w[0] = atom_word(st, (uint32_t)key[0]);
        return;
    }
    for (int i = 0; i < 2; i++) {
        uint32_t lo = (uint32_t)i << (cls - 1);
        int same = lo + (1u << (cls - 1)) <= had && c->half[i] == key[i];
        c->half[i] = key[i];
        if (!same && lo <= c->len)
            decode(st, c, 2 + (uint32_t)i, cls - 1, lo, key[i], w, had);
    }
}

/* ---- public ---------------------------------------------------------------- */

static int tree_init(StoStore *st)
{
    st->nclass = class_of(st->natoms - 1) + 1;
    assert(st->nclass <= STO_CLASSES);
    sto_seg_init(&st->node, st->mem, sizeof(uint64_t));
    return 0;
}

static void tree_free(StoStore *st)
{
    sto_seg_free(&st->node);
    base_budget_free(st->mem, (void *)st->nslot);
    for (int k = 0; k < STO_CLASSES; k++) {
        base_budget_free(st->mem, (void *)st->root[k].slot);
        base_budget_free(st->mem, (void *)st->root[k].id);
    }
}

/* Empties a root class, keeping its index unless it grew large (a reset
   store is usually refilled with little). */
static void roots_reset(StoStore *st, StoRoots *rt)
{
    if (!atomic_load(&rt->used))
        return;
    atomic_store(&rt->used, 0);
    if (rt->mask + 1 <= 64 * MIN_SLOTS) {
        memset((void *)rt->slot, 0, 2 * (rt->mask + 1) * sizeof *rt->slot);
        memset((void *)rt->id, 0, (rt->mask + 1) * sizeof *rt->id);
        return;
    }
    base_budget_free(st->mem, (void *)rt->slot);
    base_budget_free(st->mem, (void *)rt->id);
    rt->slot = NULL;
    rt->id = NULL;
    rt->mask = 0;
}

/* Empties the node table: a new epoch, whose ids no cursor may keep. */
static int nodes_reset(StoStore *st)
{
    st->epoch++;
    atomic_store(&st->nnode, 1);        /* id 0 is never a node */
    atomic_store(&st->nused, 0);
    if (st->nslot && st->nmask + 1 <= 64 * MIN_SLOTS) {
        memset((void *)st->nslot, 0, (st->nmask + 1) * sizeof *st->nslot);
    } else {
        base_budget_free(st->mem, (void *)st->nslot);
        st->nslot = base_budget_alloc(st->mem, MIN_SLOTS * sizeof *st->nslot);
        st->nmask = MIN_SLOTS - 1;
        if (!st->nslot)
            return -1;
    }
    st->zh[0] = 0;
    for (int h = 1; h < STO_CLASSES; h++) {
        uint64_t key = (uint64_t)st->zh[h - 1] | (uint64_t)st->zh[h - 1] << 32;
        st->zh[h] = inline_pair(key) ? inline_name(key) : node_put(st, key, 0);
        if (st->zh[h] == STO_NONE)
            return -1;
    }
    return 0;
}

static int tree_reset(StoStore *st)
{
    for (int k = 0; k < st->nclass; k++)
        roots_reset(st, &st->root[k]);
    /* nodes stay (explorations of one program share subtrees) unless many */
    if (!st->nslot || atomic_load(&st->nnode) > NODES_KEPT)
        return nodes_reset(st);
    return 0;
}

static int tree_cursor_init(StoCursor *c, const StoStore *st)
{
    size_t leaves = (size_t)1 << (st->nclass - 1);
    c->pid = base_calloc(2 * leaves, sizeof *c->pid);
    c->atom = base_calloc(2 * leaves, sizeof *c->atom);
    c->key = base_calloc(leaves, sizeof *c->key);
    if (!c->key)
        return -1;
    for (int k = 0; k < 2; k++) {
        c->idx[k] = base_calloc(2 * leaves, sizeof *c->idx[k]);
        c->val[k] = base_calloc(2 * leaves, sizeof *c->val[k]);
        if (!c->idx[k] || !c->val[k])
            return -1;
    }
    c->cache = base_calloc((size_t)1 << CACHE_BITS, sizeof *c->cache);
    return c->pid && c->atom && c->cache
               ? 0 : -1;
}

static void tree_cursor_free(StoCursor *c)
{
    base_free(c->pid);
    base_free(c->atom);
    base_free(c->key);
    for (int k = 0; k < 2; k++) {
        base_free(c->idx[k]);
        base_free(c->val[k]);
    }
    base_free(c->cache);
}

/* A cursor's cache belongs to one filling of one store. */
static void cursor_sync(const StoStore *st, StoCursor *c)
{
    if (c->epoch != st->epoch || c->store != st) {
        memset(c->cache, 0, ((size_t)1 << CACHE_BITS) * sizeof *c->cache);
        c->epoch = st->epoch;
        c->store = st;
        c->buf = NULL;
    }
}

static int tree_encode(StoStore *st, StoCursor *c, const BaseVec *prev,
                       const BaseVec *s, StoRoot *r)
{
    const StoRoots *rt;
    cursor_sync(st, c);
    if (encode(st, c, prev, s, 0, r))
        return -1;
    rt = &st->root[r->cls];
    if (rt->slot) {
        uint64_t i = root_hash(r->key) & rt->mask;
        __builtin_prefetch((const void *)&rt->slot[2 * i]);
        __builtin_prefetch((const void *)&rt->id[i]);
    }
    return 0;
}

static int tree_add(StoStore *st, const StoRoot *r, uint32_t *id)
{
    return root_put(st, r, 0, id);
}

static int tree_find(StoStore *st, StoCursor *c, const BaseVec *prev,
                     const BaseVec *s, uint32_t *id)
{
    StoRoot r;
    cursor_sync(st, c);
    if (encode(st, c, prev, s, 1, &r))
        return 1;
    return root_put(st, &r, 1, id);
}

static void tree_get(const StoStore *st, StoCursor *c, uint32_t id,
                     BaseVec *out)
{
    uint32_t o = *(const uint32_t *)sto_seg_at(&st->order, id);
    int cls = (int)(o >> SLOT_BITS);
    const StoRoots *rt = &st->root[cls];
    uint32_t i = o & ((1u << SLOT_BITS) - 1);
    uint64_t key[2] = {slot_key(rt, i, 0), slot_key(rt, i, 1)};
    uint32_t old = out->len;
    int64_t had = -1;
    assert(cls >= 1 && cls < st->nclass && i <= rt->mask);
    cursor_sync(st, c);
    if (c->buf == out->w && c->cls == cls && c->len == old)
        had = c->len;
    c->cls = cls;
    c->len = len_of(st, cls, key);
    assert(class_of(c->len) == cls && c->len + 1 <= st->natoms);
    decode_root(st, c, cls, key, out->w, had);
    out->len = c->len;
    if (old > out->len)
        memset(out->w + out->len, 0, (old - out->len) * sizeof *out->w);
    c->buf = out->w;
}

static void tree_prefetch(const StoStore *st, uint32_t id, int far)
{
    uint32_t o, i;
    const StoRoots *rt;
    o = *(const uint32_t *)sto_seg_at(&st->order, id);
    rt = &st->root[o >> SLOT_BITS];
    i = o & ((1u << SLOT_BITS) - 1);
    if (far) {
        __builtin_prefetch((const void *)&rt->slot[2 * i]);
        return;
    }
    for (int k = 0; k < 2; k++) {
        uint64_t half = slot_key(rt, i, k);
        if (o >> SLOT_BITS > 2)
            for (int j = 0; j < 2; j++)
                if (!((uint32_t)(half >> 32 * j) & IMM))
                    __builtin_prefetch(sto_seg_at(&st->node,
                                                  (uint32_t)(half >> 32 * j)));
    }
}

static void tree_renumber(StoStore *st, uint32_t lo, uint32_t n,
                          const uint32_t *perm, uint32_t *tmp)
{
    for (uint32_t r = 0; r < n; r++)
        tmp[r] = *(uint32_t *)sto_seg_at(&st->order, lo + perm[r]);
    for (uint32_t r = 0; r < n; r++) {
        uint32_t o = tmp[r];
        *(uint32_t *)sto_seg_at(&st->order, lo + r) = o;
        atomic_store_explicit(
            &st->root[o >> SLOT_BITS].id[o & ((1u << SLOT_BITS) - 1)],
            lo + r + 1, memory_order_relaxed);
    }
}

static size_t tree_bytes(const StoStore *st)
{
    size_t b = sto_seg_bytes(&st->node) +
               (st->nmask + 1) * sizeof *st->nslot;
    for (int k = 0; k < st->nclass; k++)
        if (st->root[k].slot)
            b += (st->root[k].mask + 1) *
                 (2 * sizeof *st->root[k].slot + sizeof *st->root[k].id);
    return b;
}

static uint32_t tree_nodes(const StoStore *st)
{
    return atomic_load(&((StoStore *)st)->nnode) - 1;
}

const StoStoreOps sto_tree_ops = {
    .init = tree_init,
    .free = tree_free,
    .reset = tree_reset,
    .cursor_init = tree_cursor_init,
    .cursor_free = tree_cursor_free,
    .encode = tree_encode,
    .add = tree_add,
    .find = tree_find,
    .get = tree_get,
    .prefetch = tree_prefetch,
    .renumber = tree_renumber,
    .bytes = tree_bytes,
    .nodes = tree_nodes,
};
