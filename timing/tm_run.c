/*
 * tm_run.c — the timed run (timing.h): set-up from the configuration, the
 * event loop, kernel joins, and how a run ends (finished, a runtime error
 * of the program, a deadlock, the step bound). The semantics come from the
 * strict model stepped in place (mdl_step): strict's default mode persists
 * every store at once and keeps no pending set, so it is the cheapest
 * faithful engine for values, control flow and barriers; what each model's
 * persistency costs is the business of tm_pbar.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "timing/timing_int.h"

/* ---- allocation: out of memory abandons the run (longjmp to tm_run) ---- */

void *tm_alloc(Tm *t, size_t n)
{
    void *p = base_arena_alloc(t->arena, n);
    if (!p)
        longjmp(t->oom, 1);
    return p;
}

void *tm_lalloc(Tm *t, size_t n)
{
    void *p = base_arena_alloc(t->larena, n);
    if (!p)
        longjmp(t->oom, 1);
    return p;
}

void tm_vec_push(Tm *t, TmVec *v, int32_t x)
{
    TM_GROW(t, v->v, v->cap, v->n + 1);
    v->v[v->n++] = x;
}

/* ---- events ---------------------------------------------------------------- */

static int ev_before(const TmEvent *a, const TmEvent *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* The heap order where an operation left an event at i: not before its
   parent, its children not before it (debug builds; the whole heap each
   time made a run of 3 * 10^5 CTAs quadratic). */
#ifdef GPMC_DEBUG
static void heap_check(const Tm *t, size_t i)
{
    if (i >= t->nheap)
        return;
    assert(i == 0 || !ev_before(&t->heap[i], &t->heap[(i - 1) / 2]));
    for (size_t c = 2 * i + 1; c <= 2 * i + 2 && c < t->nheap; c++)
        assert(!ev_before(&t->heap[c], &t->heap[i]));
}
#else
#define heap_check(t, i) ((void)0)
#endif

/* Time never runs back: an event is posted at or after the current
   cycle. */
void tm_post(Tm *t, Tick at, int kind, int32_t id)
{
    TmEvent e;
    size_t i;
    assert(at >= t->now && kind >= EV_WARP && kind <= EV_MC && id >= 0);
    TM_GROW(t, t->heap, t->capheap, t->nheap + 1);
    e.t = at;
    e.seq = t->evseq++;
    e.kind = kind;
    e.id = id;
    e.gen = t->gen;
    i = t->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!ev_before(&e, &t->heap[up]))
            break;
        t->heap[i] = t->heap[up];
        i = up;
    }
    t->heap[i] = e;
    heap_check(t, i);
}

static TmEvent pop(Tm *t)
{
    TmEvent top, last;
    size_t i = 0;
    assert(t->nheap > 0);
    top = t->heap[0];
    last = t->heap[--t->nheap];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= t->nheap)
            break;
        if (c + 1 < t->nheap && ev_before(&t->heap[c + 1], &t->heap[c]))
            c++;
        if (!ev_before(&t->heap[c], &last))
            break;
        t->heap[i] = t->heap[c];
        i = c;
    }
    if (t->nheap)
        t->heap[i] = last;
    /* the next event comes no earlier than this one */
    assert(!t->nheap || !ev_before(&t->heap[0], &top));
    heap_check(t, i);
    return top;
}

/* ---- ending a run ------------------------------------------------------------ */

void tm_error(Tm *t, int status, const char *fmt, ...)
{
    va_list ap;
    if (t->out->status != TM_OK)
        return;
    t->out->status = status;
    t->out->cycles = t->now;
    va_start(ap, fmt);
    vsnprintf(t->out->error, sizeof t->out->error, fmt, ap);
    va_end(ap);
}

static void stuck_cb(void *ctx, uint32_t step, const MdlError *e)
{
    Tm *t = ctx;
    if (step == MDL_STEP_NONE)
        tm_error(t, TM_ERROR, "%s: %s", mdl_err_names[e->kind], e->msg);
}

static int ignore_succ(void *ctx, uint32_t step, const MdlState *s)
{
    (void)ctx;
    (void)step;
    (void)s;
    return 0;
}

static const char *wait_name(const TmThread *th)
{
    if (th->coll)
        return th->coll == LIT_PBAR_WG ? "pbar.wg" : "pbar.kr";
    return th->mwait == 2 ? "grid.sync" : "bar.sync";
}

/* Nothing is left to happen and the program has not ended. Either the
   model itself is stuck (its message), or threads wait at a collective
   persist barrier of this model that the strict engine lets pass. */
static void stuck(Tm *t)
{
    int32_t held = -1;
    for (int32_t i = 0; i < t->nthr; i++)
        if (t->thr[i].coll && held < 0)
            held = i;
    if (held < 0) {
        mdl_successors(t->m, &t->s, ignore_succ, stuck_cb, t);
        tm_error(t, TM_ERROR, "deadlock: no thread can move");
        return;
    }
    for (int32_t i = 0; i < t->nthr; i++) {
        const TmThread *a = &t->thr[held], *b = &t->thr[i];
        int same = a->coll == LIT_PBAR_KR || t->L.cta[i] == t->L.cta[held];
        if (!same || b->done || b->coll == a->coll || (!b->coll && !b->mwait))
            continue;
        if (a->coll == LIT_PBAR_WG)
            tm_error(t, TM_ERROR, "barrier-divergence: barrier divergence"
                     " in CTA %d of %s: thread %d waits at %s, thread %d at %s",
                     (int)t->L.cta[held], t->k->name, (int)t->L.gtid[held],
                     wait_name(a), (int)t->L.gtid[i], wait_name(b));
        else
            tm_error(t, TM_ERROR, "barrier-divergence: barrier divergence"
                     " in %s: thread %d waits at %s, thread %d at %s",
                     t->k->name, (int)t->L.gtid[held], wait_name(a),
                     (int)t->L.gtid[i], wait_name(b));
        return;
    }
    tm_error(t, TM_ERROR, "deadlock: deadlock in %s: thread %d waits at "
             "%s and no thread can move", t->k->name, (int)t->L.gtid[held],
             wait_name(&t->thr[held]));
}

/* ---- joins ------------------------------------------------------------------- */

/* The launch the model has left is over once nothing of it is in flight:
   the implicit join waits for every thread's requests (an sfence by every
   thread) and for its persist barriers; background flushes go on. */
static void maybe_join(Tm *t)
{
    Tick end;
    if (!t->ended || t->live || t->blocked || t->held || t->busy_scopes)
        return;
    end = t->now > t->last_issue ? t->now : t->last_issue;
    t->ended = 0;
    for (int32_t i = 0; i < t->nwarp; i++)
        tm_warp_idle(t, &t->w[i], C_NONE, end);
    if (mdl_terminal(t->m, &t->s)) {
        t->done = 1;
        t->out->cycles = end;
        return;
    }
    if (tm_cta_launch(t, end))
        t->done = 1;
}

/* ---- the run ------------------------------------------------------------------ */

static Tick cycles_of(double n, double ghz_from, double core_ghz)
{
    Tick c = (Tick)ceil(n * core_ghz / ghz_from - 1e-9);
    return c < 1 ? 1 : c;
}

Tick tm_icnt(const Tm *t, int32_t icnt_cycles)
{
    Tick c = (Tick)ceil(icnt_cycles * t->icnt_ratio - 1e-9);
    return c < 1 ? 1 : c;
}

/* Row-buffer timings (specs/timing.md, "Memory controller"): a read that
   misses the open row takes the space's read latency in all (activate,
   column access, burst); a hit takes the column access and the burst;
   closing a row that was written first writes it back (write latency). */
static void configure_rows(Tm *t, const double *v, double core)
{
    double mem = v[LIT_CFG_MEM_GHZ];
    int32_t bursts = (t->line_bytes + (int32_t)v[LIT_CFG_BUS_BYTES] - 1) /
                     (int32_t)v[LIT_CFG_BUS_BYTES];
    const int rd[2] = {LIT_CFG_NVM_READ_NS, LIT_CFG_DRAM_READ_NS};
    const int wr[2] = {LIT_CFG_NVM_WRITE_NS, LIT_CFG_DRAM_WRITE_NS};
    t->burst = cycles_of(bursts, mem, core);
    t->cas = cycles_of(v[LIT_CFG_ROW_HIT_NS], 1, core);
    for (int sp = 0; sp < 2; sp++) {
        Tick a = cycles_of(v[rd[sp]], 1, core) - t->cas - t->burst;
        t->act[sp] = a > 0 ? a : 0;
        t->close[sp] = cycles_of(v[wr[sp]], 1, core);
    }
    t->row_lines = (int32_t)v[LIT_CFG_ROW_BYTES] / t->line_bytes;
    if (t->row_lines < 1)
        t->row_lines = 1;
}

/* Every latency in core cycles must stay at most TM_MAX_LATENCY, so that
   no sum of them over a run of TM_MAX_STEPS steps (a few events each)
   overflows a Tick: each key is in range on its own, but core_ghz = 1e9
   with nvm_write_ns = 1e9 is 10^18 cycles a write, and with icnt_ghz =
   1e-9 a crossbar traversal is 3.2 * 10^19, more than a Tick holds. Such
   a configuration is refused (an input error, TM_EINPUT), never
   saturated: a clamped latency would give costs that mean nothing. */
#define TM_MAX_LATENCY 4294967296.0     /* 2^32 core cycles, 2.4 s at 1.8 GHz */

static int latency_refused(const Tm *t, char *err, size_t errlen)
{
    const double *v = t->p->config.val;
    double core = v[LIT_CFG_CORE_GHZ], worst = 0;
    int line = (int)v[LIT_CFG_LINE_BYTES], bus = (int)v[LIT_CFG_BUS_BYTES];
    int flits = 1 + (line + TM_FLIT - 1) / TM_FLIT;
    const int ns[] = {LIT_CFG_NVM_READ_NS, LIT_CFG_NVM_WRITE_NS,
                      LIT_CFG_DRAM_READ_NS, LIT_CFG_DRAM_WRITE_NS,
                      LIT_CFG_ROW_HIT_NS, LIT_CFG_PCIE_NS};
    char what[160] = "";
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
        if (v[ns[i]] * core > worst) {
            worst = v[ns[i]] * core;
            snprintf(what, sizeof what, "%s = %g at core_ghz = %g",
                     lit_config_name(ns[i]), v[ns[i]], core);
        }
    double mem = (TM_MC_LAT + (line + bus - 1) / bus) * core /
                 v[LIT_CFG_MEM_GHZ];
    if (mem > worst) {
        worst = mem;
        snprintf(what, sizeof what, "mem_ghz = %g at core_ghz = %g",
                 v[LIT_CFG_MEM_GHZ], core);
    }
    double icnt = (flits > TM_ICNT_LAT ? flits : TM_ICNT_LAT) * core /
                  v[LIT_CFG_ICNT_GHZ];
    if (icnt > worst) {
        worst = icnt;
        snprintf(what, sizeof what, "icnt_ghz = %g at core_ghz = %g",
                 v[LIT_CFG_ICNT_GHZ], core);
    }
    double link = line * core / v[LIT_CFG_PCIE_GBPS];
    if (v[LIT_CFG_PM_PATH] != 0 && link > worst) {
        worst = link;
        snprintf(what, sizeof what, "pcie_gbps = %g at core_ghz = %g",
                 v[LIT_CFG_PCIE_GBPS], core);
    }
    if (worst <= TM_MAX_LATENCY)
        return 0;
    snprintf(err, errlen, "config: %s makes one access take %.3g core"
             " cycles; the timing model counts at most %.0f", what, worst,
             TM_MAX_LATENCY);
    return 1;
}

static void configure(Tm *t)
{
    const double *v = t->p->config.val;
    double core = v[LIT_CFG_CORE_GHZ];
    t->icnt_ratio = core / v[LIT_CFG_ICNT_GHZ];
    t->icnt_lat = tm_icnt(t, TM_ICNT_LAT);
    t->pcie = v[LIT_CFG_PM_PATH] != 0;
    t->pcie_lat = cycles_of(v[LIT_CFG_PCIE_NS], 1, core);
    t->pcie_cyc_byte = core / v[LIT_CFG_PCIE_GBPS];
    t->mc_lat = cycles_of(TM_MC_LAT, v[LIT_CFG_MEM_GHZ], core);
    t->mc_occ = cycles_of(1, v[LIT_CFG_MEM_GHZ], core);
    t->line_bytes = (int32_t)v[LIT_CFG_LINE_BYTES];
    t->nsm = (int32_t)v[LIT_CFG_SMS];
    t->npart = (int32_t)v[LIT_CFG_L2_PARTITIONS];
    t->nctrl = (int32_t)v[LIT_CFG_CONTROLLERS];
    t->nbank = (int32_t)v[LIT_CFG_NVM_BANKS];
    t->wpq_cap = (int32_t)v[LIT_CFG_WPQ_ENTRIES];
    /* Watermarks beyond the queue are clamped to it (specs/timing.md). */
    t->wpq_high = (int32_t)v[LIT_CFG_WPQ_HIGH] < t->wpq_cap
                      ? (int32_t)v[LIT_CFG_WPQ_HIGH] : t->wpq_cap;
    t->wpq_low = (int32_t)v[LIT_CFG_WPQ_LOW] < t->wpq_high
                     ? (int32_t)v[LIT_CFG_WPQ_LOW] : t->wpq_high - 1;
    t->cta_per_sm = (int32_t)v[LIT_CFG_CTA_PER_SM];
    t->threads_per_sm = (int32_t)v[LIT_CFG_THREADS_PER_SM];
    t->volatile_wpq = v[LIT_CFG_WPQ] != 0;
    t->wt_ack_nvm = v[LIT_CFG_WT_ACK] == 0;
    t->pm_lines = t->p->pm_lines;
    configure_rows(t, v, core);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run(Tm *t)
{
    mdl_init_main(t->m, &t->s);
    if (mdl_terminal(t->m, &t->s) || tm_cta_launch(t, 0))
        t->done = 1;
    while (t->nheap && t->out->status == TM_OK) {
        TmEvent e = pop(t);
        assert(e.t >= t->now);
        t->now = e.t;
        switch (e.kind) {
        case EV_WARP:
            if (e.gen == t->gen && !t->done)
                tm_warp_event(t, e.id);
            break;
        case EV_REQ:
            tm_req_event(t, e.id);
            break;
        default:
            tm_mc_event(t, e.id);
            break;
        }
        if (!t->done)
            maybe_join(t);
        if (t->steps > t->max_steps)
            tm_error(t, TM_LIMIT, "limit: more than %lld thread steps "
                     "(a loop that never ends?)", (long long)t->max_steps);
        if (t->deadline > 0 && !(++t->polls & 1023) && now() > t->deadline)
            tm_error(t, TM_LIMIT, "timeout (%gs)", t->timeout_s);
    }
    if (!t->done && t->out->status == TM_OK)
        stuck(t);
    t->out->end_writebacks = tm_l2_dirty_pm(t);
    t->out->nvm_writes += t->out->end_writebacks;
    t->out->nvm_bytes += t->out->end_writebacks * t->line_bytes;
}

/* The run proper; out of memory anywhere in it comes back here. 0,
   TM_EINPUT (a configuration refused) or 1 (out of memory). */
static int guarded(Tm *t, char *err, size_t errlen)
{
    if (latency_refused(t, err, errlen))
        return TM_EINPUT;
    if (setjmp(t->oom)) {
        snprintf(err, errlen, "out of memory in the timed run");
        return 1;
    }
    configure(t);
    t->s.cap = mdl_max_words(t->m);
    t->s.w = tm_alloc(t, t->s.cap * sizeof *t->s.w);
    t->stamp = tm_alloc(t, ((size_t)t->pm_lines + 1) * sizeof *t->stamp);
    tm_mem_init(t);
    tm_mc_init(t);
    run(t);
    return 0;
}

int tm_run(const LitProgram *p, int model, int64_t max_steps, TmCosts *out,
           char *err, size_t errlen)
{
    return tm_run_timed(p, model, max_steps, 0, out, err, errlen);
}

/* The default step bound: TM_MAX_STEPS, and TM_STEPS_PER_THREAD more for
   each thread the kernels declare, so that a document-sized grid (Parboil's
   lbm: 2.16 M threads of about 250 steps) runs whole while a loop that
   never ends is still caught. */
static int64_t default_steps(const LitProgram *p)
{
    int64_t n = 0;
    for (int32_t k = 0; k < p->nkernels; k++)
        n += (int64_t)p->kernels[k].grid * p->kernels[k].block;
    return TM_MAX_STEPS + TM_STEPS_PER_THREAD * n;
}

int tm_run_timed(const LitProgram *p, int model, int64_t max_steps,
                 double timeout_s, TmCosts *out, char *err, size_t errlen)
{
    Tm *t;
    int rc;
    memset(out, 0, sizeof *out);
    if (model < 0 || model >= LIT_NMODELS) {
        snprintf(err, errlen, "unknown model %d", model);
        return 1;
    }
    t = base_calloc(1, sizeof *t);
    if (!t || !(t->arena = base_arena_new())) {
        base_free(t);
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    t->p = p;
    t->kind = model;
    t->pol = mdl_policy(model);
    t->hw = mdl_hw_hierarchy(&t->p->config);
    t->max_steps = max_steps > 0 ? max_steps : default_steps(p);
    t->timeout_s = timeout_s;
    t->deadline = timeout_s > 0 ? now() + timeout_s : 0;
    t->out = out;
    t->m = mdl_new(p, LIT_STRICT, MDL_ONE, err, errlen);
    rc = !t->m ? (strcmp(err, MDL_OOM) ? TM_EINPUT : 1)
               : guarded(t, err, errlen);
    if (rc && t->m)
        memset(out, 0, sizeof *out);
    tm_cta_free(t);
    base_free(t->rq);
    base_free(t->b);
    base_free(t->heap);
    base_free(t->psync.v);
    tm_pipe_free(t);
    base_free(t->lines);
    mdl_free(t->m);
    base_arena_free(t->larena);
    base_arena_free(t->arena);
    base_free(t);
    return rc;
}
