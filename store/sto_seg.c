/*
 * sto_seg.c — segmented arrays: indexable like a flat array, grown by
 * adding segments, never moved. Several threads append to the store's
 * arrays at once (each writes the element whose index it drew from a
 * counter); a flat array would have to be reallocated under everyone's
 * feet. Segment s holds STO_SEG_FIRST * 2^s elements, so 21 segments
 * cover every 32-bit index and an index costs one clz to locate.
 */
#include <string.h>

#include "store/store_int.h"

void sto_seg_init(StoSeg *a, BaseBudget *mem, size_t elem)
{
    assert(elem > 0);
    memset(a, 0, sizeof *a);
    a->mem = mem;
    a->elem = elem;
    pthread_mutex_init(&a->mu, NULL);
}

void sto_seg_free(StoSeg *a)
{
    for (int s = 0; s < STO_SEG_MAX; s++)
        base_budget_free(a->mem, atomic_load(&a->seg[s]));
    pthread_mutex_destroy(&a->mu);
    memset(a, 0, sizeof *a);
}

int sto_seg_ensure(StoSeg *a, uint64_t i)
{
    int s = sto_seg_index(i);
    void *p;
    if (s >= STO_SEG_MAX)
        return base_budget_fail(a->mem, BASE_BUDGET_OOM), -1;
    if (atomic_load_explicit(&a->seg[s], memory_order_acquire))
        return 0;
    pthread_mutex_lock(&a->mu);
    p = atomic_load(&a->seg[s]);
    if (!p) {
        p = base_budget_alloc(a->mem, ((size_t)STO_SEG_FIRST << s) * a->elem);
        atomic_store_explicit(&a->seg[s], p, memory_order_release);
    }
    pthread_mutex_unlock(&a->mu);
    return p ? 0 : -1;
}

size_t sto_seg_bytes(const StoSeg *a)
{
    size_t b = 0;
    for (int s = 0; s < STO_SEG_MAX; s++)
        if (atomic_load(&((StoSeg *)a)->seg[s]))
            b += ((size_t)STO_SEG_FIRST << s) * a->elem;
    return b;
}
