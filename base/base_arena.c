/* base_arena: bump allocation in chunks, everything freed at once.
   A block bigger than a quarter chunk gets a heap block of its own, on a
   doubly linked list, so that base_arena_grow can realloc it in place: a
   vector that grows to a large size (a body of a million instructions)
   then costs its final size, not the sum of every copy, and a large
   realloc moves pages instead of bytes. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

enum { CHUNK = 64 * 1024, ALIGN = 16, BIG = CHUNK / 4 };

typedef struct Chunk {
    struct Chunk *next;
    size_t size, used;
    _Alignas(ALIGN) unsigned char data[];
} Chunk;

typedef struct Big {
    struct Big *prev, *next;
    _Alignas(ALIGN) unsigned char data[];
} Big;

struct BaseArena {
    Chunk *head;                        /* the chunk being filled */
    Big *big;                           /* blocks of more than BIG bytes */
};

BaseArena *base_arena_new(void)
{
    return base_calloc(1, sizeof(BaseArena));
}

/* n rounded up to ALIGN (at least ALIGN); 0 when that overflows. */
static size_t rounded(size_t n)
{
    if (n > SIZE_MAX - ALIGN)
        return 0;
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    return n ? n : ALIGN;
}

static void *big_alloc(BaseArena *a, size_t n)
{
    if (n > SIZE_MAX - sizeof(Big))
        return NULL;
    Big *b = base_calloc(1, sizeof(Big) + n);
    if (!b)
        return NULL;
    b->next = a->big;
    if (a->big)
        a->big->prev = b;
    a->big = b;
    return b->data;
}

void *base_arena_alloc(BaseArena *a, size_t n)
{
    n = rounded(n);
    if (!n)
        return NULL;
    if (n > BIG)
        return big_alloc(a, n);
    Chunk *c = a->head;
    if (!c || c->size - c->used < n) {
        c = base_calloc(1, sizeof(Chunk) + CHUNK);
        if (!c)
            return NULL;
        c->size = CHUNK;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    assert(c->used <= c->size && ((uintptr_t)p & (ALIGN - 1)) == 0);
    return p;
}

char *base_arena_strndup(BaseArena *a, const char *s, size_t n)
{
    char *d = base_arena_alloc(a, n + 1);
    if (d)
        memcpy(d, s, n);
    return d;
}

char *base_arena_strdup(BaseArena *a, const char *s)
{
    return base_arena_strndup(a, s, strlen(s));
}

/* Resize the big block holding `data` from `old` to `n` bytes (both
   rounded, both > BIG); the new bytes are zeroed. NULL: left as it was. */
static void *big_resize(BaseArena *a, void *data, size_t old, size_t n)
{
    Big *b = (Big *)((unsigned char *)data - offsetof(Big, data));
    assert(old > BIG && n > old);
    assert(b->prev ? b->prev->next == b : a->big == b);
    if (n > SIZE_MAX - sizeof(Big))
        return NULL;
    Big *fresh = base_realloc(b, sizeof(Big) + n);
    if (!fresh)
        return NULL;
    if (fresh->prev)
        fresh->prev->next = fresh;
    else
        a->big = fresh;
    if (fresh->next)
        fresh->next->prev = fresh;
    memset(fresh->data + old, 0, n - old);
    return fresh->data;
}

void *base_arena_grow(BaseArena *a, void *arr, int32_t n, int32_t *cap,
                     size_t elem)
{
    int64_t ncap = *cap < 8 ? 8 : 2 * (int64_t)*cap;
    assert(elem > 0 && n >= 0 && n <= *cap && (arr || *cap == 0));
    if (ncap > INT32_MAX || (size_t)ncap > SIZE_MAX / elem)
        return NULL;
    size_t old = arr ? rounded((size_t)*cap * elem) : 0;
    size_t want = rounded((size_t)ncap * elem);
    void *p;
    if (old > BIG) {
        p = want ? big_resize(a, arr, old, want) : NULL;
    } else {
        p = base_arena_alloc(a, (size_t)ncap * elem);
        if (p && n > 0)
            memcpy(p, arr, (size_t)n * elem);
    }
    if (!p)
        return NULL;
    *cap = (int32_t)ncap;
    return p;
}

void base_arena_free(BaseArena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        base_free(c);
    }
    for (Big *b = a->big, *next; b; b = next) {
        next = b->next;
        base_free(b);
    }
    base_free(a);
}
