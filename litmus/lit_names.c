/* lit_names: name -> index tables for the parser (params, locations,
   kernels, labels), open addressing in the arena. */
#include <string.h>

#include "litmus/litmus_int.h"

static uint32_t hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;                 /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static LitNameSlot *slot(const LitNames *t, const char *s, size_t n)
{
    uint32_t mask = (uint32_t)t->cap - 1;
    for (uint32_t i = hash(s, n) & mask;; i = (i + 1) & mask) {
        LitNameSlot *e = &t->slots[i];
        if (!e->name || (strlen(e->name) == n && !memcmp(e->name, s, n)))
            return e;
    }
}

int32_t lit_names_find(const LitNames *t, const char *s, size_t n)
{
    if (!t->cap)
        return -1;
    const LitNameSlot *e = slot(t, s, n);
    return e->name ? e->index : -1;
}

int lit_names_add(LitNames *t, BaseArena *a, const char *name, int32_t index)
{
    if (2 * (t->n + 1) > t->cap) {
        int32_t cap = t->cap ? 2 * t->cap : 16;
        LitNameSlot *slots = base_arena_alloc(a, (size_t)cap * sizeof *slots);
        if (!slots)
            return -1;
        LitNames bigger = {slots, 0, cap};
        for (int32_t i = 0; i < t->cap; i++)
            if (t->slots[i].name)
                *slot(&bigger, t->slots[i].name,
                      strlen(t->slots[i].name)) = t->slots[i];
        bigger.n = t->n;
        *t = bigger;
    }
    LitNameSlot *e = slot(t, name, strlen(name));
    if (!e->name) {
        e->name = name;
        t->n++;
    }
    e->index = index;
    return 0;
}
