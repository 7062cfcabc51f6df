/*
 * tm_cache.c — set-associative tag arrays with LRU replacement, for
 * the L1s and L2 partitions of the timing model. A line is found by
 * (set, tag); the caller maps lines to sets. A line with a fill in flight
 * is never chosen as a victim.
 */
#include "timing/timing_int.h"

/* `lines` lines in sets of `ways` (fewer lines than ways: one set of all
   of them; no line: no cache, every lookup misses). */
void tm_cache_init(Tm *t, TmCache *c, int64_t lines, int32_t ways)
{
    if (lines <= 0) {
        c->sets = 1;
        c->ways = 0;
        c->l = NULL;
        return;
    }
    c->ways = lines < ways ? (int32_t)lines : ways;
    c->sets = (int32_t)(lines / c->ways);
    c->l = tm_alloc(t, (size_t)c->sets * (size_t)c->ways * sizeof *c->l);
    for (int64_t i = 0; i < (int64_t)c->sets * c->ways; i++) {
        c->l[i].tag = -1;
        c->l[i].fill = -1;
    }
}

int32_t tm_cache_find(const TmCache *c, int32_t set, int32_t tag)
{
    int32_t base = set * c->ways;
    assert(set >= 0 && set < c->sets);
    for (int32_t i = base; i < base + c->ways; i++)
        if (c->l[i].tag == tag)
            return i;
    return -1;
}

/* An invalid line of the set, else its least recently used line without a
   fill in flight; -1 when every line is being filled (or no cache). */
int32_t tm_cache_victim(const TmCache *c, int32_t set)
{
    int32_t base = set * c->ways, best = -1;
    assert(set >= 0 && set < c->sets);
    for (int32_t i = base; i < base + c->ways; i++) {
        if (c->l[i].tag < 0)
            return i;
        if (c->l[i].fill >= 0)
            continue;
        if (best < 0 || c->l[i].lru < c->l[best].lru)
            best = i;
    }
    return best;
}

void tm_cache_touch(TmCache *c, int32_t idx)
{
    assert(idx >= 0 && idx < c->sets * c->ways);
    c->l[idx].lru = ++c->clock;
}
