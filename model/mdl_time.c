/*
 * mdl_time.c — the timed run (model.h, "timing"): set-up from the
 * configuration, the event loop, kernel launches and joins, and how a run
 * ends (finished, a runtime error of the program, a deadlock, the step
 * bound). The semantics come from the strict model stepped in place
 * (mdl_step): strict's default mode persists every store at once and keeps
 * no pending set, so it is the cheapest faithful engine for values,
 * control flow and barriers; what each model's persistency costs is the
 * business of mdl_time_pbar.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/mdl_time_int.h"

const char *const mdl_cost_names[MDL_NCOSTS] = {
    "cycles", "stall_fence", "stall_pbar", "stall_bar", "stall_mem",
    "nvm_writes", "nvm_bytes", "l2_writebacks", "wpq_peak",
    "end_writebacks", "instructions"
};

static const size_t cost_offsets[MDL_NCOSTS] = {
    offsetof(MdlCosts, cycles), offsetof(MdlCosts, stall_fence),
    offsetof(MdlCosts, stall_pbar), offsetof(MdlCosts, stall_bar),
    offsetof(MdlCosts, stall_mem), offsetof(MdlCosts, nvm_writes),
    offsetof(MdlCosts, nvm_bytes), offsetof(MdlCosts, l2_writebacks),
    offsetof(MdlCosts, wpq_peak), offsetof(MdlCosts, end_writebacks),
    offsetof(MdlCosts, instructions)
};

int64_t mdl_cost_value(const MdlCosts *c, int metric)
{
    if (metric < 0 || metric >= MDL_NCOSTS)
        return 0;
    return *(const int64_t *)(const void *)((const char *)c +
                                            cost_offsets[metric]);
}

/* ---- allocation: out of memory abandons the run (longjmp to mdl_time) -- */

void *tm_alloc(Tm *t, size_t n)
{
    void *p = lit_arena_alloc(t->arena, n);
    if (!p)
        longjmp(t->oom, 1);
    return p;
}

static void *lalloc(Tm *t, size_t n)
{
    void *p = lit_arena_alloc(t->larena, n);
    if (!p)
        longjmp(t->oom, 1);
    return p;
}

void tm_grow(Tm *t, void **p, int32_t *cap, int32_t need, size_t elem)
{
    int64_t ncap = *cap < 16 ? 16 : *cap;
    void *q;
    if (need <= *cap)
        return;
    while (ncap < need)
        ncap *= 2;
    if (ncap > INT32_MAX || (size_t)ncap > SIZE_MAX / elem)
        longjmp(t->oom, 1);
    q = realloc(*p, (size_t)ncap * elem);
    if (!q)
        longjmp(t->oom, 1);
    *p = q;
    *cap = (int32_t)ncap;
}

void tm_vec_push(Tm *t, TmVec *v, int32_t x)
{
    tm_grow(t, (void **)&v->v, &v->cap, v->n + 1, sizeof *v->v);
    v->v[v->n++] = x;
}

/* ---- events ---------------------------------------------------------------- */

static int ev_before(const TmEvent *a, const TmEvent *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void tm_post(Tm *t, Tick at, int kind, int32_t id)
{
    TmEvent e;
    int32_t i;
    tm_grow(t, (void **)&t->heap, &t->capheap, t->nheap + 1, sizeof *t->heap);
    e.t = at;
    e.seq = t->evseq++;
    e.kind = kind;
    e.id = id;
    e.gen = t->gen;
    i = t->nheap++;
    while (i > 0) {
        int32_t up = (i - 1) / 2;
        if (!ev_before(&e, &t->heap[up]))
            break;
        t->heap[i] = t->heap[up];
        i = up;
    }
    t->heap[i] = e;
}

static TmEvent pop(Tm *t)
{
    TmEvent top = t->heap[0], last = t->heap[--t->nheap];
    int32_t i = 0;
    for (;;) {
        int32_t c = 2 * i + 1;
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
    return top;
}

/* ---- ending a run ------------------------------------------------------------ */

void tm_error(Tm *t, int status, const char *fmt, ...)
{
    va_list ap;
    if (t->out->status != MDL_TIME_OK)
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
        tm_error(t, MDL_TIME_ERROR, "%s: %s", mdl_err_names[e->kind], e->msg);
}

static void ignore_succ(void *ctx, uint32_t step, const MdlState *s)
{
    (void)ctx;
    (void)step;
    (void)s;
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
        tm_error(t, MDL_TIME_ERROR, "deadlock: no thread can move");
        return;
    }
    for (int32_t i = 0; i < t->nthr; i++) {
        const TmThread *a = &t->thr[held], *b = &t->thr[i];
        int same = a->coll == LIT_PBAR_KR || t->L->cta[i] == t->L->cta[held];
        if (!same || b->done || b->coll == a->coll || (!b->coll && !b->mwait))
            continue;
        if (a->coll == LIT_PBAR_WG)
            tm_error(t, MDL_TIME_ERROR, "barrier-divergence: barrier divergence"
                     " in CTA %d of %s: thread %d waits at %s, thread %d at %s",
                     (int)t->L->cta[held], t->k->name, (int)t->L->gtid[held],
                     wait_name(a), (int)t->L->gtid[i], wait_name(b));
        else
            tm_error(t, MDL_TIME_ERROR, "barrier-divergence: barrier divergence"
                     " in %s: thread %d waits at %s, thread %d at %s",
                     t->k->name, (int)t->L->gtid[held], wait_name(a),
                     (int)t->L->gtid[i], wait_name(b));
        return;
    }
    tm_error(t, MDL_TIME_ERROR, "deadlock: deadlock in %s: thread %d waits at "
             "%s and no thread can move", t->k->name, (int)t->L->gtid[held],
             wait_name(&t->thr[held]));
}

/* ---- launches ---------------------------------------------------------------- */

static void free_threads(Tm *t)
{
    for (int32_t i = 0; i < t->nthr; i++) {
        free(t->thr[i].own.v);
        free(t->thr[i].obs.v);
        free(t->thr[i].bg.v);
    }
    t->nthr = 0;
}

static void start_launch(Tm *t, Tick at)
{
    const MdlLaunch *L = mdl_launch_of(t->m, &t->s);
    const LitKernel *k = &t->p->kernels[L->kernel];
    int32_t nw = 0, maxw = 1;
    free_threads(t);
    lit_arena_free(t->larena);
    t->larena = lit_arena_new();
    if (!t->larena)
        longjmp(t->oom, 1);
    t->L = L;
    t->k = k;
    t->launch = mdl_launch_index(t->m, &t->s);
    t->gen++;
    t->ncta = L->ncta;
    t->thr = lalloc(t, ((size_t)L->nthreads + 1) * sizeof *t->thr);
    t->w = lalloc(t, ((size_t)L->nthreads + 1) * sizeof *t->w);
    t->scope = lalloc(t, ((size_t)L->ncta + 1) * sizeof *t->scope);
    t->cta_bar = lalloc(t, ((size_t)L->ncta + 1) * sizeof *t->cta_bar);
    t->nthr = L->nthreads;
    /* Warps: runs of a CTA's slots with the same tid / warp. */
    for (int32_t i = 0; i < L->nthreads; i++) {
        int32_t tid = L->gtid[i] % k->block;
        TmWarp *w;
        if (i == 0 || L->cta[i] != L->cta[i - 1] ||
            tid / k->warp != (L->gtid[i - 1] % k->block) / k->warp) {
            w = &t->w[nw++];
            w->first = i;
            w->cta = L->cta[i];
            w->sm = L->cta[i] % t->nsm;
            w->ready = at;
            w->sched = TICK_NONE;
            w->wait_reg = -1;
        }
        w = &t->w[nw - 1];
        w->n++;
        if (w->n > maxw)
            maxw = w->n;
        t->thr[i].warp = nw - 1;
    }
    t->nwarp = nw;
    t->grp = lalloc(t, (size_t)maxw * sizeof *t->grp);
    t->acc = lalloc(t, (size_t)maxw * sizeof *t->acc);
    for (int32_t c = 0; c < L->ncta; c++) {
        t->scope[c].first = L->cta_first[c];
        t->scope[c].n = L->cta_count[c];
        t->scope[c].op = LIT_PBAR_WG;
    }
    t->scope[L->ncta].n = L->nthreads;
    t->scope[L->ncta].op = LIT_PBAR_KR;
    t->grid_wait = 0;
    t->ended = 0;
    for (int32_t i = 0; i < L->nthreads; i++) {
        t->thr[i].done = !mdl_thread_ready(t->m, &t->s, i);
        tm_thr_update(t, i);
    }
    tm_l1_flush_all(t);
    for (int32_t i = 0; i < nw; i++)
        tm_wake(t, i, at);
}

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
    start_launch(t, end);
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

static void configure(Tm *t)
{
    const double *v = t->p->config.val;
    double core = v[LIT_CFG_CORE_GHZ];
    t->icnt_ratio = core / v[LIT_CFG_ICNT_GHZ];
    t->icnt_lat = tm_icnt(t, TM_ICNT_LAT);
    t->mc_lat = cycles_of(TM_MC_LAT, v[LIT_CFG_MEM_GHZ], core);
    t->mc_occ = cycles_of(1, v[LIT_CFG_MEM_GHZ], core);
    t->nvm_r = cycles_of(v[LIT_CFG_NVM_READ_NS], 1, core);
    t->nvm_w = cycles_of(v[LIT_CFG_NVM_WRITE_NS], 1, core);
    t->dram_r = cycles_of(v[LIT_CFG_DRAM_READ_NS], 1, core);
    t->dram_w = cycles_of(v[LIT_CFG_DRAM_WRITE_NS], 1, core);
    t->line_bytes = (int32_t)v[LIT_CFG_LINE_BYTES];
    t->wpl = t->p->words_per_line;
    t->nsm = (int32_t)v[LIT_CFG_SMS];
    t->npart = (int32_t)v[LIT_CFG_L2_PARTITIONS];
    t->nctrl = (int32_t)v[LIT_CFG_CONTROLLERS];
    t->nbank = (int32_t)v[LIT_CFG_NVM_BANKS];
    t->wpq_cap = (int32_t)v[LIT_CFG_WPQ_ENTRIES];
    t->volatile_wpq = v[LIT_CFG_WPQ] != 0;
    t->pm_lines = (t->p->pm_words + t->wpl - 1) / t->wpl;
}

static void run(Tm *t)
{
    mdl_init_main(t->m, &t->s);
    if (mdl_terminal(t->m, &t->s))
        t->done = 1;
    else
        start_launch(t, 0);
    while (t->nheap && t->out->status == MDL_TIME_OK) {
        TmEvent e = pop(t);
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
            tm_wpq_event(t, e.id);
            break;
        }
        if (!t->done)
            maybe_join(t);
        if (t->steps > t->max_steps)
            tm_error(t, MDL_TIME_LIMIT, "limit: more than %lld thread steps "
                     "(a loop that never ends?)", (long long)t->max_steps);
    }
    if (!t->done && t->out->status == MDL_TIME_OK)
        stuck(t);
    t->out->end_writebacks = tm_l2_dirty_pm(t);
    t->out->nvm_writes += t->out->end_writebacks;
    t->out->nvm_bytes += t->out->end_writebacks * t->line_bytes;
}

/* The run proper; out of memory anywhere in it comes back here. */
static int guarded(Tm *t, char *err, size_t errlen)
{
    if (setjmp(t->oom)) {
        snprintf(err, errlen, "out of memory in the timed run");
        return 1;
    }
    configure(t);
    t->s.cap = mdl_max_words(t->m);
    t->s.w = tm_alloc(t, t->s.cap * sizeof *t->s.w);
    t->stamp = tm_alloc(t, ((size_t)t->pm_lines + 1) * sizeof *t->stamp);
    tm_mem_init(t);
    run(t);
    return 0;
}

int mdl_time(const LitProgram *p, int model, int64_t max_steps,
             MdlCosts *out, char *err, size_t errlen)
{
    Tm *t;
    int rc;
    memset(out, 0, sizeof *out);
    if (model < 0 || model >= LIT_NMODELS) {
        snprintf(err, errlen, "unknown model %d", model);
        return 1;
    }
    t = calloc(1, sizeof *t);
    if (!t || !(t->arena = lit_arena_new())) {
        free(t);
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    t->p = p;
    t->kind = model;
    t->max_steps = max_steps > 0 ? max_steps : MDL_TIME_MAX_STEPS;
    t->out = out;
    t->m = mdl_new(p, LIT_STRICT, 0, err, errlen);
    rc = !t->m || guarded(t, err, errlen);
    if (rc && t->m)
        memset(out, 0, sizeof *out);
    free_threads(t);
    free(t->rq);
    free(t->b);
    free(t->heap);
    free(t->psync.v);
    free(t->lines);
    mdl_free(t->m);
    lit_arena_free(t->larena);
    lit_arena_free(t->arena);
    free(t);
    return rc;
}
