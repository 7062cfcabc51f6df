/*
 * mdl_hw_line.c — the hw model's default mode: one summary per line that
 * stands for every hardware state the literal semantics (mdl_hw_naive.c)
 * can be in after the same thread steps, so that no eviction, completion
 * or drain order is explored.
 *
 * A line's summary is a log e1..em of the writes to it since a base point
 * (each a st or an st.wt; atomics count as st), the contents v0 at the base
 * (v_j = v0 with e1..ej applied), a candidate set C and a write-through
 * bound W. Candidate j means "the last write-back of the line happened
 * right after ej" (j = 0: at the base point or before, when the line was
 * clean); with it the line is dirty now iff some st follows ej, the
 * write-throughs before ej have completed (a write-back completes older
 * ones first) and those after ej complete in order. The line's NVM is then
 * v_j with the write-throughs of e(j+1)..ek applied, for any k >= max(j,W).
 * Rules (s(i) = the last st at or before ei, 0 if none):
 *   st        append; add candidate m (a write-back right after it)
 *   st.wt     append; add candidate m if the line can be dirty (s(m-1) >
 *             min C); the writer's last write-through := m
 *   clwb/l2wb the thread's prune point := s(m) when s(m) > min C (in the
 *             candidates below s(m) the line is dirty at issue)
 *   fence     drop candidates below the thread's prune point (their
 *             request had to complete, writing back at m' >= issue); W :=
 *             max(W, the thread's last write-through)
 *   pbar      the scope's requests complete as by a fence; a line written
 *             by the scope since launch drops every dirty candidate
 *             (below s(m)): it is written back now, and m is a candidate
 * The kernel join (an sfence by every thread of the kernel) waits, when
 * the kernel's threads have requests outstanding, for a model event that
 * completes them all (mdl_hw_line_join_event): the state between the last
 * instruction and that event has the images of the literal states where
 * the requests are still completing.
 * After each hook: normalisation (a bound that can no longer prune is
 * zero), the volatile history (mdl_hw_frame.c), and rebasing (entries at
 * or below every candidate are folded into v0), which keeps the encoding
 * canonical.
 */
#include <string.h>

#include "model/mdl_hw.h"

#define LH_MAKE(m, w) ((uint64_t)(m) | (uint64_t)(w) << 8)
#define E_WORD(x) ((int32_t)((x) & 0xFFFFFFFFu))
#define E_KIND(x) ((int)((x) >> 32))

HwLine mdl_hw_line_get(const Hw *h, const MdlState *s, uint32_t pm_off, int l)
{
    uint64_t x = s->w[pm_off + h->r_lh + (uint32_t)l];
    HwLine ln;
    ln.m = (int)(x & 0xFF);
    ln.W = (int)((x >> 8) & 0xFF);
    ln.C = s->w[pm_off + h->r_lc + (uint32_t)l];
    return ln;
}

void mdl_hw_line_put(const Hw *h, MdlState *s, uint32_t pm_off, int l,
                     const HwLine *ln)
{
    mdl_set(s, pm_off + h->r_lh + (uint32_t)l,
            LH_MAKE(ln->m, ln->W));
    mdl_set(s, pm_off + h->r_lc + (uint32_t)l, ln->C);
}

int mdl_hw_line_nlog(const Hw *h, const MdlState *s, uint32_t pm_off)
{
    int n = 0;
    for (int32_t l = 0; l < h->nl; l++)
        n += (int)(s->w[pm_off + h->r_lh + (uint32_t)l] & 0xFF);
    return n;
}

uint32_t mdl_hw_line_log(const Hw *h, const MdlState *s, uint32_t pm_off,
                         int l)
{
    uint32_t at = pm_off + h->r_fixed;
    for (int32_t k = 0; k < l; k++)
        at += 2u * (uint32_t)(s->w[pm_off + h->r_lh + (uint32_t)k] & 0xFF);
    return at;
}

int mdl_hw_line_last_st(const Hw *h, const MdlState *s, uint32_t pm_off,
                        int l, int i)
{
    uint32_t at = mdl_hw_line_log(h, s, pm_off, l);
    for (; i > 0; i--)
        if (E_KIND(s->w[at + 2u * (uint32_t)(i - 1)]) == HW_ST)
            return i;
    return 0;
}

static int min_c(uint64_t c)
{
    return c ? __builtin_ctzll(c) : 64;
}

static void prune(HwLine *ln, int p)
{
    if (p > 0 && p < 64)
        ln->C &= ~((1ull << p) - 1);
}

void mdl_hw_line_init(Model *m, MdlState *s, uint32_t pm_off)
{
    const Hw *h = hw_of(m);
    for (int32_t i = 0; i < h->nw; i++)
        s->w[pm_off + h->r_base + (uint32_t)i] = s->w[pm_off + (uint32_t)i];
    for (int32_t l = 0; l < h->nl; l++)
        s->w[pm_off + h->r_lc + (uint32_t)l] = 1;
}

/* ---- thread words ------------------------------------------------------- */

static int pt_p(const HwStep *x, int t, int l)
{
    return (int)(x->s->w[hw_tw(x->L, t, x->h->t_pt + (uint32_t)l)] & 0xFF);
}

static int pt_wt(const HwStep *x, int t, int l)
{
    return (int)((x->s->w[hw_tw(x->L, t, x->h->t_pt + (uint32_t)l)] >> 8) &
                 0xFF);
}

static void pt_set(HwStep *x, int t, int l, int p, int wt)
{
    mdl_set(x->s, hw_tw(x->L, t, x->h->t_pt + (uint32_t)l),
            (uint64_t)p | (uint64_t)wt << 8);
}

/* ---- one hook call ------------------------------------------------------ */

/* The pre-step slot numbering, rebuilt from what earlier hooks of the same
   step left in info (removed: pre-step slots; created: current slot). */
static void orig_begin(HwStep *x)
{
    Hw *h = x->h;
    int n = mdl_hw_line_nlog(h, x->s, x->L->pm_off), k = 0;
    uint64_t removed = x->info ? x->info->removed : 0;
    int created = x->info ? x->info->created : -1;
    for (int i = 0; i < n; i++) {
        if (i == created) {
            h->orig[i] = -1;
            continue;
        }
        while (removed & (1ull << k))
            k++;
        h->orig[i] = (int16_t)k++;
    }
    x->norig = n;
    x->npre = n - (created >= 0 && created < n) +
              __builtin_popcountll(removed);
}

static void orig_insert(HwStep *x, int pos)
{
    Hw *h = x->h;
    memmove(&h->orig[pos + 1], &h->orig[pos],
            (size_t)(x->norig - pos) * sizeof *h->orig);
    h->orig[pos] = -1;
    x->norig++;
}

static void orig_remove(HwStep *x, int pos, int n)
{
    Hw *h = x->h;
    memmove(&h->orig[pos], &h->orig[pos + n],
            (size_t)(x->norig - pos - n) * sizeof *h->orig);
    x->norig -= n;
}

static void orig_end(HwStep *x)
{
    uint64_t kept = 0;
    if (!x->info)
        return;
    x->info->created = -1;
    for (int i = 0; i < x->norig; i++) {
        if (x->h->orig[i] < 0)
            x->info->created = i;
        else
            kept |= 1ull << x->h->orig[i];
    }
    for (int k = 0; k < x->npre && k < 64; k++)
        if (!(kept & (1ull << k)))
            x->info->removed |= 1ull << k;
}

/* Folds entries 1..g of line l into its base. */
static void rebase(HwStep *x, int l, int g)
{
    const Hw *h = x->h;
    MdlState *s = x->s;
    uint32_t pm_off = x->L->pm_off;
    HwLine ln = mdl_hw_line_get(h, s, pm_off, l);
    int slot0 = 0;
    for (int32_t k = 0; k < l; k++)
        slot0 += mdl_hw_line_get(h, s, pm_off, k).m;
    mdl_hw_image_content(h, s, pm_off, l, g, g, h->ca);
    for (int32_t i = 0; i < h->lnw[l]; i++)
        mdl_set(s, pm_off + h->r_base + (uint32_t)(h->lfirst[l] + i),
                (uint64_t)h->ca[i]);
    mdl_hw_close(s, mdl_hw_line_log(h, s, pm_off, l), 2u * (uint32_t)g);
    orig_remove(x, slot0, g);
    ln.m -= g;
    ln.C >>= g;
    ln.W = ln.W > g ? ln.W - g : 0;
    mdl_hw_line_put(h, s, pm_off, l, &ln);
    for (int32_t t = 0; t < x->L->nthreads; t++) {
        int p = pt_p(x, t, l), wt = pt_wt(x, t, l);
        pt_set(x, t, l, p > g ? p - g : 0, wt > g ? wt - g : 0);
    }
    if (h->vol)
        mdl_hw_frame_shift(x, l, g);
}

/* A bound that can no longer prune anything is zero, so that equal
   summaries have equal words. */
static void normalise(HwStep *x)
{
    const Hw *h = x->h;
    for (int32_t l = 0; l < h->nl; l++) {
        HwLine ln = mdl_hw_line_get(h, x->s, x->L->pm_off, l);
        int mc = min_c(ln.C), floor;
        if (ln.W <= mc)
            ln.W = 0;
        floor = ln.W > mc ? ln.W : mc;
        mdl_hw_line_put(h, x->s, x->L->pm_off, l, &ln);
        for (int32_t t = 0; t < x->L->nthreads; t++) {
            int p = pt_p(x, t, l), wt = pt_wt(x, t, l);
            pt_set(x, t, l, p <= mc ? 0 : p, wt <= floor ? 0 : wt);
        }
    }
}

/* Ends a hook: normalisation, frames, rebasing. A hook that can fail
   (one with an error to fill) keeps room for one more frame of every
   controller, so that the join event, which cannot fail, always has it. */
static int end(HwStep *x)
{
    const Hw *h = x->h;
    uint32_t room = x->L->pm_off + h->r_fixed + HW_VAR_WORDS;
    normalise(x);
    if (h->vol && mdl_hw_frame_update(x)) {
        mdl_hw_limit(x->e, "too long a history of write-pending queues");
        return MDL_FAILED;
    }
    for (int32_t l = 0; l < h->nl; l++) {
        HwLine ln = mdl_hw_line_get(h, x->s, x->L->pm_off, l);
        int g = min_c(ln.C);
        if (h->vol) {
            int f = mdl_hw_frame_min(x, l);
            g = f < g ? f : g;
        }
        if (g > 0 && g < 64)
            rebase(x, l, g);
    }
    if (x->e && h->vol) {
        int full = x->s->len + 2u * (uint32_t)h->nl > room;
        for (int32_t c = 0; c < h->nc; c++)
            full |= mdl_hw_frame_count(h, x->s, x->L->pm_off, c) >=
                    HW_MAXFRAMES - 1;
        if (full) {
            mdl_hw_limit(x->e, "too long a history of write-pending queues");
            return MDL_FAILED;
        }
    }
    orig_end(x);
    return MDL_OK;
}

/* The summaries as the hook found them (volatile: frames compare). */
static void snapshot(HwStep *x)
{
    const Hw *h = x->h;
    for (int32_t l = 0; h->vol && l < h->nl; l++) {
        h->snap[2 * l] = x->s->w[x->L->pm_off + h->r_lh + (uint32_t)l];
        h->snap[2 * l + 1] = x->s->w[x->L->pm_off + h->r_lc + (uint32_t)l];
    }
}

static void begin(HwStep *x, Model *m, MdlState *s, const MdlLaunch *L,
                  MdlStepInfo *info, MdlError *e)
{
    x->s = s;
    x->L = L;
    x->h = hw_of(m);
    x->info = info;
    x->e = e;
    x->drained = 0;
    snapshot(x);
    orig_begin(x);
}

/* ---- thread actions ----------------------------------------------------- */

int mdl_hw_line_store(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                      int32_t dw, int64_t v, int op, MdlStepInfo *info,
                      MdlError *e)
{
    HwStep x;
    const Hw *h;
    HwLine ln;
    int l, wt = op == LIT_ST_WT, slot0 = 0;
    uint32_t at;
    begin(&x, m, s, L, info, e);
    h = x.h;
    l = h->wline[dw];
    ln = mdl_hw_line_get(h, s, L->pm_off, l);
    if (mdl_hw_line_nlog(h, s, L->pm_off) >= HW_MAXLOG || ln.m >= 63) {
        mdl_hw_limit(e, "more than 64 line writes pending in one state");
        return MDL_FAILED;
    }
    for (int32_t k = 0; k <= l; k++)
        slot0 += mdl_hw_line_get(h, s, L->pm_off, k).m;
    at = mdl_hw_line_log(h, s, L->pm_off, l) + 2u * (uint32_t)ln.m;
    mdl_hw_open(s, at, 2);
    mdl_set(s, at, (uint64_t)(uint32_t)dw |
                   (uint64_t)(wt ? HW_WT : HW_ST) << 32);
    mdl_set(s, at + 1, (uint64_t)v);
    orig_insert(&x, slot0);
    ln.m++;
    if (!wt || mdl_hw_line_last_st(h, s, L->pm_off, l, ln.m - 1) > min_c(ln.C))
        ln.C |= 1ull << ln.m;
    mdl_hw_line_put(h, s, L->pm_off, l, &ln);
    if (wt)
        pt_set(&x, slot, l, pt_p(&x, slot, l), ln.m);
    mdl_set(s, L->pm_off + (uint32_t)dw, (uint64_t)v);
    hw_setbit(s, hw_tw(L, slot, h->t_wr), l, 1);
    return end(&x);
}

/* A write-back request of thread t for line l. */
static void request(HwStep *x, int t, int l)
{
    const Hw *h = x->h;
    HwLine ln = mdl_hw_line_get(h, x->s, x->L->pm_off, l);
    int sm = mdl_hw_line_last_st(h, x->s, x->L->pm_off, l, ln.m);
    if (sm <= min_c(ln.C)) {
        mdl_info_effect(x->info, "line %d is clean", (int)h->lno[l]);
        return;
    }
    if (sm > pt_p(x, t, l))
        pt_set(x, t, l, sm, pt_wt(x, t, l));
    mdl_info_effect(x->info, "write-back request for line %d",
                    (int)h->lno[l]);
}

/* Thread t's requests complete (write-backs, write-throughs, pcommits). */
static void fence(HwStep *x, int t)
{
    const Hw *h = x->h;
    for (int32_t l = 0; l < h->nl; l++) {
        HwLine ln = mdl_hw_line_get(h, x->s, x->L->pm_off, l);
        int p = pt_p(x, t, l), wt = pt_wt(x, t, l);
        if (!p && !wt)
            continue;
        if (p)
            mdl_info_effect(x->info, "line %d written back%s",
                            (int)h->lno[l], h->vol ? " (queued)" : "");
        if (wt)
            mdl_info_effect(x->info, "write-throughs to line %d complete",
                            (int)h->lno[l]);
        prune(&ln, p);
        if (wt > ln.W)
            ln.W = wt;
        mdl_hw_line_put(h, x->s, x->L->pm_off, l, &ln);
        pt_set(x, t, l, 0, 0);
    }
    for (int32_t c = 0; h->vol && c < h->nc; c++) {
        int k = hw_byte(x->s, hw_tw(x->L, t, h->t_pc), c);
        if (k) {
            mdl_info_effect(x->info, "controller %d drained up to the "
                            "pcommit", (int)h->cno[c]);
            mdl_hw_frame_drop(x, c, k);
            hw_setbyte(x->s, hw_tw(x->L, t, h->t_pc), c, 0);
        }
    }
}

/* The NVW-FIFO barrier of threads [first, first+n), in one step. */
static void pbar(HwStep *x, int first, int n)
{
    const Hw *h = x->h;
    uint32_t pm_off = x->L->pm_off;
    for (int32_t l = 0; l < h->nl; l++) {
        HwLine ln = mdl_hw_line_get(h, x->s, pm_off, l);
        int cover = 0, sm = mdl_hw_line_last_st(h, x->s, pm_off, l, ln.m);
        for (int t = first; t < first + n; t++) {
            cover |= hw_bit(x->s, hw_tw(x->L, t, h->t_wr), l);
            prune(&ln, pt_p(x, t, l));
            if (pt_wt(x, t, l) > ln.W)
                ln.W = pt_wt(x, t, l);
            pt_set(x, t, l, 0, 0);
        }
        if (cover && sm > min_c(ln.C)) {
            prune(&ln, sm);
            mdl_info_effect(x->info, "line %d written back",
                            (int)h->lno[l]);
        }
        mdl_hw_line_put(h, x->s, pm_off, l, &ln);
    }
    if (h->vol) {
        mdl_hw_frame_clear(x);
        x->drained = 1;
        mdl_info_effect(x->info, "every write-pending queue drained");
    }
}

int mdl_hw_line_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                      const LitInstr *in, int32_t dw, MdlStepInfo *info,
                      MdlError *e)
{
    HwStep x;
    const Hw *h;
    begin(&x, m, s, L, info, e);
    h = x.h;
    switch (in->op) {
    case LIT_CLWB: case LIT_CLFLUSH:
        request(&x, slot, h->wline[dw]);
        break;
    case LIT_L2WB:
        for (int32_t l = 0; l < h->nl; l++) {
            HwLine ln = mdl_hw_line_get(h, s, L->pm_off, l);
            if (mdl_hw_line_last_st(h, s, L->pm_off, l, ln.m) > min_c(ln.C))
                request(&x, slot, l);
        }
        break;
    case LIT_PCOMMIT:
        for (int32_t c = 0; h->vol && c < h->nc; c++) {
            int nf = mdl_hw_frame_count(h, s, L->pm_off, c);
            if (nf > hw_byte(s, hw_tw(L, slot, h->t_pc), c))
                hw_setbyte(s, hw_tw(L, slot, h->t_pc), c, nf);
        }
        break;
    case LIT_PBAR_WI: case LIT_PSYNC:
        pbar(&x, slot, 1);
        break;
    default:                            /* sfence, membar.* */
        fence(&x, slot);
        break;
    }
    return end(&x);
}

int mdl_hw_line_pbar(Model *m, MdlState *s, const MdlLaunch *L, int first,
                     int n, MdlStepInfo *info)
{
    HwStep x;
    begin(&x, m, s, L, info, NULL);
    pbar(&x, first, n);
    return end(&x);
}

/* Whether a thread of L has a request outstanding. */
int mdl_hw_line_join(Model *m, MdlState *s, const MdlLaunch *L)
{
    const Hw *h = hw_of(m);
    for (int32_t t = 0; t < L->nthreads; t++) {
        for (int32_t l = 0; l < h->nl; l++)
            if (s->w[hw_tw(L, t, h->t_pt + (uint32_t)l)])
                return MDL_BLOCKED;
        for (uint32_t i = 0; i < h->npw; i++)
            if (s->w[hw_tw(L, t, h->t_pc) + i])
                return MDL_BLOCKED;
    }
    return MDL_OK;
}

int mdl_hw_line_join_event(Model *m, MdlState *s, const MdlLaunch *L,
                           MdlStepInfo *info)
{
    HwStep x;
    begin(&x, m, s, L, info, NULL);
    for (int32_t t = 0; t < L->nthreads; t++)
        fence(&x, t);
    return end(&x);
}
