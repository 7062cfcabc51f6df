/*
 * chk_table.c — interning of word vectors (images, outcomes, errors, memo
 * keys). Keys are appended to one growing array and never move relative to
 * each other's offsets; the open-addressing index stores id + 1 and is
 * rebuilt when half full. Nothing is allocated per key: growth is
 * geometric, and charged to the check's memory budget.
 */
#include <string.h>

#include "checker/checker_int.h"

void chk_table_init(ChkTable *t, ChkMem *mem)
{
    memset(t, 0, sizeof *t);
    t->mem = mem;
}

void chk_table_free(ChkTable *t)
{
    ChkMem *mem = t->mem;
    chk_mem_free(mem, t->words);
    chk_mem_free(mem, t->key);
    chk_mem_free(mem, t->slot);
    chk_table_init(t, mem);
}

void chk_table_reset(ChkTable *t)
{
    t->nwords = 0;
    t->n = 0;
    if (t->slot)
        memset(t->slot, 0, t->nslot * sizeof *t->slot);
}

/* One multiply a word, the mixing once at the end (the index takes the
   hash's top bits for its tag and its low bits for the slot). */
uint64_t chk_hash_words(const uint64_t *w, uint32_t n)
{
    uint64_t h = n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ w[i]) * 0x9E3779B97F4A7C15ull;
    return chk_mix(h);
}

size_t chk_table_bytes(const ChkTable *t)
{
    return t->capw * sizeof *t->words +
           t->cap * sizeof *t->key +
           t->nslot * sizeof *t->slot;
}

#define SLOT(id, h) (((h) & 0xFFFFFFFF00000000ull) | (uint64_t)((id) + 1))
#define SLOT_ID(s) ((uint32_t)(s) - 1)

static int grow_index(ChkTable *t)
{
    uint32_t ns = t->nslot ? t->nslot * 2 : 1024, mask = ns - 1;
    uint64_t *s = chk_mem_alloc(t->mem, ns * sizeof *s);
    if (!s)
        return -1;
    for (uint32_t id = 0; id < t->n; id++) {
        uint32_t i = (uint32_t)t->key[id].hash & mask;
        while (s[i])
            i = (i + 1) & mask;
        s[i] = SLOT(id, t->key[id].hash);
    }
    chk_mem_free(t->mem, t->slot);
    t->slot = s;
    t->nslot = ns;
    return 0;
}

int chk_table_put(ChkTable *t, const uint64_t *key, uint32_t len, uint32_t *id)
{
    uint64_t hash = chk_hash_words(key, len);
    uint64_t hi = hash & 0xFFFFFFFF00000000ull;
    uint32_t mask, i;
    if ((uint64_t)(t->n + 1) * 2 > t->nslot && grow_index(t))
        return -1;
    mask = t->nslot - 1;
    i = (uint32_t)hash & mask;
    while (t->slot[i]) {
        uint64_t sl = t->slot[i];
        if ((sl & 0xFFFFFFFF00000000ull) == hi) {
            const ChkKey *k = &t->key[SLOT_ID(sl)];
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
        CHK_GROW(t->mem, t->key, t->cap, (size_t)t->n + 1))
        return -1;
    if (t->capw < t->nwords + len &&
        CHK_GROW(t->mem, t->words, t->capw, t->nwords + len))
        return -1;
    if (len)
        memcpy(t->words + t->nwords, key, len * sizeof *key);
    t->key[t->n].off = t->nwords;
    t->key[t->n].len = len;
    t->key[t->n].hash = hash;
    t->nwords += len;
    t->slot[i] = SLOT(t->n, hash);
    *id = t->n++;
    return 1;
}

const uint64_t *chk_table_key(const ChkTable *t, uint32_t id, uint32_t *len)
{
    if (len)
        *len = t->key[id].len;
    return t->words + t->key[id].off;
}
