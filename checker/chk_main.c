/*
 * chk_main.c — the main program: every state is a crash point, with its
 * crash images and crash outcomes; a terminal state also has its final
 * outcome and its observable memory (for `noerror`'s count).
 */
#include <string.h>

#include "checker/checker_int.h"

static void seen(ChkOut *o, uint32_t depth, uint32_t state, uint32_t aux)
{
    o->count++;
    if (o->best == CHK_NONE) {
        o->best = depth;
        o->state = state;
        o->aux = aux;
    }
}

static int visit_main(ChkRun *R, void *ctx, uint32_t i, uint32_t depth,
                      const MdlState *cur)
{
    uint32_t o, n, fid;
    (void)ctx;
    R->crash_points++;
    if (R->images) {
        ChkImgSet set;
        if (chk_images_of(R, cur, &set))
            return -1;
        /* a region seen before registered its images at an earlier state,
           unless recovery saw it first (a search for witnesses recovers
           between levels) */
        for (uint32_t k = 0; (set.fresh || R->goals) && k < set.nimg; k++) {
            uint32_t id = chk_set_img(R, &set, k);
            if (R->img.img[id].state != CHK_NONE)
                continue;
            if (BASE_BUDGET_GROW(&R->mem, R->mimg, R->capmimg, R->nmimg + 1)) {
                chk_fail(R);
                return -1;
            }
            R->img.img[id].state = i;
            R->mimg[R->nmimg++] = id;
        }
        for (uint32_t k = 0; k < set.nout; k++) {
            ChkPOut po = chk_set_out(R, &set, k);
            assert(po.out < R->outs[LIT_CRASH].tab.n);
            seen(&R->outs[LIT_CRASH].o[po.out], depth, i, po.img);
        }
    }
    if (!mdl_terminal(R->m, cur))
        return 0;
    mdl_observe(R->m, cur, R->pm, R->dram);
    o = chk_outcome(R, LIT_FINAL, R->pm, R->dram, cur);
    if (o != CHK_NONE) {
        assert(o < R->outs[LIT_FINAL].tab.n);
        seen(&R->outs[LIT_FINAL].o[o], depth, i, CHK_NONE);
    } else if (R->failed) {
        return -1;
    }
    n = mdl_observable(R->m, cur, R->fbuf);
    if (sto_table_put(&R->finals, R->fbuf, n, &fid) < 0) {
        chk_fail(R);
        return -1;
    }
    return 1;
}

void chk_explore_main(ChkRun *R)
{
    mdl_init_main(R->m, &R->lvl[0].state);
    chk_explore(R, 0, 0, &R->lvl[0].state, visit_main, NULL);
    R->main_done = 1;
}
