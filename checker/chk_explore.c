/*
 * chk_explore.c — the breadth-first explorer: levels, visits, expansion
 * on one or several threads, and what a level's limits cut (checker_int.h,
 * THE SPACE AND ITS EXPLORER and LIMITS).
 *
 * One thread visits and expands each state in turn, applying errors at
 * once. Several threads (the main program only) split a level: thread 0
 * visits every state in order while the others expand, then joins them;
 * errors are logged and applied afterwards, and the new states renumbered
 * by first discovery. Both give the same results: the main program's
 * visits register no errors, and the cut rules below do not depend on
 * timing.
 */
#include <stdlib.h>
#include <string.h>

#include "checker/checker_int.h"

#define CHUNK 32                        /* states a thread takes at once */
#define PAR_MIN 1024                    /* smaller levels: one thread */
#define MOVED_ERR 0x80000000u
#define HELD 8                          /* successors encoded ahead of their
                                           root's lookup (a power of two) */
_Static_assert((HELD & (HELD - 1)) == 0, "HELD indexes a ring by masking");

/* Successors encoded but not yet numbered, oldest first: their root slots
   were prefetched when they were encoded and are added HELD successors
   later, in order, so ids stay in discovery order. The ring spans the
   states a thread expands in turn (one level, or a parallel chunk): the
   last successors of a state wait for the first ones of the next. */
typedef struct {
    uint32_t nheld, first;
    StoRoot root[HELD];
    uint32_t from[HELD];                /* the expanded state */
    uint32_t kth[HELD];                 /* the successor's index */
    uint32_t steps[HELD];               /* its program steps by that way */
} Held;

typedef struct {
    ChkRun *R;
    ChkSpace *sp;
    ChkLevel *L;
    int level, recovery;
    ChkVisitFn visit;
    void *ctx;
    uint32_t lo, hi, depth;             /* the level being expanded */
    int par;                            /* several threads */
    _Atomic uint32_t next;              /* next state to expand */
    _Atomic int stop;                   /* failure or timeout: stop now */
    _Atomic int enough;                 /* more than max-states found */
    uint32_t vcut;                      /* first visit that hit a limit */
    uint32_t ecut;                      /* first expansion limit */
    MdlError elimit;                    /* and its reason */
    uint32_t mcut;                      /* discoverer of state max-states */
    uint32_t limits;                    /* R->limits when it began */
    int dead;                           /* a state with no way on */
    _Atomic int back;                   /* an edge to this level or an
                                           earlier one */
    uint32_t *moved;                    /* parallel, per state of the level:
                                           transitions | MOVED_ERR */
    size_t capmoved;
    StoSeg disc;                        /* parallel: ~first discovery */
} Bfs;

typedef struct {
    Bfs *b;
    ChkWorker *w;                       /* parallel, else NULL */
    Model *m;
    const MdlState *cur;
    StoCursor *c;
    uint32_t i, k, seq;                 /* k: successors so far */
    uint32_t steps;                     /* program steps of state i */
    int failed;                         /* some step failed */
    Held *held;
} Exp;

/* A limit was met since the exploration began (a state's crash images, a
   level's cut, the timeout, memory), in it or in a recovery it ran. Not
   the check's status: a replay for a witness explores as far as the
   exploration it repeats, whatever ended the check. */
static int halted(const Bfs *b)
{
    return b->R->limits != b->limits;
}

static int logged(Exp *x, uint32_t step, const MdlError *e)
{
    ChkWorker *w = x->w;
    if (BASE_BUDGET_GROW(&x->b->R->mem, w->log, w->caplog, w->nlog + 1))
        return -1;
    w->log[w->nlog].state = x->i;
    w->log[w->nlog].seq = x->seq++;
    w->log[w->nlog].step = step;
    w->log[w->nlog].e = *e;
    w->nlog++;
    return 0;
}

static void fail(Bfs *b, ChkWorker *w)
{
    if (w)
        w->failed = 1;
    atomic_store(&b->stop, 1);
}

/* A limit met while expanding state x->i: it takes effect at the end of
   the level (whose visits go on). */
static void expansion_limit(Exp *x, const MdlError *e)
{
    Bfs *b = x->b;
    if (x->w) {
        if (logged(x, MDL_STEP_NONE, e))
            fail(b, x->w);
    } else if (b->ecut == CHK_NONE) {
        b->ecut = x->i;
        b->elimit = *e;
    }
}

/* The least first discovery wins. disc holds its complement, so that a
   zeroed segment reads "none" and a larger value is a better one. 1 when
   this discovery was the least so far, 0 when not, -1 out of memory. */
static int discover(Bfs *b, uint32_t id, uint64_t key)
{
    _Atomic uint64_t *d;
    uint64_t want = ~key, have;
    if (sto_seg_ensure(&b->disc, id - b->hi))
        return -1;
    d = sto_seg_at(&b->disc, id - b->hi);
    have = atomic_load_explicit(d, memory_order_relaxed);
    while (have < want)
        if (atomic_compare_exchange_weak(d, &have, want))
            return 1;
    return 0;
}

/* A weighted space's steps of a new state (parallel): the discovery that
   was the least when it was made, kept until the level's commit, where
   the one still least names the state's steps. */
static int won(Bfs *b, ChkWorker *w, uint32_t id, uint64_t key,
               uint32_t steps)
{
    if (BASE_BUDGET_GROW(&b->R->mem, w->win, w->capwin, w->nwin + 1))
        return -1;
    w->win[w->nwin].key = key;
    w->win[w->nwin].t = id - b->hi;
    w->win[w->nwin].steps = steps;
    w->nwin++;
    return 0;
}

/* Numbers the oldest held successor (encoding those after it has hidden
   the wait for its root slot). */
static void add_held(Bfs *b, ChkWorker *w, Held *q)
{
    ChkRun *R = b->R;
    uint32_t id, h = q->first;
    int r;
    assert(q->nheld > 0);
    q->first = (h + 1) & (HELD - 1);
    q->nheld--;
    r = sto_store_add(&b->sp->store, &q->root[h], &id);
    if (r == 0 && id < b->hi)
        atomic_store_explicit(&b->back, 1, memory_order_relaxed);
    if (r < 0) {
        fail(b, w);
    } else if (w) {
        uint64_t key = (uint64_t)q->from[h] << 32 | q->kth[h];
        if (r == 1 && (int64_t)id >= R->o.max_states)
            atomic_store(&b->enough, 1);
        if (id >= b->hi) {
            int least = discover(b, id, key);
            if (least < 0 || (least && b->sp->weighted &&
                              won(b, w, id, key, q->steps[h])))
                fail(b, w);
        }
    } else if (r == 1) {
        /* one thread: a new state is the next id, after its parent */
        assert(id >= b->hi && q->from[h] >= b->lo && q->from[h] < b->hi);
        if (chk_space_reserve(b->sp, id + 1)) {
            fail(b, w);
        } else {
            b->sp->parent[id] = q->from[h];
            if (b->sp->weighted)
                b->sp->steps[id] = q->steps[h];
        }
    }
}

static void add_all(Bfs *b, ChkWorker *w, Held *q)
{
    while (q->nheld && !atomic_load_explicit(&b->stop, memory_order_relaxed))
        add_held(b, w, q);
}

static int on_succ(void *ctx, uint32_t step, const MdlState *s)
{
    Exp *x = ctx;
    Bfs *b = x->b;
    ChkRun *R = b->R;
    Held *q = x->held;
    uint32_t k = x->k++;
    uint32_t h, steps = x->steps + (uint32_t)mdl_succ_steps(x->m);
    (void)step;
    if (!x->w)
        R->transitions++;
    /* The timeout and an interrupt, within one state's successors too;
       one thread applies the limit (chk_tick), the others stop. */
    if ((k & (CHK_POLL_SUCCS - 1)) == CHK_POLL_SUCCS - 1 && chk_must_stop(R)) {
        if (!x->w)
            chk_tick(R);
        atomic_store(&b->stop, 1);
    }
    if (atomic_load_explicit(&b->stop, memory_order_relaxed))
        return 1;
    if ((int64_t)steps > R->o.max_steps) {
        MdlError e;
        memset(&e, 0, sizeof e);
        e.kind = MDL_E_LIMIT;
        e.gtid = e.kernel = -1;
        snprintf(e.msg, sizeof e.msg, "max-steps (%lld) reached",
                 (long long)R->o.max_steps);
        expansion_limit(x, &e);
        return 0;
    }
    if (q->nheld == HELD)
        add_held(b, x->w, q);
    h = (q->first + q->nheld) & (HELD - 1);
    if (sto_store_encode(&b->sp->store, x->c, x->cur, s, &q->root[h])) {
        fail(b, x->w);
        return 1;
    }
    q->from[h] = x->i;
    q->kth[h] = k;
    q->steps[h] = steps;
    q->nheld++;
    return 0;
}

static void on_err(void *ctx, uint32_t step, const MdlError *e)
{
    Exp *x = ctx;
    Bfs *b = x->b;
    x->failed = 1;
    if (e->kind == MDL_E_LIMIT) {
        expansion_limit(x, e);
    } else if (x->w) {
        if (logged(x, step, e))
            fail(b, x->w);
    } else {
        chk_space_set_end(b->sp, x->i);
        chk_error_at(b->R, b->level, b->recovery, x->i, x->steps, step, e);
    }
}

/* The program steps of state i of the level being expanded. */
static uint32_t steps_of(const Bfs *b, uint32_t i)
{
    return b->sp->weighted ? b->sp->steps[i] : b->depth;
}

/* Expands state i, decoded in cur through cursor c, leaving the last of
   its successors in q: its number of successors, | MOVED_ERR if some step
   fails. */
static uint32_t expand(Bfs *b, ChkWorker *w, Model *m, StoCursor *c,
                       const MdlState *cur, uint32_t i, Held *q)
{
    Exp x;
    memset(&x, 0, sizeof x);
    x.b = b;
    x.w = w;
    x.m = m;
    x.steps = steps_of(b, i);
    x.cur = cur;
    x.c = c;
    x.i = i;
    x.held = q;
    mdl_successors(m, cur, on_succ, on_err, &x);
    return x.k | (x.failed ? MOVED_ERR : 0);
}

/* Prefetches for the states after i of the level (decoding waits on
   misses otherwise). */
static void ahead(const Bfs *b, uint32_t i)
{
    if (i + 1 < b->hi)
        sto_store_prefetch(&b->sp->store, i + 1, 0);
    if (i + 2 < b->hi)
        sto_store_prefetch(&b->sp->store, i + 2, 1);
}

/* ---- one thread ------------------------------------------------------------ */

/* The states of the level in order; successors still held on return. A
   state whose successors may be one too many has them numbered at once,
   so the cut is the state that found state max-states, as without the
   ring: until then the states held could not have been too many. */
static void serial_states(Bfs *b, Held *q)
{
    ChkRun *R = b->R;
    ChkLevel *L = b->L;
    for (uint32_t i = b->lo; i < b->hi; i++) {
        int expanding = b->vcut == CHK_NONE && b->ecut == CHK_NONE &&
                        b->mcut == CHK_NONE;
        int r;
        sto_store_get(&b->sp->store, &L->cur, i, &L->state);
        ahead(b, i);
        r = b->visit(R, b->ctx, i, steps_of(b, i), &L->state);
        if (r < 0) {
            atomic_store(&b->stop, 1);
            return;
        }
        if (r == 1)
            chk_space_set_end(b->sp, i);
        if (halted(b))
            b->vcut = i;
        if (expanding) {
            uint32_t moved = expand(b, NULL, L->m ? L->m : R->m, &L->cur,
                                    &L->state, i, q);
            if (atomic_load(&b->stop))
                return;
            if (!moved && !chk_space_end(b->sp, i))
                b->dead = 1;
            if ((int64_t)chk_space_count(b->sp) + q->nheld > R->o.max_states) {
                add_all(b, NULL, q);
                if ((int64_t)chk_space_count(b->sp) > R->o.max_states)
                    b->mcut = i;
            }
        }
        if (b->vcut != CHK_NONE)
            return;
        if (chk_work(R) && halted(b)) {
            atomic_store(&b->stop, 1);
            return;
        }
    }
}

static void serial_level(Bfs *b)
{
    Held q;
    q.nheld = q.first = 0;
    serial_states(b, &q);
    add_all(b, NULL, &q);
}

/* ---- several threads ---------------------------------------------------------- */

/* Thread 0: every state of the level, in order. */
static void visits(Bfs *b)
{
    ChkRun *R = b->R;
    ChkLevel *L = b->L;
    for (uint32_t i = b->lo; i < b->hi; i++) {
        int r;
        sto_gate_enter(&R->gate);
        sto_store_get(&b->sp->store, &L->cur, i, &L->state);
        ahead(b, i);
        sto_gate_leave(&R->gate);
        r = b->visit(R, b->ctx, i, steps_of(b, i), &L->state);
        if (r < 0) {
            atomic_store(&b->stop, 1);
            return;
        }
        if (r == 1)
            chk_space_set_end(b->sp, i);
        if (halted(b)) {
            b->vcut = i;
            return;
        }
        if (chk_work(R) && halted(b)) {
            atomic_store(&b->stop, 1);
            return;
        }
    }
}

static void expansions(Bfs *b, int t)
{
    ChkRun *R = b->R;
    ChkWorker *w = &R->wk[t];
    for (;;) {
        uint32_t a, e;
        Held q;
        if (atomic_load(&b->stop) || atomic_load(&b->enough))
            return;
        a = atomic_fetch_add(&b->next, CHUNK);
        if (a >= b->hi)
            return;
        e = b->hi - a < CHUNK ? b->hi : a + CHUNK;
        q.nheld = q.first = 0;
        sto_gate_enter(&R->gate);
        for (uint32_t i = a; i < e && !w->failed &&
                             !atomic_load_explicit(&b->stop,
                                                   memory_order_relaxed); i++) {
            sto_store_get(&b->sp->store, &w->cur, i, &w->s);
            ahead(b, i);
            b->moved[i - b->lo] = expand(b, w, w->m, &w->cur, &w->s, i, &q);
        }
        add_all(b, w, &q);
        sto_gate_leave(&R->gate);
        if (t == 0) {
            chk_tick(R);
            if (halted(b))
                atomic_store(&b->stop, 1);
        }
    }
}

static void level_job(void *arg, int t)
{
    Bfs *b = arg;
    if (t == 0)
        visits(b);
    expansions(b, t);
}

static int cmp_log(const void *x, const void *y)
{
    const ChkErrLog *a = x, *b = y;
    if (a->state != b->state)
        return a->state < b->state ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

typedef struct {
    uint64_t key;                       /* parent << 32 | successor index */
    uint32_t t;                         /* provisional id - hi */
    uint32_t steps;                     /* weighted: its program steps */
} Disc;

static int cmp_disc(const void *x, const void *y)
{
    const Disc *a = x, *b = y;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* After a parallel level: the logged errors up to the cut, and the new
   states numbered as one thread would have numbered them. 0, or -1 out
   of memory. */
static int parallel_commit(Bfs *b)
{
    ChkRun *R = b->R;
    ChkSpace *sp = b->sp;
    ChkErrLog *all = NULL;
    Disc *d = NULL;
    uint32_t *perm = NULL, *tmp = NULL, *wst = NULL;
    size_t nall = 0, capall = 0, nd = 0;
    uint32_t n = atomic_load(&sp->store.nroot), cut = b->vcut, keep;
    int r = -1;
    if (sp->weighted) {
        wst = base_budget_alloc(&R->mem, ((size_t)(n - b->hi) + 1) * sizeof *wst);
        if (!wst)
            goto out;
    }
    for (int t = 0; t < R->nwk; t++) {
        ChkWorker *w = &R->wk[t];
        for (size_t j = 0; wst && j < w->nwin; j++) {
            const ChkWin *x = &w->win[j];
            if (~*(uint64_t *)sto_seg_at(&b->disc, x->t) == x->key)
                wst[x->t] = x->steps;
        }
        w->nwin = 0;
        if (w->failed || BASE_BUDGET_GROW(&R->mem, all, capall, nall + w->nlog + 1))
            goto out;
        if (w->nlog)                    /* w->log is NULL until used */
            memcpy(all + nall, w->log, w->nlog * sizeof *all);
        nall += w->nlog;
        w->nlog = 0;
    }
    qsort(all, nall, sizeof *all, cmp_log);
    for (size_t j = 0; j < nall; j++)
        if (all[j].e.kind == MDL_E_LIMIT) {
            b->ecut = all[j].state;
            b->elimit = all[j].e;
            break;
        }
    if (b->ecut < cut)
        cut = b->ecut;
    /* the new states, by first discovery, found up to the cut */
    d = base_budget_alloc(&R->mem, ((size_t)(n - b->hi) + 1) * sizeof *d);
    if (!d)
        goto out;
    for (uint32_t t = 0; t < n - b->hi; t++) {
        uint64_t *dt = sto_seg_at(&b->disc, t), key = ~*dt;
        *dt = 0;
        if ((uint32_t)(key >> 32) <= cut) {
            d[nd].key = key;
            d[nd].t = t;
            d[nd].steps = wst ? wst[t] : 0;
            nd++;
        }
    }
    qsort(d, nd, sizeof *d, cmp_disc);
    keep = (uint32_t)nd;
    assert(nd <= (size_t)(n - b->hi));
    if ((int64_t)b->hi + keep > R->o.max_states) {
        assert((int64_t)b->hi <= R->o.max_states);
        keep = (uint32_t)(R->o.max_states - b->hi);
        assert(keep < nd);
        b->mcut = (uint32_t)(d[keep].key >> 32);
        cut = b->mcut;
    }
    for (size_t j = 0; j < nall && all[j].state <= cut; j++)
        if (all[j].e.kind != MDL_E_LIMIT) {
            chk_space_set_end(sp, all[j].state);
            chk_error_at(R, b->level, b->recovery, all[j].state,
                         steps_of(b, all[j].state), all[j].step, &all[j].e);
        }
    for (uint32_t i = b->lo; i < b->hi && i <= cut; i++) {
        R->transitions += b->moved[i - b->lo] & ~MOVED_ERR;
        if (!b->moved[i - b->lo] && !chk_space_end(sp, i))
            b->dead = 1;
    }
    perm = base_budget_alloc(&R->mem, ((size_t)keep + 1) * sizeof *perm);
    tmp = base_budget_alloc(&R->mem, ((size_t)keep + 1) * sizeof *tmp);
    if (!perm || !tmp || chk_space_reserve(sp, b->hi + keep))
        goto out;
    for (uint32_t j = 0; j < keep; j++) {
        /* by first discovery: the parent is a state of this level */
        assert(!j || d[j - 1].key < d[j].key);
        assert((d[j].key >> 32) >= b->lo && (d[j].key >> 32) < b->hi);
        perm[j] = d[j].t;
        sp->parent[b->hi + j] = (uint32_t)(d[j].key >> 32);
        if (wst)
            sp->steps[b->hi + j] = d[j].steps;
    }
    sto_store_renumber(&sp->store, b->hi, keep, perm, tmp);
    if (b->hi + keep < n)
        sto_store_truncate(&sp->store, b->hi + keep);
    r = 0;
out:
    base_budget_free(&R->mem, all);
    base_budget_free(&R->mem, d);
    base_budget_free(&R->mem, perm);
    base_budget_free(&R->mem, tmp);
    base_budget_free(&R->mem, wst);
    return r;
}

/* ---- levels ----------------------------------------------------------------- */

/* Whether the main program (part 0) or recovery (1) can loop: without a
   backward branch its state graph is acyclic. */
static int has_loop(const LitProgram *p, int part)
{
    int n = part ? p->nrecover : p->nmain;
    const int32_t *seq = part ? p->recover_seq : p->main_seq;
    for (int i = 0; i < n; i++) {
        const LitKernel *k = &p->kernels[seq[i]];
        for (int j = 0; j < k->nbodies; j++)
            for (int32_t q = 0; q < k->bodies[j].ninstr; q++) {
                const LitInstr *in = &k->bodies[j].code[q];
                if ((lit_opflags(in->op) & LIT_OPF_BRANCH) && in->target <= q)
                    return 1;
            }
    }
    return 0;
}

/* Without a state that has no way on, a livelock needs a cycle, and a
   cycle needs an edge back to a state of the same level or an earlier one
   (every other edge goes from one level to the next): a program whose loops
   never revisit a state (counted loops, mostly) skips the fixpoint. */
static void livelock(Bfs *b)
{
    ChkRun *R = b->R;
    uint32_t first;
    MdlError e;
    if (R->replay ||
        (!b->dead && (!has_loop(R->p, b->recovery) || !atomic_load(&b->back))))
        return;
    first = chk_live(R, b->level);
    if (first == CHK_NONE || halted(b))
        return;
    memset(&e, 0, sizeof e);
    e.kind = MDL_E_LIVELOCK;
    e.gtid = e.kernel = -1;
    snprintf(e.msg, sizeof e.msg,
             "a reachable state from which no execution can terminate");
    chk_error_at(R, b->level, b->recovery, first,
                 chk_space_steps(b->sp, first), MDL_STEP_NONE, &e);
}

/* The level's limits, in the order one thread meets them: an expansion
   limit at or before the state that found one state too many first. */
static void level_limits(Bfs *b)
{
    ChkRun *R = b->R;
    char msg[64];
    if (b->mcut != CHK_NONE) {
        sto_store_truncate(&b->sp->store, (uint32_t)R->o.max_states);
        if (b->ecut > b->mcut) {
            snprintf(msg, sizeof msg, "max-states (%lld) reached",
                     (long long)R->o.max_states);
            chk_limit(R, msg);
        }
    }
    if (b->ecut != CHK_NONE)
        chk_limit(R, b->elimit.msg);
}

void chk_explore(ChkRun *R, int level, int recovery, MdlState *init,
                 ChkVisitFn visit, void *ctx)
{
    Bfs b;
    ChkSpace *sp = &R->lvl[level].space;
    uint32_t id;
    memset(&b, 0, sizeof b);
    b.R = R;
    b.limits = R->limits;
    b.sp = sp;
    b.L = &R->lvl[level];
    b.level = level;
    b.recovery = recovery;
    b.visit = visit;
    b.ctx = ctx;
    b.L->cut = 0;
    b.par = level == 0 && R->nwk > 1;   /* for levels of PAR_MIN states */
    if (b.par)
        sto_seg_init(&b.disc, &R->mem, sizeof(uint64_t));
    if (chk_space_reset(sp) ||
        sto_store_put(&sp->store, &b.L->cur, NULL, init, &id) < 0 ||
        chk_space_reserve(sp, 1) || chk_space_level(sp, 0)) {
        chk_fail(R);
        goto out;
    }
    sto_cursor_forget(&b.L->cur);       /* init may have been its buffer */
    sp->parent[0] = CHK_NONE;
    if (sp->weighted)
        sp->steps[0] = 0;
    for (b.depth = 0;; b.depth++) {
        b.lo = sp->level[b.depth];
        b.hi = chk_space_count(sp);
        assert(b.depth + 1 == sp->nlevel && b.lo < b.hi);  /* not empty */
        b.vcut = b.ecut = b.mcut = CHK_NONE;
        if (level == 0 && (int64_t)b.depth > R->main_depth)
            R->main_depth = b.depth;
        if (b.par && b.hi - b.lo >= PAR_MIN) {
            if (b.capmoved < b.hi - b.lo) {
                base_budget_free(&R->mem, b.moved);
                b.capmoved = (size_t)(b.hi - b.lo) * 2;
                b.moved = base_budget_alloc(&R->mem, b.capmoved * sizeof *b.moved);
                if (!b.moved) {
                    chk_fail(R);
                    break;
                }
            }
            atomic_store(&b.next, b.lo);
            R->gate.nthreads = R->nwk;  /* shared only while they run */
            chk_pool_run(&R->pool, level_job, &b);
            R->gate.nthreads = 1;
            if (!atomic_load(&b.stop) && parallel_commit(&b))
                atomic_store(&b.stop, 1);
        } else {
            serial_level(&b);
        }
        if (atomic_load(&b.stop)) {
            /* A worker that stopped for the timeout or an interrupt left
               the limit to this thread. */
            if (!halted(&b) && chk_must_stop(R))
                chk_tick(R);
            if (!halted(&b))            /* else a limit stopped it */
                chk_fail(R);
            break;
        }
        level_limits(&b);
        if (R->max_total && R->states + chk_space_count(sp) > R->max_total) {
            char msg[64];
            snprintf(msg, sizeof msg, "its budget (%lld states) reached",
                     (long long)R->max_total);
            chk_limit(R, msg);
        }
        if (halted(&b) || chk_space_count(sp) > b.L->until ||
            (level == 0 && R->goals && chk_short_settled(R, b.depth)))
            break;
        if (chk_space_count(sp) == b.hi) {
            livelock(&b);
            break;
        }
        if (b.depth >= b.L->bound) {     /* the states past it are not wanted */
            assert(!sp->weighted);
            b.L->cut = 1;
            break;
        }
        if (chk_space_level(sp, b.hi)) {
            chk_fail(R);
            break;
        }
    }
out:
    R->states += chk_space_count(sp);
    if (b.par)
        sto_seg_free(&b.disc);
    base_budget_free(&R->mem, b.moved);
}

/* ---- threads ---------------------------------------------------------------- */

int chk_workers_init(ChkRun *R, int nthreads, char *err, size_t errlen)
{
    uint32_t mw = mdl_max_words(R->m);
    R->wk = base_calloc((size_t)nthreads, sizeof *R->wk);
    if (!R->wk)
        goto oom;
    R->nwk = nthreads;
    for (int t = 0; t < nthreads; t++) {
        ChkWorker *w = &R->wk[t];
        char merr[256];
        w->m = t ? mdl_new(R->p, R->o.model, R->mode, merr, sizeof merr)
                 : R->m;
        w->s.cap = mw;
        w->s.w = base_calloc(mw, sizeof *w->s.w);
        if (!w->m || !w->s.w ||
            sto_cursor_init(&w->cur, &R->lvl[0].space.store))
            goto oom;
    }
    if (chk_pool_start(&R->pool, nthreads))
        goto oom;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

void chk_workers_free(ChkRun *R)
{
    if (R->pool.nthreads)
        chk_pool_stop(&R->pool);
    for (int t = 0; t < R->nwk; t++) {
        ChkWorker *w = &R->wk[t];
        if (t)
            mdl_free(w->m);
        base_free(w->s.w);
        sto_cursor_free(&w->cur);
        base_budget_free(&R->mem, w->log);
        base_budget_free(&R->mem, w->win);
    }
    base_free(R->wk);
    R->wk = NULL;
    R->nwk = 0;
}
