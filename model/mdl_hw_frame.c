/*
 * mdl_hw_frame.c — default mode with a volatile WPQ: what a crash may
 * still observe of the past.
 *
 * A controller's queue drains in FIFO order, so what has reached NVM is
 * every write toward the controller made before some moment θ, for one θ
 * per controller. θ is at least the latest point the thread steps forced
 * (a fence after a pcommit: the pcommit's issue; a pbar: its release), and
 * at most now. NVM is then exactly the NVM the durable semantics would have
 * at θ, and the writes made before θ may be any that the thread steps up to
 * θ allow (later requirements can all be met by later writes). So the
 * images of a controller's lines are the union, over the summaries its
 * lines had at the moments since the forced point, of the durable images
 * of those summaries (a product over its lines). A frame is such a past
 * summary: per line of the controller (m, W, C), read against the shared
 * log. A summary only changes at a thread step, so one frame per step that
 * changed it suffices, and a frame whose images are all among those of a
 * newer one is dropped (every drop that could remove the newer one removes
 * it too). A pcommit pointer counts the frames older than the pcommit; a
 * fence of its thread drops that many.
 */
#include <string.h>

#include "model/mdl_hw.h"

int mdl_hw_frame_count(const Hw *h, const MdlState *s, uint32_t pm_off,
                       int c)
{
    if (!h->vol)
        return 0;
    return (int)s->w[pm_off + h->r_cf + (uint32_t)c];
}

static void set_nframes(const Hw *h, MdlState *s, uint32_t pm_off, int c,
                        int n)
{
    mdl_set(s, pm_off + h->r_cf + (uint32_t)c, (uint64_t)n);
}

uint32_t mdl_hw_frame_at(const Hw *h, const MdlState *s, uint32_t pm_off,
                         int c)
{
    uint32_t at = pm_off + h->r_fixed +
                  2u * (uint32_t)mdl_hw_line_nlog(h, s, pm_off);
    for (int k = 0; k < c; k++)
        at += 2u * (uint32_t)(mdl_hw_frame_count(h, s, pm_off, k) * h->cnl[k]);
    return at;
}

static uint32_t frame_line_at(const Hw *h, const MdlState *s,
                              uint32_t pm_off, int f, int l)
{
    int c = h->lctl[l];
    return mdl_hw_frame_at(h, s, pm_off, c) +
           2u * (uint32_t)(f * h->cnl[c] + h->lpos[l]);
}

HwLine mdl_hw_frame_line(const Hw *h, const MdlState *s, uint32_t pm_off,
                         int f, int l)
{
    uint32_t at = frame_line_at(h, s, pm_off, f, l);
    HwLine ln;
    memset(&ln, 0, sizeof ln);
    ln.m = (int)(s->w[at] & 0xFF);
    ln.W = (int)((s->w[at] >> 8) & 0xFF);
    ln.C = s->w[at + 1];
    return ln;
}

/* Every pcommit pointer into controller c's frames, through f(ptr, arg). */
static void map_ptrs(HwStep *x, int c, int (*f)(int, int), int arg)
{
    for (int32_t t = 0; t < x->L->nthreads; t++) {
        uint32_t at = hw_tw(x->L, t, x->h->t_pc);
        hw_setbyte(x->s, at, c, f(hw_byte(x->s, at, c), arg));
    }
}

static int ptr_sub(int p, int k)
{
    return p > k ? p - k : 0;
}

static int ptr_removed(int p, int f)
{
    return p > f ? p - 1 : p;
}

void mdl_hw_frame_drop(HwStep *x, int c, int k)
{
    const Hw *h = x->h;
    uint32_t pm_off = x->L->pm_off;
    int n = mdl_hw_frame_count(h, x->s, pm_off, c);
    if (k > n)
        k = n;
    if (!k)
        return;
    mdl_hw_close(x->s, mdl_hw_frame_at(h, x->s, pm_off, c),
                 2u * (uint32_t)(k * h->cnl[c]));
    set_nframes(h, x->s, pm_off, c, n - k);
    map_ptrs(x, c, ptr_sub, k);
}

void mdl_hw_frame_clear(HwStep *x)
{
    for (int32_t c = 0; c < x->h->nc; c++) {
        mdl_hw_frame_drop(x, c,
                          mdl_hw_frame_count(x->h, x->s, x->L->pm_off, c));
        map_ptrs(x, c, ptr_sub, 255);
    }
}

static void remove_frame(HwStep *x, int c, int f)
{
    const Hw *h = x->h;
    uint32_t pm_off = x->L->pm_off;
    mdl_hw_close(x->s, mdl_hw_frame_at(h, x->s, pm_off, c) +
                       2u * (uint32_t)(f * h->cnl[c]),
                 2u * (uint32_t)h->cnl[c]);
    set_nframes(h, x->s, pm_off, c,
                mdl_hw_frame_count(h, x->s, pm_off, c) - 1);
    map_ptrs(x, c, ptr_removed, f);
}

/* Whether controller c's lines changed since the hook began. */
static int changed(const HwStep *x, int c)
{
    const Hw *h = x->h;
    for (int32_t i = 0; i < h->cnl[c]; i++) {
        int l = h->clines[h->cfirst[c] + i];
        uint32_t at = x->L->pm_off;
        if ((h->snap[2 * l] & 0xFFFF) !=
                (x->s->w[at + h->r_lh + (uint32_t)l] & 0xFFFF) ||
            h->snap[2 * l + 1] != x->s->w[at + h->r_lc + (uint32_t)l])
            return 1;
    }
    return 0;
}

/* Whether frame f's images of controller c are all images of the current
   summary. */
static int covered(const HwStep *x, int c, int f)
{
    const Hw *h = x->h;
    uint32_t pm_off = x->L->pm_off;
    for (int32_t i = 0; i < h->cnl[c]; i++) {
        int l = h->clines[h->cfirst[c] + i];
        HwLine a = mdl_hw_frame_line(h, x->s, pm_off, f, l);
        HwLine b = mdl_hw_line_get(h, x->s, pm_off, l);
        if (!mdl_hw_image_subset(h, x->s, pm_off, l, &a, &b))
            return 0;
    }
    return 1;
}

int mdl_hw_frame_update(HwStep *x)
{
    const Hw *h = x->h;
    MdlState *s = x->s;
    uint32_t pm_off = x->L->pm_off;
    for (int32_t c = 0; c < h->nc; c++) {
        int n = mdl_hw_frame_count(h, s, pm_off, c);
        if (!changed(x, c))
            continue;
        if (!x->drained) {
            uint32_t at = mdl_hw_frame_at(h, s, pm_off, c) +
                          2u * (uint32_t)(n * h->cnl[c]);
            if (n >= HW_MAXFRAMES ||
                s->len + 2u * (uint32_t)h->cnl[c] >
                    pm_off + h->r_fixed + HW_VAR_WORDS)
                return 1;
            mdl_hw_open(s, at, 2u * (uint32_t)h->cnl[c]);
            for (int32_t i = 0; i < h->cnl[c]; i++) {
                int l = h->clines[h->cfirst[c] + i];
                mdl_set(s, at + 2u * (uint32_t)i, h->snap[2 * l] & 0xFFFF);
                mdl_set(s, at + 2u * (uint32_t)i + 1, h->snap[2 * l + 1]);
            }
            set_nframes(h, s, pm_off, c, ++n);
        }
        for (int f = n - 1; f >= 0; f--)
            if (covered(x, c, f))
                remove_frame(x, c, f);
    }
    return 0;
}

void mdl_hw_frame_shift(HwStep *x, int l, int g)
{
    const Hw *h = x->h;
    uint32_t pm_off = x->L->pm_off;
    int n = mdl_hw_frame_count(h, x->s, pm_off, h->lctl[l]);
    for (int f = 0; f < n; f++) {
        uint32_t at = frame_line_at(h, x->s, pm_off, f, l);
        HwLine ln = mdl_hw_frame_line(h, x->s, pm_off, f, l);
        ln.m -= g;
        ln.C >>= g;
        ln.W = ln.W > g ? ln.W - g : 0;
        mdl_set(x->s, at, (uint64_t)ln.m | (uint64_t)ln.W << 8);
        mdl_set(x->s, at + 1, ln.C);
    }
}

int mdl_hw_frame_min(HwStep *x, int l)
{
    const Hw *h = x->h;
    uint32_t pm_off = x->L->pm_off;
    int n = mdl_hw_frame_count(h, x->s, pm_off, h->lctl[l]), g = 64;
    for (int f = 0; f < n; f++) {
        HwLine ln = mdl_hw_frame_line(h, x->s, pm_off, f, l);
        int k = ln.C ? __builtin_ctzll(ln.C) : 64;
        if (k < g)
            g = k;
    }
    return g;
}
