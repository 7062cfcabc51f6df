/*
 * chk_store.c — the state store: the part common to its two kinds (ids,
 * `order`, the limit) and the dispatch to the kind chosen (`--state`):
 * chk_flat.c packs each state into a record of bytes in a flat table,
 * chk_tree.c shares nodes between states (checker_int.h describes both).
 */
#include <string.h>

#include "checker/checker_int.h"

const char *const chk_state_names[3] = {"flat", "tree", "auto"};

int chk_store_init(ChkStore *st, uint32_t max_words, ChkMem *mem,
                   ChkGate *gate, int kind)
{
    static const ChkStoreOps *const ops[2] = {&chk_flat_ops, &chk_tree_ops};
    assert(kind == CHK_STATE_FLAT || kind == CHK_STATE_TREE);
    memset(st, 0, sizeof *st);
    st->ops = ops[kind];
    st->mem = mem;
    st->gate = gate;
    st->natoms = max_words + 1;
    st->limit = UINT32_MAX;
    chk_seg_init(&st->order, mem, sizeof(uint32_t));
    if (st->ops->init(st))
        return -1;
    return chk_store_reset(st);
}

void chk_store_free(ChkStore *st)
{
    if (!st->ops)
        return;
    st->ops->free(st);
    chk_seg_free(&st->order);
    memset(st, 0, sizeof *st);
}

int chk_store_reset(ChkStore *st)
{
    atomic_store(&st->failed, 0);
    atomic_store(&st->nroot, 0);
    st->limit = UINT32_MAX;
    return st->ops->reset(st);
}

int chk_cursor_init(ChkCursor *c, const ChkStore *st)
{
    memset(c, 0, sizeof *c);
    c->ops = st->ops;
    return st->ops->cursor_init(c, st);
}

void chk_cursor_free(ChkCursor *c)
{
    if (c->ops)
        c->ops->cursor_free(c);
    memset(c, 0, sizeof *c);
}

void chk_cursor_forget(ChkCursor *c)
{
    c->buf = NULL;
}

int chk_store_encode(ChkStore *st, ChkCursor *c, const MdlState *prev,
                     const MdlState *s, ChkRoot *r)
{
    return st->ops->encode(st, c, prev, s, r);
}

int chk_store_add(ChkStore *st, const ChkRoot *r, uint32_t *id)
{
    return st->ops->add(st, r, id);
}

int chk_store_put(ChkStore *st, ChkCursor *c, const MdlState *prev,
                  const MdlState *s, uint32_t *id)
{
    ChkRoot r;
    if (st->ops->encode(st, c, prev, s, &r))
        return -1;
    return st->ops->add(st, &r, id);
}

int chk_store_find(ChkStore *st, ChkCursor *c, const MdlState *prev,
                   const MdlState *s, uint32_t *id)
{
    return st->ops->find(st, c, prev, s, id);
}

void chk_store_get(const ChkStore *st, ChkCursor *c, uint32_t id,
                   MdlState *out)
{
    st->ops->get(st, c, id, out);
}

void chk_store_prefetch(const ChkStore *st, uint32_t id, int far)
{
    st->ops->prefetch(st, id, far);
}

uint32_t chk_store_count(const ChkStore *st)
{
    uint32_t n = atomic_load(&((ChkStore *)st)->nroot);
    return n < st->limit ? n : st->limit;
}

void chk_store_truncate(ChkStore *st, uint32_t n)
{
    st->limit = n;
}

void chk_store_renumber(ChkStore *st, uint32_t lo, uint32_t n,
                        const uint32_t *perm, uint32_t *tmp)
{
    st->ops->renumber(st, lo, n, perm, tmp);
}

/* These two also answer for a store never initialised (zeroed: its
   space's allocation failed first), as a report's statistics ask. */
size_t chk_store_bytes(const ChkStore *st)
{
    return st->ops ? chk_seg_bytes(&st->order) + st->ops->bytes(st) : 0;
}

uint32_t chk_store_nodes(const ChkStore *st)
{
    return st->ops ? st->ops->nodes(st) : 0;
}
