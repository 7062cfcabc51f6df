/*
 * store_int.h — private to store/: the operations each store implements
 * (sto_flat.c, sto_tree.c); sto_store.c dispatches through them and keeps
 * what both share (ids, `order`, the limit).
 */
#ifndef GPMC_STORE_INT_H
#define GPMC_STORE_INT_H

#include "store/store.h"

struct StoStoreOps {
    int (*init)(StoStore *st);
    void (*free)(StoStore *st);
    int (*reset)(StoStore *st);
    int (*cursor_init)(StoCursor *c, const StoStore *st);
    void (*cursor_free)(StoCursor *c);
    int (*encode)(StoStore *st, StoCursor *c, const BaseVec *prev,
                  const BaseVec *s, StoRoot *r);
    int (*add)(StoStore *st, const StoRoot *r, uint32_t *id);
    int (*find)(StoStore *st, StoCursor *c, const BaseVec *prev,
                const BaseVec *s, uint32_t *id);
    void (*get)(const StoStore *st, StoCursor *c, uint32_t id,
                BaseVec *out);
    void (*prefetch)(const StoStore *st, uint32_t id, int far);
    void (*renumber)(StoStore *st, uint32_t lo, uint32_t n,
                     const uint32_t *perm, uint32_t *tmp);
    size_t (*bytes)(const StoStore *st);
    uint32_t (*nodes)(const StoStore *st);
};
extern const StoStoreOps sto_tree_ops, sto_flat_ops;

#endif
