/*
 * chk_seg.c — segmented arrays: indexable like a flat array, grown by
 * adding segments, never moved. Several threads append to the store's
 * arrays at once (each writes the element whose index it drew from a
 * counter); a flat array would have to be reallocated under everyone's
 * feet. Segment s holds CHK_SEG_FIRST * 2^s elements, so 21 segments
 * cover every 32-bit index and an index costs one clz to locate.
 */
#include <string.h>

#include "checker/checker_int.h"

void chk_seg_init(ChkSeg *a, ChkMem *mem, size_t elem)
{
    memset(a, 0, sizeof *a);
    a->mem = mem;
    a->elem = elem;
    pthread_mutex_init(&a->mu, NULL);
}

void chk_seg_free(ChkSeg *a)
{
    for (int s = 0; s < CHK_SEG_MAX; s++)
        chk_mem_free(a->mem, atomic_load(&a->seg[s]));
    pthread_mutex_destroy(&a->mu);
    memset(a, 0, sizeof *a);
}

int chk_seg_ensure(ChkSeg *a, uint64_t i)
{
    int s = chk_seg_index(i);
    void *p;
    if (s >= CHK_SEG_MAX)
        return chk_mem_fail(a->mem, CHK_MEM_OOM), -1;
    if (atomic_load_explicit(&a->seg[s], memory_order_acquire))
        return 0;
    pthread_mutex_lock(&a->mu);
    p = atomic_load(&a->seg[s]);
    if (!p) {
        p = chk_mem_alloc(a->mem, ((size_t)CHK_SEG_FIRST << s) * a->elem);
        atomic_store_explicit(&a->seg[s], p, memory_order_release);
    }
    pthread_mutex_unlock(&a->mu);
    return p ? 0 : -1;
}

size_t chk_seg_bytes(const ChkSeg *a)
{
    size_t b = 0;
    for (int s = 0; s < CHK_SEG_MAX; s++)
        if (atomic_load(&((ChkSeg *)a)->seg[s]))
            b += ((size_t)CHK_SEG_FIRST << s) * a->elem;
    return b;
}
