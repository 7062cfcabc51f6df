/*
 * tm_cta.c — kernel launches and CTA occupancy.
 *
 * An SM holds at most cap = min(cta_per_sm, threads_per_sm / block) CTAs
 * of a launch at once (block: the kernel's threads per CTA, idle ones
 * included, as a GPU reserves them). The first wave goes round-robin, CTA c
 * on SM c mod sms, up to cap per SM; the others wait in CTA order, and each
 * time a CTA retires (every thread has finished and none is inside a persist
 * action or a collective wait) the next waiting CTA starts on the SM it
 * left, at that cycle. So a large grid runs in waves, and what holds a CTA
 * on its SM (a persist barrier at its end) delays the CTAs behind it.
 *
 * A kernel whose CTAs must all be resident at once (grid.sync, or pbar.kr
 * where the model makes it collective) and does not fit ends the run with
 * an `occupancy` error, as a cooperative launch of that size fails on a
 * GPU; it would otherwise deadlock.
 */
#include "timing/timing_int.h"

void tm_cta_free(Tm *t)
{
    for (int32_t i = 0; i < t->nthr; i++) {
        base_free(t->thr[i].own.v);
        base_free(t->thr[i].obs.v);
        base_free(t->thr[i].bg.v);
    }
    t->nthr = 0;
}

/* The instruction that needs every CTA resident, or -1. */
static int cooperative(const Tm *t)
{
    for (int32_t b = 0; b < t->k->nbodies; b++) {
        const LitBody *body = &t->k->bodies[b];
        for (int32_t i = 0; i < body->ninstr; i++) {
            int op = body->code[i].op;
            if (op == LIT_GRID_SYNC ||
                (op == LIT_PBAR_KR && tm_pb_collective(t, op)))
                return op;
        }
    }
    return -1;
}

/* Starts CTA c on SM sm: its warps may issue from `at`. A CTA without a
   thread that runs retires at once and takes no room. */
static int start(Tm *t, int32_t c, int32_t sm, Tick at)
{
    TmScope *s = &t->scope[c];
    s->sm = sm;
    if (s->nfree == s->n) {
        s->retired = 1;
        return 0;
    }
    t->sm[sm].ctas++;
    for (int32_t w = s->warp0; w < s->warp0 + s->nwarps; w++) {
        t->w[w].sm = sm;
        t->w[w].ready = at;
        tm_wake(t, w, at);
    }
    return 1;
}

/* Waiting CTAs onto SM sm while it has room. */
static void fill(Tm *t, int32_t sm, Tick at)
{
    while (t->next_cta < t->ncta && t->sm[sm].ctas < t->cta_cap)
        start(t, t->next_cta++, sm, at);
}

void tm_cta_check(Tm *t, int32_t c)
{
    TmScope *s = &t->scope[c];
    if (s->retired || s->sm < 0 || s->nfree != s->n)
        return;
    s->retired = 1;
    t->sm[s->sm].ctas--;
    fill(t, s->sm, t->now);
}

/* Threads, warps and scopes of the model's current launch. */
static void build(Tm *t, Tick at)
{
    const MdlLaunchView *L = &t->L;
    const LitKernel *k = t->k;
    int32_t nw = 0, maxw = 1;
    t->thr = tm_lalloc(t, ((size_t)L->nthreads + 1) * sizeof *t->thr);
    t->w = tm_lalloc(t, ((size_t)L->nthreads + 1) * sizeof *t->w);
    t->scope = tm_lalloc(t, ((size_t)L->ncta + 1) * sizeof *t->scope);
    t->cta_bar = tm_lalloc(t, ((size_t)L->ncta + 1) * sizeof *t->cta_bar);
    t->nthr = L->nthreads;
    for (int32_t c = 0; c <= L->ncta; c++)
        t->scope[c].sm = -1;
    /* Warps: runs of a CTA's slots with the same tid / warp. */
    for (int32_t i = 0; i < L->nthreads; i++) {
        int32_t tid = L->gtid[i] % k->block, c = L->cta[i];
        TmWarp *w;
        if (i == 0 || c != L->cta[i - 1] ||
            tid / k->warp != (L->gtid[i - 1] % k->block) / k->warp) {
            w = &t->w[nw];
            w->first = i;
            w->cta = c;
            w->sm = -1;
            w->ready = at;
            w->sched = TICK_NONE;
            w->wait_reg = -1;
            if (!t->scope[c].nwarps)
                t->scope[c].warp0 = nw;
            t->scope[c].nwarps++;
            nw++;
        }
        w = &t->w[nw - 1];
        w->n++;
        if (w->n > maxw)
            maxw = w->n;
        t->thr[i].warp = nw - 1;
    }
    t->nwarp = nw;
    {
        size_t nr = (size_t)k->nregs + 1;
        int32_t *pend = tm_lalloc(t, (size_t)nw * nr * sizeof *pend);
        Tick *ready = tm_lalloc(t, (size_t)nw * nr * sizeof *ready);
        for (int32_t i = 0; i < nw; i++) {
            t->w[i].reg_pending = pend + (size_t)i * nr;
            t->w[i].reg_ready = ready + (size_t)i * nr;
        }
    }
    t->grp = tm_lalloc(t, (size_t)maxw * sizeof *t->grp);
    t->dec = tm_lalloc(t, (size_t)maxw * sizeof *t->dec);
    for (int32_t c = 0; c < L->ncta; c++) {
        t->scope[c].first = L->cta_first[c];
        t->scope[c].n = L->cta_count[c];
        t->scope[c].op = LIT_PBAR_WG;
    }
    t->scope[L->ncta].n = L->nthreads;
    t->scope[L->ncta].op = LIT_PBAR_KR;
    for (int32_t i = 0; i < L->nthreads; i++) {
        t->thr[i].done = !mdl_thread_ready(t->m, &t->s, i);
        tm_thr_update(t, i);
    }
}

int tm_cta_launch(Tm *t, Tick at)
{
    int op;
    tm_cta_free(t);
    base_arena_free(t->larena);
    t->larena = base_arena_new();
    if (!t->larena)
        longjmp(t->oom, 1);
    mdl_launch_view(t->m, &t->s, &t->L);
    t->k = &t->p->kernels[t->L.kernel];
    t->launch = mdl_launch_index(t->m, &t->s);
    t->gen++;
    t->ncta = t->L.ncta;
    t->grid_wait = 0;
    t->ended = 0;
    t->now = at;
    t->cta_cap = t->threads_per_sm / t->k->block;
    if (t->cta_cap > t->cta_per_sm)
        t->cta_cap = t->cta_per_sm;
    if (t->cta_cap < 1) {
        tm_error(t, TM_ERROR, "occupancy: a CTA of %s has %d threads, more "
                 "than threads_per_sm = %d", t->k->name, (int)t->k->block,
                 (int)t->threads_per_sm);
        return 1;
    }
    op = cooperative(t);
    if (op >= 0 && t->ncta > (int64_t)t->cta_cap * t->nsm) {
        tm_error(t, TM_ERROR, "occupancy: %s uses %s, so its %d CTAs must "
                 "be resident at once, but at most %d fit (%d per SM on "
                 "sms = %d)", t->k->name,
                 op == LIT_GRID_SYNC ? "grid.sync" : "pbar.kr", (int)t->ncta,
                 (int)(t->cta_cap * t->nsm), (int)t->cta_cap, (int)t->nsm);
        return 1;
    }
    build(t, at);
    tm_l1_flush_all(t);
    t->next_cta = 0;
    for (int32_t sm = 0; sm < t->nsm; sm++)
        t->sm[sm].ctas = 0;
    /* The first wave, round-robin: CTA c on SM c mod sms. */
    for (int32_t r = 0; r < t->cta_cap && t->next_cta < t->ncta; r++)
        for (int32_t sm = 0; sm < t->nsm && t->next_cta < t->ncta; sm++)
            start(t, t->next_cta++, sm, at);
    for (int32_t sm = 0; sm < t->nsm; sm++)
        fill(t, sm, at);
    return 0;
}
