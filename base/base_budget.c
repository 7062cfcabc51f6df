/*
 * base_budget.c — the memory budget of an exploration (--max-memory) and its big
 * blocks.
 *
 * Every block whose size grows with the state space (the store's arrays,
 * the interning tables, the per-state vectors of a space) is charged to
 * one BaseBudget per check. A block that would take the charge past the budget
 * is refused like a failed allocation, with `failed` saying which, so the
 * check ends `incomplete` ("max-memory (N MB) reached" or "out of memory")
 * instead of the process dying. Blocks of 4 MB and more are aligned to
 * 2 MB and advised as transparent huge pages: the store's index is probed
 * at random, and with 4 KB pages a third of the time went to first-touch
 * faults and TLB misses (issue 15).
 */
#include <stdalign.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/base.h"

#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_MIN ((size_t)4 << 20)

/* What sits in front of every block: where the allocation starts and how
   much was charged. */
typedef struct {
    void *base;
    size_t charged;
} Hdr;

#define HDR_SIZE ((sizeof(Hdr) + 15) & ~(size_t)15)

void base_budget_init(BaseBudget *m, int64_t limit)
{
    atomic_store(&m->used, 0);
    atomic_store(&m->peak, 0);
    atomic_store(&m->failed, BASE_BUDGET_OK);
    m->limit = limit;
}

int64_t base_budget_default_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || psize <= 0)
        return (int64_t)4 << 30;
    /* half of physical memory: the rest is the system's and the other
       checks' (`suite --jobs` divides it further) */
    return (int64_t)pages * psize / 2;
}

static int charge(BaseBudget *m, size_t n)
{
    int64_t now = atomic_fetch_add(&m->used, (int64_t)n) + (int64_t)n;
    int64_t peak = atomic_load(&m->peak);
    if (m->limit > 0 && now > m->limit) {
        atomic_fetch_sub(&m->used, (int64_t)n);
        base_budget_fail(m, BASE_BUDGET_OVER);
        return -1;
    }
    while (now > peak && !atomic_compare_exchange_weak(&m->peak, &peak, now))
        ;
    return 0;
}

void base_budget_fail(BaseBudget *m, int why)
{
    int ok = BASE_BUDGET_OK;
    assert(why == BASE_BUDGET_OOM || why == BASE_BUDGET_OVER);
    atomic_compare_exchange_strong(&m->failed, &ok, why);
}

void *base_budget_alloc(BaseBudget *m, size_t n)
{
    size_t total;
    unsigned char *base, *p;
    Hdr h;
    int huge = n >= HUGE_MIN;
    if (n > SIZE_MAX / 2)
        return base_budget_fail(m, BASE_BUDGET_OOM), NULL;
    total = n + HDR_SIZE + (huge ? HUGE_PAGE : 0);
    if (charge(m, total))
        return NULL;
    base = base_calloc(1, total);
    if (!base) {
        atomic_fetch_sub(&m->used, (int64_t)total);
        base_budget_fail(m, BASE_BUDGET_OOM);
        return NULL;
    }
    p = base + HDR_SIZE;
    if (huge) {
        p = (unsigned char *)(((uintptr_t)p + HUGE_PAGE - 1) &
                              ~(uintptr_t)(HUGE_PAGE - 1));
        madvise(p, n & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
    }
    h.base = base;
    h.charged = total;
    memcpy(p - HDR_SIZE, &h, sizeof h);
    /* the header fits before the block, the block inside the allocation,
       16-aligned (2 MB for a huge one) */
    assert(p - base >= (ptrdiff_t)HDR_SIZE && p + n <= base + total);
    assert(((uintptr_t)p & (huge ? HUGE_PAGE - 1 : 15)) == 0);
    return p;
}

void base_budget_free(BaseBudget *m, void *p)
{
    Hdr h;
    if (!p)
        return;
    memcpy(&h, (unsigned char *)p - HDR_SIZE, sizeof h);
    /* a block of this budget: its header points back before it */
    assert(h.base && (unsigned char *)p - (unsigned char *)h.base >=
                         (ptrdiff_t)HDR_SIZE && h.charged >= HDR_SIZE);
    assert(atomic_load_explicit(&m->used, memory_order_relaxed) >=
           (int64_t)h.charged);
    atomic_fetch_sub(&m->used, (int64_t)h.charged);
    base_free(h.base);
}

int base_budget_grow(BaseBudget *m, void *arrp, size_t *cap, size_t need, size_t elem)
{
    void *old, *fresh;
    size_t nc = *cap ? *cap : 1024;
    assert(elem > 0);
    if (need <= *cap)
        return 0;
    while (nc < need) {
        if (nc > SIZE_MAX / 4 / elem)
            return base_budget_fail(m, BASE_BUDGET_OOM), -1;
        nc *= 2;
    }
    fresh = base_budget_alloc(m, nc * elem);
    if (!fresh)
        return -1;
    memcpy(&old, arrp, sizeof old);
    if (old) {
        memcpy(fresh, old, *cap * elem);
        base_budget_free(m, old);
    }
    memcpy(arrp, &fresh, sizeof fresh);
    *cap = nc;
    return 0;
}
