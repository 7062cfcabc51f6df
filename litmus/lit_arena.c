/* lit_arena: bump allocation in chunks, everything freed at once. */
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus_int.h"

enum { CHUNK = 64 * 1024, ALIGN = 16 };

typedef struct Chunk {
    struct Chunk *next;
    size_t size, used;
    _Alignas(ALIGN) unsigned char data[];
} Chunk;

struct LitArena {
    Chunk *head;                        /* the chunk being filled */
    size_t reserved;
};

LitArena *lit_arena_new(void)
{
    return lit_calloc(1, sizeof(LitArena));
}

static Chunk *chunk_new(LitArena *a, size_t size)
{
    Chunk *c = lit_calloc(1, sizeof(Chunk) + size);
    if (!c)
        return NULL;
    c->size = size;
    a->reserved += sizeof(Chunk) + size;
    return c;
}

void *lit_arena_alloc(LitArena *a, size_t n)
{
    if (n > SIZE_MAX - ALIGN)
        return NULL;
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (n == 0)
        n = ALIGN;
    Chunk *c = a->head;
    if (c && c->size - c->used >= n) {
        void *p = c->data + c->used;
        c->used += n;
        return p;
    }
    if (n > CHUNK / 4) {
        /* A big block gets its own chunk, kept behind the current one so
           the remainder of the current chunk stays in use. */
        Chunk *big = chunk_new(a, n);
        if (!big)
            return NULL;
        big->used = n;
        if (c) {
            big->next = c->next;
            c->next = big;
        } else {
            a->head = big;
        }
        return big->data;
    }
    Chunk *fresh = chunk_new(a, CHUNK);
    if (!fresh)
        return NULL;
    fresh->next = c;
    a->head = fresh;
    fresh->used = n;
    return fresh->data;
}

char *lit_arena_strndup(LitArena *a, const char *s, size_t n)
{
    char *d = lit_arena_alloc(a, n + 1);
    if (d)
        memcpy(d, s, n);
    return d;
}

char *lit_arena_strdup(LitArena *a, const char *s)
{
    return lit_arena_strndup(a, s, strlen(s));
}

void *lit_arena_grow(LitArena *a, void *arr, int32_t n, int32_t *cap,
                     size_t elem)
{
    int64_t ncap = *cap < 8 ? 8 : 2 * (int64_t)*cap;
    if (ncap > INT32_MAX || (size_t)ncap > SIZE_MAX / elem)
        return NULL;
    void *p = lit_arena_alloc(a, (size_t)ncap * elem);
    if (!p)
        return NULL;
    if (n > 0)
        memcpy(p, arr, (size_t)n * elem);
    *cap = (int32_t)ncap;
    return p;
}

void lit_arena_free(LitArena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        lit_free(c);
    }
    lit_free(a);
}

