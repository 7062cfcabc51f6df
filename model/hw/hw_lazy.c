/*
 * hw_lazy.c — the hw model's default mode: which hardware events of a
 * state are explored.
 *
 * The default mode runs the steps of hw_hier.c but fires an event only
 * when some thread's next step depends on it; every other event is left to
 * the crash images, which are the NVM of every state the events alone can
 * reach (hw_closure.c). What a next step does is its rule (model.h,
 * MdlHwRule). An event e is "needed" in state s when:
 *   - write back line L: a running thread's next instruction stores to L
 *     (st, st.wt, an atomic: the write-back must capture L's contents
 *     before they change; with a durable WPQ only if they do change), or
 *     a thread waits at a fence (or the kernel at its join) with a request
 *     on L or a write-through to L;
 *   - complete a write-through to L: a thread waits at a fence (or join)
 *     with a write-through to L (it completes in L's FIFO order);
 *   - drain controller C: a waiting thread has a pcommit count on C, or
 *     (wt_ack = nvm) a write-through entry in C's queue;
 *   - with a volatile WPQ, any event that appends to C's queue, when some
 *     append to C is needed for a fence (appends keep their order in the
 *     queue), and every append when a running thread's next instruction is
 *     pcommit (its count depends on what is queued).
 * With a volatile WPQ a write-back needed only because a store to L comes
 * next is explored as "write back L and drain L's controller": a crash
 * that finds its entry still queued finds NVM as if it had not happened,
 * and one that finds it drained finds everything ahead of it drained too.
 * Every other event commutes with the next step of every thread, or is
 * absorbed by it (a pbar writes back, completes and drains what such an
 * event would), so moving it after that step reaches the same state, or
 * one the events of the later state reach: specs/hw.md gives the argument
 * that every naive crash image is an image of some state explored here.
 * A state explored here is one --naive reaches, so the default mode never
 * stores more states than --naive.
 */
#include <string.h>

#include "model/hw/hw_int.h"

typedef struct {
    uint64_t *wb, *wt;                  /* needed, per line */
    uint64_t *st;                       /* volatile: a store is next */
    uint64_t *dr, *app;                 /* per controller */
    int all;                            /* every append (pcommit) */
} Need;

static void set(uint64_t *v, int i)
{
    v[i / 64] |= 1ull << (i % 64);
}

static int get(const uint64_t *v, int i)
{
    return (int)((v[i / 64] >> (i % 64)) & 1u);
}

/* What a fence of thread slot t (or the join) waits for. */
static void fence_needs(const Hw *h, const MdlState *s, const MdlLaunch *L,
                        int t, Need *d)
{
    uint32_t pm_off = L->pm_off;
    int n = hw_nwt(h, s, pm_off);
    for (int32_t l = 0; l < h->nl; l++)
        if (hw_bit(s, hw_tw(L, t, h->t_rq), l))
            set(d->wb, l);
    for (int j = 0; j < n; j++) {
        uint64_t x = s->w[hw_wt_at(h, pm_off, j)];
        if (HW_WT_OWNER(x) == t) {
            set(d->wt, h->wline[HW_LOW(x)]);
            set(d->wb, h->wline[HW_LOW(x)]);
        }
    }
    for (int32_t c = 0; h->vol && c < h->nc; c++) {
        uint32_t at = hw_queue_at(h, s, pm_off, c);
        if (hw_byte(s, hw_tw(L, t, h->t_pc), c))
            set(d->dr, c);
        for (int k = 0; h->ack_drain && k < hw_ql_n(h, s, pm_off, c); k++) {
            if (HWQ_OWNER(s->w[at]) == t)
                set(d->dr, c);
            at += hw_entry_len(h, s->w[at]);
        }
    }
}

/* Whether the store (st, an atomic) or write-through `in` changes the L2
   contents of its word dw: with a durable WPQ, a store that writes the
   value already there loses nothing, so nothing need capture the line
   before it (specs/hw.md, "Silent stores"). A write-through always joins
   its line's FIFO, ahead of any later write-back. */
static int changes(const Model *m, const MdlState *s, uint32_t pm_off,
                   const MdlInstr *in, int k, int32_t dw)
{
    int64_t old = (int64_t)s->w[pm_off + (uint32_t)dw], nv = in->va[k];
    if (m->hw[in->op].write == MDL_HW_WT)
        return 1;
    if ((lit_opflags(in->op) & LIT_OPF_ATOMIC) &&
        !lit_atomic(in->in, old, in->a, in->b, &nv))
        return 0;                       /* a failed cas: a load */
    return mdl_store_value(m, in, nv) != old;
}

/* What the next instruction of running thread slot t needs. */
static void next_needs(Model *m, const MdlState *s, const MdlLaunch *L,
                       int t, Need *d)
{
    const Hw *h = hw_of(m);
    const MdlHwRule *r;
    MdlInstr in;
    if (mdl_decode(m, s, t, &in))
        return;
    r = &m->hw[in.op];
    if (r->write) {
        for (int k = 0; k < in.nelem; k++) {
            int32_t w = in.words[k];
            if (in.space == LIT_PM && w >= 0 &&
                (h->vol || changes(m, s, L->pm_off, &in, k, h->cidx[w])))
                set(h->vol ? d->st : d->wb, h->wline[h->cidx[w]]);
        }
    } else if (r->count) {
        d->all = 1;
    } else if (r->fence) {
        fence_needs(h, s, L, t, d);
    }                                   /* else nothing an event changes */
}

int hw_lazy_events(Model *m, const MdlState *s, const MdlLaunch *L,
                       uint32_t *codes, int max)
{
    Hw *h = hw_of(m);
    uint32_t ev[HW_MAXEVENTS];
    int nev, n = 0, done = 0;
    Need d;
    if (L->kernel < 0 || mdl_terminal(m, s))
        return 0;
    memset(h->need, 0, (3 * (size_t)h->nlw + 2 * h->ncw) * sizeof *h->need);
    d.wb = h->need;
    d.wt = d.wb + h->nlw;
    d.st = d.wt + h->nlw;
    d.dr = d.st + h->nlw;
    d.app = d.dr + h->ncw;
    d.all = 0;
    for (int32_t t = 0; t < L->nthreads; t++) {
        int st = TH_STATUS(s->w[L->thr_off + (uint32_t)t * L->thr_stride]);
        done += st == TS_DONE;
        if (st == TS_RUN)
            next_needs(m, s, L, t, &d);
    }
    /* every thread done and the launch still here: the join waits */
    if (done == L->nthreads)
        for (int32_t t = 0; t < L->nthreads; t++)
            fence_needs(h, s, L, t, &d);
    nev = hw_hier_events(m, s, L, ev, HW_MAXEVENTS);
    for (int i = 0; h->vol && i < nev; i++) {
        int k = HW_EV_KIND(ev[i]), x = HW_EV_ARG(ev[i]);
        if ((k == HW_EV_WB && get(d.wb, x)) || (k == HW_EV_WT && get(d.wt, x)))
            set(d.app, h->lctl[x]);
    }
    for (int i = 0; i < nev && n < max; i++) {
        int k = HW_EV_KIND(ev[i]), x = HW_EV_ARG(ev[i]), keep;
        if (k == HW_EV_DRAIN)
            keep = get(d.dr, x);
        else
            keep = get(k == HW_EV_WB ? d.wb : d.wt, x) ||
                   (h->vol && (d.all || get(d.app, h->lctl[x])));
        if (keep)
            codes[n++] = ev[i];
        if (k == HW_EV_WB && get(d.st, x) && n < max)
            codes[n++] = hw_ev_code(HW_EV_WBD, x);
    }
    return n;
}
