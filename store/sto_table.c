/*
 * sto_table.c — interning of word vectors (images, outcomes, errors, memo
 * keys). Keys are appended to one growing array and never move relative to
 * each other's offsets; the open-addressing index stores id + 1 and is
 * rebuilt when half full. Nothing is allocated per key: growth is
 * geometric, and charged to the check's memory budget.
 */
#include <string.h>

#include "store/store_int.h"

void sto_table_init(StoTable *t, BaseBudget *mem)
{
    memset(t, 0, sizeof *t);
    t->mem = mem;
}

void sto_table_free(StoTable *t)
{
    BaseBudget *mem = t->mem;
    base_budget_free(mem, t->words);
    base_budget_free(mem, t->key);
    base_budget_free(mem, t->slot);
    sto_table_init(t, mem);
}

void sto_table_reset(StoTable *t)
{
    t->nwords = 0;
    t->n = 0;
    if (t->slot)
        memset(t->slot, 0, t->nslot * sizeof *t->slot);
}

/* One multiply a word, the mixing once at the end (the index takes the
   hash's top bits for its tag and its low bits for the slot). */
uint64_t sto_hash_words(const uint64_t *w, uint32_t n)
{
    uint64_t h = n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ w[i]) * 0x9E3779B97F4A7C15ull;
    return base_mix(h);
}

size_t sto_table_bytes(const StoTable *t)
{
    return t->capw * sizeof *t->words +
           t->cap * sizeof *t->key +
           t->nslot * sizeof *t->slot;
}

#define SLOT(id, h) (((h) & 0xFFFFFFFF00000000ull) | (uint64_t)((id) + 1))
#define SLOT_ID(s) ((uint32_t)(s) - 1)

static int grow_index(StoTable *t)
{
    uint32_t ns, mask;
    uint64_t *s;
    if (t->nslot > UINT32_MAX / 2)      /* 2^31 slots: the count is 32 bits */
        return base_budget_fail(t->mem, BASE_BUDGET_OOM), -1;
    ns = t->nslot ? t->nslot * 2 : 1024;
    mask = ns - 1;
    assert((ns & mask) == 0);
    s = base_budget_alloc(t->mem, (size_t)ns * sizeof *s);
    if (!s)
        return -1;
    for (uint32_t id = 0; id < t->n; id++) {
        uint32_t i = (uint32_t)t->key[id].hash & mask;
        while (s[i])
            i = (i + 1) & mask;
        s[i] = SLOT(id, t->key[id].hash);
    }
    base_budget_free(t->mem, t->slot);
    t->slot = s;
    t->nslot = ns;
    return 0;
}

int sto_table_put(StoTable *t, const uint64_t *key, uint32_t len, uint32_t *id)
{
    uint64_t hash = sto_hash_words(key, len);
    uint64_t hi = hash & 0xFFFFFFFF00000000ull;
    uint32_t mask, i;
    assert(len == 0 || key);
    if ((uint64_t)(t->n + 1) * 2 > t->nslot && grow_index(t))
        return -1;
    /* at most half full, with room for this key */
    assert((t->nslot & (t->nslot - 1)) == 0 &&
           (uint64_t)(t->n + 1) * 2 <= t->nslot);
    mask = t->nslot - 1;
    i = (uint32_t)hash & mask;
    while (t->slot[i]) {
        uint64_t sl = t->slot[i];
        if ((sl & 0xFFFFFFFF00000000ull) == hi) {
            const StoKey *k = &t->key[SLOT_ID(sl)];
            /* len 0 (a program without PM words): words and key may be
               NULL, which memcmp and memcpy may not be given */
            if (k->len == len &&
                (!len || !memcmp(t->words + k->off, key, len * sizeof *key))) {
                *id = SLOT_ID(sl);
                return 0;
            }
        }
        i = (i + 1) & mask;
    }
    if (t->n == UINT32_MAX - 1 ||
        BASE_BUDGET_GROW(t->mem, t->key, t->cap, (size_t)t->n + 1))
        return -1;
    if (t->capw < t->nwords + len &&
        BASE_BUDGET_GROW(t->mem, t->words, t->capw, t->nwords + len))
        return -1;
    if (len)
        memcpy(t->words + t->nwords, key, len * sizeof *key);
    assert(t->n < t->cap && t->nwords + len <= t->capw);
    t->key[t->n].off = t->nwords;
    t->key[t->n].len = len;
    t->key[t->n].hash = hash;
    t->nwords += len;
    t->slot[i] = SLOT(t->n, hash);
    *id = t->n++;
    return 1;
}

const uint64_t *sto_table_key(const StoTable *t, uint32_t id, uint32_t *len)
{
    assert(id < t->n);
    if (len)
        *len = t->key[id].len;
    return t->words + t->key[id].off;
}
