/*
 * chk_space.c — the states of one breadth-first exploration: the store
 * that numbers them in discovery order (which is BFS order, so the queue is
 * the numbering itself), the BFS parent of each (the one link witnesses
 * need), where each depth starts, and a "can end" bit per state for the
 * livelock check. Where a transition may run several instructions (fusion),
 * also the program steps of each state's path of parent links: its depth
 * counts transitions, witnesses and --max-steps count steps.
 */
#include <string.h>

#include "checker/checker_int.h"

int chk_space_init(ChkSpace *sp, uint32_t max_words, BaseBudget *mem,
                   StoGate *gate, int kind, int weighted)
{
    memset(sp, 0, sizeof *sp);
    sp->mem = mem;
    sp->weighted = weighted;
    return sto_store_init(&sp->store, max_words, mem, gate, kind);
}

void chk_space_free(ChkSpace *sp)
{
    sto_store_free(&sp->store);
    base_budget_free(sp->mem, sp->parent);
    base_budget_free(sp->mem, sp->steps);
    base_budget_free(sp->mem, sp->level);
    base_budget_free(sp->mem, sp->end);
    memset(sp, 0, sizeof *sp);
}

int chk_space_reset(ChkSpace *sp)
{
    sp->nlevel = 0;
    if (sp->end)
        memset(sp->end, 0, sp->capend * sizeof *sp->end);
    return sto_store_reset(&sp->store);
}

size_t chk_space_bytes(const ChkSpace *sp)
{
    return sto_store_bytes(&sp->store) + sp->capparent * sizeof *sp->parent +
           sp->capsteps * sizeof *sp->steps +
           sp->caplevel * sizeof *sp->level + sp->capend * sizeof *sp->end;
}

uint32_t chk_space_count(const ChkSpace *sp)
{
    return sto_store_count(&sp->store);
}

int chk_space_reserve(ChkSpace *sp, uint32_t n)
{
    size_t words = ((size_t)n + 63) / 64, old = sp->capend;
    if (BASE_BUDGET_GROW(sp->mem, sp->parent, sp->capparent, n) ||
        (sp->weighted && BASE_BUDGET_GROW(sp->mem, sp->steps, sp->capsteps, n)))
        return -1;
    if (words > sp->capend) {
        if (BASE_BUDGET_GROW(sp->mem, sp->end, sp->capend, words))
            return -1;
        memset(sp->end + old, 0, (sp->capend - old) * sizeof *sp->end);
    }
    return 0;
}

int chk_space_level(ChkSpace *sp, uint32_t first)
{
    if (BASE_BUDGET_GROW(sp->mem, sp->level, sp->caplevel, sp->nlevel + 1))
        return -1;
    /* levels start in increasing order, the first at the root */
    assert(sp->nlevel ? sp->level[sp->nlevel - 1] < first : first == 0);
    sp->level[sp->nlevel++] = first;
    return 0;
}

uint32_t chk_space_depth(const ChkSpace *sp, uint32_t id)
{
    size_t lo = 0, hi = sp->nlevel;
    assert(sp->nlevel > 0 && id < chk_space_count(sp));
    /* the last level starting at or before id */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (sp->level[mid] <= id)
            lo = mid;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

typedef struct {
    ChkSpace *sp;
    StoCursor *c;
    const MdlState *parent, *child;
    uint32_t step;
} Find;

static int find_succ(void *ctx, uint32_t step, const MdlState *s)
{
    Find *f = ctx;
    if (s->len != f->child->len ||
        memcmp(s->w, f->child->w, s->len * sizeof *s->w))
        return 0;
    f->step = step;
    return 1;
}

static void no_err(void *ctx, uint32_t step, const MdlError *e)
{
    (void)ctx;
    (void)step;
    (void)e;
}

uint32_t chk_space_step(ChkSpace *sp, Model *m, StoCursor *c, uint32_t parent,
                        uint32_t child, MdlState *a, MdlState *b)
{
    Find f;
    assert(parent < child);             /* BFS order */
    sto_store_get(&sp->store, c, child, b);
    sto_store_get(&sp->store, c, parent, a);
    f.sp = sp;
    f.c = c;
    f.parent = a;
    f.child = b;
    f.step = MDL_STEP_NONE;
    mdl_successors(m, a, find_succ, no_err, &f);
    return f.step;
}
