/*
 * sto_flat.c — the flat store (`--state flat`): each state is one record
 * of bytes in an arena, found through an open-addressing table, as SPIN
 * keeps its state vectors (without COLLAPSE).
 *
 * RECORD. A state's words as a sequence of numbers: for each word, with
 * lo and hi its two 32-bit halves, lo << 1 | (hi != 0), then hi when it is
 * not 0. The numbers become bytes:
 *
 *   byte                 numbers
 *   00xxxxxx             x (below 64)
 *   01aaabbb             a, b (both below 8)
 *   1xxxxxxx, varint V   V << 7 | x (64 or more; V: 7 bits a byte, low
 *                        first, bit 7 set when more follow)
 *
 * A number below 8 followed by one below 8 always takes the pair byte,
 * so the bytes are a function of the vector and decode back to it: two
 * vectors have the same record exactly when they are equal (len included:
 * a zero word is a number). The words of a state are mostly small (pcs,
 * registers, flags, the persisted image: two of them below 4 share a
 * byte) or a small address with a small owner in the high half (pending
 * stores: two bytes, or one and a half). The record is the varint of the
 * body's length, then the body. Records lie in the arena at 4-byte
 * boundaries, never across two of its segments; `order` holds each id's
 * offset in 4-byte units.
 *
 * TABLE. A slot is the top half of the record's hash and the id + 1 (0:
 * empty; id + 1 == BUSY: claimed, the record not yet written). A probe
 * starts at the slot the tag's low bits name, so doubling the table needs
 * no record: the tag holds the bits of every larger index. A probe reads
 * a record only when the tag matches. Several threads insert at once as in
 * the tree's root table: a slot is claimed by compare-and-swap, the record
 * and its order entry are written, and the id is published (release); the
 * table is doubled under the gate's exclusion.
 *
 * Encoding packs the whole vector, a few instructions a word; a lookup
 * costs one probe and, for a state seen before, one record compare: two
 * cache misses, against the tree's lookups of every node above a change.
 * bench/README.md measures both stores against each other and SPIN.
 */
#include <sched.h>
#include <string.h>

#include "store/store_int.h"

#define BUSY 0xFFFFFFFFu
#define MAX_STATES 0x7FFFFFF0u
#define MIN_SLOTS 256u
#define MAX_SLOTS ((uint64_t)1 << 32)   /* the tag names the slot */
#define ARENA_KEPT (1u << 20)           /* units a reset keeps */
#define VARINT_MAX 5                    /* bytes of a 32-bit varint */

/* An id + 1 below BUSY, in the low half of a slot; a slot index in 32
   bits (the tag). */
_Static_assert(MAX_STATES + 1 < BUSY, "ids below BUSY");
_Static_assert(MAX_SLOTS <= (uint64_t)1 << 32, "the tag names every slot");

/* ---- records ------------------------------------------------------------- */

static inline uint8_t *put_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline const uint8_t *get_varint(const uint8_t *p, uint64_t *v)
{
    uint64_t x = 0;
    int sh = 0;
    while (*p & 0x80) {
        x |= (uint64_t)(*p++ & 0x7F) << sh;
        sh += 7;
    }
    *v = x | (uint64_t)*p++ << sh;
    return p;
}

/* The numbers of a record, written: a number below 8 waits for the next
   one, to share its byte if that one is below 8 too. */
typedef struct {
    uint8_t *p;
    int held;                           /* a number below 8, or -1 */
} Packer;

static inline void put_number(Packer *o, uint64_t x)
{
    if (o->held >= 0) {
        if (x < 8) {
            *o->p++ = (uint8_t)(0x40 | o->held << 3 | (int)x);
            o->held = -1;
            return;
        }
        *o->p++ = (uint8_t)o->held;
        o->held = -1;
    }
    if (x < 8) {
        o->held = (int)x;
    } else if (x < 0x40) {
        *o->p++ = (uint8_t)x;
    } else {
        *o->p++ = (uint8_t)(0x80 | (x & 0x7F));
        o->p = put_varint(o->p, x >> 7);
    }
}

static inline void put_word(Packer *o, uint64_t w)
{
    uint64_t hi = w >> 32;
    put_number(o, (w & 0xFFFFFFFFull) << 1 | (hi != 0));
    if (hi)
        put_number(o, hi);
}

/* Packs s into buf (VARINT_MAX + 10 bytes a word): *rec is where the
   record starts in buf; returns its length. Two words below 4 with no
   number held (runs of them are common: zero words, the persisted image)
   are one pair byte, written at once. */
static uint32_t pack(const BaseVec *s, uint8_t *buf, const uint8_t **rec)
{
    Packer o = {buf + VARINT_MAX, -1};
    uint32_t n, k = 1, i = 0;
    const uint32_t len = s->len;        /* not reloaded after byte stores */
    const uint64_t *w = s->w;
    while (i < len) {
        if (o.held < 0 && i + 1 < len && (w[i] | w[i + 1]) < 4) {
            *o.p++ = (uint8_t)(0x40 | w[i] << 4 | w[i + 1] << 1);
            i += 2;
            continue;
        }
        put_word(&o, w[i++]);
    }
    if (o.held >= 0)
        *o.p++ = (uint8_t)o.held;
    /* at most 10 bytes a word: a 33-bit number and a 32-bit one */
    assert(o.p - buf <= VARINT_MAX + 10 * (ptrdiff_t)len);
    n = (uint32_t)(o.p - buf - VARINT_MAX);
    while (n >> (7 * k))
        k++;
    assert(k <= VARINT_MAX);
    put_varint(buf + VARINT_MAX - k, n);
    *rec = buf + VARINT_MAX - k;
    return k + n;
}

/* The numbers of a record, read. */
typedef struct {
    const uint8_t *p, *end;
    int held;                           /* the second of a pair, or -1 */
} Unpacker;

static inline uint64_t get_number(Unpacker *u)
{
    uint64_t x;
    unsigned b;
    if (u->held >= 0) {
        x = (uint64_t)u->held;
        u->held = -1;
        return x;
    }
    b = *u->p++;
    if (b < 0x40)
        return b;
    if (b < 0x80) {
        u->held = (int)(b & 7);
        return b >> 3 & 7;
    }
    u->p = get_varint(u->p, &x);
    return x << 7 | (b & 0x7F);
}

/* The hash of a record of n bytes; over, when the 7 bytes after it may be
   read (a record in the cursor's ring, never one in the arena). */
static inline uint64_t rec_hash(const uint8_t *r, uint32_t n, int over)
{
    uint64_t h = n, x;
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&x, r + i, 8);
        h = (h ^ x) * 0x9E3779B97F4A7C15ull;
    }
    if (i < n) {
        if (over) {
            memcpy(&x, r + i, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            x = __builtin_bswap64(x);
#endif
            x &= ~0ull >> (64 - 8 * (n - i));
        } else {
            x = 0;
            for (uint32_t j = n; j-- > i;)
                x = x << 8 | r[j];
        }
        h = (h ^ x) * 0x9E3779B97F4A7C15ull;
    }
    return base_mix(h);
}

static inline const uint8_t *rec_at(const StoStore *st, uint32_t id)
{
    assert(id < atomic_load_explicit(&((StoStore *)st)->nroot,
                                     memory_order_relaxed));
    uint32_t o = *(const uint32_t *)sto_seg_at(&st->order, id);
    return sto_seg_at(&st->arena, o);
}

/* The length of the stored record at r. */
static inline uint32_t rec_len(const uint8_t *r)
{
    uint64_t n;
    const uint8_t *b = get_varint(r, &n);
    return (uint32_t)(b - r + n);
}

/* Whether the stored record r is rec: the lengths first (a stored record
   may end where its segment does). */
static inline int rec_equal(const uint8_t *r, const uint8_t *rec,
                            uint32_t nrec)
{
    return rec_len(r) == nrec && !memcmp(r, rec, nrec);
}

/* ---- the table ----------------------------------------------------------- */

static inline uint32_t tag_of(uint64_t h)
{
    return (uint32_t)(h >> 32);
}

static int rehash(StoStore *st, uint64_t nslots)
{
    _Atomic uint64_t *ns;
    uint64_t mask = nslots - 1;
    assert(nslots >= MIN_SLOTS && (nslots & mask) == 0);
    if (nslots > MAX_SLOTS)
        return base_budget_fail(st->mem, BASE_BUDGET_OOM), -1;
    ns = base_budget_alloc(st->mem, nslots * sizeof *ns);
    if (!ns)
        return -1;
    for (uint64_t i = 0; st->fslot && i <= st->fmask; i++) {
        uint64_t s = atomic_load_explicit(&st->fslot[i],
                                          memory_order_relaxed);
        uint64_t j;
        if (!s)
            continue;
        assert((uint32_t)s != BUSY);
        for (j = (s >> 32) & mask;
             atomic_load_explicit(&ns[j], memory_order_relaxed);
             j = (j + 1) & mask)
            ;
        atomic_store_explicit(&ns[j], s, memory_order_relaxed);
    }
    base_budget_free(st->mem, (void *)st->fslot);
    st->fslot = ns;
    st->fmask = mask;
    return 0;
}

/* Under the gate's exclusion: doubles the table if it is still full. */
static void grow(void *arg)
{
    StoStore *st = arg;
    if (!atomic_load(&st->failed) &&
        sto_full(atomic_load(&st->fused), st->fmask) &&
        rehash(st, (st->fmask + 1) * 2))
        atomic_store(&st->failed, 1);
}

static int ensure_room(StoStore *st)
{
    if (sto_full(atomic_load(&st->fused), st->fmask))
        sto_gate_exclusive(st->gate, grow, st);
    return atomic_load(&st->failed) ? -1 : 0;
}

/* Room for u units in one segment of the arena: their first unit, or
   UINT32_MAX. A range that would straddle two segments is skipped. */
static uint32_t reserve(StoStore *st, uint32_t u)
{
    for (;;) {
        uint64_t top = atomic_fetch_add(&st->ftop, u);
        if (top + u > UINT32_MAX || sto_seg_ensure(&st->arena, top + u - 1))
            return UINT32_MAX;
        if (sto_seg_index(top) == sto_seg_index(top + u - 1))
            return (uint32_t)top;
    }
}

/* Stores a new record under a claimed slot: its id, or STO_NONE. */
static uint32_t insert(StoStore *st, const uint8_t *rec, uint32_t nrec)
{
    uint32_t id = atomic_fetch_add(&st->nroot, 1), top;
    if (id >= MAX_STATES || sto_seg_ensure(&st->order, id))
        return STO_NONE;
    top = reserve(st, (nrec + 3) / 4);
    if (top == UINT32_MAX)
        return STO_NONE;
    /* the record lies in one segment of the arena */
    assert(sto_seg_index(top) == sto_seg_index(top + (nrec + 3) / 4 - 1));
    memcpy(sto_seg_at(&st->arena, top), rec, nrec);
    *(uint32_t *)sto_seg_at(&st->order, id) = top;
    return id;
}

/* 1 inserted (new id), 0 there (its id), -1 failure; finding, 1 absent. */
static int put(StoStore *st, const StoRoot *r, int find, uint32_t *id)
{
    uint64_t tag = tag_of(r->key[0]), i;
    _Atomic uint64_t *slot;
    uint64_t mask;
    if (!find && ensure_room(st))
        return -1;
    slot = st->fslot;
    mask = st->fmask;
    for (i = tag & mask;; i = (i + 1) & mask) {
        uint64_t s = atomic_load_explicit(&slot[i], memory_order_acquire);
        if (!s) {
            uint32_t x;
            if (find)
                return 1;
            if (!atomic_compare_exchange_strong(&slot[i], &s,
                                                tag << 32 | BUSY)) {
                i = (i - 1) & mask;     /* look at what took the slot */
                continue;
            }
            x = insert(st, r->rec, r->nrec);
            if (x == STO_NONE) {
                atomic_store(&st->failed, 1);
                return -1;
            }
            assert(x < MAX_STATES);
            atomic_store_explicit(&slot[i], tag << 32 | (x + 1),
                                  memory_order_release);
            atomic_fetch_add(&st->fused, 1);
            *id = x;
            return 1;
        }
        if (s >> 32 != tag)
            continue;
        while ((uint32_t)s == BUSY) {
            if (atomic_load(&st->failed))
                return -1;
            sched_yield();
            s = atomic_load_explicit(&slot[i], memory_order_acquire);
        }
        if (rec_equal(rec_at(st, (uint32_t)s - 1), r->rec, r->nrec)) {
            *id = (uint32_t)s - 1;
            return find && *id >= st->limit;
        }
    }
}

/* The slot that holds id. */
static uint64_t slot_of(const StoStore *st, uint32_t id)
{
    const uint8_t *r = rec_at(st, id);
    uint64_t i = tag_of(rec_hash(r, rec_len(r), 0)) & st->fmask;
    while ((uint32_t)atomic_load_explicit(&st->fslot[i],
                                          memory_order_relaxed) != id + 1)
        i = (i + 1) & st->fmask;
    return i;
}

/* ---- the operations ------------------------------------------------------- */

static int flat_init(StoStore *st)
{
    sto_seg_init(&st->arena, st->mem, sizeof(uint32_t));
    return 0;
}

static void flat_free(StoStore *st)
{
    sto_seg_free(&st->arena);
    base_budget_free(st->mem, (void *)st->fslot);
}

/* Empties the store, keeping its table and arena unless they grew large
   (a reset store is usually refilled with little). */
static int flat_reset(StoStore *st)
{
    atomic_store(&st->fused, 0);
    if (atomic_load(&st->ftop) > ARENA_KEPT) {
        sto_seg_free(&st->arena);
        sto_seg_init(&st->arena, st->mem, sizeof(uint32_t));
    }
    atomic_store(&st->ftop, 0);
    if (st->fslot && st->fmask + 1 <= 64 * MIN_SLOTS) {
        memset((void *)st->fslot, 0, (st->fmask + 1) * sizeof *st->fslot);
        return 0;
    }
    base_budget_free(st->mem, (void *)st->fslot);
    st->fslot = NULL;
    st->fmask = 0;
    return rehash(st, MIN_SLOTS);
}

static int flat_cursor_init(StoCursor *c, const StoStore *st)
{
    c->ringrec = ((size_t)VARINT_MAX + 10 * (size_t)st->natoms + 7) &
                 ~(size_t)7;
    /* a record of natoms - 1 words (pack: 10 bytes a word at most) and the
       7 bytes rec_hash reads past it fit one record of the ring */
    assert(c->ringrec >= VARINT_MAX + 10 * (size_t)(st->natoms - 1) + 7);
    c->ring = base_calloc(STO_RING, c->ringrec);
    return c->ring ? 0 : -1;
}

static void flat_cursor_free(StoCursor *c)
{
    base_free(c->ring);
}

static void encode_into(const StoStore *st, StoCursor *c, const BaseVec *s,
                        StoRoot *r)
{
    uint8_t *buf = c->ring + (size_t)(c->next++ % STO_RING) * c->ringrec;
    assert(s->len + 1 <= st->natoms);
    r->nrec = pack(s, buf, &r->rec);
    r->key[0] = rec_hash(r->rec, r->nrec, 1);
}

static int flat_encode(StoStore *st, StoCursor *c, const BaseVec *prev,
                       const BaseVec *s, StoRoot *r)
{
    (void)prev;
    encode_into(st, c, s, r);
    __builtin_prefetch((const void *)&st->fslot[tag_of(r->key[0]) &
                                                st->fmask]);
    return 0;
}

static int flat_add(StoStore *st, const StoRoot *r, uint32_t *id)
{
    return put(st, r, 0, id);
}

static int flat_find(StoStore *st, StoCursor *c, const BaseVec *prev,
                     const BaseVec *s, uint32_t *id)
{
    StoRoot r;
    (void)prev;
    encode_into(st, c, s, &r);
    return put(st, &r, 1, id);
}

static void flat_get(const StoStore *st, StoCursor *c, uint32_t id,
                     BaseVec *out)
{
    const uint8_t *r = rec_at(st, id);
    uint32_t k = 0, old = out->len;
    uint64_t n;
    Unpacker u;
    r = get_varint(r, &n);
    u.p = r;
    u.end = r + n;
    u.held = -1;
    while (u.p < u.end || u.held >= 0) {
        uint64_t v = get_number(&u), hi = v & 1 ? get_number(&u) : 0;
        assert(k + 1 < st->natoms);
        out->w[k++] = v >> 1 | hi << 32;
    }
    assert(u.p == u.end);               /* the record's length was its own */
    out->len = k;
    if (old > k)
        memset(out->w + k, 0, (old - k) * sizeof *out->w);
    c->buf = NULL;
}

/* The id's order entry (far), or, once that is in, its record. */
static void flat_prefetch(const StoStore *st, uint32_t id, int far)
{
    const uint8_t *r;
    if (far) {
        __builtin_prefetch(sto_seg_at(&st->order, id));
        return;
    }
    r = rec_at(st, id);
    __builtin_prefetch(r);
    __builtin_prefetch(r + 64);
}

/* New id lo + r is old lo + perm[r] (the old ids no r names are being
   dropped: truncation follows). The slots first, found through the records
   while order still names them, then order. */
static void flat_renumber(StoStore *st, uint32_t lo, uint32_t n,
                          const uint32_t *perm, uint32_t *tmp)
{
    for (uint32_t r = 0; r < n; r++)
        tmp[r] = (uint32_t)slot_of(st, lo + perm[r]);
    for (uint32_t r = 0; r < n; r++) {
        uint64_t i = tmp[r];
        uint64_t s = atomic_load_explicit(&st->fslot[i],
                                          memory_order_relaxed);
        atomic_store_explicit(&st->fslot[i],
                              (s & 0xFFFFFFFF00000000ull) | (lo + r + 1),
                              memory_order_relaxed);
    }
    for (uint32_t r = 0; r < n; r++)
        tmp[r] = *(uint32_t *)sto_seg_at(&st->order, lo + perm[r]);
    for (uint32_t r = 0; r < n; r++)
        *(uint32_t *)sto_seg_at(&st->order, lo + r) = tmp[r];
}

static size_t flat_bytes(const StoStore *st)
{
    return sto_seg_bytes(&st->arena) + (st->fmask + 1) * sizeof *st->fslot;
}

static uint32_t flat_nodes(const StoStore *st)
{
    (void)st;
    return 0;
}

const StoStoreOps sto_flat_ops = {
    .init = flat_init,
    .free = flat_free,
    .reset = flat_reset,
    .cursor_init = flat_cursor_init,
    .cursor_free = flat_cursor_free,
    .encode = flat_encode,
    .add = flat_add,
    .find = flat_find,
    .get = flat_get,
    .prefetch = flat_prefetch,
    .renumber = flat_renumber,
    .bytes = flat_bytes,
    .nodes = flat_nodes,
};
