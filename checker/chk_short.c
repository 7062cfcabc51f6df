/*
 * chk_short.c — the witnesses a report needs, as short as --no-reduce's.
 *
 * DESIGN section 3 promises one shortest witness, counted in program steps
 * (each instruction or model event one step). The reduced graph of the
 * default mode keeps every outcome, image and error (specs/checker.md,
 * Reductions) but not the distances to them: a thread whose invisible
 * steps the ample set takes first, or that fusion runs on after a store,
 * stands in front of a crash the full graph reaches at once; the projection
 * leaves out hw's events on lines it does not keep, which a real execution
 * takes. So a reducing run's report takes its `final` witnesses from a
 * search by weight over its own states where those keep their distances
 * (chk_nearest.c), and the others from a search over the graph without
 * reductions (--no-reduce's model): a second run of the explorer that goes
 * level by level through the main program and stops after the first level
 * d by which every witness wanted has a candidate of at most d steps. A
 * state deeper than d gives only longer ones: its outcomes and images cost
 * its depth, a recovered outcome or a runtime error through recovery its
 * depth plus the recovery's steps (so each level's new crash images are
 * recovered as the level ends, each recovery only as deep as the fewest
 * steps known to reach a goal allow). Everything as short as the best was
 * found, so the run then picks and replays as --no-reduce does over the
 * same BFS prefix: witnesses as long, with as many crashes.
 *
 * Where only terminal states matter (the last crash's recovery, or `final`
 * witnesses alone) the search uses the partial-order reduction: it keeps
 * the distance to every terminal state. From a state s whose ample step b
 * belongs to thread i, a shortest path to a terminal state moves i (i
 * finishes), and i's first step on it is b, which commutes to the front
 * (specs/checker.md, the theorem's proof): as many steps from s through b.
 * Crash points and failing steps have no such argument.
 *
 * A runtime error's witness through a livelock of the main program is
 * known only once the main program is explored to its end, so a search for
 * error witnesses goes to the end when the reduced run met one (recovery's
 * livelocks likewise lift the recoveries' bounds). The search obeys the
 * check's limits (what the check left of its memory budget, the same state
 * and step bounds; not the timeout, which witnesses come after) and a
 * budget of states of its own. When it meets one, or the check was
 * incomplete, or a witness does not replay to its end in the steps the
 * search counted, the report keeps the reduced run's own witness and says
 * so in its notes (an incomplete check's witnesses, silently).
 */
#include <string.h>

#include "checker/checker_int.h"

/* The search explores at most a quarter of the reduced run's states, and
   this many more (0.1-0.3 s): enough for every check of litmus/suite,
   while a program whose full graph is far larger than its reduced one
   keeps its reduced witness at a quarter more work. */
#define CHK_SHORT_EXTRA 300000

typedef struct {
    int ph;                             /* phase, or -1: runtime errors */
    const LitCond *cond;
    int want;
    uint32_t cand;                      /* fewest steps of a candidate
                                           through recovery, CHK_NONE */
    uint32_t upper;                     /* steps of a witness known to
                                           exist, or CHK_NONE */
} Goal;

struct ChkGoals {
    Goal *g;
    int n;
    int recover;                        /* some goal is reached through
                                           recovery */
    int whole;                          /* wait for the main program's end */
    int unbounded;                      /* explore recoveries to their end */
    size_t done;                        /* main images recovered so far */
};

static uint32_t goal_steps(const ChkRun *R, const Goal *g);

/* How many recovery steps from a main image at `base` steps can still
   matter: a goal's witness ends within its bound, the fewest steps known
   to reach it. CHK_NONE: any. */
static uint32_t recovery_bound(const ChkRun *R, uint32_t base)
{
    const ChkGoals *G = R->goals;
    uint32_t need = 0;
    if (G->unbounded)
        return CHK_NONE;
    for (int k = 0; k < G->n; k++) {
        const Goal *g = &G->g[k];
        uint32_t b = goal_steps(R, g);
        if (g->ph >= 0 && g->ph != LIT_RECOVERED)
            continue;
        if (g->upper < b)
            b = g->upper;
        if (b == CHK_NONE)
            return CHK_NONE;
        if (b > base && b - base > need)
            need = b - base;
    }
    return need;
}

/* Recovers the main images found since the last call, keeping each goal's
   shortest candidate through them. 0, or -1 when the run stopped. */
static int recover_new(ChkRun *R)
{
    ChkGoals *G = R->goals;
    for (; G->done < R->nmimg; G->done++) {
        uint32_t img = R->mimg[G->done], mi, base;
        const ChkMemo *mm;
        base = chk_space_steps(&R->lvl[0].space, R->img.img[img].state);
        mi = chk_recover(R, img, R->o.crash_depth - 1,
                         recovery_bound(R, base));
        if (mi == CHK_NONE || R->status != CHK_DONE)
            return -1;
        mm = &R->memo[mi];
        for (int k = 0; k < G->n; k++) {
            Goal *g = &G->g[k];
            uint32_t first = g->ph < 0 ? mm->err_first : mm->out_first;
            uint32_t n = g->ph < 0 ? mm->nerr : mm->nout;
            if (g->ph >= 0 && g->ph != LIT_RECOVERED)
                continue;
            for (uint32_t j = 0; j < n; j++) {
                const ChkBest *b = &R->mbest[first + j];
                uint32_t o = g->ph < 0 ? 0 : R->robs_out[b->id];
                if (o == CHK_NONE ||
                    (g->ph >= 0 &&
                     chk_cond_eval(R, g->ph, g->cond,
                                   sto_table_key(&R->outs[g->ph].tab, o,
                                                 NULL)) != g->want))
                    continue;
                if (base + b->steps < g->cand)
                    g->cand = base + b->steps;
            }
        }
    }
    return 0;
}

/* The fewest steps of a candidate for goal g found so far, or CHK_NONE. */
static uint32_t goal_steps(const ChkRun *R, const Goal *g)
{
    uint32_t best = g->cand;
    if (g->ph < 0) {
        for (uint32_t e = 0; e < R->errs.n; e++)
            if (R->err[e].main_best < best)
                best = R->err[e].main_best;
    } else if (g->ph != LIT_RECOVERED) {
        uint32_t o = chk_best_outcome(R, g->ph, g->cond, g->want);
        if (o != CHK_NONE)
            best = R->outs[g->ph].o[o].best;
    }
    return best;
}

int chk_short_settled(ChkRun *R, uint32_t depth)
{
    ChkGoals *G = R->goals;
    if (G->recover && recover_new(R))
        return 0;
    if (G->whole)
        return 0;
    for (int k = 0; k < G->n; k++) {
        uint32_t s = goal_steps(R, &G->g[k]);
        if (s == CHK_NONE || s > depth)
            return 0;
    }
    return 1;
}

/* R's own witness for w (the search did not give one). */
static void own(ChkRun *R, const ChkWant *w)
{
    if (w->ph < 0)
        chk_witness_error(R, w->v, chk_best_error(R));
    else
        chk_witness(R, w->v, w->ph,
                    chk_best_outcome(R, w->ph, w->cond, w->want));
}

/* A livelock of the main program (recovery: 1) among R's errors: its
   witness's length is known only once that part is explored to its end. */
static int livelock(const ChkRun *R, int recovery)
{
    for (uint32_t e = 0; e < R->errs.n; e++)
        if (R->err[e].kind == MDL_E_LIVELOCK &&
            R->err[e].recovery == recovery)
            return 1;
    return 0;
}

/* The steps of R's own witness for w, when it is a path of the graph
   without reductions too: not where the projection left out hw's events
   on lines it does not keep. Else CHK_NONE. */
static uint32_t upper(const ChkRun *R, const ChkWant *w)
{
    uint32_t id;
    if (mdl_lines_projected(R->m))
        return CHK_NONE;
    if (w->ph < 0) {
        id = chk_best_error(R);
        return id == CHK_NONE ? CHK_NONE : R->err[id].total;
    }
    id = chk_best_outcome(R, w->ph, w->cond, w->want);
    return id == CHK_NONE ? CHK_NONE : R->outs[w->ph].o[id].best;
}

/* The witness of want w from the search S into v, verified: it replays
   to its end in as many steps as S counted. 0 ok. */
static int from_search(ChkRun *S, const ChkWant *w, ChkViolation *v)
{
    uint32_t id, steps;
    int r;
    if (w->ph < 0) {
        id = chk_best_error(S);
        if (id == CHK_NONE)
            return -1;
        steps = S->err[id].total;
        r = chk_witness_error(S, v, id);
    } else {
        id = chk_best_outcome(S, w->ph, w->cond, w->want);
        if (id == CHK_NONE)
            return -1;
        steps = S->outs[w->ph].o[id].best;
        r = chk_witness(S, v, w->ph, id);
    }
    return r >= 0 && (uint32_t)r == steps ? 0 : -1;
}

/* Runs the search for the n wants of R; done[k] set for each witness it
   gave. Returns its peak memory; *why the reason it gave none, or NULL. */
static int64_t search(ChkRun *R, ChkWant *w, int n, int *done,
                      const char **why)
{
    ChkRun S;
    ChkGoals G;
    ChkOptions o;
    Model *last = NULL;
    char err[256];
    int64_t left = R->mem.limit - atomic_load(&R->mem.used), peak;
    unsigned mode = MDL_POR;
    int crash = 0, errors = 0, lastless = 0;
    memset(&G, 0, sizeof G);
    G.g = base_calloc((size_t)n, sizeof *G.g);
    if (!G.g) {
        chk_fail(R);
        return 0;
    }
    for (int k = 0; k < n; k++) {
        Goal *g = &G.g[G.n];
        if (done[k])
            continue;
        G.n++;
        g->ph = w[k].ph;
        g->cond = w[k].cond;
        g->want = w[k].want;
        g->cand = CHK_NONE;
        g->upper = upper(R, &w[k]);
        if (w[k].ph != LIT_FINAL)
            mode = 0;
        crash |= w[k].ph == LIT_CRASH;
        errors |= w[k].ph < 0;
        G.recover |= w[k].ph == LIT_RECOVERED ||
                     (w[k].ph < 0 && R->p->has_recover);
        G.whole |= w[k].ph < 0 && livelock(R, 0);
        G.unbounded |= w[k].ph < 0 && livelock(R, 1);
    }
    o = R->o;
    if (R->auto_state)                  /* its own vectors decide */
        o.state = CHK_STATE_AUTO;
    chk_run_init(&S, R->p, &o, mode, R->arena,
                 R->mem.limit ? (left > 0 ? left : 1) : 0);
    S.o.progress = NULL;
    S.o.timeout_s = 0;                  /* as replays: its budget bounds it,
                                           and the report stays the same */
    S.max_total = R->states / 4 + CHK_SHORT_EXTRA;
    if (S.o.max_states > S.max_total)
        S.o.max_states = S.max_total;
    S.m = mdl_new(R->p, R->o.model, mode, err, sizeof err);
    if (!S.m || chk_run_setup(&S, err, sizeof err)) {
        chk_run_teardown(&S);
        base_free(G.g);
        chk_fail(R);
        return 0;
    }
    /* The last crash's recovery reaches only terminal states, unless a
       runtime error through recovery is wanted */
    if (G.recover && !(R->p->has_recover && errors)) {
        last = mdl_new(R->p, R->o.model, mode | MDL_POR, err, sizeof err);
        lastless = !last;
        S.lvl[R->o.crash_depth].m = last;
    }
    S.goals = &G;
    S.images = crash || G.recover;
    chk_explore_main(&S);
    if (S.status == CHK_DONE) {
        chk_errors_main(&S);
        S.recover_any = 1;              /* the memos hold every candidate
                                           within the bounds */
        if (G.recover)
            chk_recover_all(&S);
    }
    S.goals = NULL;
    S.replay = 1;
    S.recover_any = 1;
    for (int k = 0; k < n && S.status == CHK_DONE && !S.failed; k++) {
        ChkViolation v = *w[k].v;
        if (!done[k] && !from_search(&S, &w[k], &v)) {
            *w[k].v = v;
            done[k] = 1;
        }
    }
    *why = S.status != CHK_DONE ? S.reason : NULL;
    peak = atomic_load(&S.mem.peak);
    /* Memory, unlike the search's budget, is a limit of the check: it
       ends incomplete, as when the reduced run itself runs out */
    if (S.failed || lastless) {
        if (atomic_load(&S.mem.failed) == BASE_BUDGET_OVER)
            atomic_store(&R->mem.failed, BASE_BUDGET_OVER);
        chk_fail(R);
    }
    chk_run_teardown(&S);
    mdl_free(last);
    base_free(G.g);
    return peak;
}

int64_t chk_short_witnesses(ChkRun *R, ChkWant *w, int n)
{
    int *done = base_calloc((size_t)n + 1, sizeof *done);
    const char *why = NULL;
    if (!done)
        chk_fail(R);
    int64_t peak = 0;
    int reduced = (R->mode & (MDL_FUSE | MDL_POR | MDL_SLICE)) &&
                  R->status == CHK_DONE, left = 0;
    if (done && reduced && chk_nearest_applies(R) && !R->failed)
        chk_nearest_final(R, w, n, done);
    for (int k = 0; done && k < n; k++)
        left += !done[k];
    if (left && reduced && !R->failed)
        peak = search(R, w, n, done, &why);
    left = 0;
    for (int k = 0; k < n && !R->failed; k++)
        if (!done || !done[k]) {
            own(R, &w[k]);
            left++;
        }
    if (left && reduced)
        snprintf(R->note, sizeof R->note,
                 "witnesses may be longer than --no-reduce's: their search "
                 "without reductions %s%s", why ? "stopped: " : "failed",
                 why ? why : "");
    base_free(done);
    return peak;
}
