/*
 * chk_explore.c — breadth-first exploration of the main program and of
 * recovery runs, crash points, crash images and the recovery memo. The
 * strategy is described in checker_int.h.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "checker/checker_int.h"

void chk_limit(ChkRun *R, const char *reason)
{
    if (R->status != CHK_DONE)
        return;
    R->status = CHK_INCOMPLETE;
    R->reason = lit_arena_strdup(R->arena, reason);
}

static void oom(ChkRun *R)
{
    R->oom = 1;
    chk_limit(R, "out of memory");
}

static int vec_set(ChkRun *R, ChkVec *v, uint32_t i, uint32_t x)
{
    while (v->n <= i)
        if (chk_vec_push(v, CHK_NONE)) {
            oom(R);
            return -1;
        }
    v->v[i] = x;
    return 0;
}

static uint32_t vec_get(const ChkVec *v, uint32_t i)
{
    return i < v->n ? v->v[i] : CHK_NONE;
}

static void report_progress(ChkRun *R, double now)
{
    ChkProgress pg;
    struct rusage ru;
    if (!R->o.progress || now - R->last_progress < 1.0)
        return;
    R->last_progress = now;
    pg.states = R->states;
    pg.transitions = R->transitions;
    pg.depth = R->main_depth;
    pg.recoveries = R->recoveries;
    pg.peak_kb = getrusage(RUSAGE_SELF, &ru) == 0 ? (int64_t)ru.ru_maxrss : 0;
    pg.elapsed_s = now - R->t0;
    R->o.progress(R->o.progress_ctx, &pg);
}

static void check_time(ChkRun *R)
{
    char msg[64];
    double now = chk_now();
    report_progress(R, now);
    if (R->o.timeout_s > 0 && now - R->t0 > R->o.timeout_s) {
        snprintf(msg, sizeof msg, "timeout (%gs)", R->o.timeout_s);
        chk_limit(R, msg);
    }
}

/* ---- errors --------------------------------------------------------------- */

uint32_t chk_error_id(ChkRun *R, const MdlError *e, int recovery)
{
    char text[320];
    uint64_t key[64];
    uint32_t id, n;
    int r;
    const char *kname = e->kernel >= 0 ? R->p->kernels[e->kernel].name : "";
    if (e->kind == MDL_E_LIVELOCK || e->kind == MDL_E_DEADLOCK ||
        e->kind == MDL_E_DIVERGENCE)
        snprintf(text, sizeof text, "%s: %s%s", mdl_err_names[e->kind],
                 e->msg, recovery ? " in recovery" : "");
    else
        snprintf(text, sizeof text, "%s: %s at %s:%d (%s, thread %d)%s",
                 mdl_err_names[e->kind], e->msg, R->p->path, (int)e->line,
                 kname, (int)e->gtid, recovery ? " in recovery" : "");
    n = (uint32_t)((strlen(text) + 8) / 8);
    memset(key, 0, sizeof key);
    memcpy(key, text, strlen(text));
    r = chk_table_put(&R->errs, key, n, chk_hash_words(key, n), &id);
    if (r < 0) {
        oom(R);
        return CHK_NONE;
    }
    if (r == 1) {
        if (id >= R->caperr) {
            size_t nc = R->caperr ? R->caperr * 2 : 16;
            ChkErr *a = realloc(R->err, nc * sizeof *a);
            if (!a) {
                oom(R);
                return CHK_NONE;
            }
            R->err = a;
            R->caperr = nc;
        }
        R->err[id].kind = (uint32_t)e->kind;
        R->err[id].gtid = e->gtid;
        R->err[id].kernel = e->kernel;
        R->err[id].line = e->line;
        R->err[id].recovery = recovery;
        R->err[id].text = lit_arena_strdup(R->arena, text);
    }
    return id;
}

/* ---- crash images -------------------------------------------------------- */

typedef struct {
    ChkRun *R;
    uint32_t key;                       /* persistency key being filled */
    uint64_t ideals;
} ImgCtx;

static int stamp(ChkRun *R, ChkVec *v, uint32_t id, uint32_t key)
{
    if (vec_get(v, id) == key)
        return 0;
    vec_set(R, v, id, key);
    return 1;
}

static int on_image(void *ctx, const int64_t *pm, uint64_t included)
{
    ImgCtx *c = ctx;
    ChkRun *R = c->R;
    uint32_t id;
    int r;
    (void)included;
    if (++c->ideals > (uint64_t)R->o.max_states) {
        char msg[96];
        snprintf(msg, sizeof msg, "more than %lld crash images at one state",
                 (long long)R->o.max_states);
        chk_limit(R, msg);
        return 1;
    }
    for (uint32_t k = 0; k < R->nused; k++)
        R->ibuf[k] = (uint64_t)pm[R->used[k]];
    r = chk_table_put(&R->images, R->ibuf, R->nused,
                      chk_hash_words(R->ibuf, R->nused), &id);
    if (r < 0) {
        oom(R);
        return 1;
    }
    if (r == 1 && vec_set(R, &R->img_state, id, CHK_NONE))
        return 1;
    if (!stamp(R, &R->img_stamp, id, c->key))
        return 0;
    if (chk_vec_push(&R->pk_imgs, id)) {
        oom(R);
        return 1;
    }
    if (R->proj[LIT_CRASH].nitems >= 0) {
        uint32_t o = chk_outcome(R, LIT_CRASH, pm, NULL, NULL);
        if (o != CHK_NONE && stamp(R, &R->out_stamp, o, c->key) &&
            (chk_vec_push(&R->pk_outs, o) || chk_vec_push(&R->pk_outimg, id))) {
            oom(R);
            return 1;
        }
    }
    return 0;
}

void chk_image_expand(const ChkRun *R, uint32_t img, int64_t *out)
{
    const uint64_t *w = chk_table_key(&R->images, img, NULL);
    memset(out, 0, (size_t)R->p->pm_words * sizeof *out);
    for (uint32_t k = 0; k < R->nused; k++)
        out[R->used[k]] = (int64_t)w[k];
}

uint32_t chk_images_of(ChkRun *R, const MdlState *s, uint32_t *first,
                       uint32_t *count, int *fresh)
{
    uint32_t off = mdl_persist_key(R->m, s), len = s->len - off, key;
    int r = chk_table_put(&R->pkeys, s->w + off, len,
                          chk_hash_words(s->w + off, len), &key);
    if (r < 0) {
        oom(R);
        return CHK_NONE;
    }
    if (r == 1) {
        ImgCtx c;
        c.R = R;
        c.key = key;
        c.ideals = 0;
        if (chk_vec_push(&R->pk_first, (uint32_t)R->pk_imgs.n) ||
            chk_vec_push(&R->pk_ofirst, (uint32_t)R->pk_outs.n)) {
            oom(R);
            return CHK_NONE;
        }
        mdl_images(R->m, s, on_image, &c);
        if (chk_vec_push(&R->pk_count,
                         (uint32_t)R->pk_imgs.n - R->pk_first.v[key]) ||
            chk_vec_push(&R->pk_ocount,
                         (uint32_t)R->pk_outs.n - R->pk_ofirst.v[key])) {
            oom(R);
            return CHK_NONE;
        }
    }
    *first = R->pk_first.v[key];
    *count = R->pk_count.v[key];
    if (fresh)
        *fresh = r == 1;
    return key;
}

/* ---- successor bookkeeping ------------------------------------------------ */

typedef struct {
    ChkRun *R;
    ChkSpace *sp;
    uint32_t cur, depth;
    int level;
    int recovery;
    uint8_t *end;                       /* cur can end (error) */
} Visit;

static void on_succ(void *ctx, uint32_t step, const MdlState *s)
{
    Visit *v = ctx;
    ChkRun *R = v->R;
    uint32_t id;
    int r;
    if (R->status != CHK_DONE)
        return;
    R->transitions++;
    if ((int64_t)v->depth + 1 > R->o.max_steps) {
        char msg[64];
        snprintf(msg, sizeof msg, "max-steps (%lld) reached",
                 (long long)R->o.max_steps);
        chk_limit(R, msg);
        return;
    }
    r = chk_space_add(v->sp, s, v->cur, step, v->depth + 1, &id);
    if (r < 0) {
        oom(R);
        return;
    }
    if (chk_vec_push(&v->sp->edges, id)) {
        oom(R);
        return;
    }
    if (r == 1 && (int64_t)v->sp->states.n > R->o.max_states) {
        char msg[64];
        snprintf(msg, sizeof msg, "max-states (%lld) reached",
                 (long long)R->o.max_states);
        chk_limit(R, msg);
    }
}

/* Best-so-far tables, one per level, indexed by observation or error id. */
static ChkBest *best_slot(ChkRun *R, int level, int err, uint32_t id)
{
    ChkBest **arr = err ? &R->lvl_err[level] : &R->lvl_out[level];
    size_t *cap = err ? &R->lvl_caperr[level] : &R->lvl_capout[level];
    if (id >= *cap) {
        size_t nc = *cap ? *cap : 64;
        ChkBest *a;
        while (nc <= id)
            nc *= 2;
        a = realloc(*arr, nc * sizeof *a);
        if (!a) {
            oom(R);
            return NULL;
        }
        for (size_t i = *cap; i < nc; i++)
            a[i].steps = CHK_NONE;
        *arr = a;
        *cap = nc;
    }
    return &(*arr)[id];
}

/* Keeps the fewest steps to id, then the fewest crashes, then the first
   found. */
static void relax(ChkRun *R, int level, int err, uint32_t id, uint32_t steps,
                  uint32_t crashes, uint32_t state, uint32_t aux, uint32_t via)
{
    ChkBest *b;
    if (id == CHK_NONE)
        return;
    b = best_slot(R, level, err, id);
    if (!b)
        return;
    if (b->steps == CHK_NONE) {
        if (chk_vec_push(&R->lvl_touched[level], id | (err ? 0x80000000u : 0))) {
            oom(R);
            return;
        }
    } else if (b->steps < steps ||
               (b->steps == steps && b->crashes <= crashes)) {
        return;
    }
    b->id = id;
    b->steps = steps;
    b->crashes = crashes;
    b->state = state;
    b->aux = aux;
    b->via = via;
}

static void on_err(void *ctx, uint32_t step, const MdlError *e)
{
    Visit *v = ctx;
    ChkRun *R = v->R;
    uint32_t id;
    if (e->kind == MDL_E_LIMIT) {
        chk_limit(R, e->msg);
        return;
    }
    *v->end = 1;
    id = chk_error_id(R, e, v->recovery);
    if (id == CHK_NONE)
        return;
    if (v->level == 0) {
        uint32_t steps = v->depth + (step != MDL_STEP_NONE);
        if (vec_get(&R->err_best, id) == CHK_NONE ||
            vec_get(&R->err_best, id) > steps) {
            vec_set(R, &R->err_best, id, steps);
            vec_set(R, &R->err_state, id, v->cur);
            vec_set(R, &R->err_aux, id, step);
        }
    } else {
        relax(R, v->level, 1, id, v->depth + (step != MDL_STEP_NONE), 0,
              v->cur, step, VIA_ERROR);
    }
}

static int push_end(ChkRun *R, ChkVec *ends, uint32_t i, uint8_t val)
{
    return vec_set(R, ends, i, val);
}

/* Records the livelock of a fully expanded space, if any. */
static void livelock(ChkRun *R, ChkSpace *sp, ChkVec *ends, int level,
                     int recovery)
{
    uint8_t *e;
    uint32_t first;
    MdlError err;
    Visit v;
    if (R->status != CHK_DONE || chk_vec_push(&sp->eoff, (uint32_t)sp->edges.n))
        return;
    e = malloc((size_t)sp->states.n + 1);
    if (!e) {
        oom(R);
        return;
    }
    for (uint32_t i = 0; i < sp->states.n; i++)
        e[i] = (uint8_t)(vec_get(ends, i) == 1);
    first = chk_space_livelock(sp, e);
    free(e);
    if (first == CHK_NONE)
        return;
    memset(&err, 0, sizeof err);
    err.kind = MDL_E_LIVELOCK;
    err.gtid = -1;
    err.kernel = -1;
    snprintf(err.msg, sizeof err.msg,
             "a reachable state from which no execution can terminate");
    memset(&v, 0, sizeof v);
    v.R = R;
    v.sp = sp;
    v.cur = first;
    v.depth = sp->depth[first];
    v.level = level;
    v.recovery = recovery;
    v.end = (uint8_t[1]){0};
    on_err(&v, MDL_STEP_NONE, &err);
}

/* ---- one breadth-first exploration ---------------------------------------- */

/* What an exploration does at each state besides expanding it: crash
   images and terminal observations. Returns 1 when the state is terminal,
   -1 to stop. */
typedef int (*VisitFn)(ChkRun *R, void *ctx, uint32_t i, uint32_t depth,
                       const MdlState *cur);

/* Explores from `init` (already in cur) at `level`, expanding every state in
   discovery order, then looks for a livelock. */
static void bfs(ChkRun *R, int level, int recovery, VisitFn visit, void *ctx)
{
    ChkSpace *sp = &R->space[level];
    MdlState *cur = &R->lvl_state[level];
    ChkVec ends = {0};
    Visit v;
    uint32_t id;
    memset(&v, 0, sizeof v);
    v.R = R;
    v.sp = sp;
    v.level = level;
    v.recovery = recovery;
    if (chk_space_add(sp, cur, CHK_NONE, MDL_STEP_NONE, 0, &id) < 0) {
        oom(R);
        return;
    }
    for (uint32_t i = 0; i < sp->states.n && R->status == CHK_DONE; i++) {
        uint8_t end;
        uint32_t depth = sp->depth[i];
        int r;
        chk_space_state(sp, i, cur);
        if (level == 0 && (int64_t)depth > R->main_depth)
            R->main_depth = depth;
        if (chk_vec_push(&sp->eoff, (uint32_t)sp->edges.n)) {
            oom(R);
            break;
        }
        R->states++;
        r = visit(R, ctx, i, depth, cur);
        if (r < 0)
            break;
        end = (uint8_t)r;
        v.cur = i;
        v.depth = depth;
        v.end = &end;
        mdl_successors(R->m, cur, on_succ, on_err, &v);
        push_end(R, &ends, i, end);
        if ((i & 1023) == 1023)
            check_time(R);
    }
    livelock(R, sp, &ends, level, recovery);
    chk_vec_free(&ends);
}

/* ---- the main program ------------------------------------------------------ */

static int wants_images(const ChkRun *R)
{
    return R->proj[LIT_CRASH].nitems >= 0 || R->p->has_recover;
}

/* A main-program state: its crash images and crash outcomes, and, when
   terminal, its final outcome. */
static int visit_main(ChkRun *R, void *ctx, uint32_t i, uint32_t depth,
                      const MdlState *cur)
{
    uint32_t o, n, fid;
    (void)ctx;
    R->crash_points++;
    if (wants_images(R)) {
        int fresh;
        uint32_t first, count;
        uint32_t key = chk_images_of(R, cur, &first, &count, &fresh);
        if (key == CHK_NONE)
            return -1;
        /* a key seen before registered its images at an earlier state */
        for (uint32_t k = 0; fresh && k < count; k++) {
            uint32_t img = R->pk_imgs.v[first + k];
            if (vec_get(&R->img_state, img) == CHK_NONE)
                vec_set(R, &R->img_state, img, i);
        }
        for (uint32_t k = 0; k < R->pk_ocount.v[key]; k++) {
            o = R->pk_outs.v[R->pk_ofirst.v[key] + k];
            R->out_count[LIT_CRASH].v[o]++;
            if (R->out_best[LIT_CRASH].v[o] == CHK_NONE) {
                R->out_best[LIT_CRASH].v[o] = depth;
                R->out_state[LIT_CRASH].v[o] = i;
                R->out_aux[LIT_CRASH].v[o] =
                    R->pk_outimg.v[R->pk_ofirst.v[key] + k];
            }
        }
    }
    if (!mdl_terminal(R->m, cur))
        return 0;
    mdl_observe(R->m, cur, R->pm, R->dram);
    o = chk_outcome(R, LIT_FINAL, R->pm, R->dram, cur);
    if (o != CHK_NONE) {
        R->out_count[LIT_FINAL].v[o]++;
        if (R->out_best[LIT_FINAL].v[o] == CHK_NONE) {
            R->out_best[LIT_FINAL].v[o] = depth;
            R->out_state[LIT_FINAL].v[o] = i;
        }
    }
    n = mdl_observable(R->m, cur, R->fbuf);
    if (chk_table_put(&R->finals, R->fbuf, n, chk_hash_words(R->fbuf, n),
                      &fid) < 0) {
        oom(R);
        return -1;
    }
    return 1;
}

int chk_explore_main(ChkRun *R)
{
    mdl_init_main(R->m, &R->lvl_state[0]);
    bfs(R, 0, 0, visit_main, NULL);
    return R->oom ? -1 : 0;
}

/* ---- recovery ------------------------------------------------------------- */

static int cmp_best(const void *a, const void *b)
{
    const ChkBest *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* A recovery state with d more crashes allowed: the memo of each of its
   crash images (when d > 0), and, when terminal, its observation. */
static int visit_recovery(ChkRun *R, void *ctx, uint32_t i, uint32_t depth,
                          const MdlState *cur)
{
    int d = *(const int *)ctx, level = R->o.crash_depth - d, r;
    uint32_t o, n = (uint32_t)(R->p->pm_words + R->p->dram_words);
    if (d > 0) {
        uint32_t first, count;
        R->crash_points++;
        if (chk_images_of(R, cur, &first, &count, NULL) == CHK_NONE)
            return -1;
        for (uint32_t k = 0; k < count && R->status == CHK_DONE; k++) {
            uint32_t img2 = R->pk_imgs.v[first + k];
            uint32_t mi = chk_recover(R, img2, d - 1);
            const ChkMemo *mm;
            if (mi == CHK_NONE)
                return -1;
            mm = &R->memo[mi];
            for (uint32_t j = 0; j < mm->nout + mm->nerr; j++) {
                int err = j >= mm->nout;
                const ChkBest *b = &R->mbest[err ? mm->err_first + j - mm->nout
                                                 : mm->out_first + j];
                relax(R, level, err, b->id, depth + b->steps, b->crashes + 1,
                      i, img2, VIA_NESTED);
            }
        }
    }
    if (!mdl_terminal(R->m, cur))
        return 0;
    mdl_observe(R->m, cur, R->pm, R->dram);
    memcpy(R->obuf, R->pm, (size_t)R->p->pm_words * sizeof *R->pm);
    memcpy(R->obuf + R->p->pm_words, R->dram,
           (size_t)R->p->dram_words * sizeof *R->dram);
    r = chk_table_put(&R->robs, R->obuf, n, chk_hash_words(R->obuf, n), &o);
    if (r < 0) {
        oom(R);
        return -1;
    }
    if (r == 1)
        vec_set(R, &R->robs_out, o,
                chk_outcome(R, LIT_RECOVERED, R->pm, R->dram, NULL));
    relax(R, level, 0, o, depth, 0, i, CHK_NONE, VIA_TERMINAL);
    return 1;
}

/* Explores recovery from image img with d more crashes allowed, leaving the
   best-so-far entries of its level filled and touched. */
static void explore_recovery(ChkRun *R, uint32_t img, int d)
{
    int level = R->o.crash_depth - d;
    chk_space_reset(&R->space[level]);
    R->lvl_touched[level].n = 0;
    chk_image_expand(R, img, R->ifull);
    mdl_init_recovery(R->m, R->ifull, &R->lvl_state[level]);
    bfs(R, level, 1, visit_recovery, &d);
}

uint32_t chk_recover(ChkRun *R, uint32_t img, int d)
{
    uint64_t key[2] = {img, (uint64_t)d};
    uint32_t mi, nout = 0, nerr = 0;
    int level = R->o.crash_depth - d, r;
    ChkVec *t = &R->lvl_touched[level];
    ChkMemo memo;
    r = chk_table_put(&R->memo_keys, key, 2, chk_hash_words(key, 2), &mi);
    if (r < 0) {
        oom(R);
        return CHK_NONE;
    }
    if (r == 0)
        return mi;
    R->recoveries++;
    explore_recovery(R, img, d);
    /* the memo keeps the entries sorted by kind, then id */
    memo.out_first = (uint32_t)R->nmbest;
    for (int pass = 0; pass < 2; pass++) {
        size_t start = R->nmbest;
        if (pass == 1)
            memo.err_first = (uint32_t)start;
        for (size_t k = 0; k < t->n; k++) {
            uint32_t tid = t->v[k];
            int err = (tid & 0x80000000u) != 0;
            ChkBest *b;
            if (err != pass)
                continue;
            b = best_slot(R, level, err, tid & 0x7FFFFFFFu);
            if (!b)
                return CHK_NONE;
            if (R->nmbest == R->capmbest) {
                size_t nc = R->capmbest ? R->capmbest * 2 : 256;
                ChkBest *a = realloc(R->mbest, nc * sizeof *a);
                if (!a) {
                    oom(R);
                    return CHK_NONE;
                }
                R->mbest = a;
                R->capmbest = nc;
            }
            R->mbest[R->nmbest++] = *b;
            b->steps = CHK_NONE;
        }
        qsort(R->mbest + start, R->nmbest - start, sizeof *R->mbest, cmp_best);
        if (pass == 0)
            nout = (uint32_t)(R->nmbest - start);
        else
            nerr = (uint32_t)(R->nmbest - start);
    }
    t->n = 0;
    memo.nout = nout;
    memo.nerr = nerr;
    if (mi >= R->capmemo) {
        size_t nc = R->capmemo ? R->capmemo * 2 : 64;
        ChkMemo *a = realloc(R->memo, nc * sizeof *a);
        if (!a) {
            oom(R);
            return CHK_NONE;
        }
        R->memo = a;
        R->capmemo = nc;
    }
    R->memo[mi] = memo;
    return mi;
}

void chk_recover_space(ChkRun *R, uint32_t img, int d)
{
    int level = R->o.crash_depth - d;
    explore_recovery(R, img, d);
    for (size_t k = 0; k < R->lvl_touched[level].n; k++) {
        uint32_t tid = R->lvl_touched[level].v[k];
        ChkBest *b = best_slot(R, level, (tid & 0x80000000u) != 0,
                               tid & 0x7FFFFFFFu);
        if (b)
            b->steps = CHK_NONE;
    }
    R->lvl_touched[level].n = 0;
}
