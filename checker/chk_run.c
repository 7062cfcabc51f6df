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
 *
 * Running out of memory (or of the --max-memory budget) anywhere ends the
 * check `incomplete` with that reason; the report is still built from what
 * was explored, and whatever part of it cannot be allocated is left out.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checker/checker_int.h"

const char *const chk_status_names[3] = {"done", "incomplete", "error"};
const char *const chk_vkind_names[3] = {"counterexample", "example", "error"};
const char *const chk_verdict_names[3] = {"No", "Ok", "Unknown"};
const char *const chk_state_names[3] = {"flat", "tree", "auto"};

/* The options name the stores by the store's own numbers. */
_Static_assert((int)CHK_STATE_FLAT == (int)STO_FLAT &&
               (int)CHK_STATE_TREE == (int)STO_TREE,
               "CHK_STATE_* and STO_* agree");

void chk_options_default(ChkOptions *o)
{
    memset(o, 0, sizeof *o);
    o->model = LIT_STRICT;
    o->crash_depth = 2;
    o->max_states = 1000000;
    o->max_steps = 10000;
    o->reduce = CHK_R_ALL;
    o->state = CHK_STATE_AUTO;
}

void chk_options_share(ChkOptions *o, int jobs)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs <= 1)
        return;
    if (o->threads == 0)
        o->threads = cores / jobs > 1 ? (int)(cores / jobs) : 1;
    if (o->max_memory_kb == 0)
        o->max_memory_kb = base_budget_default_limit() / 1024 / jobs;
}

unsigned chk_model_mode(const ChkOptions *o)
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

static int nthreads(const ChkOptions *o)
{
    long n = o->threads > 0 ? o->threads : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

void chk_run_init(ChkRun *R, const LitProgram *p, const ChkOptions *o,
                  unsigned mode, BaseArena *arena, int64_t mem_limit)
{
    memset(R, 0, sizeof *R);
    R->p = p;
    R->o = *o;
    R->auto_state = o->state == CHK_STATE_AUTO;
    R->mode = mode;
    R->arena = arena;
    if (R->o.crash_depth < 1)
        R->o.crash_depth = 1;
    R->t0 = chk_now();
    R->last_progress = R->t0;
    R->status = CHK_DONE;
    base_budget_init(&R->mem, mem_limit);
}

int chk_run_setup(ChkRun *R, char *err, size_t errlen)
{
    const LitProgram *p = R->p;
    uint32_t mw = mdl_max_words(R->m);
    size_t ob = (size_t)p->pm_words + (size_t)p->dram_words + 1;
    if (chk_proj_build(R)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    R->images = R->proj[LIT_CRASH].nitems >= 0 || p->has_recover;
    if (R->o.state == CHK_STATE_AUTO)
        R->o.state = mw <= CHK_FLAT_MAX_WORDS ? CHK_STATE_FLAT : CHK_STATE_TREE;
    for (int k = 0; k < 3; k++) {
        sto_table_init(&R->outs[k].tab, &R->mem);
        if (R->proj[k].nitems > 0 && (size_t)R->proj[k].nitems + 1 > ob)
            ob = (size_t)R->proj[k].nitems + 1;
    }
    sto_table_init(&R->robs, &R->mem);
    sto_table_init(&R->errs, &R->mem);
    sto_table_init(&R->memo_keys, &R->mem);
    sto_table_init(&R->finals, &R->mem);
    sto_gate_init(&R->gate, 1);
    R->nlevels = R->o.crash_depth + 1;
    R->lvl = base_calloc((size_t)R->nlevels, sizeof *R->lvl);
    R->pm = base_calloc((size_t)p->pm_words + 1, sizeof *R->pm);
    R->dram = base_calloc((size_t)p->dram_words + 1, sizeof *R->dram);
    R->obuf = base_calloc(ob, sizeof *R->obuf);
    R->fbuf = base_calloc((size_t)mw + (size_t)p->pm_words + 1, sizeof *R->fbuf);
    if (!R->lvl || !R->pm || !R->dram || !R->obuf || !R->fbuf ||
        chk_images_init(R))
        goto oom;
    for (int l = 0; l < R->nlevels; l++) {
        ChkLevel *L = &R->lvl[l];
        L->until = CHK_NONE;
        L->bound = CHK_NONE;
        L->state.cap = mw;
        L->state.w = base_calloc(mw, sizeof(uint64_t));
        if (!L->state.w || chk_space_init(&L->space, mw, &R->mem, &R->gate,
                                          R->o.state,
                                          (R->mode & MDL_FUSE) != 0) ||
            sto_cursor_init(&L->cur, &L->space.store))
            goto oom;
    }
    return chk_workers_init(R, nthreads(&R->o), err, errlen);
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

void chk_run_teardown(ChkRun *R)
{
    chk_workers_free(R);
    for (int k = 0; k < 3; k++) {
        sto_table_free(&R->outs[k].tab);
        base_budget_free(&R->mem, R->outs[k].o);
        base_free(R->proj[k].items);
    }
    chk_images_free(R);
    sto_table_free(&R->robs);
    sto_table_free(&R->errs);
    sto_table_free(&R->memo_keys);
    sto_table_free(&R->finals);
    base_budget_free(&R->mem, R->robs_out);
    base_budget_free(&R->mem, R->err);
    base_budget_free(&R->mem, R->memo);
    base_budget_free(&R->mem, R->mbest);
    base_budget_free(&R->mem, R->mimg);
    for (int l = 0; l < R->nlevels && R->lvl; l++) {
        ChkLevel *L = &R->lvl[l];
        chk_space_free(&L->space);
        sto_cursor_free(&L->cur);
        base_free(L->state.w);
        base_budget_free(&R->mem, L->touched);
        base_budget_free(&R->mem, L->out);
        base_budget_free(&R->mem, L->err);
    }
    base_free(R->lvl);
    base_free(R->pm);
    base_free(R->dram);
    base_free(R->obuf);
    base_free(R->fbuf);
    if (R->lvl)                         /* setup got as far as the gate */
        sto_gate_free(&R->gate);
    mdl_free(R->m);
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

/* An arena block for the report; a refusal ends the check incomplete. */
static void *ralloc(ChkRun *R, size_t n)
{
    void *p = base_arena_alloc(R->arena, n);
    if (!p)
        chk_fail(R);
    return p;
}

static const char *outcome_text(ChkRun *R, int ph, uint32_t o)
{
    char buf[4096];
    const char *t;
    chk_outcome_text(R, ph, sto_table_key(&R->outs[ph].tab, o, NULL), buf,
                     sizeof buf);
    t = base_arena_strdup(R->arena, buf);
    if (!t)
        chk_fail(R);
    return t;
}

/* Outcomes of phases without recovery all have crashes CHK_NONE. */
uint32_t chk_best_outcome(const ChkRun *R, int ph, const LitCond *c, int want)
{
    const ChkOutcomes *os = &R->outs[ph];
    uint32_t best = CHK_NONE;
    for (uint32_t o = 0; o < os->tab.n; o++) {
        if (!os->o[o].count || os->o[o].best == CHK_NONE)
            continue;
        if (chk_cond_eval(R, ph, c, sto_table_key(&os->tab, o, NULL)) != want)
            continue;
        if (best == CHK_NONE ||
            chk_shorter(os->o[o].best, os->o[o].crashes, os->o[best].best,
                        os->o[best].crashes))
            best = o;
    }
    return best;
}

uint32_t chk_best_error(const ChkRun *R)
{
    uint32_t best = CHK_NONE;
    for (uint32_t e = 0; e < R->errs.n; e++)
        if (R->err[e].total != CHK_NONE &&
            (best == CHK_NONE ||
             chk_shorter(R->err[e].total, R->err[e].crashes,
                         R->err[best].total, R->err[best].crashes)))
            best = e;
    return best;
}

/* The verdicts, and the violations whose witnesses chk_short_witnesses
   fills; returns the memory that took besides R's, in bytes. */
static int64_t results(ChkRun *R, ChkReport *rep)
{
    const LitProgram *p = R->p;
    int nv = 0, noerror = -1;
    ChkWant *want;
    int64_t extra;
    rep->results = ralloc(R, ((size_t)p->nchecks + 1) * sizeof *rep->results);
    rep->violations = ralloc(R, ((size_t)p->nchecks + 1) *
                                    sizeof *rep->violations);
    want = ralloc(R, ((size_t)p->nchecks + 1) * sizeof *want);
    if (!rep->results || !rep->violations || !want)
        return 0;
    for (int k = 0; k < p->nchecks; k++) {
        const LitCheck *c = &p->checks[k];
        const ChkOutcomes *os = &R->outs[c->phase];
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
        for (uint32_t o = 0; o < os->tab.n; o++) {
            if (!os->o[o].count)
                continue;
            if (chk_cond_eval(R, ph, c->cond, sto_table_key(&os->tab, o, NULL)))
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
            int sat = c->quant != LIT_FORALL;
            if (chk_best_outcome(R, ph, c->cond, sat) != CHK_NONE) {
                ChkViolation *v = &rep->violations[nv];
                v->cond_index = k;
                v->kind = c->quant == LIT_EXISTS ? CHK_V_EXAMPLE
                                                 : CHK_V_COUNTEREXAMPLE;
                want[nv].v = v;
                want[nv].ph = ph;
                want[nv].cond = c->cond;
                want[nv++].want = sat;
            }
        }
    }
    rep->nresults = p->nchecks;
    if (chk_best_error(R) != CHK_NONE) {
        ChkViolation *v = &rep->violations[nv];
        v->cond_index = noerror;
        v->kind = CHK_V_ERROR;
        want[nv].v = v;
        want[nv].ph = -1;
        want[nv].cond = NULL;
        want[nv++].want = 1;
    }
    assert(nv <= p->nchecks + 1);       /* one a check, one error */
    extra = chk_short_witnesses(R, want, nv);
    rep->nviolations = nv;
    return extra;
}

static void outcomes(ChkRun *R, ChkReport *rep)
{
    int nout = 0;
    for (int ph = 0; ph < 3; ph++)
        nout += (int)R->outs[ph].tab.n;
    rep->outcomes = ralloc(R, ((size_t)nout + 1) * sizeof *rep->outcomes);
    if (!rep->outcomes)
        return;
    nout = 0;
    for (int ph = 0; ph < 3; ph++) {
        const ChkOutcomes *os = &R->outs[ph];
        OutRow *rows = base_calloc((size_t)os->tab.n + 1, sizeof *rows);
        int n = 0;
        if (!rows) {
            chk_fail(R);
            return;
        }
        for (uint32_t o = 0; o < os->tab.n; o++)
            if (os->o[o].count) {
                rows[n].text = outcome_text(R, ph, o);
                rows[n].count = os->o[o].count;
                n += rows[n].text != NULL;
            }
        qsort(rows, (size_t)n, sizeof *rows, cmp_row);
        for (int i = 0; i < n; i++) {
            rep->outcomes[nout].phase = ph;
            rep->outcomes[nout].state = rows[i].text;
            rep->outcomes[nout].count = rows[i].count;
            nout++;
        }
        base_free(rows);
    }
    rep->noutcomes = nout;
}

static void images(ChkRun *R, ChkReport *rep)
{
    rep->images = ralloc(R, ((size_t)R->img.tab.n + 1) * sizeof *rep->images);
    if (!rep->images)
        return;
    for (uint32_t i = 0; i < R->img.tab.n; i++) {
        int32_t n = R->p->pm_words;
        char *t, *q;
        if (R->img.img[i].state == CHK_NONE)
            continue;
        chk_image_expand(R, i, R->img.full);
        t = ralloc(R, (size_t)n * 21 + 1);
        if (!t)
            break;
        q = t;
        *q = 0;
        for (int32_t k = 0; k < n; k++)
            q += sprintf(q, "%s%lld", k ? " " : "", (long long)R->img.full[k]);
        assert((size_t)(q - t) <= (size_t)n * 21);  /* 20 digits and a blank */
        rep->images[rep->nimages++] = t;
    }
    qsort(rep->images, (size_t)rep->nimages, sizeof *rep->images, cmp_str);
}

static void errors(ChkRun *R, ChkReport *rep)
{
    rep->errors = ralloc(R, ((size_t)R->errs.n + 1) * sizeof *rep->errors);
    if (!rep->errors)
        return;
    for (uint32_t e = 0; e < R->errs.n; e++)
        if (R->err[e].text)
            rep->errors[rep->nerrors++] = R->err[e].text;
    qsort(rep->errors, (size_t)rep->nerrors, sizeof *rep->errors, cmp_str);
}

/* The parts of the report that could be built; a failure on the way
   leaves the check incomplete and drops only what is missing. The peak
   memory counts a search for witnesses too. */
static void build_report(ChkRun *R, ChkReport *rep)
{
    int64_t used = atomic_load(&R->mem.used), extra;
    rep->peak_kb = atomic_load(&R->mem.peak) / 1024;
    R->replay = 1;                      /* witnesses re-explore */
    extra = results(R, rep);
    if ((used + extra) / 1024 > rep->peak_kb)
        rep->peak_kb = (used + extra) / 1024;
    if (R->failed) {                    /* a witness may be half built */
        rep->nviolations = 0;
        if (!rep->results)
            rep->nresults = 0;
    }
    outcomes(R, rep);
    if (R->o.list_images)
        images(R, rep);
    errors(R, rep);
    if (R->note[0]) {
        BaseStr b = {0};
        base_str_printf(&b, "%s%s\n", mdl_notes(R->m), R->note);
        rep->notes = b.s ? base_arena_strdup(R->arena, b.s) : NULL;
        base_str_free(&b);
    } else {
        rep->notes = base_arena_strdup(R->arena, mdl_notes(R->m));
    }
    if (!rep->notes)
        rep->notes = "";
    undecided_to_unknown(R, rep);       /* the final status decides */
}

/* The report of a check that could not even start for lack of memory. */
static ChkReport oom_report = {
    .status = CHK_INCOMPLETE,
    .reason = "out of memory",
    .notes = "",
};
static const char *no_errors[1];

int chk_run(const LitProgram *p, const ChkOptions *o, ChkReport **out,
            char *err, size_t errlen)
{
    ChkRun R;
    ChkReport *rep;
    BaseArena *arena = base_arena_new();
    char merr[256];
    chk_run_init(&R, p, o, chk_model_mode(o), arena,
                 o->max_memory_kb > 0 ? o->max_memory_kb * 1024
                                      : base_budget_default_limit());
    rep = R.arena ? base_arena_alloc(R.arena, sizeof *rep) : NULL;
    if (!rep) {
        base_arena_free(R.arena);
        oom_report.model = o->model;
        oom_report.errors = no_errors;
        *out = &oom_report;
        return 0;
    }
    rep->arena = R.arena;
    rep->model = o->model;
    R.m = mdl_new(p, o->model, R.mode, merr, sizeof merr);
    /* A state longer than the stores hold is known before anything is
       explored: the program cannot be checked under this model (an input
       limit, CHK_ERROR), not a check cut short. */
    if (R.m && mdl_max_words(R.m) > STO_MAX_WORDS) {
        snprintf(merr, sizeof merr, "a state would need %u words, more than"
                 " the %u the state store holds: too large to explore",
                 mdl_max_words(R.m), STO_MAX_WORDS);
        mdl_free(R.m);
        R.m = NULL;
    }
    if (!R.m) {
        rep->status = strcmp(merr, MDL_OOM) ? CHK_ERROR : CHK_INCOMPLETE;
        rep->reason = base_arena_strdup(R.arena, merr);
        rep->notes = "";
        rep->errors = base_arena_alloc(R.arena, sizeof *rep->errors);
        if (!rep->reason || !rep->errors) {
            base_arena_free(R.arena);
            *out = &oom_report;
            return 0;
        }
        *out = rep;
        return 0;
    }
    if (chk_run_setup(&R, err, errlen))
        chk_fail(&R);
    else
        chk_explore_main(&R);
    if (R.lvl) {
        rep->store_states = chk_space_count(&R.lvl[0].space);
        rep->store_bytes = (int64_t)chk_space_bytes(&R.lvl[0].space);
        rep->store_nodes = sto_store_nodes(&R.lvl[0].space.store);
    }
    chk_errors_main(&R);
    if (p->has_recover && R.status == CHK_DONE)
        chk_recover_all(&R);
    rep->states = R.states;
    rep->transitions = R.transitions;
    rep->crash_points = R.crash_points;
    rep->crash_images = R.img.tab.n;
    rep->recoveries = R.recoveries;
    build_report(&R, rep);
    rep->status = R.status;
    rep->reason = R.reason ? R.reason : NULL;
    if (rep->status != CHK_DONE && !rep->reason)
        rep->reason = "out of memory";
    rep->elapsed_ms = (chk_now() - R.t0) * 1000.0;
    chk_run_teardown(&R);
    (void)err;
    *out = rep;
    return 0;
}

void chk_report_free(ChkReport *r)
{
    if (r)
        base_arena_free(r->arena);
}
