/*
 * abs_image.c — the crash images of an abstract state: the persisted image
 * extended by every subset of P closed under D (DESIGN section 4), and
 * what loads see (the newest pending store of each word).
 */
#include <string.h>

#include "model/abstract/abs_int.h"

typedef struct {
    int n;
    int order[ABS_MAXP];                    /* a topological order of D */
    int32_t word[ABS_MAXP];
    int64_t val[ABS_MAXP];
    uint64_t dep[ABS_MAXP];
    uint64_t silent;                    /* stores of the value beneath them */
    int64_t *img;
    MdlImageFn fn;
    void *ctx;
} Ideals;

/* Decides the slots in topological order: each is left out, or taken when
   everything it depends on is taken. A silent store (its value equals the
   value beneath it: the older pending store to its word, or the persisted
   value) changes no image, so whenever it may be taken it is: every set
   that leaves it out has the same image as the set that takes it, which is
   enumerated, and taking it only enables more. */
static int ideals(Ideals *E, int k, uint64_t inc)
{
    int64_t old;
    int r, j;
    if (k == E->n)
        return E->fn(E->ctx, E->img, inc);
    j = E->order[k];
    if (E->dep[j] & ~inc)
        return ideals(E, k + 1, inc);
    if (!(E->silent & (1ull << j)) && ideals(E, k + 1, inc))
        return 1;
    old = E->img[E->word[j]];
    E->img[E->word[j]] = E->val[j];
    r = ideals(E, k + 1, inc | 1ull << j);
    E->img[E->word[j]] = old;
    return r;
}

/* The persisted image of s into pm (every word), unobserved words with
   their visible value (visible) or their initial one (a crash image:
   PROJECTION). */
static void expand(const Model *m, const MdlState *s, uint32_t pm_off,
                   int64_t *pm, int visible)
{
    const Abs *a = abs_of(m);
    memset(pm, 0, (size_t)m->p->pm_words * sizeof *pm);
    for (int32_t i = 0; i < a->nused; i++)
        pm[a->cword[i]] = (int64_t)s->w[PERS(m, pm_off, a->cword[i])];
    for (int32_t u = 0; u < a->nun; u++)
        pm[a->uword[u]] = visible ? (int64_t)s->w[UVAL(m, pm_off, u)]
                                  : m->init_pm[a->uword[u]];
}

int abs_image_enum(Model *m, const MdlState *s, uint32_t pm_off,
                      MdlImageFn fn, void *ctx)
{
    Ideals E;
    uint64_t placed = 0;
    expand(m, s, pm_off, m->img, 0);
    if (m->naive)
        return fn(ctx, m->img, 0);
    E.n = abs_npend(m, s, pm_off);
    E.silent = 0;
    for (int j = 0; j < E.n; j++) {
        E.word[j] = E_WORD(s->w[ENT(m, pm_off, j)]);
        E.val[j] = (int64_t)s->w[ENT(m, pm_off, j) + 1];
        E.dep[j] = s->w[ENT(m, pm_off, j) + 2];
        if (E.val[j] == (j && E.word[j - 1] == E.word[j] ? E.val[j - 1]
                                                         : m->img[E.word[j]]))
            E.silent |= 1ull << j;
    }
    for (int k = 0; k < E.n; k++) {
        int j = 0;
        while ((placed & (1ull << j)) || (E.dep[j] & ~placed))
            j++;
        E.order[k] = j;
        placed |= 1ull << j;
    }
    E.img = m->img;
    E.fn = fn;
    E.ctx = ctx;
    return ideals(&E, 0, 0);
}

void abs_image_visible(const Model *m, const MdlState *s, uint32_t pm_off,
                        int64_t *pm)
{
    int np = abs_npend(m, s, pm_off);
    expand(m, s, pm_off, pm, 1);
    for (int j = 0; j < np; j++)
        pm[E_WORD(s->w[ENT(m, pm_off, j)])] =
            (int64_t)s->w[ENT(m, pm_off, j) + 1];
}
