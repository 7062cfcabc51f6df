/*
 * tm_pbar.c — what persist barriers and psync cost under each model:
 * the reference implementations of DESIGN section 4 ("Timing") on the
 * simulated hierarchy.
 *
 *   strict   every PM store is written through as it issues, in order,
 *            through its SM's persist buffer (tm_pipe.c), so barriers
 *            cost their issue cycle; psync waits until every buffer has
 *            persisted what it held.
 *   epoch    a barrier writes back the lines of the thread's pending
 *            stores and of the dirty lines it read since its last barrier
 *            (Own ∪ Obs), waits until they are persistent, then goes on.
 *            pbar.wg and pbar.kr are this thread-local barrier.
 *   bepoch   the same writebacks start, but the thread does not wait (an
 *            ordering marker; they complete in the background). psync
 *            writes back Own ∪ Obs and waits for them and for every
 *            background batch its barriers started.
 *   scoped   pbar: Own, stalling. pbar.wg / pbar.kr are collective: when
 *            the last thread of the CTA (kernel) arrives, the lines stored
 *            by all its threads are written back, and every thread leaves
 *            when they are persistent.
 *   bscoped  as scoped, but nothing waits for the writebacks; psync waits
 *            for Own and the background batches ordering the thread.
 *   hw       NVW-FIFO, the hardware's settle rule (model.h, MdlHwRule):
 *            the barrier first waits for the warp's outstanding requests,
 *            then (collectively for wg/kr) writes back the lines the
 *            scope's threads stored to, then drains every WPQ. psync is
 *            pbar.
 *
 * "Persistent" is accepted by a durable WPQ, or written to NVM when the
 * WPQ is volatile (requests flagged F_ACKNVM). Lines are tracked per
 * thread since its last barrier (Own as stored, Obs as read); a line read
 * counts only if it is dirty in L2 at the barrier (a clean line holds no
 * pending store). A warp runs one action at a time for the threads that
 * issued it (their `inpb` mark); collective actions belong to the scope.
 */
#include "timing/timing_int.h"

/* What barrier `op` does under the timed model, read off its policy row
   (mdl_policy): the sets it forces are written back and waited for, the
   sets it only orders are written back in the background, a frontier it
   forces means waiting for the background writebacks ordered so far, and
   Obs means the dirty lines the thread read. A model whose stores depend
   on all of P (strict) persists every store as it issues, in order,
   through the persist buffers (tm_pipe.c): a barrier that only orders has
   nothing left to do, one that forces (psync) waits for the buffers. Where the row's rule table makes the barrier
   settle (hw), it first waits for the warp's requests (the semantics
   complete them in the barrier's step) and ends by draining every WPQ. */
static unsigned pb_plan(const Tm *t, int op)
{
    const MdlPolicy *pol = t->pol;
    const MdlRule *rule = mdl_policy_rule(pol, op);
    unsigned sets, plan = PA_FLUSH;
    if (!rule)
        return 0;
    if (pol->pipe == MDL_PIPE_INORDER)
        return rule->force ? PA_PIPE : 0;
    sets = rule->force | rule->order;
    if (!sets)
        return 0;
    if (sets & MDL_SET_OBS)
        plan |= PA_OBS;
    if (!rule->force)
        plan |= PA_BG;
    if (rule->force & MDL_SET_F)
        plan |= PA_WAITBG;
    if (mdl_policy_collective(pol, op))
        plan |= PA_COLL;
    if (mdl_hw_rules(t->pol, &t->p->config)[op].settle)
        plan |= PA_FENCE | PA_DRAIN;
    return plan;
}

int tm_pb_collective(const Tm *t, int op)
{
    return (pb_plan(t, op) & PA_COLL) != 0;
}

void tm_own_add(Tm *t, TmVec *v, int32_t line)
{
    for (size_t i = v->n; i > 0 && i + 4 > v->n; i--)
        if (v->v[i - 1] == line)
            return;
    tm_vec_push(t, v, line);
}

static int32_t batch_new(Tm *t, int kind, int32_t who)
{
    TmBatch *b;
    TM_GROW(t, t->b, t->capb, t->nb + 1);
    b = &t->b[t->nb];
    b->outstanding = 0;
    b->kind = (uint8_t)kind;
    b->who = who;
    return (int32_t)t->nb++;
}

/* ---- writebacks ------------------------------------------------------------- */

/* A barrier's writeback is persistent once accepted by a durable WPQ, or
   in NVM when the WPQ is volatile; under a plan that drains every WPQ
   afterwards, accepted is enough. */
static unsigned persist_flag(const Tm *t, unsigned plan)
{
    return !(plan & PA_DRAIN) && t->volatile_wpq ? F_ACKNVM : 0;
}

/* Writes back the thread's Own lines (and Obs lines still dirty, with
   PA_OBS), each line once per round (t->stampv), from the thread's SM,
   into batch b, as barrier plan `plan` says. */
static void flush_thread(Tm *t, int32_t slot, unsigned plan, int32_t b)
{
    TmThread *th = &t->thr[slot];
    int32_t sm = t->w[th->warp].sm;
    for (int32_t pass = 0; pass < 2; pass++) {
        TmVec *v = pass ? &th->obs : &th->own;
        for (size_t i = 0; i < v->n; i++) {
            int32_t line = v->v[i];
            if (t->stamp[line] == t->stampv ||
                (pass && (!(plan & PA_OBS) || !tm_l2_dirty(t, line))))
                continue;
            t->stamp[line] = t->stampv;
            tm_mem_send(t, RQ_FLUSH, LIT_PM, line, sm, -1, b, -1,
                        persist_flag(t, plan), 0, tm_lsu(t, sm));
        }
        v->n = 0;
    }
}

static void drain_all(Tm *t, int32_t sm, int32_t b)
{
    Tick start = tm_lsu(t, sm);
    for (int32_t c = 0; c < t->nctrl; c++)
        tm_mem_send(t, RQ_DRAIN, LIT_PM, c, sm, -1, b, -1, 0, 0, start);
}

/* Drops completed batches from a thread's background list; 1 when none is
   left. */
static int bg_done(Tm *t, TmThread *th)
{
    size_t k = 0;
    for (size_t i = 0; i < th->bg.n; i++)
        if (t->b[th->bg.v[i]].outstanding)
            th->bg.v[k++] = th->bg.v[i];
    th->bg.n = k;
    return k == 0;
}

/* ---- threads and scopes ------------------------------------------------------ */

static void scope_check(Tm *t, int32_t sc);

/* A thread counts as arrived at a collective barrier once it is done and
   in no persist action or collective wait. */
void tm_thr_update(Tm *t, int32_t slot)
{
    TmThread *th = &t->thr[slot];
    int f = th->done && !th->coll && !th->inpb;
    int32_t cta = t->L.cta[slot];
    if (f == th->isfree)
        return;
    th->isfree = (uint8_t)f;
    t->scope[cta].nfree += f ? 1 : -1;
    t->scope[t->ncta].nfree += f ? 1 : -1;
    if (f) {
        scope_check(t, cta);
        scope_check(t, t->ncta);
        tm_cta_check(t, cta);
    }
}

static void release(Tm *t, int32_t sc)
{
    TmScope *s = &t->scope[sc];
    for (int32_t i = s->first; i < s->first + s->n; i++) {
        TmThread *th = &t->thr[i];
        if (th->coll != s->op)
            continue;
        th->coll = 0;
        s->ncoll--;
        t->held--;
        tm_thr_update(t, i);
        tm_wake(t, th->warp, t->now);
    }
    s->busy = 0;
    t->busy_scopes--;
}

static void scope_advance(Tm *t, int32_t sc)
{
    TmScope *s = &t->scope[sc];
    unsigned plan = pb_plan(t, s->op);
    for (;;) {
        switch (s->stage) {
        case PB_FLUSH:
            t->stampv++;
            s->batch = batch_new(t, (plan & PA_BG) ? B_BG : B_SCOPE, sc);
            for (int32_t i = s->first; i < s->first + s->n; i++) {
                flush_thread(t, i, plan & ~PA_OBS, s->batch);
                if (plan & PA_BG)
                    tm_vec_push(t, &t->thr[i].bg, s->batch);
            }
            s->stage = (plan & PA_BG) ? PB_END : PB_FLUSHWAIT;
            break;
        case PB_FLUSHWAIT: case PB_DRAINWAIT:
            if (t->b[s->batch].outstanding)
                return;
            s->stage = s->stage == PB_FLUSHWAIT && (plan & PA_DRAIN)
                           ? PB_DRAIN : PB_END;
            break;
        case PB_DRAIN:
            s->batch = batch_new(t, B_SCOPE, sc);
            drain_all(t, t->w[t->thr[s->first].warp].sm, s->batch);
            s->stage = PB_DRAINWAIT;
            break;
        default:
            release(t, sc);
            return;
        }
    }
}

/* Releases the scope's collective barrier once every thread has arrived:
   waits there or has finished. */
static void scope_check(Tm *t, int32_t sc)
{
    TmScope *s = &t->scope[sc];
    if (s->busy || !s->ncoll || s->ncoll + s->nfree != s->n)
        return;
    s->busy = 1;
    t->busy_scopes++;
    s->stage = PB_FLUSH;
    scope_advance(t, sc);
}

/* The warp's marked threads wait at the collective barrier. */
static void arrive(Tm *t, TmWarp *w)
{
    int32_t sc = -1;
    for (int32_t i = w->first; i < w->first + w->n; i++) {
        TmThread *th = &t->thr[i];
        if (!th->inpb)
            continue;
        sc = w->pb_op == LIT_PBAR_WG ? t->L.cta[i] : t->ncta;
        th->inpb = 0;
        th->coll = w->pb_op;
        t->scope[sc].ncoll++;
        t->held++;
    }
    if (sc >= 0)
        scope_check(t, sc);
}

static void end_action(Tm *t, TmWarp *w)
{
    for (int32_t i = w->first; i < w->first + w->n; i++)
        if (t->thr[i].inpb) {
            t->thr[i].inpb = 0;
            tm_thr_update(t, i);
        }
}

/* ---- a warp's action ---------------------------------------------------------- */

void tm_batch_dec(Tm *t, int32_t b)
{
    TmBatch *x = &t->b[b];
    assert(b >= 0 && (size_t)b < t->nb && x->outstanding > 0);
    if (--x->outstanding)
        return;
    switch (x->kind) {
    case B_WARP:
        tm_wake(t, x->who, t->now);
        break;
    case B_SCOPE:
        scope_advance(t, x->who);
        break;
    default:
        for (size_t i = 0; i < t->psync.n; i++)
            tm_wake(t, t->psync.v[i], t->now);
        t->psync.n = 0;
        break;
    }
}

/* Runs the warp's action as far as it can: 1 when it is over. */
int tm_pb_advance(Tm *t, int32_t wi)
{
    TmWarp *w = &t->w[wi];
    unsigned plan = pb_plan(t, w->pb_op);
    for (;;) {
        switch (w->pb_stage) {
        case PB_FENCE:
            if (w->outstanding)
                return 0;
            w->pb_stage = (plan & PA_COLL) ? PB_ARRIVE : PB_FLUSH;
            break;
        case PB_ARRIVE:
            arrive(t, w);
            return 1;
        case PB_FLUSH:
            t->stampv++;
            w->pb_batch = batch_new(t, (plan & PA_BG) ? B_BG : B_WARP, wi);
            for (int32_t i = w->first; i < w->first + w->n; i++)
                if (t->thr[i].inpb) {
                    flush_thread(t, i, plan, w->pb_batch);
                    if (plan & PA_BG)
                        tm_vec_push(t, &t->thr[i].bg, w->pb_batch);
                }
            w->pb_stage = (plan & PA_BG) ? PB_END : PB_FLUSHWAIT;
            break;
        case PB_FLUSHWAIT: case PB_DRAINWAIT:
            if (t->b[w->pb_batch].outstanding)
                return 0;
            if (w->pb_stage == PB_FLUSHWAIT && (plan & PA_DRAIN))
                w->pb_stage = PB_DRAIN;
            else if (w->pb_stage == PB_FLUSHWAIT && (plan & PA_WAITBG))
                w->pb_stage = PB_WAITBG;
            else
                w->pb_stage = PB_END;
            break;
        case PB_DRAIN:
            w->pb_batch = batch_new(t, B_WARP, wi);
            drain_all(t, w->sm, w->pb_batch);
            w->pb_stage = PB_DRAINWAIT;
            break;
        case PB_PIPEWAIT:
            if (!tm_pipe_passed(t, w->pb_target)) {
                tm_vec_push(t, &t->pipewait, wi);
                return 0;
            }
            w->pb_stage = PB_END;
            break;
        case PB_WAITBG:
            for (int32_t i = w->first; i < w->first + w->n; i++)
                if (t->thr[i].inpb && !bg_done(t, &t->thr[i])) {
                    tm_vec_push(t, &t->psync, wi);
                    return 0;
                }
            w->pb_stage = PB_END;
            break;
        default:
            end_action(t, w);
            return 1;
        }
    }
}

void tm_pb_issue(Tm *t, int32_t wi, int op, int32_t n)
{
    TmWarp *w = &t->w[wi];
    unsigned plan = pb_plan(t, op);
    if (!plan)
        return;
    for (int32_t i = 0; i < n; i++) {
        t->thr[t->grp[i]].inpb = 1;
        tm_thr_update(t, t->grp[i]);
    }
    w->pb_op = (uint8_t)op;
    w->pb_target = t->pb_gseq;
    w->pb_stage = (plan & PA_FENCE) ? PB_FENCE
                  : (plan & PA_COLL) ? PB_ARRIVE
                  : (plan & PA_PIPE) ? PB_PIPEWAIT : PB_FLUSH;
    if (!tm_pb_advance(t, wi)) {
        tm_set_wait(t, wi, W_PB);
        tm_cause(t, w, C_PBAR, w->ready);
    }
}
