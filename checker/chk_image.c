/*
 * chk_image.c — crash images. An image is interned over the PM words that
 * belong to a declaration (layout gaps are always zero). In the default
 * mode the images of a state depend only on its persistency region, so
 * they are enumerated once per distinct region and listed with the crash
 * outcomes they show; in --naive mode a state has one image, its persisted
 * memory, read off directly: caching by region would keep a key per state
 * for nothing. Regions are numbered by a state store of their own (tree
 * compression, checker_int.h): under hw a region is most of the state and
 * nearly every state has its own, and kept flat they cost kilobytes each.
 * Each region is encoded from the one before it, which its cursor holds.
 */
#include <string.h>

#include "checker/checker_int.h"

int chk_images_init(ChkRun *R)
{
    ChkImages *I = &R->img;
    const LitProgram *p = R->p;
    uint8_t *mark;
    uint32_t mw = mdl_max_words(R->m);
    sto_table_init(&I->tab, &R->mem);
    I->last = CHK_NONE;
    sto_gate_init(&I->rgate, 1);
    if (sto_store_init(&I->regions, mw, &R->mem, &I->rgate, R->o.state) ||
        sto_cursor_init(&I->rcur, &I->regions))
        return -1;
    I->rlast.cap = mw;
    I->rlast.w = base_calloc(mw, sizeof *I->rlast.w);
    I->used = base_calloc((size_t)p->pm_words + 1, sizeof *I->used);
    I->key = base_calloc((size_t)p->pm_words + 1, sizeof *I->key);
    I->full = base_calloc((size_t)p->pm_words + 1, sizeof *I->full);
    mark = base_calloc((size_t)p->pm_words + 1, 1);
    if (!I->rlast.w || !I->used || !I->key || !I->full || !mark) {
        base_free(mark);
        return -1;
    }
    for (int i = 0; i < p->nlocs; i++)
        if (p->locs[i].space == LIT_PM)
            memset(mark + p->locs[i].addr, 1, (size_t)p->locs[i].size);
    for (int32_t w = 0; w < p->pm_words; w++)
        if (mark[w])
            I->used[I->nused++] = w;
    base_free(mark);
    return 0;
}

void chk_images_free(ChkRun *R)
{
    ChkImages *I = &R->img;
    sto_table_free(&I->tab);
    sto_store_free(&I->regions);
    sto_cursor_free(&I->rcur);
    sto_gate_free(&I->rgate);
    base_free(I->rlast.w);
    base_budget_free(&R->mem, I->img);
    base_budget_free(&R->mem, I->pk);
    base_budget_free(&R->mem, I->list);
    base_budget_free(&R->mem, I->outs);
    base_free(I->used);
    base_free(I->key);
    base_free(I->full);
}

void chk_image_expand(const ChkRun *R, uint32_t img, int64_t *out)
{
    const uint64_t *w = sto_table_key(&R->img.tab, img, NULL);
    memset(out, 0, (size_t)R->p->pm_words * sizeof *out);
    for (uint32_t k = 0; k < R->img.nused; k++)
        out[R->img.used[k]] = (int64_t)w[k];
}

/* Interns image pm; CHK_NONE on failure. The image interned last is
   checked first: neighbours in BFS order (in --naive mode, one image per
   state) mostly have the same persisted memory. */
static uint32_t intern(ChkRun *R, const int64_t *pm)
{
    ChkImages *I = &R->img;
    uint32_t id;
    int r, same = I->last != CHK_NONE;
    for (uint32_t k = 0; k < I->nused; k++) {
        uint64_t v = (uint64_t)pm[I->used[k]];
        same &= I->key[k] == v;
        I->key[k] = v;
    }
    if (same)
        return I->last;
    I->last = CHK_NONE;
    r = sto_table_put(&I->tab, I->key, I->nused, &id);
    if (r < 0 || (r == 1 && BASE_BUDGET_GROW(&R->mem, I->img, I->capimg,
                                     (size_t)id + 1))) {
        chk_fail(R);
        return CHK_NONE;
    }
    assert(id < I->tab.n && (r == 0 || id + 1 == I->tab.n) && id < I->capimg);
    if (r == 1) {
        I->img[id].state = CHK_NONE;
        I->img[id].stamp = CHK_NONE;
        I->img[id].out = CHK_NONE;
    }
    return I->last = id;
}

/* The crash outcome of image id (pm), projected once per image: in --naive
   mode every state asks for its one image's. */
static uint32_t outcome_of(ChkRun *R, uint32_t id, const int64_t *pm)
{
    ChkImg *g = &R->img.img[id];
    if (g->out == CHK_NONE)
        g->out = chk_outcome(R, LIT_CRASH, pm, NULL, NULL);
    return g->out;
}

typedef struct {
    ChkRun *R;
    uint32_t key;                       /* persistency region being filled */
    uint64_t ideals;
    int failed;
    ChkPOut one;                        /* naive */
} ImgCtx;

static int on_image(void *ctx, const int64_t *pm, uint64_t included)
{
    ImgCtx *c = ctx;
    ChkRun *R = c->R;
    ChkImages *I = &R->img;
    uint32_t id;
    (void)included;
    if (++c->ideals > (uint64_t)R->o.max_states) {
        char msg[96];
        snprintf(msg, sizeof msg, "more than %lld crash images at one state",
                 (long long)R->o.max_states);
        chk_limit(R, msg);
        return 1;
    }
    id = intern(R, pm);
    if (id == CHK_NONE)
        return c->failed = 1;
    if (I->img[id].stamp == c->key)
        return 0;
    I->img[id].stamp = c->key;
    if (BASE_BUDGET_GROW(&R->mem, I->list, I->caplist, I->nlist + 1))
        goto oom;
    I->list[I->nlist++] = id;
    if (R->proj[LIT_CRASH].nitems >= 0) {
        uint32_t o = outcome_of(R, id, pm);
        ChkOut *out;
        if (o == CHK_NONE)
            return c->failed = 1;
        out = &R->outs[LIT_CRASH].o[o];
        if (out->stamp != c->key) {
            out->stamp = c->key;
            if (BASE_BUDGET_GROW(&R->mem, I->outs, I->capouts, I->nouts + 1))
                goto oom;
            I->outs[I->nouts].out = o;
            I->outs[I->nouts].img = id;
            I->nouts++;
        }
    }
    return 0;
oom:
    chk_fail(R);
    return c->failed = 1;
}

static int on_one(void *ctx, const int64_t *pm, uint64_t included)
{
    ImgCtx *c = ctx;
    ChkRun *R = c->R;
    (void)included;
    c->one.img = intern(R, pm);
    c->one.out = CHK_NONE;
    if (c->one.img == CHK_NONE)
        return c->failed = 1;
    if (R->proj[LIT_CRASH].nitems >= 0) {
        c->one.out = outcome_of(R, c->one.img, pm);
        if (c->one.out == CHK_NONE)
            return c->failed = 1;
    }
    return 0;
}

int chk_images_of(ChkRun *R, const MdlState *s, ChkImgSet *set)
{
    ChkImages *I = &R->img;
    ImgCtx c;
    uint32_t off, key;
    ChkPKey *pk;
    MdlState view;
    int r;
    memset(&c, 0, sizeof c);
    c.R = R;
    if (R->o.naive) {
        mdl_images(R->m, s, on_one, &c);
        if (c.failed)
            return -1;
        set->key = CHK_NONE;
        set->one = c.one;
        set->nimg = 1;
        set->nout = c.one.out != CHK_NONE;
        set->fresh = 1;
        return 0;
    }
    off = mdl_persist_key(R->m, s);
    view.w = s->w + off;                /* zero past its len, as s is */
    view.len = s->len - off;
    view.cap = s->cap - off;
    r = sto_store_put(&I->regions, &I->rcur, I->rlast.len ? &I->rlast : NULL,
                      &view, &key);
    if (r >= 0)
        sto_store_get(&I->regions, &I->rcur, key, &I->rlast);
    if (r < 0 || (r == 1 && BASE_BUDGET_GROW(&R->mem, I->pk, I->cappk,
                                     (size_t)key + 1))) {
        chk_fail(R);
        return -1;
    }
    assert(key < I->cappk && (r == 0 || key + 1 == sto_store_count(&I->regions)));
    pk = &I->pk[key];
    if (r == 1) {
        c.key = key;
        pk->first = (uint32_t)I->nlist;
        pk->ofirst = (uint32_t)I->nouts;
        mdl_images(R->m, s, on_image, &c);
        pk = &I->pk[key];
        pk->count = (uint32_t)I->nlist - pk->first;
        pk->ocount = (uint32_t)I->nouts - pk->ofirst;
        if (c.failed)
            return -1;
    }
    set->key = key;
    set->nimg = pk->count;
    set->nout = pk->ocount;
    set->fresh = r == 1;
    return 0;
}
