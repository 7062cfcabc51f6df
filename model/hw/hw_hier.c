/*
 * hw_hier.c — the hw model's hierarchy as DESIGN section 4 states it:
 * the state is the hardware itself (L2 contents and dirty bits, outstanding
 * requests, the controllers' FIFO queues, NVM), thread actions act on it,
 * and every nondeterministic hardware action is a model event: writing a
 * dirty line back (an eviction, or the completion of a clwb/clflush/l2wb
 * request: the two have the same effect), the completion of the oldest
 * outstanding write-through of a line, the drain of a queue's head. Fences
 * block until the thread's requests have completed; pbar is one atomic
 * step. What each instruction does is its row of the hardware's rule table
 * (model.h, MdlHwRule), read here and nowhere restated. --naive explores
 * every event and takes NVM as the crash image; the default mode runs the
 * same steps (hw_lazy.c, hw_closure.c).
 *
 * A write-through's request completes when its word is written toward the
 * controller, except with a volatile WPQ and wt_ack = nvm: then its queue
 * entry names the issuing thread until it drains, and that thread's fences
 * wait for the drain.
 */
#include <string.h>

#include "model/hw/hw_int.h"

void hw_hier_init(Model *m, MdlState *s, uint32_t pm_off)
{
    const Hw *h = hw_of(m);
    for (int32_t i = 0; i < h->nw; i++)
        s->w[pm_off + h->r_nvm + (uint32_t)i] = s->w[pm_off + (uint32_t)i];
}

/* ---- writing toward a controller ---------------------------------------- */

/* With the projection, the NVM of unobserved words is never written: it
   keeps its initial value (hw_int.h). */
static void nvm_word(const Hw *h, MdlState *s, uint32_t pm_off, int32_t dw,
                     uint64_t v)
{
    if (hw_wobs(h, dw))
        mdl_set(s, pm_off + h->r_nvm + (uint32_t)dw, v);
}

static void nvm_line(const Hw *h, MdlState *s, uint32_t pm_off, int l,
                     const uint64_t *v)
{
    for (int32_t i = 0; i < h->lnw[l]; i++)
        nvm_word(h, s, pm_off, h->lfirst[l] + i, v[i]);
}

/* Writes line l's values v (lnw words; or the word dw's value, a
   write-through of thread slot owner, when l < 0) toward its controller:
   persistent at once, or queued. */
static void toward(const Model *m, MdlState *s, uint32_t pm_off, int l,
                   int32_t dw, int owner, const uint64_t *v, char *what,
                   size_t len)
{
    const Hw *h = hw_of(m);
    int line = l >= 0 ? l : h->wline[dw], c = h->lctl[line];
    uint32_t n = l >= 0 ? (uint32_t)h->lnw[l] : 1, at;
    if (!h->vol) {
        if (l >= 0)
            nvm_line(h, s, pm_off, l, v);
        else
            nvm_word(h, s, pm_off, dw, v[0]);
        if (what)
            snprintf(what, len, "persistent");
        return;
    }
    at = hw_queue_at(h, s, pm_off, c) + hw_ql_words(h, s, pm_off, c);
    hw_open(s, at, n + 1);
    mdl_set(s, at, l >= 0 ? hwq_line(l) : hwq_wt(dw, h->ack_drain ? owner
                                                                  : -1));
    for (uint32_t i = 0; i < n; i++)
        mdl_set(s, at + 1 + i, hw_wobs(h, l >= 0 ? h->lfirst[l] + (int32_t)i
                                               : dw) ? v[i] : 0);
    mdl_set(s, pm_off + h->r_ql + (uint32_t)c,
            hw_ql_make(hw_ql_n(h, s, pm_off, c) + 1,
                       hw_ql_words(h, s, pm_off, c) + n + 1));
    if (what)
        snprintf(what, len, "queued at controller %d", (int)h->cno[c]);
}

/* Completes write-through j (the oldest of its line): toward the
   controller, then out of the list. */
static void complete_wt(Model *m, MdlState *s, const MdlLaunch *L, int j,
                        MdlStepInfo *info)
{
    const Hw *h = hw_of(m);
    uint32_t pm_off = L->pm_off, at = hw_wt_at(h, pm_off, j);
    int32_t dw = HW_LOW(s->w[at]);
    int owner = HW_WT_OWNER(s->w[at]);
    uint64_t v = s->w[at + 1];
    char what[64], nm[64];
    toward(m, s, pm_off, -1, dw, owner, &v, what, sizeof what);
    if (info) {
        mdl_word_name(m, LIT_PM, h->cword[dw], nm, sizeof nm);
        mdl_info_effect(info, "write-through %s = %lld of thread %d %s", nm,
                        (long long)v, (int)L->gtid[owner], what);
    }
    hw_close(s, at, 2);
    mdl_set(s, pm_off + h->r_nwt, (uint64_t)(hw_nwt(h, s, pm_off) - 1));
}

static int first_wt(const Hw *h, const MdlState *s, uint32_t pm_off, int l)
{
    int n = hw_nwt(h, s, pm_off);
    for (int j = 0; j < n; j++)
        if (h->wline[HW_LOW(s->w[hw_wt_at(h, pm_off, j)])] == l)
            return j;
    return -1;
}

/* Writes dirty line l back: its older write-throughs first (NVM never goes
   backwards), then its contents; it becomes clean and every request on it
   is satisfied. */
static void writeback(Model *m, MdlState *s, const MdlLaunch *L, int l,
                      MdlStepInfo *info)
{
    const Hw *h = hw_of(m);
    uint32_t pm_off = L->pm_off;
    /* the line's VIS words: toward() opens room only behind them */
    const uint64_t *v = &s->w[pm_off + (uint32_t)h->lfirst[l]];
    char what[64], text[160];
    int j;
    assert(hw_bit(s, pm_off + h->r_dirty, l));
    while ((j = first_wt(h, s, pm_off, l)) >= 0)
        complete_wt(m, s, L, j, info);
    toward(m, s, pm_off, l, -1, -1, v, what, sizeof what);
    if (info) {
        hw_describe(m, l, v, text, sizeof text);
        mdl_info_effect(info, "%s written back, %s", text, what);
    }
    hw_setbit(s, pm_off + h->r_dirty, l, 0);
    for (int32_t t = 0; t < L->nthreads; t++)
        if (hw_bit(s, hw_tw(L, t, h->t_rq), l)) {
            hw_setbit(s, hw_tw(L, t, h->t_rq), l, 0);
            mdl_info_effect(info, "completes the write-back request of "
                            "thread %d", (int)L->gtid[t]);
        }
}

/* Drains the head of controller c's queue into NVM. */
static void drain(Model *m, MdlState *s, const MdlLaunch *L, int c,
                  MdlStepInfo *info)
{
    const Hw *h = hw_of(m);
    uint32_t pm_off = L->pm_off, at = hw_queue_at(h, s, pm_off, c), n;
    uint64_t hd = s->w[at];
    char text[160], nm[64];
    assert(hw_ql_n(h, s, pm_off, c) > 0);
    if (hd & HWQ_LINE) {
        int l = HW_LOW(hd);
        n = (uint32_t)h->lnw[l] + 1;
        nvm_line(h, s, pm_off, l, &s->w[at + 1]);
        if (info) {
            hw_describe(m, l, &s->w[at + 1], text, sizeof text);
            mdl_info_effect(info, "%s persists", text);
        }
    } else {
        int32_t dw = HW_LOW(hd);
        n = 2;
        nvm_word(h, s, pm_off, dw, s->w[at + 1]);
        if (info) {
            mdl_word_name(m, LIT_PM, h->cword[dw], nm, sizeof nm);
            mdl_info_effect(info, "%s = %lld persists", nm,
                            (long long)s->w[at + 1]);
            if (HWQ_OWNER(hd) >= 0)
                mdl_info_effect(info, "completes the write-through of "
                                "thread %d", (int)L->gtid[HWQ_OWNER(hd)]);
        }
    }
    hw_close(s, at, n);
    assert(hw_ql_n(h, s, pm_off, c) > 0 && hw_ql_words(h, s, pm_off, c) >= n);
    mdl_set(s, pm_off + h->r_ql + (uint32_t)c,
            hw_ql_make(hw_ql_n(h, s, pm_off, c) - 1,
                       hw_ql_words(h, s, pm_off, c) - n));
    for (int32_t t = 0; t < L->nthreads; t++) {
        int k = hw_byte(s, hw_tw(L, t, h->t_pc), c);
        if (k)
            hw_setbyte(s, hw_tw(L, t, h->t_pc), c, k - 1);
    }
}

/* ---- thread actions ----------------------------------------------------- */

/* Events that may come to be enabled at once without another thread
   step: events never raise dirty lines + write-throughs + nonempty queues,
   and that sum bounds the events. */
static int event_bound(const Hw *h, const MdlState *s, uint32_t pm_off)
{
    int n = hw_nwt(h, s, pm_off);
    for (int32_t c = 0; h->vol && c < h->nc; c++)
        n += hw_ql_n(h, s, pm_off, c) > 0;
    for (int32_t l = 0; l < h->nl; l++)
        n += hw_bit(s, pm_off + h->r_dirty, l);
    return n;
}

/* Words the queues may come to hold without another thread step: what is
   queued, a write-back of every dirty line, every write-through. */
static uint32_t queue_bound(const Hw *h, const MdlState *s, uint32_t pm_off)
{
    uint32_t n = 2u * (uint32_t)hw_nwt(h, s, pm_off);
    for (int32_t c = 0; c < h->nc; c++)
        n += hw_ql_words(h, s, pm_off, c);
    for (int32_t l = 0; l < h->nl; l++)
        if (hw_bit(s, pm_off + h->r_dirty, l))
            n += 1 + (uint32_t)h->lnw[l];
    return n;
}

/* What a store does to the crash images (Model.fx, red_por.c): a store
   to a clean line adds the write-back of its new contents; to a dirty line
   it replaces the write-back of the older contents, unless it leaves them
   as they were. */
int hw_hier_store(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                       int32_t dw, int64_t v, int op, MdlStepInfo *info,
                       MdlError *e)
{
    const Hw *h = hw_of(m);
    uint32_t pm_off = L->pm_off;
    int l = h->wline[dw], dirty = hw_bit(s, pm_off + h->r_dirty, l);
    int wt = m->hw[op].write == MDL_HW_WT;
    (void)info;
    assert(m->hw[op].write);
    if (!hw_kept(h, l)) {
        mdl_set(s, pm_off + (uint32_t)dw, (uint64_t)v);
        return MDL_OK;
    }
    if (!h->naive && !h->vol && !wt && !dirty &&
        s->w[pm_off + (uint32_t)dw] == (uint64_t)v &&
        first_wt(h, s, pm_off, l) < 0) {
        /* Default mode: the line stays clean. A clean durable line without
           write-throughs holds its NVM, so a write-back right after this
           store would change no NVM word; the default mode takes that
           event at once (specs/hw.md, "Silent stores"). */
        hw_setbit(s, hw_tw(L, slot, h->t_wr), l, 1);
        return MDL_OK;
    }
    if (!dirty)
        m->fx |= MDL_FX_GROW;
    else if (wt || s->w[pm_off + (uint32_t)dw] != (uint64_t)v)
        m->fx |= MDL_FX_SET;
    if ((wt || !dirty) &&
        event_bound(h, s, pm_off) >= HW_MAXEVENTS) {
        hw_limit(e, "more than 128 hardware events could be enabled "
                        "at once");
        return MDL_FAILED;
    }
    if (wt) {
        int n = hw_nwt(h, s, pm_off), j = n;
        if (n >= HW_MAXWT) {
            hw_limit(e, "more than 64 outstanding write-throughs");
            return MDL_FAILED;
        }
        if (h->vol && queue_bound(h, s, pm_off) + 2 > HW_VAR_WORDS / 2) {
            hw_limit(e, "the write-pending queues could overflow");
            return MDL_FAILED;
        }
        while (j > 0 && h->wline[HW_LOW(s->w[hw_wt_at(h, pm_off, j - 1)])] > l)
            j--;
        /* canonical order: by line, by age within a line */
        assert(j == 0 ||
               h->wline[HW_LOW(s->w[hw_wt_at(h, pm_off, j - 1)])] <= l);
        assert(j == n ||
               h->wline[HW_LOW(s->w[hw_wt_at(h, pm_off, j)])] > l);
        hw_open(s, hw_wt_at(h, pm_off, j), 2);
        mdl_set(s, hw_wt_at(h, pm_off, j), hw_wt_make(dw, slot));
        mdl_set(s, hw_wt_at(h, pm_off, j) + 1,
                hw_wobs(h, dw) ? (uint64_t)v : 0);
        mdl_set(s, pm_off + h->r_nwt, (uint64_t)(n + 1));
    } else if (!dirty) {
        if (h->vol && queue_bound(h, s, pm_off) + 1 + (uint32_t)h->lnw[l] >
                          HW_VAR_WORDS / 2) {
            hw_limit(e, "the write-pending queues could overflow");
            return MDL_FAILED;
        }
        hw_setbit(s, pm_off + h->r_dirty, l, 1);
    }
    mdl_set(s, pm_off + (uint32_t)dw, (uint64_t)v);
    hw_setbit(s, hw_tw(L, slot, h->t_wr), l, 1);
    return MDL_OK;
}

int hw_hier_outstanding(const Hw *h, const MdlState *s,
                            const MdlLaunch *L, int t)
{
    int n = hw_nwt(h, s, L->pm_off);
    for (uint32_t i = 0; i < h->nlw; i++)
        if (s->w[hw_tw(L, t, h->t_rq) + i])
            return 1;
    for (uint32_t i = 0; i < h->npw; i++)
        if (s->w[hw_tw(L, t, h->t_pc) + i])
            return 1;
    for (int j = 0; j < n; j++)
        if (HW_WT_OWNER(s->w[hw_wt_at(h, L->pm_off, j)]) == t)
            return 1;
    for (int32_t c = 0; h->ack_drain && c < h->nc; c++) {
        uint32_t at = hw_queue_at(h, s, L->pm_off, c);
        for (int k = 0; k < hw_ql_n(h, s, L->pm_off, c); k++) {
            if (HWQ_OWNER(s->w[at]) == t)
                return 1;
            at += hw_entry_len(h, s->w[at]);
        }
    }
    return 0;
}

static void request(const Model *m, MdlState *s, const MdlLaunch *L, int t,
                    int l, MdlStepInfo *info)
{
    const Hw *h = hw_of(m);
    if (!hw_bit(s, L->pm_off + h->r_dirty, l)) {
        mdl_info_effect(info, "line %d is clean", (int)h->lno[l]);
        return;
    }
    hw_setbit(s, hw_tw(L, t, h->t_rq), l, 1);
    mdl_info_effect(info, "write-back request for line %d", (int)h->lno[l]);
}

/* A thread's instruction, as its rule says (model.h, MdlHwRule): a settle
   is the barrier below for the thread alone; a fence blocks while the
   thread has something outstanding. */
int hw_hier_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                       const LitInstr *in, int32_t dw, MdlStepInfo *info,
                       MdlError *e)
{
    const Hw *h = hw_of(m);
    const MdlHwRule *r = &m->hw[in->op];
    assert(mdl_hwrule_acts(r) && !r->write);
    if (r->request == MDL_HW_RQ_LINE) {
        request(m, s, L, slot, h->wline[dw], info);
    } else if (r->request == MDL_HW_RQ_DIRTY) {
        for (int32_t l = 0; l < h->nl; l++)
            if (hw_bit(s, L->pm_off + h->r_dirty, l))
                request(m, s, L, slot, l, info);
    }
    /* a pcommit's count: with a durable WPQ nothing is ever queued */
    for (int32_t c = 0; r->count && h->vol && c < h->nc; c++) {
        int n = hw_ql_n(h, s, L->pm_off, c);
        if (n > HW_MAXCOUNT) {
            hw_limit(e, "more than 255 queue entries ahead of a pcommit");
            return MDL_FAILED;
        }
        hw_setbyte(s, hw_tw(L, slot, h->t_pc), c, n);
        if (n)
            mdl_info_effect(info, "waits for %d entries of controller %d",
                            n, (int)h->cno[c]);
    }
    if (r->settle)
        return hw_hier_pbar(m, s, L, slot, 1, info);
    if (r->fence && hw_hier_outstanding(h, s, L, slot))
        return MDL_BLOCKED;
    return MDL_OK;
}

/* The NVW-FIFO barrier of threads [first, first+n), in one step. What it
   does, hardware events could have done: the crash images shrink. */
int hw_hier_pbar(Model *m, MdlState *s, const MdlLaunch *L, int first,
                      int n, MdlStepInfo *info)
{
    const Hw *h = hw_of(m);
    uint32_t pm_off = L->pm_off;
    int did = 0;                        /* every completion, write-back
                                           and drain changes the region */
    for (int32_t l = 0; l < h->nl; l++) {
        int last = -1, k = 0, cover = 0, req = 0;
        for (int j = 0; j < hw_nwt(h, s, pm_off); j++) {
            uint64_t x = s->w[hw_wt_at(h, pm_off, j)];
            if (h->wline[HW_LOW(x)] != l)
                continue;
            if (HW_WT_OWNER(x) >= first && HW_WT_OWNER(x) < first + n)
                last = k;
            k++;
        }
        did |= last >= 0;
        for (; last >= 0; last--)
            complete_wt(m, s, L, first_wt(h, s, pm_off, l), info);
        for (int t = first; t < first + n; t++) {
            cover |= hw_bit(s, hw_tw(L, t, h->t_wr), l);
            req |= hw_bit(s, hw_tw(L, t, h->t_rq), l);
        }
        if ((cover || req) && hw_bit(s, pm_off + h->r_dirty, l)) {
            writeback(m, s, L, l, info);
            did = 1;
        }
    }
    for (int32_t c = 0; h->vol && c < h->nc; c++)
        while (hw_ql_n(h, s, pm_off, c)) {
            drain(m, s, L, c, info);
            did = 1;
        }
    if (did)
        m->fx |= MDL_FX_SHRINK;
    return MDL_OK;
}

int hw_hier_join(Model *m, MdlState *s, const MdlLaunch *L)
{
    const Hw *h = hw_of(m);
    for (int32_t t = 0; t < L->nthreads; t++)
        if (hw_hier_outstanding(h, s, L, t))
            return MDL_BLOCKED;
    return MDL_OK;
}

/* ---- events ------------------------------------------------------------- */

int hw_hier_events(Model *m, const MdlState *s, const MdlLaunch *L,
                        uint32_t *codes, int max)
{
    const Hw *h = hw_of(m);
    uint32_t pm_off = L->pm_off;
    int n = 0, prev = -1;
    for (int32_t l = 0; l < h->nl && n < max; l++)
        if (hw_bit(s, pm_off + h->r_dirty, l))
            codes[n++] = hw_ev_code(HW_EV_WB, l);
    for (int j = 0; j < hw_nwt(h, s, pm_off) && n < max; j++) {
        int l = h->wline[HW_LOW(s->w[hw_wt_at(h, pm_off, j)])];
        if (l != prev)
            codes[n++] = hw_ev_code(HW_EV_WT, l);
        prev = l;
    }
    for (int32_t c = 0; h->vol && c < h->nc && n < max; c++)
        if (hw_ql_n(h, s, pm_off, c))
            codes[n++] = hw_ev_code(HW_EV_DRAIN, c);
    return n;
}

int hw_hier_event(Model *m, MdlState *s, const MdlLaunch *L,
                       uint32_t code, MdlStepInfo *info)
{
    const Hw *h = hw_of(m);
    int i = HW_EV_ARG(code);
    switch (HW_EV_KIND(code)) {
    case HW_EV_WB:
        if (info)
            snprintf(info->instr, sizeof info->instr, "write back line %d",
                     (int)h->lno[i]);
        writeback(m, s, L, i, info);
        break;
    case HW_EV_WT:
        if (info)
            snprintf(info->instr, sizeof info->instr,
                     "complete a write-through to line %d", (int)h->lno[i]);
        complete_wt(m, s, L, first_wt(h, s, L->pm_off, i), info);
        break;
    case HW_EV_DRAIN:
        if (info)
            snprintf(info->instr, sizeof info->instr, "drain controller %d",
                     (int)h->cno[i]);
        drain(m, s, L, i, info);
        break;
    case HW_EV_WBD:
        if (info)
            snprintf(info->instr, sizeof info->instr, "write back line %d "
                     "and drain controller %d", (int)h->lno[i],
                     (int)h->cno[h->lctl[i]]);
        writeback(m, s, L, i, info);
        while (hw_ql_n(h, s, L->pm_off, h->lctl[i]))
            drain(m, s, L, h->lctl[i], info);
        break;
    default:
        return MDL_NOSTEP;
    }
    return MDL_OK;
}
