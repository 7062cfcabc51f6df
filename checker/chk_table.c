/*
 * chk_table.c — interning of word vectors (states, images, observations).
 * Keys are appended to one growing array and never move relative to each
 * other's offsets; the open-addressing index stores id + 1 and is rebuilt
 * when half full. Nothing is allocated per key: growth is geometric.
 */
#include <stdlib.h>
#include <string.h>

#include "checker/checker_int.h"

void chk_table_init(ChkTable *t)
{
    memset(t, 0, sizeof *t);
}

void chk_table_free(ChkTable *t)
{
    free(t->words);
    free(t->key);
    free(t->hash);
    free(t->slot);
    chk_table_init(t);
}

void chk_table_reset(ChkTable *t)
{
    t->nwords = 0;
    t->n = 0;
    if (t->slot)
        memset(t->slot, 0, t->nslot * sizeof *t->slot);
}

uint64_t chk_hash_words(const uint64_t *w, uint32_t n)
{
    uint64_t h = 0;
    for (uint32_t i = 0; i < n; i++)
        h += mdl_word_hash(i, w[i]);
    return h;
}

size_t chk_table_bytes(const ChkTable *t)
{
    return t->capw * sizeof *t->words +
           t->cap * (sizeof *t->key + sizeof *t->hash) +
           t->nslot * sizeof *t->slot;
}

#define SLOT(id, h) (((h) & 0xFFFFFFFF00000000ull) | (uint64_t)((id) + 1))
#define SLOT_ID(s) ((uint32_t)(s) - 1)

static int grow_index(ChkTable *t)
{
    uint32_t ns = t->nslot ? t->nslot * 2 : 1024, mask = ns - 1;
    uint64_t *s = calloc(ns, sizeof *s);
    if (!s)
        return -1;
    for (uint32_t id = 0; id < t->n; id++) {
        uint32_t i = (uint32_t)t->hash[id] & mask;
        while (s[i])
            i = (i + 1) & mask;
        s[i] = SLOT(id, t->hash[id]);
    }
    free(t->slot);
    t->slot = s;
    t->nslot = ns;
    return 0;
}

static int grow_entries(ChkTable *t)
{
    uint32_t nc = t->cap ? t->cap * 2 : 1024;
    ChkKey *key = realloc(t->key, nc * sizeof *key);
    uint64_t *hash;
    if (!key)
        return -1;
    t->key = key;
    hash = realloc(t->hash, nc * sizeof *hash);
    if (!hash)
        return -1;
    t->hash = hash;
    t->cap = nc;
    return 0;
}

int chk_table_put(ChkTable *t, const uint64_t *key, uint32_t len,
                  uint64_t hash, uint32_t *id)
{
    uint32_t mask, i;
    uint64_t hi = hash & 0xFFFFFFFF00000000ull;
    if ((uint64_t)(t->n + 1) * 2 > t->nslot && grow_index(t))
        return -1;
    mask = t->nslot - 1;
    i = (uint32_t)hash & mask;
    while (t->slot[i]) {
        uint64_t sl = t->slot[i];
        if ((sl & 0xFFFFFFFF00000000ull) == hi) {
            const ChkKey *k = &t->key[SLOT_ID(sl)];
            if (k->len == len &&
                !memcmp(t->words + k->off, key, len * sizeof *key)) {
                *id = SLOT_ID(sl);
                return 0;
            }
        }
        i = (i + 1) & mask;
    }
    if (t->n == t->cap && grow_entries(t))
        return -1;
    if (t->nwords + len > t->capw) {
        size_t nc = t->capw ? t->capw : 4096;
        uint64_t *w;
        while (nc < t->nwords + len)
            nc *= 2;
        w = realloc(t->words, nc * sizeof *w);
        if (!w)
            return -1;
        t->words = w;
        t->capw = nc;
    }
    memcpy(t->words + t->nwords, key, len * sizeof *key);
    t->key[t->n].off = t->nwords;
    t->key[t->n].len = len;
    t->hash[t->n] = hash;
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

int chk_vec_push(ChkVec *v, uint32_t x)
{
    if (v->n == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 256;
        uint32_t *p = realloc(v->v, nc * sizeof *p);
        if (!p)
            return -1;
        v->v = p;
        v->cap = nc;
    }
    v->v[v->n++] = x;
    return 0;
}

void chk_vec_free(ChkVec *v)
{
    free(v->v);
    memset(v, 0, sizeof *v);
}
