/*
 * hw_model.c — the hw persistency model's ops table: the layout of PM words
 * into lines and controllers, loads and visibility (VIS), and the steps of
 * the hierarchy (hw_hier.c); the two modes differ only in which events
 * they explore and in the crash images of a state. The encoding is in
 * hw_int.h.
 */
#include <string.h>

#include "model/hw/hw_int.h"

void hw_open(MdlState *s, uint32_t at, uint32_t n)
{
    for (uint32_t i = s->len; i-- > at;)
        mdl_set(s, i + n, s->w[i]);
    for (uint32_t i = at; i < at + n; i++)
        mdl_set(s, i, 0);
    s->len += n;
}

void hw_close(MdlState *s, uint32_t at, uint32_t n)
{
    for (uint32_t i = at; i + n < s->len; i++)
        mdl_set(s, i, s->w[i + n]);
    for (uint32_t i = s->len - n; i < s->len; i++)
        mdl_set(s, i, 0);
    s->len -= n;
}

void hw_describe(const Model *m, int l, const uint64_t *v, char *buf,
                     size_t len)
{
    const Hw *h = hw_of(m);
    size_t n = (size_t)snprintf(buf, len, "line %d (", (int)h->lno[l]);
    for (int32_t i = 0; i < h->lnw[l] && n < len; i++) {
        char nm[64];
        mdl_word_name(m, LIT_PM, h->cword[h->lfirst[l] + i], nm, sizeof nm);
        n += (size_t)snprintf(buf + n, len - n, "%s%s = %lld", i ? ", " : "",
                              nm, (long long)(int64_t)v[i]);
    }
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

#ifdef GPMC_DEBUG
void hw_check(const Model *m, const MdlState *s, const MdlLaunch *L)
{
    const Hw *h = hw_of(m);
    uint32_t pm_off = L->pm_off, at;
    int nwt = hw_nwt(h, s, pm_off);
    assert(s->len >= pm_off + h->r_fixed);
    for (int j = 0; j < nwt; j++) {
        uint64_t x = s->w[hw_wt_at(h, pm_off, j)];
        assert(HW_LOW(x) >= 0 && HW_LOW(x) < h->nw);
        assert(HW_WT_OWNER(x) >= 0 && HW_WT_OWNER(x) < L->nthreads);
        /* by line, by age within a line */
        assert(j == 0 || h->wline[HW_LOW(s->w[hw_wt_at(h, pm_off, j - 1)])]
                             <= h->wline[HW_LOW(x)]);
    }
    at = hw_wt_at(h, pm_off, nwt);
    for (int32_t c = 0; h->vol && c < h->nc; c++) {
        uint32_t words = 0;
        for (int k = 0; k < hw_ql_n(h, s, pm_off, c); k++) {
            uint64_t hd = s->w[at + words];
            int l = (hd & HWQ_LINE) ? HW_LOW(hd) : h->wline[HW_LOW(hd)];
            assert(!(hd & HWQ_LINE) != !(hd & HWQ_WT));
            assert(HW_LOW(hd) >= 0 &&
                   HW_LOW(hd) < ((hd & HWQ_LINE) ? h->nl : h->nw));
            assert(h->lctl[l] == c && HWQ_OWNER(hd) < L->nthreads);
            assert(HWQ_OWNER(hd) < 0 || ((hd & HWQ_WT) && h->ack_drain));
            words += hw_entry_len(h, hd);
        }
        assert(words == hw_ql_words(h, s, pm_off, c));
        at += words;
    }
    assert(at == s->len);
    /* canonical form: a write-back request only on a dirty line */
    for (int32_t t = 0; L->kernel >= 0 && t < L->nthreads; t++)
        for (int32_t l = 0; l < h->nl; l++)
            assert(!hw_bit(s, hw_tw(L, t, h->t_rq), l) ||
                   hw_bit(s, pm_off + h->r_dirty, l));
}
#endif

void hw_limit(MdlError *e, const char *what)
{
    if (!e)
        return;
    e->kind = MDL_E_LIMIT;
    snprintf(e->msg, sizeof e->msg, "hw: %s", what);
}

/* ---- layout ------------------------------------------------------------- */

static int32_t *ints(Model *m, int32_t n)
{
    return base_arena_alloc(m->arena, (size_t)(n + 1) * sizeof(int32_t));
}

/* Dense words, lines and controllers (see hw_int.h); -1 out of memory. */
static int layout(Model *m, Hw *h)
{
    const LitProgram *p = m->p;
    int64_t nctl = (int64_t)p->config.val[LIT_CFG_CONTROLLERS];
    h->cidx = ints(m, p->pm_words);
    h->cword = ints(m, p->pm_words);
    h->wline = ints(m, p->pm_words);
    if (!h->cidx || !h->cword || !h->wline)
        return -1;
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
    if (!h->lfirst || !h->lnw || !h->lno || !h->lctl)
        return -1;
    for (int32_t i = 0; i < h->nw; i++) {
        int32_t line = p->pm_line[h->cword[i]];
        /* pcie: one write-through FIFO per word, so each word is a line of
           its own (lno keeps its cache line, for names and the slice) */
        if (!h->nl || h->lno[h->nl - 1] != line || h->pcie) {
            h->lno[h->nl] = line;
            h->lfirst[h->nl++] = i;
        }
        h->lnw[h->nl - 1]++;
        h->wline[i] = h->nl - 1;
    }
    /* controllers: distinct line numbers mod nctl, ascending */
    h->cno = ints(m, h->nl);
    h->cfirst = ints(m, h->nl);
    h->cnl = ints(m, h->nl);
    h->clines = ints(m, h->nl);
    if (!h->cno || !h->cfirst || !h->cnl || !h->clines)
        return -1;
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
    for (int32_t c = 0, k = 0; c < h->nc; c++)
        for (int32_t l = 0; l < h->nl; l++)
            if (h->lctl[l] == c)
                h->clines[k++] = l;
    return 0;
}

/* Model.kept: per PM line, whether some observed word shares its line
   (durable WPQ: a write-back carries the whole line) or its controller
   (volatile: the controller's queue orders its lines). */
static int kept_lines(Model *m, const Hw *h, const uint8_t *obs)
{
    const LitProgram *p = m->p;
    int32_t nl = p->pm_lines;
    int64_t nctl = h->vol ? (int64_t)p->config.val[LIT_CFG_CONTROLLERS] : 0;
    uint8_t *kept = base_arena_alloc(m->arena, (size_t)nl + 1);
    if (!kept)
        return -1;
    for (int32_t w = 0; w < p->pm_words; w++)
        if (obs[w])
            for (int32_t l = nctl ? (int32_t)(p->pm_line[w] % nctl)
                                  : p->pm_line[w];
                 l < nl; l += nctl ? (int32_t)nctl : nl)
                kept[l] = 1;
    m->kept = kept;
    return 0;
}

/* The projection (hw_int.h): with MDL_SLICE (red_slice.c decides which
   words are observed) the lines whose hierarchy state is kept and, when
   some declared word is not observed, the words whose NVM is. */
static int project(Model *m, Hw *h)
{
    const uint8_t *obs = m->observed;
    int unobserved = 0;
    if (h->naive || !obs)
        return 0;
    if (kept_lines(m, h, obs))
        return -1;
    for (int32_t i = 0; i < h->nw; i++)
        unobserved |= !obs[h->cword[i]];
    if (!unobserved)
        return 0;
    m->projected = 1;
    h->wobs = base_arena_alloc(m->arena, (size_t)h->nw + 1);
    h->lkept = base_arena_alloc(m->arena, (size_t)h->nl + 1);
    if (!h->wobs || !h->lkept)
        return -1;
    for (int32_t i = 0; i < h->nw; i++)
        h->wobs[i] = obs[h->cword[i]];
    for (int32_t l = 0; l < h->nl; l++)
        h->lkept[l] = (uint8_t)mdl_kept(m, (uint32_t)h->lno[l]);
    return 0;
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
    Hw *h = base_arena_alloc(m->arena, sizeof *h);
    uint32_t nw;
    if (!h) {
        snprintf(err, errlen, MDL_OOM);
        return -1;
    }
    m->mstate = h;
    h->naive = m->naive;
    h->pcie = m->p->config.val[LIT_CFG_PM_PATH] != 0;
    /* pcie: a completed write is in host PM; no WPQ of the GPU's */
    h->vol = !h->pcie && m->p->config.val[LIT_CFG_WPQ] != 0;
    h->ack_drain = h->vol && m->p->config.val[LIT_CFG_WT_ACK] == 0;
    m->fx_kept = 1;
    if (layout(m, h) || project(m, h)) {
        snprintf(err, errlen, MDL_OOM);
        return -1;
    }
    nw = (uint32_t)h->nw;
    h->nlw = ((uint32_t)h->nl + 63) / 64;
    h->ncw = ((uint32_t)h->nc + 63) / 64;
    h->npw = h->vol ? ((uint32_t)h->nc + 7) / 8 : 0;
    h->r_nvm = nw;
    h->r_dirty = 2 * nw;
    h->r_nwt = h->r_dirty + h->nlw;
    h->r_ql = h->r_nwt + 1;
    h->r_fixed = h->r_ql + (h->vol ? (uint32_t)h->nc : 0);
    h->t_rq = 0;
    h->t_wr = h->nlw;
    h->t_pc = 2 * h->nlw;
    h->t_stride = h->t_pc + h->npw;
    if (h->naive)
        return 0;
    h->need = base_arena_alloc(m->arena, (3 * (size_t)h->nlw + 2 * h->ncw) *
                                        sizeof *h->need);
    /* a line's contents: NVM, one per write-through, the write-back */
    h->nopt = ints(m, h->nl);
    h->optat = ints(m, h->nl);
    for (int32_t l = 1; l < h->nl && h->optat; l++)
        h->optat[l] = h->optat[l - 1] + (HW_MAXWT + 2) * h->lnw[l - 1];
    h->opt = base_arena_alloc(m->arena, (size_t)(HW_MAXWT + 2) *
                                       ((size_t)nw + 1) * sizeof *h->opt);
    if (!h->need || !h->nopt || !h->optat || !h->opt) {
        snprintf(err, errlen, MDL_OOM);
        return -1;
    }
    return 0;
}

static void hw_init(Model *m, MdlState *s, uint32_t pm_off, const int64_t *img)
{
    const Hw *h = hw_of(m);
    for (int32_t i = 0; i < h->nw; i++)
        s->w[pm_off + (uint32_t)i] = (uint64_t)img[h->cword[i]];
    hw_hier_init(m, s, pm_off);
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
    int r = hw_hier_store(m, s, L, slot, hw_of(m)->cidx[word], v, op, info,
                          e);
    hw_check(m, s, L);
    return r;
}

static int hw_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                    const LitInstr *in, int32_t word, MdlStepInfo *info,
                    MdlError *e)
{
    int32_t dw = word >= 0 ? hw_of(m)->cidx[word] : -1;
    int r;
    if (m->hw[in->op].request == MDL_HW_RQ_LINE && dw < 0) {
        mdl_info_effect(info, "not persistent memory: no effect");
        return MDL_OK;
    }
    if (!mdl_hwrule_acts(&m->hw[in->op])) {
        /* pm_path = pcie: membar.cta and membar.gl complete no PM write */
        mdl_info_effect(info, "completes no write to PM over PCIe");
        return MDL_OK;
    }
    r = hw_hier_instr(m, s, L, slot, in, dw, info, e);
    hw_check(m, s, L);
    return r;
}

/* A write can change the images when the line's state is kept. */
static int hw_keeps(const Model *m, int32_t word)
{
    return mdl_kept(m, (uint32_t)m->p->pm_line[word]);
}

static int hw_release(Model *m, MdlState *s, const MdlLaunch *L, int first,
                      int n, int op, MdlStepInfo *info)
{
    int r = MDL_OK;
    if (m->hw[op].settle)
        r = hw_hier_pbar(m, s, L, first, n, info);
    hw_check(m, s, L);
    return r;
}

static int hw_join(Model *m, MdlState *s, const MdlLaunch *L,
                   MdlStepInfo *info)
{
    int r = hw_hier_join(m, s, L);
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

/* --naive: NVM; default: NVM of every state the events reach. */
static int hw_image_fn(Model *m, const MdlState *s, uint32_t pm_off,
                       MdlImageFn fn, void *ctx)
{
    const Hw *h = hw_of(m);
    if (!h->naive)
        return hw_closure_images(m, s, pm_off, fn, ctx);
    memset(m->img, 0, (size_t)m->p->pm_words * sizeof *m->img);
    for (int32_t i = 0; i < h->nw; i++)
        m->img[h->cword[i]] = (int64_t)s->w[pm_off + h->r_nvm + (uint32_t)i];
    return fn(ctx, m->img, 0);
}

/* --naive: every event; default: those a thread's next step needs. */
static int hw_events(Model *m, const MdlState *s, const MdlLaunch *L,
                     uint32_t *codes, int max)
{
    if (hw_of(m)->naive)
        return hw_hier_events(m, s, L, codes, max);
    return hw_lazy_events(m, s, L, codes, max);
}

static int hw_event(Model *m, MdlState *s, const MdlLaunch *L, uint32_t code,
                    MdlStepInfo *info)
{
    int r = hw_hier_event(m, s, L, code, info);
    hw_check(m, s, L);
    return r;
}

/* Images carry no pending-store slots: witnesses show the events. */
static int hw_pending(const Model *m, const MdlState *s, uint32_t pm_off,
                      MdlPending *out, int max)
{
    (void)m;
    (void)s;
    (void)pm_off;
    (void)out;
    (void)max;
    return 0;
}

const MdlOps hw_ops = {
    .thread_words = hw_thread_words,
    .fixed_words = hw_fixed_words,
    .max_var_words = HW_VAR_WORDS,
    .setup = hw_setup,
    .init = hw_init,
    .load = hw_load,
    .store = hw_store,
    .instr = hw_instr,
    .keeps = hw_keeps,
    .release = hw_release,
    .join = hw_join,
    .images = hw_image_fn,
    .visible = hw_visible,
    .events = hw_events,
    .event = hw_event,
    .pending = hw_pending,
};
