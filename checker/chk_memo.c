/*
 * chk_memo.c — recovery. Recovery from image I with d further crashes
 * allowed is a pure function of (I, d): it is explored once at level
 * D - d and memoised as the recovered observations and errors it reaches,
 * each with the fewest steps (then fewest crashes, then first found). A
 * crash inside recovery adds the memo of (I2, d - 1) for each image I2 of
 * that state, offset by the steps taken to reach it.
 */
#include <stdlib.h>
#include <string.h>

#include "checker/checker_int.h"

#define ERRBIT 0x80000000u

/* Best-so-far of level `level` for an observation or error id. */
static ChkBest *best_slot(ChkRun *R, int level, int err, uint32_t id)
{
    ChkLevel *L = &R->lvl[level];
    ChkBest **arr = err ? &L->err : &L->out;
    assert(level >= 1 && level < R->nlevels && id != CHK_NONE);
    assert(err ? id < R->errs.n : id < R->robs.n);
    size_t *cap = err ? &L->caperr : &L->capout, old = *cap;
    if (id >= old) {
        if (base_budget_grow(&R->mem, arr, cap, (size_t)id + 1, sizeof **arr)) {
            chk_fail(R);
            return NULL;
        }
        for (size_t i = old; i < *cap; i++)
            (*arr)[i].steps = CHK_NONE;
    }
    return &(*arr)[id];
}

void chk_relax(ChkRun *R, int level, int err, uint32_t id, uint32_t steps,
               uint32_t crashes, uint32_t state, uint32_t aux, uint32_t via)
{
    ChkLevel *L = &R->lvl[level];
    ChkBest *b;
    if (id == CHK_NONE)
        return;
    b = best_slot(R, level, err, id);
    if (!b)
        return;
    if (b->steps == CHK_NONE) {
        if (BASE_BUDGET_GROW(&R->mem, L->touched, L->captouched, L->ntouched + 1)) {
            chk_fail(R);
            return;
        }
        assert(!(id & ERRBIT));
        L->touched[L->ntouched++] = id | (err ? ERRBIT : 0);
    } else if (!chk_shorter(steps, crashes, b->steps, b->crashes)) {
        return;
    }
    b->id = id;
    b->steps = steps;
    b->crashes = crashes;
    b->state = state;
    b->aux = aux;
    b->via = via;
}

/* A recovery being explored: crashes allowed, and the steps beyond which
   nothing is wanted (CHK_NONE: none). */
typedef struct {
    int d;
    uint32_t bound;
} Rec;

/* A recovery state with d more crashes allowed: the memo of each of its
   crash images (when d > 0), and, when terminal, its observation. */
static int visit_recovery(ChkRun *R, void *ctx, uint32_t i, uint32_t depth,
                          const MdlState *cur)
{
    const Rec *rc = ctx;
    int d = rc->d, level = R->o.crash_depth - d, r;
    assert(d >= 0 && level >= 1 && level < R->nlevels);
    uint32_t o, n = (uint32_t)(R->p->pm_words + R->p->dram_words);
    if (d > 0) {
        ChkImgSet set;
        R->crash_points++;
        if (chk_images_of(R, cur, &set))
            return -1;
        for (uint32_t k = 0; k < set.nimg && R->status == CHK_DONE; k++) {
            uint32_t img2 = chk_set_img(R, &set, k);
            uint32_t mi = chk_recover(R, img2, d - 1,
                                      rc->bound == CHK_NONE ? CHK_NONE
                                                            : rc->bound - depth);
            const ChkMemo *mm;
            if (mi == CHK_NONE)
                return R->failed ? -1 : 0;
            mm = &R->memo[mi];
            for (uint32_t j = 0; j < mm->nout + mm->nerr; j++) {
                int err = j >= mm->nout;
                const ChkBest *b = &R->mbest[err ? mm->err_first + j - mm->nout
                                                 : mm->out_first + j];
                chk_relax(R, level, err, b->id, depth + b->steps,
                          b->crashes + 1, i, img2, VIA_NESTED);
            }
        }
    }
    if (!mdl_terminal(R->m, cur))
        return 0;
    mdl_observe(R->m, cur, R->pm, R->dram);
    memcpy(R->obuf, R->pm, (size_t)R->p->pm_words * sizeof *R->pm);
    memcpy(R->obuf + R->p->pm_words, R->dram,
           (size_t)R->p->dram_words * sizeof *R->dram);
    r = sto_table_put(&R->robs, R->obuf, n, &o);
    if (r < 0 || (r == 1 && BASE_BUDGET_GROW(&R->mem, R->robs_out, R->caprobs,
                                     (size_t)o + 1))) {
        chk_fail(R);
        return -1;
    }
    if (r == 1) {
        R->robs_out[o] = chk_outcome(R, LIT_RECOVERED, R->pm, R->dram, NULL);
        if (R->failed)
            return -1;
    }
    chk_relax(R, level, 0, o, depth, 0, i, CHK_NONE, VIA_TERMINAL);
    return 1;
}

/* Explores recovery from image img with d more crashes allowed, up to
   `bound` steps, leaving the best-so-far entries of its level filled and
   touched. */
static void explore_recovery(ChkRun *R, uint32_t img, int d, uint32_t bound)
{
    ChkLevel *L = &R->lvl[R->o.crash_depth - d];
    Rec rc;
    rc.d = d;
    rc.bound = bound;
    L->ntouched = 0;
    L->bound = bound;
    chk_image_expand(R, img, R->img.full);
    mdl_init_recovery(R->m, R->img.full, &L->state);
    chk_explore(R, R->o.crash_depth - d, 1, &L->state, visit_recovery, &rc);
    L->bound = CHK_NONE;
}

static int cmp_best(const void *a, const void *b)
{
    const ChkBest *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

uint32_t chk_recover(ChkRun *R, uint32_t img, int d, uint32_t bound)
{
    uint64_t key[2] = {img, (uint64_t)d};
    uint32_t mi;
    assert(img < R->img.tab.n && d >= 0 && d < R->o.crash_depth);
    ChkLevel *L = &R->lvl[R->o.crash_depth - d];
    ChkMemo memo;
    int r = sto_table_put(&R->memo_keys, key, 2, &mi);
    if (r < 0) {
        chk_fail(R);
        return CHK_NONE;
    }
    if (r == 0 && (R->memo[mi].bound == CHK_NONE || R->recover_any ||
                   (bound != CHK_NONE && bound <= R->memo[mi].bound)))
        return mi;
    if (r == 1)
        R->recoveries++;
    explore_recovery(R, img, d, bound);
    /* cut short by the bound: good for as many steps; else for all */
    memo.bound = L->cut ? bound : CHK_NONE;
    /* the memo keeps the entries sorted by kind, then id */
    memo.out_first = (uint32_t)R->nmbest;
    for (int pass = 0; pass < 2; pass++) {
        size_t start = R->nmbest;
        if (pass == 1)
            memo.err_first = (uint32_t)start;
        for (size_t k = 0; k < L->ntouched; k++) {
            uint32_t tid = L->touched[k];
            int err = (tid & ERRBIT) != 0;
            ChkBest *b;
            if (err != pass)
                continue;
            b = best_slot(R, R->o.crash_depth - d, err, tid & ~ERRBIT);
            if (!b ||
                BASE_BUDGET_GROW(&R->mem, R->mbest, R->capmbest, R->nmbest + 1)) {
                chk_fail(R);
                return CHK_NONE;
            }
            assert(b->steps != CHK_NONE && b->id == (tid & ~ERRBIT));
            R->mbest[R->nmbest++] = *b;
            b->steps = CHK_NONE;
        }
        if (R->nmbest > start)
            qsort(R->mbest + start, R->nmbest - start, sizeof *R->mbest,
                  cmp_best);
        if (pass == 0)
            memo.nout = (uint32_t)(R->nmbest - start);
        else
            memo.nerr = (uint32_t)(R->nmbest - start);
    }
    L->ntouched = 0;
    if (BASE_BUDGET_GROW(&R->mem, R->memo, R->capmemo, (size_t)mi + 1)) {
        chk_fail(R);
        return CHK_NONE;
    }
    R->memo[mi] = memo;
    return mi;
}

void chk_recover_space(ChkRun *R, uint32_t img, int d, uint32_t until)
{
    int level = R->o.crash_depth - d;
    ChkLevel *L = &R->lvl[level];
    L->until = until;
    explore_recovery(R, img, d, CHK_NONE);
    L->until = CHK_NONE;
    for (size_t k = 0; k < L->ntouched; k++) {
        uint32_t tid = L->touched[k];
        ChkBest *b = best_slot(R, level, (tid & ERRBIT) != 0, tid & ~ERRBIT);
        if (b)
            b->steps = CHK_NONE;
    }
    L->ntouched = 0;
}

void chk_recover_all(ChkRun *R)
{
    ChkOutcomes *rec = &R->outs[LIT_RECOVERED];
    uint32_t *seen = NULL;
    size_t capseen = 0;
    int d = R->o.crash_depth - 1;
    for (size_t k = 0; k < R->nmimg && R->status == CHK_DONE; k++) {
        uint32_t img = R->mimg[k], st = R->img.img[img].state, mi, base;
        const ChkMemo *mm;
        mi = chk_recover(R, img, d, CHK_NONE);
        if (mi == CHK_NONE)
            break;
        mm = &R->memo[mi];
        base = chk_space_steps(&R->lvl[0].space, st);
        for (uint32_t j = 0; j < mm->nout; j++) {
            const ChkBest *b = &R->mbest[mm->out_first + j];
            assert(b->id < R->robs.n && b->steps != CHK_NONE);
            uint32_t o = R->robs_out[b->id], total = base + b->steps;
            ChkOut *out;
            if (o == CHK_NONE)
                continue;
            if (o >= capseen) {
                size_t old = capseen;
                if (BASE_BUDGET_GROW(&R->mem, seen, capseen, (size_t)o + 1)) {
                    chk_fail(R);
                    goto out;
                }
                memset(seen + old, 0xFF, (capseen - old) * sizeof *seen);
            }
            out = &rec->o[o];
            if (seen[o] != img) {
                seen[o] = img;
                out->count++;
            }
            if (chk_shorter(total, b->crashes, out->best, out->crashes)) {
                out->best = total;
                out->crashes = b->crashes;
                out->state = b->id;
                out->aux = img;
            }
        }
        for (uint32_t j = 0; j < mm->nerr; j++) {
            const ChkBest *b = &R->mbest[mm->err_first + j];
            assert(b->id < R->errs.n);
            uint32_t total = base + b->steps;
            ChkErr *x = &R->err[b->id];
            if (chk_shorter(total, b->crashes + 1, x->total, x->crashes)) {
                x->total = total;
                x->crashes = b->crashes + 1;
                x->img = img;
            }
        }
    }
out:
    base_budget_free(&R->mem, seen);
}
