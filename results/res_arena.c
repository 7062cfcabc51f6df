/* A bump allocator: the readers allocate freely and free everything at once. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "results/results_int.h"

#define CHUNK (64 * 1024)

typedef struct Chunk {
    struct Chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} Chunk;

struct ResArena {
    Chunk *head;
};

ResArena *res_arena_new(void)
{
    ResArena *a = calloc(1, sizeof *a);
    if (!a)
        abort();
    return a;
}

void *res_arena_alloc(ResArena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    Chunk *c = a->head;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > CHUNK ? n : CHUNK;
        c = malloc(sizeof *c + cap);
        /* Readers have no recovery from exhausted memory. */
        if (!c)
            abort();
        c->cap = cap;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *res_arena_strdup(ResArena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(res_arena_alloc(a, n), s, n);
}

char *res_arena_printf(ResArena *a, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = res_arena_alloc(a, (size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

void res_arena_free(ResArena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}
