/*
 * chk_run.c — one check: explore, recover, decide, report.
 *
 * Counting rules (herd-style outcome lists): a `final` outcome counts the
 * main program's terminal states showing it, a `crash` outcome the crash
 * points with an image showing it, a `recovered` outcome the distinct main
 * crash images from which some recovery run (nested crashes included)
 * ends showing it. Positive/negative count the distinct outcomes of the
 * phase that satisfy / falsify the condition. For `noerror`, positive is
 * the number of distinct runtime errors and negative the number of
 * distinct terminal states of the main program as the program sees them
 * (registers and memory, not the persistency state).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checker/checker_int.h"

const char *const chk_status_names[3] = {"done", "incomplete", "error"};
const char *const chk_vkind_names[3] = {"counterexample", "example", "error"};
const char *const chk_verdict_names[3] = {"No", "Ok", "Unknown"};

void chk_options_default(ChkOptions *o)
{
    memset(o, 0, sizeof *o);
    o->model = LIT_STRICT;
    o->crash_depth = 2;
    o->max_states = 1000000;
    o->max_steps = 10000;
    o->reduce = CHK_R_ALL;
}

/* The model's mode for these options: the literal semantics, or the
   default mode with the reductions in use. */
static unsigned model_mode(const ChkOptions *o)
{
    if (o->naive)
        return MDL_NAIVE;
    return (o->reduce & CHK_R_FUSE ? MDL_FUSE : 0) |
           (o->reduce & CHK_R_POR ? MDL_POR : 0) |
           (o->reduce & CHK_R_SLICE ? MDL_SLICE : 0);
}

double chk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int chk_result_passes(const ChkResult *r)
{
    if (r->verdict == CHK_UNKNOWN)
        return 0;
    return r->expected < 0 ? r->verdict == CHK_OK : r->verdict == r->expected;
}

/* An incomplete check keeps only the verdicts a witness found before the
   limit decides: a counterexample makes forall/~exists/noerror No, an
   example makes exists Ok. The other side of each claim needs the whole
   state space, so it becomes Unknown (DESIGN section 3). */
static void undecided_to_unknown(const ChkRun *R, ChkReport *rep)
{
    if (R->status == CHK_DONE)
        return;
    for (int k = 0; k < rep->nresults; k++) {
        ChkResult *r = &rep->results[k];
        int universal = r->phase == LIT_NOERROR || r->quant != LIT_EXISTS;
        if (r->verdict == (universal ? CHK_OK : CHK_NO))
            r->verdict = CHK_UNKNOWN;
    }
}

static int setup(ChkRun *R, char *err, size_t errlen)
{
    uint32_t mw = mdl_max_words(R->m);
    size_t ob = (size_t)R->p->pm_words + (size_t)R->p->dram_words + 1;
    R->nlevels = R->o.crash_depth + 1;
    R->space = calloc((size_t)R->nlevels, sizeof *R->space);
    R->lvl_state = calloc((size_t)R->nlevels, sizeof *R->lvl_state);
    R->lvl_touched = calloc((size_t)R->nlevels, sizeof *R->lvl_touched);
    R->lvl_out = calloc((size_t)R->nlevels, sizeof *R->lvl_out);
    R->lvl_err = calloc((size_t)R->nlevels, sizeof *R->lvl_err);
    R->lvl_capout = calloc((size_t)R->nlevels, sizeof *R->lvl_capout);
    R->lvl_caperr = calloc((size_t)R->nlevels, sizeof *R->lvl_caperr);
    for (int k = 0; k < 3; k++)
        if (R->proj[k].nitems > 0 && (size_t)R->proj[k].nitems + 1 > ob)
            ob = (size_t)R->proj[k].nitems + 1;
    R->pm = calloc((size_t)R->p->pm_words + 1, sizeof *R->pm);
    R->dram = calloc((size_t)R->p->dram_words + 1, sizeof *R->dram);
    R->obuf = calloc(ob, sizeof *R->obuf);
    R->fbuf = calloc((size_t)mw + (size_t)R->p->pm_words + 1, sizeof *R->fbuf);
    R->used = calloc((size_t)R->p->pm_words + 1, sizeof *R->used);
    R->ibuf = calloc((size_t)R->p->pm_words + 1, sizeof *R->ibuf);
    R->ifull = calloc((size_t)R->p->pm_words + 1, sizeof *R->ifull);
    if (R->used) {
        uint8_t *mark = calloc((size_t)R->p->pm_words + 1, 1);
        if (!mark) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        for (int i = 0; i < R->p->nlocs; i++)
            if (R->p->locs[i].space == LIT_PM)
                memset(mark + R->p->locs[i].addr, 1,
                       (size_t)R->p->locs[i].size);
        for (int32_t w = 0; w < R->p->pm_words; w++)
            if (mark[w])
                R->used[R->nused++] = w;
        free(mark);
    }
    if (!R->space || !R->lvl_state || !R->lvl_touched || !R->lvl_out ||
        !R->lvl_err || !R->lvl_capout || !R->lvl_caperr || !R->pm ||
        !R->dram || !R->obuf || !R->fbuf || !R->used || !R->ibuf ||
        !R->ifull) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int l = 0; l < R->nlevels; l++) {
        chk_space_init(&R->space[l]);
        R->lvl_state[l].cap = mw;
        R->lvl_state[l].w = calloc(mw, sizeof(uint64_t));
        if (!R->lvl_state[l].w) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

static size_t footprint(const ChkRun *R)
{
    size_t b = chk_table_bytes(&R->images) + chk_table_bytes(&R->pkeys) +
               chk_table_bytes(&R->robs) + chk_table_bytes(&R->errs) +
               chk_table_bytes(&R->memo_keys) + R->capmbest * sizeof(ChkBest);
    for (int l = 0; l < R->nlevels; l++)
        b += chk_table_bytes(&R->space[l].states) +
             R->space[l].cap * 3 * sizeof(uint32_t) +
             (R->space[l].edges.cap + R->space[l].eoff.cap) * sizeof(uint32_t);
    for (int k = 0; k < 3; k++)
        b += chk_table_bytes(&R->outs[k]);
    return b;
}

static void teardown(ChkRun *R)
{
    ChkVec *vecs[] = {
        &R->img_state, &R->pk_first, &R->pk_count, &R->pk_imgs,
        &R->pk_ofirst, &R->pk_ocount, &R->pk_outs, &R->pk_outimg,
        &R->img_stamp, &R->out_stamp, &R->robs_out, &R->err_best,
        &R->err_state, &R->err_aux, &R->err_total, &R->err_img
    };
    for (size_t i = 0; i < sizeof vecs / sizeof *vecs; i++)
        chk_vec_free(vecs[i]);
    for (int k = 0; k < 3; k++) {
        chk_table_free(&R->outs[k]);
        chk_vec_free(&R->out_count[k]);
        chk_vec_free(&R->out_best[k]);
        chk_vec_free(&R->out_state[k]);
        chk_vec_free(&R->out_aux[k]);
        free(R->proj[k].items);
    }
    chk_table_free(&R->images);
    chk_table_free(&R->pkeys);
    chk_table_free(&R->robs);
    chk_table_free(&R->errs);
    chk_table_free(&R->memo_keys);
    chk_table_free(&R->finals);
    free(R->fbuf);
    free(R->used);
    free(R->ibuf);
    free(R->ifull);
    free(R->err);
    free(R->memo);
    free(R->mbest);
    for (int l = 0; l < R->nlevels && R->space; l++) {
        chk_space_free(&R->space[l]);
        if (R->lvl_state)
            free(R->lvl_state[l].w);
        if (R->lvl_touched)
            chk_vec_free(&R->lvl_touched[l]);
        if (R->lvl_out)
            free(R->lvl_out[l]);
        if (R->lvl_err)
            free(R->lvl_err[l]);
    }
    free(R->space);
    free(R->lvl_state);
    free(R->lvl_touched);
    free(R->lvl_out);
    free(R->lvl_err);
    free(R->lvl_capout);
    free(R->lvl_caperr);
    free(R->pm);
    free(R->dram);
    free(R->obuf);
    mdl_free(R->m);
}

/* Recovery from every main crash image; folds the memo into the
   `recovered` outcomes and the errors' best witnesses. */
static void recover_all(ChkRun *R)
{
    ChkVec seen = {0}, crashes = {0};
    int d = R->o.crash_depth - 1;
    for (uint32_t img = 0; img < R->images.n && R->status == CHK_DONE; img++) {
        uint32_t st = R->img_state.v[img], mi, base;
        const ChkMemo *mm;
        if (st == CHK_NONE)
            continue;
        mi = chk_recover(R, img, d);
        if (mi == CHK_NONE)
            break;
        mm = &R->memo[mi];
        base = R->space[0].depth[st];
        for (uint32_t j = 0; j < mm->nout; j++) {
            const ChkBest *b = &R->mbest[mm->out_first + j];
            uint32_t o = R->robs_out.v[b->id], total = base + b->steps;
            if (o == CHK_NONE)
                continue;
            while (seen.n <= o) {
                chk_vec_push(&seen, CHK_NONE);
                chk_vec_push(&crashes, CHK_NONE);
            }
            if (seen.v[o] != img) {
                seen.v[o] = img;
                R->out_count[LIT_RECOVERED].v[o]++;
            }
            if (R->out_best[LIT_RECOVERED].v[o] == CHK_NONE ||
                R->out_best[LIT_RECOVERED].v[o] > total ||
                (R->out_best[LIT_RECOVERED].v[o] == total &&
                 crashes.v[o] > b->crashes)) {
                R->out_best[LIT_RECOVERED].v[o] = total;
                crashes.v[o] = b->crashes;
                R->out_state[LIT_RECOVERED].v[o] = b->id;
                R->out_aux[LIT_RECOVERED].v[o] = img;
            }
        }
        for (uint32_t j = 0; j < mm->nerr; j++) {
            const ChkBest *b = &R->mbest[mm->err_first + j];
            uint32_t total = base + b->steps;
            while (R->err_total.n <= b->id) {
                chk_vec_push(&R->err_total, CHK_NONE);
                chk_vec_push(&R->err_img, CHK_NONE);
            }
            if (R->err_total.v[b->id] == CHK_NONE ||
                R->err_total.v[b->id] > total) {
                R->err_total.v[b->id] = total;
                R->err_img.v[b->id] = img;
            }
        }
    }
    chk_vec_free(&seen);
    chk_vec_free(&crashes);
}

/* Errors found in the main program: their best witness is there unless a
   recovery offers a strictly shorter one (recover_all runs after). */
static void main_errors(ChkRun *R)
{
    for (uint32_t e = 0; e < R->errs.n; e++) {
        uint32_t b = e < R->err_best.n ? R->err_best.v[e] : CHK_NONE;
        while (R->err_total.n <= e) {
            chk_vec_push(&R->err_total, CHK_NONE);
            chk_vec_push(&R->err_img, CHK_NONE);
        }
        R->err_total.v[e] = b;
        R->err_img.v[e] = CHK_NONE;
    }
}

typedef struct {
    const char *text;
    int64_t count;
} OutRow;

static int cmp_row(const void *a, const void *b)
{
    return strcmp(((const OutRow *)a)->text, ((const OutRow *)b)->text);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *outcome_text(ChkRun *R, int ph, uint32_t o)
{
    char buf[4096];
    chk_outcome_text(R, ph, chk_table_key(&R->outs[ph], o, NULL), buf,
                     sizeof buf);
    return lit_arena_strdup(R->arena, buf);
}

/* Shortest-witness outcome of phase ph with cond == want, or NONE. */
static uint32_t best_outcome(ChkRun *R, int ph, const LitCond *c, int want)
{
    uint32_t best = CHK_NONE;
    for (uint32_t o = 0; o < R->outs[ph].n; o++) {
        const uint64_t *pj;
        if (!R->out_count[ph].v[o] || R->out_best[ph].v[o] == CHK_NONE)
            continue;
        pj = chk_table_key(&R->outs[ph], o, NULL);
        if (chk_cond_eval(R, ph, c, pj) != want)
            continue;
        if (best == CHK_NONE || R->out_best[ph].v[o] < R->out_best[ph].v[best])
            best = o;
    }
    return best;
}

static void build_report(ChkRun *R, ChkReport *rep)
{
    const LitProgram *p = R->p;
    int nout = 0, nv = 0, noerror = -1;
    uint32_t besterr = CHK_NONE;
    rep->results = lit_arena_alloc(R->arena,
                                   ((size_t)p->nchecks + 1) * sizeof *rep->results);
    rep->violations = lit_arena_alloc(R->arena, ((size_t)p->nchecks + 1) *
                                                    sizeof *rep->violations);
    for (uint32_t e = 0; e < R->errs.n && e < R->err_total.n; e++)
        if (R->err_total.v[e] != CHK_NONE &&
            (besterr == CHK_NONE || R->err_total.v[e] < R->err_total.v[besterr]))
            besterr = e;
    for (int k = 0; k < p->nchecks; k++) {
        const LitCheck *c = &p->checks[k];
        ChkResult *r = &rep->results[k];
        int ph = c->phase;
        r->cond_index = k;
        r->phase = ph;
        r->quant = c->quant;
        r->cond = c->text;
        r->expected = c->expect[R->o.model];
        if (ph == LIT_NOERROR) {
            noerror = k;
            r->positive = R->errs.n;
            r->negative = R->finals.n;
            r->verdict = R->errs.n == 0;
            continue;
        }
        for (uint32_t o = 0; o < R->outs[ph].n; o++) {
            if (!R->out_count[ph].v[o])
                continue;
            if (chk_cond_eval(R, ph, c->cond,
                              chk_table_key(&R->outs[ph], o, NULL)))
                r->positive++;
            else
                r->negative++;
        }
        switch (c->quant) {
        case LIT_EXISTS: r->verdict = r->positive > 0; break;
        case LIT_NOT_EXISTS: r->verdict = r->positive == 0; break;
        default: r->verdict = r->negative == 0; break;
        }
        if ((c->quant == LIT_EXISTS && r->verdict) ||
            (c->quant != LIT_EXISTS && !r->verdict)) {
            int want = c->quant != LIT_FORALL;
            uint32_t o = best_outcome(R, ph, c->cond, want);
            if (o != CHK_NONE) {
                ChkViolation *v = &rep->violations[nv++];
                v->cond_index = k;
                v->kind = c->quant == LIT_EXISTS ? CHK_V_EXAMPLE
                                                 : CHK_V_COUNTEREXAMPLE;
                chk_witness(R, v, ph, o);
            }
        }
    }
    rep->nresults = p->nchecks;
    undecided_to_unknown(R, rep);
    if (besterr != CHK_NONE) {
        ChkViolation *v = &rep->violations[nv++];
        v->cond_index = noerror;
        chk_witness_error(R, v, besterr);
    }
    rep->nviolations = nv;
    /* outcome lists */
    for (int ph = 0; ph < 3; ph++)
        nout += (int)R->outs[ph].n;
    rep->outcomes = lit_arena_alloc(R->arena,
                                    ((size_t)nout + 1) * sizeof *rep->outcomes);
    nout = 0;
    for (int ph = 0; ph < 3; ph++) {
        OutRow *rows = calloc((size_t)R->outs[ph].n + 1, sizeof *rows);
        int n = 0;
        if (!rows)
            continue;
        for (uint32_t o = 0; o < R->outs[ph].n; o++)
            if (R->out_count[ph].v[o]) {
                rows[n].text = outcome_text(R, ph, o);
                rows[n].count = R->out_count[ph].v[o];
                n++;
            }
        qsort(rows, (size_t)n, sizeof *rows, cmp_row);
        for (int i = 0; i < n; i++) {
            rep->outcomes[nout].phase = ph;
            rep->outcomes[nout].state = rows[i].text;
            rep->outcomes[nout].count = rows[i].count;
            nout++;
        }
        free(rows);
    }
    rep->noutcomes = nout;
    if (R->o.list_images) {
        rep->images = lit_arena_alloc(R->arena, ((size_t)R->images.n + 1) *
                                                    sizeof *rep->images);
        for (uint32_t i = 0; i < R->images.n; i++) {
            int32_t n = R->p->pm_words;
            char *t, *q;
            if (R->img_state.v[i] == CHK_NONE)
                continue;
            chk_image_expand(R, i, R->ifull);
            t = lit_arena_alloc(R->arena, (size_t)n * 21 + 1);
            q = t;
            for (int32_t k = 0; k < n; k++)
                q += sprintf(q, "%s%lld", k ? " " : "", (long long)R->ifull[k]);
            rep->images[rep->nimages++] = t;
        }
        qsort(rep->images, (size_t)rep->nimages, sizeof *rep->images, cmp_str);
    }
    rep->nerrors = (int)R->errs.n;
    rep->errors = lit_arena_alloc(R->arena,
                                  ((size_t)R->errs.n + 1) * sizeof *rep->errors);
    for (uint32_t e = 0; e < R->errs.n; e++)
        rep->errors[e] = R->err[e].text;
    qsort(rep->errors, R->errs.n, sizeof *rep->errors, cmp_str);
}

int chk_run(const LitProgram *p, const ChkOptions *o, ChkReport **out,
            char *err, size_t errlen)
{
    ChkRun R;
    ChkReport *rep;
    char merr[256];
    memset(&R, 0, sizeof R);
    R.p = p;
    R.o = *o;
    if (R.o.crash_depth < 1)
        R.o.crash_depth = 1;
    R.t0 = chk_now();
    R.last_progress = R.t0;
    R.arena = lit_arena_new();
    if (!R.arena) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    rep = lit_arena_alloc(R.arena, sizeof *rep);
    rep->arena = R.arena;
    rep->model = o->model;
    R.status = CHK_DONE;
    R.m = mdl_new(p, o->model, model_mode(o), merr, sizeof merr);
    if (!R.m) {
        rep->status = CHK_ERROR;
        rep->reason = lit_arena_strdup(R.arena, merr);
        rep->notes = "";
        rep->errors = lit_arena_alloc(R.arena, sizeof *rep->errors);
        *out = rep;
        return 0;
    }
    chk_proj_build(&R);
    if (setup(&R, err, errlen)) {
        teardown(&R);
        lit_arena_free(R.arena);
        return -1;
    }
    chk_explore_main(&R);
    main_errors(&R);
    if (p->has_recover && R.status == CHK_DONE)
        recover_all(&R);
    if (R.oom) {
        snprintf(err, errlen, "out of memory");
        teardown(&R);
        lit_arena_free(R.arena);
        return -1;
    }
    rep->status = R.status;
    rep->reason = R.reason;
    rep->states = R.states;
    rep->transitions = R.transitions;
    rep->crash_points = R.crash_points;
    rep->crash_images = R.images.n;
    rep->recoveries = R.recoveries;
    rep->peak_kb = (int64_t)(footprint(&R) / 1024);
    build_report(&R, rep);
    rep->notes = lit_arena_strdup(R.arena, mdl_notes(R.m));
    rep->elapsed_ms = (chk_now() - R.t0) * 1000.0;
    teardown(&R);
    *out = rep;
    return 0;
}

void chk_report_free(ChkReport *r)
{
    if (r)
        lit_arena_free(r->arena);
}
