/*
 * mdl_hw.c — the hw persistency model's ops table: the layout of PM words
 * into lines and controllers, the state both modes share (VIS, the value a
 * load sees), and the dispatch to the literal semantics (mdl_hw_naive.c)
 * or the default mode (mdl_hw_line.c). The encoding is in mdl_hw.h.
 */
#include <string.h>

#include "model/mdl_hw.h"

void mdl_hw_open(MdlState *s, uint32_t at, uint32_t n)
{
    for (uint32_t i = s->len; i-- > at;)
        mdl_set(s, i + n, s->w[i]);
    for (uint32_t i = at; i < at + n; i++)
        mdl_set(s, i, 0);
    s->len += n;
}

void mdl_hw_close(MdlState *s, uint32_t at, uint32_t n)
{
    for (uint32_t i = at; i + n < s->len; i++)
        mdl_set(s, i, s->w[i + n]);
    for (uint32_t i = s->len - n; i < s->len; i++)
        mdl_set(s, i, 0);
    s->len -= n;
}

void mdl_hw_describe(const Model *m, int l, const int64_t *v, char *buf,
                     size_t len)
{
    const Hw *h = hw_of(m);
    size_t n = (size_t)snprintf(buf, len, "line %d (", (int)h->lno[l]);
    for (int32_t i = 0; i < h->lnw[l] && n < len; i++) {
        char nm[64];
        mdl_word_name(m, LIT_PM, h->cword[h->lfirst[l] + i], nm, sizeof nm);
        n += (size_t)snprintf(buf + n, len - n, "%s%s = %lld", i ? ", " : "",
                              nm, (long long)v[i]);
    }
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

void mdl_hw_limit(MdlError *e, const char *what)
{
    if (!e)
        return;
    e->kind = MDL_E_LIMIT;
    snprintf(e->msg, sizeof e->msg, "hw: %s", what);
}

/* ---- layout ------------------------------------------------------------- */

static int32_t *ints(Model *m, int32_t n)
{
    return lit_arena_alloc(m->arena, (size_t)(n + 1) * sizeof(int32_t));
}

/* Dense words, lines and controllers (see mdl_hw.h). */
static void layout(Model *m, Hw *h)
{
    const LitProgram *p = m->p;
    int64_t nctl = (int64_t)p->config.val[LIT_CFG_CONTROLLERS];
    int32_t wpl = p->words_per_line;
    h->cidx = ints(m, p->pm_words);
    h->cword = ints(m, p->pm_words);
    h->wline = ints(m, p->pm_words);
    for (int32_t w = 0; w < p->pm_words; w++)
        h->cidx[w] = -1;
    for (int i = 0; i < p->nlocs; i++)
        if (p->locs[i].space == LIT_PM)
            for (int32_t j = 0; j < p->locs[i].size; j++)
                h->cidx[p->locs[i].addr + j] = 0;
    for (int32_t w = 0; w < p->pm_words; w++)
        if (h->cidx[w] == 0) {
            h->cidx[w] = h->nw;
            h->cword[h->nw++] = w;
        }
    h->lfirst = ints(m, h->nw);
    h->lnw = ints(m, h->nw);
    h->lno = ints(m, h->nw);
    h->lctl = ints(m, h->nw);
    h->lpos = ints(m, h->nw);
    for (int32_t i = 0; i < h->nw; i++) {
        int32_t line = h->cword[i] / wpl;
        if (!h->nl || h->lno[h->nl - 1] != line) {
            h->lno[h->nl] = line;
            h->lfirst[h->nl++] = i;
        }
        h->lnw[h->nl - 1]++;
        h->wline[i] = h->nl - 1;
    }
    for (int32_t l = 0; l < h->nl; l++)
        if (h->lnw[l] > h->maxlnw)
            h->maxlnw = h->lnw[l];
    /* controllers: distinct line numbers mod nctl, ascending */
    h->cno = ints(m, h->nl);
    h->cfirst = ints(m, h->nl);
    h->cnl = ints(m, h->nl);
    for (int32_t l = 0; l < h->nl; l++) {
        int32_t c = (int32_t)(h->lno[l] % nctl), k = 0;
        while (k < h->nc && h->cno[k] < c)
            k++;
        if (k == h->nc || h->cno[k] != c) {
            memmove(&h->cno[k + 1], &h->cno[k],
                    (size_t)(h->nc - k) * sizeof *h->cno);
            h->cno[k] = c;
            h->nc++;
        }
    }
    for (int32_t l = 0; l < h->nl; l++) {
        int32_t c = (int32_t)(h->lno[l] % nctl), k = 0;
        while (h->cno[k] != c)
            k++;
        h->lctl[l] = k;
        h->cnl[k]++;
    }
    for (int32_t c = 1; c < h->nc; c++)
        h->cfirst[c] = h->cfirst[c - 1] + h->cnl[c - 1];
    h->clines = ints(m, h->nl);
    for (int32_t l = 0; l < h->nl; l++) {
        for (int32_t k = 0; k < l; k++)
            h->lpos[l] += h->lctl[k] == h->lctl[l];
        h->clines[h->cfirst[h->lctl[l]] + h->lpos[l]] = l;
    }
}

static uint32_t hw_thread_words(const Model *m)
{
    return hw_of(m)->t_stride;
}

static uint32_t hw_fixed_words(const Model *m)
{
    return hw_of(m)->r_fixed;
}

static int hw_setup(Model *m, char *err, size_t errlen)
{
    Hw *h = lit_arena_alloc(m->arena, sizeof *h);
    uint32_t nw, nl;
    (void)err;
    (void)errlen;
    m->mstate = h;
    h->naive = m->naive;
    h->vol = m->p->config.val[LIT_CFG_WPQ] != 0;
    layout(m, h);
    nw = (uint32_t)h->nw;
    nl = (uint32_t)h->nl;
    h->nlw = (nl + 63) / 64;
    h->npw = h->vol ? ((uint32_t)h->nc + 7) / 8 : 0;
    if (h->naive) {
        h->r_nvm = nw;
        h->r_dirty = 2 * nw;
        h->r_nwt = h->r_dirty + h->nlw;
        h->r_ql = h->r_nwt + 1;
        h->r_fixed = h->r_ql + (h->vol ? (uint32_t)h->nc : 0);
        h->t_rq = 0;
        h->t_wr = h->nlw;
        h->t_pc = 2 * h->nlw;
        h->t_stride = h->t_pc + h->npw;
        return 0;
    }
    h->r_base = nw;
    h->r_lh = 2 * nw;
    h->r_lc = h->r_lh + nl;
    h->r_cf = h->r_lc + nl;
    h->r_fixed = h->r_cf + (h->vol ? (uint32_t)h->nc : 0);
    h->t_pt = 0;
    h->t_wr = nl;
    h->t_pc = nl + h->nlw;
    h->t_stride = h->t_pc + h->npw;
    h->snap = lit_arena_alloc(m->arena,
                              (2 * (size_t)nl + 1) * sizeof *h->snap);
    h->ca = lit_arena_alloc(m->arena, ((size_t)h->maxlnw + 1) * sizeof *h->ca);
    h->cb = lit_arena_alloc(m->arena, ((size_t)h->maxlnw + 1) * sizeof *h->cb);
    /* every line lists at most (m+1)^2 pairs, m <= HW_MAXLOG in total */
    h->npairs_cap = (HW_MAXLOG + 1) * (HW_MAXLOG + 1 + nl);
    h->pairs = lit_arena_alloc(m->arena, 2 * (size_t)h->npairs_cap *
                                         sizeof *h->pairs);
    h->lslot = lit_arena_alloc(m->arena, ((size_t)nl + 1) * sizeof *h->lslot);
    h->phash = lit_arena_alloc(m->arena, (HW_MAXLOG + 1) * (HW_MAXLOG + 1) *
                                         sizeof *h->phash);
    return 0;
}

static void hw_init(Model *m, MdlState *s, uint32_t pm_off, const int64_t *img)
{
    const Hw *h = hw_of(m);
    for (int32_t i = 0; i < h->nw; i++)
        s->w[pm_off + (uint32_t)i] = (uint64_t)img[h->cword[i]];
    if (h->naive)
        mdl_hw_naive_init(m, s, pm_off);
    else
        mdl_hw_line_init(m, s, pm_off);
}

static int64_t hw_load(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                       int32_t word, MdlStepInfo *info)
{
    (void)slot;
    (void)info;
    return (int64_t)s->w[L->pm_off + (uint32_t)hw_of(m)->cidx[word]];
}

static int hw_store(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                    int32_t word, int64_t v, int op, MdlStepInfo *info,
                    MdlError *e)
{
    int32_t dw = hw_of(m)->cidx[word];
    if (m->naive)
        return mdl_hw_naive_store(m, s, L, slot, dw, v, op, info, e);
    return mdl_hw_line_store(m, s, L, slot, dw, v, op, info, e);
}

static int hw_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                    const LitInstr *in, int32_t word, MdlStepInfo *info,
                    MdlError *e)
{
    int32_t dw = word >= 0 ? hw_of(m)->cidx[word] : -1;
    if ((in->op == LIT_CLWB || in->op == LIT_CLFLUSH) && dw < 0) {
        mdl_info_effect(info, "not persistent memory: no effect");
        return MDL_OK;
    }
    if (m->naive)
        return mdl_hw_naive_instr(m, s, L, slot, in, dw, info);
    return mdl_hw_line_instr(m, s, L, slot, in, dw, info, e);
}

/* pbar.wg and pbar.kr synchronize like bar.sync and grid.sync. */
static int hw_collective(const Model *m, int op)
{
    (void)m;
    (void)op;
    return 1;
}

static int hw_release(Model *m, MdlState *s, const MdlLaunch *L, int first,
                      int n, int op, MdlStepInfo *info)
{
    (void)op;
    if (m->naive)
        return mdl_hw_naive_pbar(m, s, L, first, n, info);
    return mdl_hw_line_pbar(m, s, L, first, n, info);
}

static int hw_join(Model *m, MdlState *s, const MdlLaunch *L,
                   MdlStepInfo *info)
{
    int r = m->naive ? mdl_hw_naive_join(m, s, L) : mdl_hw_line_join(m, s, L);
    /* said once, by the thread step that ends the kernel */
    if (r == MDL_BLOCKED && info && info->gtid >= 0)
        mdl_info_effect(info, "kernel %s ends; its join waits for "
                        "outstanding requests", m->p->kernels[L->kernel].name);
    return r;
}

static void hw_visible(const Model *m, const MdlState *s, uint32_t pm_off,
                       int64_t *pm)
{
    const Hw *h = hw_of(m);
    memset(pm, 0, (size_t)m->p->pm_words * sizeof *pm);
    for (int32_t i = 0; i < h->nw; i++)
        pm[h->cword[i]] = (int64_t)s->w[pm_off + (uint32_t)i];
}

static int hw_image_fn(Model *m, const MdlState *s, uint32_t pm_off,
                       MdlImageFn fn, void *ctx)
{
    const Hw *h = hw_of(m);
    if (!h->naive)
        return mdl_hw_image_all(m, s, pm_off, fn, ctx);
    memset(m->img, 0, (size_t)m->p->pm_words * sizeof *m->img);
    for (int32_t i = 0; i < h->nw; i++)
        m->img[h->cword[i]] = (int64_t)s->w[pm_off + h->r_nvm + (uint32_t)i];
    return fn(ctx, m->img, 0);
}

/* Default mode: the one event is the completion of a blocked join (every
   thread done, the launch not over). */
static int hw_events(Model *m, const MdlState *s, const MdlLaunch *L,
                     uint32_t *codes, int max)
{
    if (m->naive)
        return mdl_hw_naive_events(m, s, L, codes, max);
    if (L->kernel < 0 || mdl_terminal(m, s) || max < 1)
        return 0;
    for (int32_t i = 0; i < L->nthreads; i++)
        if (TH_STATUS(s->w[L->thr_off + (uint32_t)i * L->thr_stride]) !=
            TS_DONE)
            return 0;
    codes[0] = HW_EV_JOIN;
    return 1;
}

static int hw_event(Model *m, MdlState *s, const MdlLaunch *L, uint32_t code,
                    MdlStepInfo *info)
{
    if (m->naive)
        return mdl_hw_naive_event(m, s, L, code, info);
    if (info)
        snprintf(info->instr, sizeof info->instr, "join of kernel %s",
                 m->p->kernels[L->kernel].name);
    return mdl_hw_line_join_event(m, s, L, info);
}

static int hw_pending(const Model *m, const MdlState *s, uint32_t pm_off,
                      MdlPending *out, int max)
{
    if (m->naive)
        return 0;
    return mdl_hw_image_pending(m, s, pm_off, out, max);
}

const MdlOps mdl_hw_ops = {
    hw_thread_words, hw_fixed_words, HW_VAR_WORDS, hw_setup, hw_init,
    hw_load, hw_store, hw_instr, hw_collective, hw_release, hw_join,
    hw_image_fn, hw_visible, hw_events, hw_event, hw_pending
};
