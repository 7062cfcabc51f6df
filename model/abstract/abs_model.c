/*
 * abs_model.c — the abstract models' ops table, the layout of their region
 * and initial states (abs_int.h has the encoding).
 */
#include <string.h>

#include "model/abstract/abs_int.h"

static uint32_t abs_thread_words(const Model *m)
{
    return abs_of(m)->stride;
}

static uint32_t abs_fixed_words(const Model *m)
{
    return abs_of(m)->ent;
}

static int abs_setup(Model *m, char *err, size_t errlen)
{
    const LitProgram *p = m->p;
    Abs *a = base_arena_alloc(m->arena, sizeof *a);
    (void)err;
    (void)errlen;
    const uint8_t *observed = m->observed;
    if (!a)
        return -1;
    a->obs = a->f = a->ownu = -1;
    a->stride = 0;
    if (m->pol->tracks & MDL_SET_OBS)
        a->obs = (int)a->stride++;
    if (m->pol->tracks & MDL_SET_F)
        a->f = (int)a->stride++;
    for (int k = 0; k < 3; k++) {
        const MdlRule *r = k == 0 ? &m->pol->pbar
                         : k == 1 ? &m->pol->release : &m->pol->psync;
        unsigned sets = r->force | r->order;
        assert(!r->order || (m->pol->tracks & MDL_SET_F));
        assert(!(sets & MDL_SET_OBS) || (m->pol->tracks & MDL_SET_OBS));
        assert(!(sets & MDL_SET_F) || (m->pol->tracks & MDL_SET_F));
        assert(!r->clear_obs || (m->pol->tracks & MDL_SET_OBS));
    }
    m->fx_kept = 1;
    /* the shortcut of STRICT above: D(s) = all of P */
    a->at_once = !m->naive && (m->pol->store_deps & MDL_SET_ALL);
    a->cidx = base_arena_alloc(m->arena,
                              ((size_t)p->pm_words + 1) * sizeof *a->cidx);
    a->cword = base_arena_alloc(m->arena,
                               ((size_t)p->pm_words + 1) * sizeof *a->cword);
    a->uidx = base_arena_alloc(m->arena,
                              ((size_t)p->pm_words + 1) * sizeof *a->uidx);
    a->uword = base_arena_alloc(m->arena,
                               ((size_t)p->pm_words + 1) * sizeof *a->uword);
    if (!a->cidx || !a->cword || !a->uidx || !a->uword)
        return -1;
    for (int32_t w = 0; w < p->pm_words; w++)
        a->cidx[w] = a->uidx[w] = -1;
    for (int i = 0; i < p->nlocs; i++)
        if (p->locs[i].space == LIT_PM)
            for (int32_t j = 0; j < p->locs[i].size; j++)
                a->cidx[p->locs[i].addr + j] = 0;
    for (int32_t w = 0; w < p->pm_words; w++) {
        if (a->cidx[w] < 0)
            continue;
        if (observed && !observed[w]) {
            a->cidx[w] = -1;
            a->uidx[w] = a->nun;
            a->uword[a->nun++] = w;
        } else {
            a->cidx[w] = a->nused;
            a->cword[a->nused++] = w;
        }
    }
    a->shadow = a->nun && (m->pol->store_deps & MDL_SET_F);
    if (a->shadow)
        a->ownu = (int)a->stride++;
    a->pre = (uint32_t)a->nun * (a->shadow ? 3u : 1u);
    a->ent = a->pre + (uint32_t)a->nused + (a->nused == 0);
    m->key_skip = a->pre;
    m->projected = a->nun > 0;
    m->mstate = a;
    return 0;
}

static void abs_init(Model *m, MdlState *s, uint32_t pm_off,
                     const int64_t *img)
{
    const Abs *a = abs_of(m);
    for (int32_t u = 0; u < a->nun; u++)
        s->w[UVAL(m, pm_off, u)] = (uint64_t)img[a->uword[u]];
    for (uint32_t i = (uint32_t)a->nun; i < a->pre; i++)
        s->w[pm_off + i] = 0;
    for (int32_t i = 0; i < a->nused; i++)
        s->w[PERS(m, pm_off, a->cword[i])] = (uint64_t)img[a->cword[i]];
    if (!a->nused)
        s->w[pm_off + a->pre] = 0;
}

/* The abstract models keep persistency state for the observed words. */
static int abs_keeps(const Model *m, int32_t word)
{
    return !m->observed || m->observed[word];
}

const MdlOps abs_ops = {
    .thread_words = abs_thread_words,
    .fixed_words = abs_fixed_words,
    .max_var_words = 3 * ABS_MAXP,
    .setup = abs_setup,
    .init = abs_init,
    .load = abs_rules_load,
    .store = abs_rules_store,
    .instr = abs_rules_instr,
    .keeps = abs_keeps,
    .release = abs_rules_release,
    .join = abs_rules_join,
    .images = abs_image_enum,
    .visible = abs_image_visible,
    .events = abs_rules_events,
    .event = abs_rules_event,
    .pending = abs_pending_list,
};
