/*
 * sto_store.c — the state store: the part common to its two kinds (ids,
 * `order`, the limit) and the dispatch to the kind chosen (`--state`):
 * sto_flat.c packs each state into a record of bytes in a flat table,
 * sto_tree.c shares nodes between states (store.h describes both).
 */
#include <string.h>

#include "store/store_int.h"

/* Whether id names a state put before (ids are dense from 0). */
static inline int stored(const StoStore *st, uint32_t id)
{
    return id < atomic_load_explicit(&((StoStore *)st)->nroot,
                                     memory_order_relaxed);
}

int sto_store_init(StoStore *st, uint32_t max_words, BaseBudget *mem,
                   StoGate *gate, int kind)
{
    static const StoStoreOps *const ops[2] = {&sto_flat_ops, &sto_tree_ops};
    assert(kind == STO_FLAT || kind == STO_TREE);
    assert(max_words >= 1 && max_words < UINT32_MAX);
    memset(st, 0, sizeof *st);
    st->ops = ops[kind];
    st->mem = mem;
    st->gate = gate;
    if (max_words > STO_MAX_WORDS)
        return -1;
    st->natoms = max_words + 1;
    st->limit = UINT32_MAX;
    sto_seg_init(&st->order, mem, sizeof(uint32_t));
    if (st->ops->init(st))
        return -1;
    return sto_store_reset(st);
}

void sto_store_free(StoStore *st)
{
    if (!st->ops)
        return;
    st->ops->free(st);
    sto_seg_free(&st->order);
    memset(st, 0, sizeof *st);
}

int sto_store_reset(StoStore *st)
{
    atomic_store(&st->failed, 0);
    atomic_store(&st->nroot, 0);
    st->limit = UINT32_MAX;
    return st->ops->reset(st);
}

int sto_cursor_init(StoCursor *c, const StoStore *st)
{
    memset(c, 0, sizeof *c);
    c->ops = st->ops;
    return st->ops->cursor_init(c, st);
}

void sto_cursor_free(StoCursor *c)
{
    if (c->ops)
        c->ops->cursor_free(c);
    memset(c, 0, sizeof *c);
}

void sto_cursor_forget(StoCursor *c)
{
    c->buf = NULL;
}

int sto_store_encode(StoStore *st, StoCursor *c, const BaseVec *prev,
                     const BaseVec *s, StoRoot *r)
{
    return st->ops->encode(st, c, prev, s, r);
}

int sto_store_add(StoStore *st, const StoRoot *r, uint32_t *id)
{
    return st->ops->add(st, r, id);
}

int sto_store_put(StoStore *st, StoCursor *c, const BaseVec *prev,
                  const BaseVec *s, uint32_t *id)
{
    StoRoot r;
    if (st->ops->encode(st, c, prev, s, &r))
        return -1;
    int k = st->ops->add(st, &r, id);
    assert(k < 0 || stored(st, *id));
    return k;
}

int sto_store_find(StoStore *st, StoCursor *c, const BaseVec *prev,
                   const BaseVec *s, uint32_t *id)
{
    return st->ops->find(st, c, prev, s, id);
}

void sto_store_get(const StoStore *st, StoCursor *c, uint32_t id,
                   BaseVec *out)
{
    assert(stored(st, id) && out->cap + 1 >= st->natoms);
    assert(c->ops == st->ops);
    st->ops->get(st, c, id, out);
    assert(out->len <= out->cap);
}

void sto_store_prefetch(const StoStore *st, uint32_t id, int far)
{
    assert(stored(st, id));
    st->ops->prefetch(st, id, far);
}

uint32_t sto_store_count(const StoStore *st)
{
    uint32_t n = atomic_load(&((StoStore *)st)->nroot);
    return n < st->limit ? n : st->limit;
}

void sto_store_truncate(StoStore *st, uint32_t n)
{
    assert(n <= sto_store_count(st));   /* it only drops */
    st->limit = n;
}

void sto_store_renumber(StoStore *st, uint32_t lo, uint32_t n,
                        const uint32_t *perm, uint32_t *tmp)
{
    assert((uint64_t)lo + n <= sto_store_count(st));
    st->ops->renumber(st, lo, n, perm, tmp);
}

/* These two also answer for a store never initialised (zeroed: its
   space's allocation failed first), as a report's statistics ask. */
size_t sto_store_bytes(const StoStore *st)
{
    return st->ops ? sto_seg_bytes(&st->order) + st->ops->bytes(st) : 0;
}

uint32_t sto_store_nodes(const StoStore *st)
{
    return st->ops ? st->ops->nodes(st) : 0;
}
