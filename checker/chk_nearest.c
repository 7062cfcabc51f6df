/*
 * chk_nearest.c — `final` witnesses of a reducing run, by weight.
 *
 * The reduced graph keeps the distance in program steps to every terminal
 * state, counting a fused transition of k instructions as k (specs/checker.md,
 * "Witnesses"): from a state whose ample step, or first fused step, is b of
 * thread i, a shortest path to a terminal state moves i, its first step of
 * i is b (and i's next ones are the fused ones after b), and they commute to
 * the front. Its BFS, by transitions, does not find those distances, but a
 * search by weight over the states it stored does: Dijkstra from the
 * initial state, re-expanding each state once in the order of its distance
 * (ties by id) and numbering successors by the store, until the wanted
 * terminal states are reached. Its parent links replace the BFS's while
 * the witness is replayed. Under `hw` with the projection the reduced graph
 * leaves out events that the full one takes, so this does not apply there.
 */
#include <string.h>

#include "checker/checker_int.h"

typedef struct {
    ChkRun *R;
    ChkSpace *sp;
    ChkLevel *L;
    uint32_t *dist, *par;
    uint64_t *heap;                     /* dist << 32 | id, a binary heap */
    size_t nheap, capheap;
    uint32_t from;                      /* the state being expanded */
    int failed;
} Near;

static void push(Near *n, uint32_t d, uint32_t id)
{
    size_t i;
    if (BASE_BUDGET_GROW(&n->R->mem, n->heap, n->capheap, n->nheap + 1)) {
        n->failed = 1;
        return;
    }
    i = n->nheap++;
    n->heap[i] = (uint64_t)d << 32 | id;
    while (i > 0 && n->heap[(i - 1) / 2] > n->heap[i]) {
        uint64_t t = n->heap[i];
        n->heap[i] = n->heap[(i - 1) / 2];
        n->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static uint64_t pop(Near *n)
{
    uint64_t top = n->heap[0];
    size_t i = 0;
    n->heap[0] = n->heap[--n->nheap];
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        uint64_t t;
        if (l < n->nheap && n->heap[l] < n->heap[m])
            m = l;
        if (l + 1 < n->nheap && n->heap[l + 1] < n->heap[m])
            m = l + 1;
        if (m == i)
            return top;
        t = n->heap[i];
        n->heap[i] = n->heap[m];
        n->heap[m] = t;
        i = m;
    }
}

static int relax(void *ctx, uint32_t step, const MdlState *s)
{
    Near *n = ctx;
    uint32_t id, d = n->dist[n->from] + (uint32_t)mdl_succ_steps(n->R->m);
    (void)step;
    if (sto_store_find(&n->sp->store, &n->L->cur, &n->L->state, s, &id))
        return 0;                       /* not stored: a search cut short */
    if (d < n->dist[id]) {
        n->dist[id] = d;
        n->par[id] = n->from;
        push(n, d, id);
    }
    return 0;
}

static void no_err(void *ctx, uint32_t step, const MdlError *e)
{
    (void)ctx;
    (void)step;
    (void)e;
}

int chk_nearest_applies(const ChkRun *R)
{
    return R->status == CHK_DONE &&
           !mdl_lines_projected(R->m);
}

int chk_nearest_final(ChkRun *R, ChkWant *w, int nw, int *done)
{
    Near n;
    ChkOut *outs = R->outs[LIT_FINAL].o;
    uint32_t count, left = 0, *bfs_par, *bfs_steps;
    memset(&n, 0, sizeof n);
    n.R = R;
    n.L = &R->lvl[0];
    n.sp = &n.L->space;
    count = chk_space_count(n.sp);
    for (int k = 0; k < nw; k++)
        left += w[k].ph == LIT_FINAL && !done[k];
    if (!left || !count)
        return 0;
    n.dist = base_budget_alloc(&R->mem, (size_t)count * sizeof *n.dist);
    n.par = base_budget_alloc(&R->mem, (size_t)count * sizeof *n.par);
    if (!n.dist || !n.par)
        goto out;
    memset(n.dist, 0xFF, (size_t)count * sizeof *n.dist);
    n.dist[0] = 0;
    n.par[0] = CHK_NONE;
    push(&n, 0, 0);
    while (n.nheap && left && !n.failed) {
        uint64_t top = pop(&n);
        uint32_t u = (uint32_t)top, d = (uint32_t)(top >> 32), o;
        if (d > n.dist[u])
            continue;                   /* reached again, nearer */
        sto_store_get(&n.sp->store, &n.L->cur, u, &n.L->state);
        chk_work(R);
        if (!mdl_terminal(R->m, &n.L->state)) {
            n.from = u;
            mdl_successors(R->m, &n.L->state, relax, no_err, &n);
            continue;
        }
        mdl_observe(R->m, &n.L->state, R->pm, R->dram);
        o = chk_outcome(R, LIT_FINAL, R->pm, R->dram, &n.L->state);
        if (o == CHK_NONE)
            break;
        for (int k = 0; k < nw; k++) {
            ChkOut keep = outs[o];
            ChkViolation v;
            if (w[k].ph != LIT_FINAL || done[k] ||
                chk_cond_eval(R, LIT_FINAL, w[k].cond,
                              sto_table_key(&R->outs[LIT_FINAL].tab, o,
                                            NULL)) != w[k].want)
                continue;
            left--;
            /* the witness of outcome o is state u, by the search's links */
            outs[o].best = d;
            outs[o].state = u;
            bfs_par = n.sp->parent;
            bfs_steps = n.sp->steps;
            n.sp->parent = n.par;
            n.sp->steps = n.dist;
            v = *w[k].v;
            if (chk_witness(R, &v, LIT_FINAL, o) == (int)d) {
                *w[k].v = v;
                done[k] = 1;
            }
            n.sp->parent = bfs_par;
            n.sp->steps = bfs_steps;
            outs[o] = keep;
            sto_cursor_forget(&n.L->cur);
        }
    }
out:
    base_budget_free(&R->mem, n.dist);
    base_budget_free(&R->mem, n.par);
    base_budget_free(&R->mem, n.heap);
    if (n.failed || !n.dist || !n.par)
        return -1;
    return 0;
}
