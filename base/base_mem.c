/*
 * base_mem: the one way gpmc allocates. Every heap block of every subsystem
 * comes from base_malloc/base_calloc/base_realloc and goes back through
 * base_free; arrays grow only through base_grow (Lua's luaM_growvector).
 * Keeping one door lets tests make the n-th allocation fail
 * (base_mem_fail_after) and check that every caller survives it.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* Allocations left before one fails; 0: never fail. */
static _Atomic long fail_countdown;

long base_mem_fail_after(long n)
{
    return atomic_exchange(&fail_countdown, n);
}

static int should_fail(void)
{
    long c = atomic_load(&fail_countdown);
    while (c > 0) {
        if (atomic_compare_exchange_weak(&fail_countdown, &c, c - 1))
            return c == 1;
    }
    return 0;
}

void *base_malloc(size_t n)
{
    return should_fail() ? NULL : malloc(n ? n : 1);
}

void *base_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return should_fail() ? NULL : calloc(count ? count : 1, size ? size : 1);
}

void *base_realloc(void *p, size_t n)
{
    return should_fail() ? NULL : realloc(p, n ? n : 1);
}

void base_free(void *p)
{
    free(p);
}

int base_grow(void *arrp, size_t *cap, size_t need, size_t elem)
{
    void *old, *fresh;
    size_t nc = *cap ? *cap : 8;
    assert(elem > 0);
    if (need <= *cap)
        return 0;
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return -1;
        nc *= 2;
    }
    if (nc > SIZE_MAX / elem)
        return -1;
    /* arrp is the address of some T *: copy the pointer bytes rather than
       write through a void ** (no aliasing of unrelated pointer types) */
    memcpy(&old, arrp, sizeof old);
    fresh = base_realloc(old, nc * elem);
    if (!fresh)
        return -1;
    memcpy(arrp, &fresh, sizeof fresh);
    *cap = nc;
    assert(*cap >= need);
    return 0;
}
