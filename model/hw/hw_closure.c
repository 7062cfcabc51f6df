/*
 * hw_closure.c — the hw model's default mode: the crash images of a
 * state are the NVM of every state its hardware events alone can reach.
 *
 * From a state, a line's own events are: its write-throughs completing in
 * FIFO order, then at most one write-back (while it is dirty), which
 * completes the rest first and leaves the line clean with nothing more to
 * do. With a durable WPQ each write is persistent at once and lines are
 * independent, so the images are the product over lines of a line's
 * contents: NVM with its first k write-throughs applied (k = 0 … all), or
 * VIS when it is dirty. With a volatile WPQ a controller's queue drains in
 * FIFO order behind what is queued now, and its lines' new entries may
 * interleave in any order: a controller's part of the image is NVM with a
 * strict prefix of its queue drained (and nothing behind it), or all of
 * the queue and then, per line, one of the contents above. Controllers are
 * independent: the images are the product over controllers.
 *
 * With the projection (hw_int.h) an unobserved word keeps its NVM, which
 * is its initial value, in every image: its queued and write-through
 * values are not applied, and a write-back's contents count only for the
 * observed words, so options that differ only there are one.
 */
#include <assert.h>
#include <string.h>

#include "model/hw/hw_int.h"

typedef struct {
    Model *m;
    Hw *h;
    const MdlState *s;
    uint32_t pm_off;
    MdlImageFn fn;
    void *ctx;
} Clo;

/* Applies the queue entry at `at` to img; returns its length. */
static uint32_t apply_entry(const Hw *h, const MdlState *s, uint32_t at,
                            int64_t *img)
{
    uint64_t hd = s->w[at];
    if (hd & HWQ_LINE) {
        int l = HW_LOW(hd);
        for (int32_t i = 0; i < h->lnw[l]; i++)
            if (hw_wobs(h, h->lfirst[l] + i))
                img[h->cword[h->lfirst[l] + i]] =
                    (int64_t)s->w[at + 1 + (uint32_t)i];
    } else if (hw_wobs(h, HW_LOW(hd))) {
        img[h->cword[HW_LOW(hd)]] = (int64_t)s->w[at + 1];
    }
    return hw_entry_len(h, hd);
}

/* The distinct contents line l can reach from img by its own events: its
   write-throughs completed in order, and a write-back if it is dirty. */
static void line_options(Clo *x, int l)
{
    Hw *h = x->h;
    const MdlState *s = x->s;
    int32_t nw = h->lnw[l], first = h->lfirst[l];
    int64_t *o = h->opt + h->optat[l];
    int n = 1, nt = hw_nwt(h, s, x->pm_off);
    for (int32_t i = 0; i < nw; i++)
        o[i] = x->m->img[h->cword[first + i]];
    for (int j = 0; j < nt; j++) {
        uint32_t at = hw_wt_at(h, x->pm_off, j);
        int32_t dw = HW_LOW(s->w[at]);
        if (h->wline[dw] != l || !hw_wobs(h, dw))
            continue;
        if (o[(size_t)(n - 1) * (size_t)nw + (size_t)(dw - first)] ==
            (int64_t)s->w[at + 1])
            continue;
        memcpy(o + (size_t)n * (size_t)nw, o + (size_t)(n - 1) * (size_t)nw,
               (size_t)nw * sizeof *o);
        o[(size_t)n * (size_t)nw + (size_t)(dw - first)] =
            (int64_t)s->w[at + 1];
        n++;
    }
    if (hw_bit(s, x->pm_off + h->r_dirty, l)) {
        int64_t *v = o + (size_t)n * (size_t)nw;
        int dup = 0;
        for (int32_t i = 0; i < nw; i++)
            v[i] = hw_wobs(h, first + i)
                       ? (int64_t)s->w[x->pm_off + (uint32_t)(first + i)]
                       : o[i];
        for (int k = 0; k < n && !dup; k++)
            dup = !memcmp(o + (size_t)k * (size_t)nw, v,
                          (size_t)nw * sizeof *v);
        n += !dup;
    }
    assert(n <= HW_MAXWT + 2);          /* room at optat[l] */
    h->nopt[l] = n;
}

static int ctl(Clo *x, int c);

/* Line i of controller c (every queue entry drained), then the next. */
static int line(Clo *x, int c, int i)
{
    const Hw *h = x->h;
    int l, n;
    if (i == h->cnl[c])
        return ctl(x, c + 1);
    l = h->clines[h->cfirst[c] + i];
    n = h->nopt[l];
    for (int k = 0; k < n; k++) {
        const int64_t *o = h->opt + h->optat[l] +
                           (size_t)k * (size_t)h->lnw[l];
        for (int32_t w = 0; w < h->lnw[l]; w++)
            x->m->img[h->cword[h->lfirst[l] + w]] = o[w];
        if (line(x, c, i + 1))
            return 1;
    }
    return 0;
}

/* Controller c: a strict prefix of its queue drained (nothing after it),
   or all of it and then any events of each of its lines. */
static int ctl(Clo *x, int c)
{
    const Hw *h = x->h;
    int q;
    uint32_t at;
    int64_t *img = x->m->img;
    if (c == h->nc)
        return x->fn(x->ctx, img, 0);
    q = h->vol ? hw_ql_n(h, x->s, x->pm_off, c) : 0;
    at = q ? hw_queue_at(h, x->s, x->pm_off, c) : 0;
    for (int i = 0; i < h->cnl[c]; i++) {
        int l = h->clines[h->cfirst[c] + i];
        for (int32_t w = 0; w < h->lnw[l]; w++)
            img[h->cword[h->lfirst[l] + w]] =
                (int64_t)x->s->w[x->pm_off + h->r_nvm +
                                 (uint32_t)(h->lfirst[l] + w)];
    }
    for (int k = 0; k < q; k++) {
        if (ctl(x, c + 1))
            return 1;
        at += apply_entry(h, x->s, at, img);
    }
    for (int i = 0; i < h->cnl[c]; i++)
        line_options(x, h->clines[h->cfirst[c] + i]);
    return line(x, c, 0);
}

int hw_closure_images(Model *m, const MdlState *s, uint32_t pm_off,
                          MdlImageFn fn, void *ctx)
{
    Clo x;
    memset(m->img, 0, (size_t)m->p->pm_words * sizeof *m->img);
    x.m = m;
    x.h = hw_of(m);
    x.s = s;
    x.pm_off = pm_off;
    x.fn = fn;
    x.ctx = ctx;
    return ctl(&x, 0);
}
