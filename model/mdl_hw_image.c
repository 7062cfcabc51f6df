/*
 * mdl_hw_image.c — default mode: the crash images of a state, its pending
 * line writes (for witnesses), and inclusion between line summaries.
 *
 * The images of one line with summary (m, W, C) are the contents v_j with
 * the write-throughs of e(j+1)..ek applied, for j in C and max(j, W) <= k
 * <= m (mdl_hw_line.c). Lines are independent through a durable WPQ, so
 * the images of a state are the product of its lines' images. With a
 * volatile WPQ, controllers are independent and each contributes the union
 * over its frames (past and current) of the product over its lines
 * (mdl_hw_frame.c). An image includes, as pending slots, every log entry
 * at or before j and the write-throughs up to k.
 */
#include <string.h>

#include "model/mdl_hw.h"

#define E_WORD(x) ((int32_t)((x) & 0xFFFFFFFFu))
#define E_KIND(x) ((int)((x) >> 32))

void mdl_hw_image_content(const Hw *h, const MdlState *s, uint32_t pm_off,
                          int l, int j, int k, int64_t *out)
{
    uint32_t at = mdl_hw_line_log(h, s, pm_off, l);
    for (int32_t i = 0; i < h->lnw[l]; i++)
        out[i] = (int64_t)s->w[pm_off + h->r_base +
                               (uint32_t)(h->lfirst[l] + i)];
    for (int e = 1; e <= k; e++) {
        uint64_t x = s->w[at + 2u * (uint32_t)(e - 1)];
        if (e <= j || E_KIND(x) == HW_WT)
            out[E_WORD(x) - h->lfirst[l]] =
                (int64_t)s->w[at + 2u * (uint32_t)(e - 1) + 1];
    }
}

static int is_wt(const Hw *h, const MdlState *s, uint32_t pm_off, int l,
                 int e)
{
    uint32_t at = mdl_hw_line_log(h, s, pm_off, l);
    return E_KIND(s->w[at + 2u * (uint32_t)(e - 1)]) == HW_WT;
}

/* Calls f for every (j, k) of summary ln that can give a new image: k is
   the lowest allowed or a write-through. Stops when f returns nonzero. */
static int each_pair(const Hw *h, const MdlState *s, uint32_t pm_off, int l,
                     const HwLine *ln, int (*f)(void *, int, int), void *arg)
{
    for (int j = 0; j <= ln->m; j++) {
        int k0 = j > ln->W ? j : ln->W;
        if (!(ln->C & (1ull << j)))
            continue;
        for (int k = k0; k <= ln->m; k++)
            if ((k == k0 || is_wt(h, s, pm_off, l, k)) && f(arg, j, k))
                return 1;
    }
    return 0;
}

typedef struct {
    const Hw *h;
    const MdlState *s;
    uint32_t pm_off;
    int l;
    const int64_t *want;
    int found;
} Look;

static int look(void *arg, int j, int k)
{
    Look *q = arg;
    mdl_hw_image_content(q->h, q->s, q->pm_off, q->l, j, k, q->h->cb);
    q->found = !memcmp(q->h->cb, q->want,
                       (size_t)q->h->lnw[q->l] * sizeof *q->want);
    return q->found;
}

typedef struct {
    Look q;
    const HwLine *b;
    int missing;
} Sub;

static int sub_one(void *arg, int j, int k)
{
    Sub *u = arg;
    mdl_hw_image_content(u->q.h, u->q.s, u->q.pm_off, u->q.l, j, k,
                         u->q.h->ca);
    u->q.found = 0;
    each_pair(u->q.h, u->q.s, u->q.pm_off, u->q.l, u->b, look, &u->q);
    u->missing = !u->q.found;
    return u->missing;
}

int mdl_hw_image_subset(const Hw *h, const MdlState *s, uint32_t pm_off,
                        int l, const HwLine *a, const HwLine *b)
{
    Sub u;
    u.q.h = h;
    u.q.s = s;
    u.q.pm_off = pm_off;
    u.q.l = l;
    u.q.want = h->ca;
    u.b = b;
    u.missing = 0;
    each_pair(h, s, pm_off, l, a, sub_one, &u);
    return !u.missing;
}

/* ---- enumeration -------------------------------------------------------- */

typedef struct {
    Model *m;
    const Hw *h;
    const MdlState *s;
    uint32_t pm_off;
    MdlImageFn fn;
    void *ctx;
    uint32_t *slot0;                    /* first slot of each line */
    /* the line being listed */
    int l;
    uint16_t *out;
    int n;
} Enum;

static uint64_t content_hash(const int64_t *v, int n)
{
    uint64_t x = 0;
    for (int i = 0; i < n; i++)
        x += mdl_word_hash((uint32_t)i, (uint64_t)v[i]) + (uint64_t)v[i];
    return x;
}

/* Keeps (j, k) when its contents differ from every pair kept so far. */
static int keep_new(void *arg, int j, int k)
{
    Enum *E = arg;
    const Hw *h = E->h;
    int nw = h->lnw[E->l];
    uint64_t hs;
    mdl_hw_image_content(h, E->s, E->pm_off, E->l, j, k, h->ca);
    hs = content_hash(h->ca, nw);
    for (int i = 0; i < E->n; i++) {
        if (h->phash[i] != hs)
            continue;
        mdl_hw_image_content(h, E->s, E->pm_off, E->l, E->out[2 * i],
                       E->out[2 * i + 1], h->cb);
        if (!memcmp(h->ca, h->cb, (size_t)nw * sizeof *h->ca))
            return 0;
    }
    h->phash[E->n] = hs;
    E->out[2 * E->n] = (uint16_t)j;
    E->out[2 * E->n + 1] = (uint16_t)k;
    E->n++;
    return 0;
}

static HwLine summary(const Enum *E, int f, int l)
{
    if (f < mdl_hw_frame_count(E->h, E->s, E->pm_off, E->h->lctl[l]))
        return mdl_hw_frame_line(E->h, E->s, E->pm_off, f, l);
    return mdl_hw_line_get(E->h, E->s, E->pm_off, l);
}

static uint64_t included(const Enum *E, int l, int j, int k)
{
    uint64_t inc = 0;
    for (int e = 1; e <= k; e++)
        if (e <= j || is_wt(E->h, E->s, E->pm_off, l, e))
            inc |= 1ull << (E->slot0[l] + (uint32_t)(e - 1));
    return inc;
}

static int ctl(Enum *E, int c, uint64_t inc, uint32_t used);

/* Line i of controller c in frame f, then the next. */
static int line(Enum *E, int c, int f, int i, uint64_t inc, uint32_t used)
{
    const Hw *h = E->h;
    HwLine ln;
    uint16_t *pairs;
    int l, n;
    if (i == h->cnl[c])
        return ctl(E, c + 1, inc, used);
    l = h->clines[h->cfirst[c] + i];
    ln = summary(E, f, l);
    pairs = h->pairs + 2 * used;
    E->l = l;
    E->out = pairs;
    E->n = 0;
    each_pair(h, E->s, E->pm_off, l, &ln, keep_new, E);
    n = E->n;
    for (int p = 0; p < n; p++) {
        int j = pairs[2 * p], k = pairs[2 * p + 1];
        mdl_hw_image_content(h, E->s, E->pm_off, l, j, k, h->ca);
        for (int32_t w = 0; w < h->lnw[l]; w++)
            E->m->img[h->cword[h->lfirst[l] + w]] = h->ca[w];
        if (line(E, c, f, i + 1, inc | included(E, l, j, k),
                 used + (uint32_t)n))
            return 1;
    }
    return 0;
}

static int ctl(Enum *E, int c, uint64_t inc, uint32_t used)
{
    int nf;
    if (c == E->h->nc)
        return E->fn(E->ctx, E->m->img, inc);
    nf = mdl_hw_frame_count(E->h, E->s, E->pm_off, c);
    for (int f = 0; f <= nf; f++)
        if (line(E, c, f, 0, inc, used))
            return 1;
    return 0;
}

int mdl_hw_image_all(Model *m, const MdlState *s, uint32_t pm_off,
                     MdlImageFn fn, void *ctx)
{
    const Hw *h = hw_of(m);
    uint32_t *sl = h->lslot, n = 0;
    Enum E;
    memset(m->img, 0, (size_t)m->p->pm_words * sizeof *m->img);
    for (int32_t l = 0; l < h->nl; l++) {
        sl[l] = n;
        n += (uint32_t)mdl_hw_line_get(h, s, pm_off, l).m;
    }
    E.m = m;
    E.h = h;
    E.s = s;
    E.pm_off = pm_off;
    E.fn = fn;
    E.ctx = ctx;
    E.slot0 = sl;
    return ctl(&E, 0, 0, 0);
}

int mdl_hw_image_pending(const Model *m, const MdlState *s, uint32_t pm_off,
                         MdlPending *out, int max)
{
    const Hw *h = hw_of(m);
    int n = 0;
    for (int32_t l = 0; l < h->nl; l++) {
        uint32_t at = mdl_hw_line_log(h, s, pm_off, l);
        int ml = mdl_hw_line_get(h, s, pm_off, l).m;
        for (int e = 0; e < ml; e++, n++)
            if (n < max) {
                uint64_t x = s->w[at + 2u * (uint32_t)e];
                out[n].word = h->cword[E_WORD(x)];
                out[n].value = (int64_t)s->w[at + 2u * (uint32_t)e + 1];
                out[n].deps = 0;
            }
    }
    return n;
}
