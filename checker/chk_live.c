/*
 * chk_live.c — livelock, found on demand (checker_int.h, LIVELOCK).
 *
 * No successor lists are kept. Instead a fixpoint marks every state from
 * which an end (a terminal state or a failing step) is reachable: start
 * from the "can end" bits, and re-expand each unmarked state, highest id
 * first, marking it when some successor is marked. Successors tend to have
 * higher ids than their parents, so one backward pass settles most states;
 * passes repeat until nothing changes. The cost is one re-expansion of the
 * unmarked states per pass, paid only by programs that can loop.
 *
 * The BFS parent links are edges of the graph too, and free: a marked
 * state marks its parent, and the parent's parent, before anything is
 * re-expanded. Parents have lower ids, so one descending sweep carries
 * every mark to the root, and a state marked by re-expansion marks its
 * chain at once; only states whose every BFS descendant is stuck are
 * re-expanded: 15-28% of the states on bench/'s looping programs, where
 * every unmarked state was re-expanded before (mp: 3.8 s -> 1.5 s CPU).
 */
#include <string.h>

#include "checker/checker_int.h"

typedef struct {
    ChkSpace *sp;
    StoCursor *c;
    const MdlState *cur;
    const uint64_t *can;
    int found;
} Live;

static int live_succ(void *ctx, uint32_t step, const MdlState *s)
{
    Live *l = ctx;
    uint32_t id;
    (void)step;
    if (!sto_store_find(&l->sp->store, l->c, l->cur, s, &id) &&
        (l->can[id >> 6] >> (id & 63) & 1))
        l->found = 1;
    return l->found;
}

static void live_err(void *ctx, uint32_t step, const MdlError *e)
{
    (void)ctx;
    (void)step;
    (void)e;
}

/* Marks i's BFS ancestors, up to the first marked one. */
static void mark_up(const ChkSpace *sp, uint64_t *can, uint32_t i)
{
    for (uint32_t p = chk_space_parent(sp, i);
         p != CHK_NONE && !(can[p >> 6] >> (p & 63) & 1);
         p = chk_space_parent(sp, p)) {
        assert(p < i);
        can[p >> 6] |= 1ull << (p & 63);
        i = p;
    }
}

uint32_t chk_live(ChkRun *R, int level)
{
    ChkLevel *L = &R->lvl[level];
    ChkSpace *sp = &L->space;
    uint32_t n = chk_space_count(sp), first = CHK_NONE;
    size_t words = ((size_t)n + 63) / 64;
    uint64_t *can = base_budget_alloc(&R->mem, (words + 1) * sizeof *can);
    int changed = 1;
    Live l;
    if (!can) {
        chk_fail(R);
        return CHK_NONE;
    }
    assert(words <= sp->capend);
    memcpy(can, sp->end, words * sizeof *can);
    l.sp = sp;
    l.c = &L->cur;
    l.cur = &L->state;
    l.can = can;
    for (uint32_t i = n; i-- > 0;)
        if (can[i >> 6] >> (i & 63) & 1)
            mark_up(sp, can, i);
    while (changed && R->status == CHK_DONE) {
        changed = 0;
        for (uint32_t i = n; i-- > 0 && R->status == CHK_DONE;) {
            if (can[i >> 6] >> (i & 63) & 1)
                continue;
            sto_store_get(&sp->store, &L->cur, i, &L->state);
            l.found = 0;
            mdl_successors(L->m ? L->m : R->m, &L->state, live_succ, live_err,
                           &l);
            if (l.found) {
                can[i >> 6] |= 1ull << (i & 63);
                mark_up(sp, can, i);
                changed = 1;
            }
            chk_work(R);
        }
    }
    for (uint32_t i = 0; i < n && first == CHK_NONE; i++)
        if (!(can[i >> 6] >> (i & 63) & 1))
            first = i;
    base_budget_free(&R->mem, can);
    return first;
}
