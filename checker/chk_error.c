/*
 * chk_error.c — what ends or marks a check besides its verdicts: limits
 * (the first reason wins), running out of memory or budget, the timeout
 * and the progress reports, and the runtime errors of the program with
 * the fewest steps that reach each.
 */
#include <stdatomic.h>
#include <string.h>
#include <sys/resource.h>

#include "checker/checker_int.h"

/* Set from a signal handler: only a lock-free atomic is safe there. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "chk_interrupt needs a lock-free"
               " atomic int");
static _Atomic int interrupted;

void chk_interrupt(void)
{
    atomic_store(&interrupted, 1);
}

int chk_interrupted(void)
{
    return atomic_load(&interrupted);
}

/* Why the check must stop now, or NULL. */
static const char *stop_reason(const ChkRun *R, double now, char *msg,
                               size_t len)
{
    if (R->replay)
        return NULL;
    if (atomic_load_explicit(&interrupted, memory_order_relaxed))
        return "interrupted";
    if (R->o.timeout_s > 0 && now - R->t0 > R->o.timeout_s) {
        snprintf(msg, len, "timeout (%gs)", R->o.timeout_s);
        return msg;
    }
    return NULL;
}

int chk_must_stop(const ChkRun *R)
{
    char msg[64];
    return stop_reason(R, chk_now(), msg, sizeof msg) != NULL;
}

void chk_limit(ChkRun *R, const char *reason)
{
    R->limits++;
    if (R->status != CHK_DONE)
        return;
    R->status = CHK_INCOMPLETE;
    /* NULL when even the reason cannot be copied: the report then says
       "out of memory" (chk_run), true of the check either way */
    R->reason = base_arena_strdup(R->arena, reason);
}

void chk_fail(ChkRun *R)
{
    char msg[96];
    R->failed = 1;
    if (atomic_load(&R->mem.failed) == BASE_BUDGET_OVER)
        snprintf(msg, sizeof msg, R->mem.limit >= 1 << 20
                                      ? "max-memory (%lld MB) reached"
                                      : "max-memory (%lld KB) reached",
                 (long long)(R->mem.limit >> (R->mem.limit >= 1 << 20 ? 20
                                                                     : 10)));
    else
        snprintf(msg, sizeof msg, "out of memory");
    chk_limit(R, msg);
}

void chk_tick(ChkRun *R)
{
    double now = chk_now();
    if (R->o.progress && now - R->last_progress >= 1.0) {
        ChkProgress pg;
        struct rusage ru;
        R->last_progress = now;
        /* The explorations running (main, a recovery, one nested in
           it) count what they have stored so far. */
        pg.states = R->states;
        for (int l = 0; l < R->nlevels; l++)
            if (R->exploring >> l & 1)
                pg.states += chk_space_count(&R->lvl[l].space);
        pg.transitions = R->transitions;
        pg.depth = R->main_depth;
        pg.recoveries = R->recoveries;
        pg.rss_kb = getrusage(RUSAGE_SELF, &ru) == 0 ? (int64_t)ru.ru_maxrss
                                                      : 0;
        pg.peak_kb = (int64_t)(atomic_load(&R->mem.peak) / 1024);
        pg.elapsed_s = now - R->t0;
        R->o.progress(R->o.progress_ctx, &pg);
    }
    char msg[64];
    const char *why = stop_reason(R, now, msg, sizeof msg);
    if (why)
        chk_limit(R, why);
}

uint32_t chk_error_id(ChkRun *R, const MdlError *e, int recovery)
{
    char text[320];
    uint64_t key[41];
    uint32_t id, n;
    int r;
    const char *kname = e->kernel >= 0 ? R->p->kernels[e->kernel].name : "";
    if (e->kind == MDL_E_LIVELOCK || e->kind == MDL_E_DEADLOCK ||
        e->kind == MDL_E_DIVERGENCE)
        snprintf(text, sizeof text, "%s: %s%s", mdl_err_names[e->kind],
                 e->msg, recovery ? " in recovery" : "");
    else
        snprintf(text, sizeof text, "%s: %s at %s:%d (%s, thread %d)%s",
                 mdl_err_names[e->kind], e->msg, e->file ? e->file : R->p->path,
                 (int)e->line,
                 kname, (int)e->gtid, recovery ? " in recovery" : "");
    n = (uint32_t)((strlen(text) + 8) / 8);
    memset(key, 0, sizeof key);
    memcpy(key, text, strlen(text));
    r = sto_table_put(&R->errs, key, n, &id);
    if (r < 0 || (r == 1 && BASE_BUDGET_GROW(&R->mem, R->err, R->caperr,
                                     (size_t)id + 1))) {
        chk_fail(R);
        return CHK_NONE;
    }
    if (r == 1) {
        ChkErr *x = &R->err[id];
        x->kind = (uint32_t)e->kind;
        x->gtid = e->gtid;
        x->kernel = e->kernel;
        x->line = e->line;
        x->recovery = recovery;
        /* a text that cannot be kept leaves the error out of the report's
           list (chk_run: errors), and the check incomplete */
        x->text = base_arena_strdup(R->arena, text);
        if (!x->text)
            chk_fail(R);
        x->main_best = x->main_state = x->main_step = CHK_NONE;
        x->total = x->img = x->crashes = CHK_NONE;
    }
    return id;
}

void chk_error_at(ChkRun *R, int level, int recovery, uint32_t state,
                  uint32_t depth, uint32_t step, const MdlError *e)
{
    uint32_t id, steps = depth + (step != MDL_STEP_NONE);
    if (e->kind == MDL_E_LIMIT) {
        chk_limit(R, e->msg);
        return;
    }
    id = chk_error_id(R, e, recovery);
    if (id == CHK_NONE)
        return;
    if (level == 0) {
        ChkErr *x = &R->err[id];
        if (x->main_best == CHK_NONE || x->main_best > steps) {
            x->main_best = steps;
            x->main_state = state;
            x->main_step = step;
        }
    } else {
        chk_relax(R, level, 1, id, steps, 0, state, step, VIA_ERROR);
    }
}

void chk_errors_main(ChkRun *R)
{
    for (uint32_t e = 0; e < R->errs.n; e++) {
        R->err[e].total = R->err[e].main_best;
        R->err[e].crashes = 0;
        R->err[e].img = CHK_NONE;
    }
}
