/*
 * tm_warp.c — warps: which threads issue together, when, and what
 * their instruction sends into the hierarchy.
 *
 * SIMT. A warp issues at most one instruction per cycle, and an SM at most
 * TM_SM_ISSUE. The threads that issue together are the warp's ready
 * threads at the lowest (pc, body); the others wait (divergent paths take
 * separate cycles, and a path that falls behind catches up, which is how
 * threads reconverge). A ready thread passed over for TM_STARVE of its
 * warp's issues goes first, so a spin loop cannot starve the thread it
 * waits for. A register a load or atomic writes is not ready until the
 * data is back (scoreboard); other results are ready the next cycle.
 *
 * Stall accounting: a warp's stall interval starts when it could have
 * issued and ends when it issues again (or finds nothing left to do); it
 * is charged to the cause that held it (fence, persist barrier, bar.sync,
 * memory). Cycles an SM's issue width takes are not stalls.
 */
#include <string.h>

#include "timing/timing_int.h"

void tm_wake(Tm *t, int32_t wi, Tick at)
{
    TmWarp *w = &t->w[wi];
    assert(wi >= 0 && wi < t->nwarp);
    if (w->sched != TICK_NONE && w->sched <= at)
        return;
    w->sched = at;
    tm_post(t, at, EV_WARP, wi);
}

void tm_set_wait(Tm *t, int32_t wi, int wait)
{
    TmWarp *w = &t->w[wi];
    t->blocked += (wait != W_NONE) - (w->wait != W_NONE);
    w->wait = (uint8_t)wait;
    assert(t->blocked >= 0 && t->blocked <= t->nwarp);
}

void tm_cause(Tm *t, TmWarp *w, int cause, Tick at)
{
    if (w->cause != C_NONE && at > w->since) {
        Tick d = at - w->since;
        switch (w->cause) {
        case C_FENCE: t->out->stall_fence += d; break;
        case C_PBAR: t->out->stall_pbar += d; break;
        case C_BAR: t->out->stall_bar += d; break;
        default: t->out->stall_mem += d; break;
        }
    }
    w->cause = cause;
    w->since = at;
}

/* The warp has nothing to issue from `at` on: it waits for `cause`, or
   (C_NONE) has finished; a finished warp was not held by the LSU or a register,
   whatever its last instruction left in flight. */
void tm_warp_idle(Tm *t, TmWarp *w, int cause, Tick at)
{
    if (cause == C_NONE && w->cause == C_MEM)
        w->cause = C_NONE;
    tm_cause(t, w, cause, at);
}

void tm_warp_req_done(Tm *t, const TmReq *r)
{
    TmWarp *w = &t->w[r->warp];
    assert(t->live > 0 && (!(r->flags & F_WRITE) || w->outstanding > 0));
    assert(r->reg < 0 || w->reg_pending[r->reg] > 0);
    t->live--;
    if (r->flags & F_PIPE)
        tm_pipe_done(t, r);
    if ((r->flags & F_WRITE) && --w->outstanding == 0 &&
        (w->wait == W_FENCE || (w->wait == W_PB && w->pb_stage == PB_FENCE)))
        tm_wake(t, r->warp, t->now);
    if (r->reg >= 0) {
        if (w->reg_ready[r->reg] < t->now)
            w->reg_ready[r->reg] = t->now;
        if (--w->reg_pending[r->reg] == 0 && w->wait == W_REG &&
            w->wait_reg == r->reg)
            tm_wake(t, r->warp, t->now);
    }
}

/* ---- choosing the issuing group ------------------------------------------- */

static uint32_t pc_of(const Tm *t, int32_t slot)
{
    return mdl_thread_pc(t->m, &t->s, slot);
}

/* Fills t->grp; returns its size (0: nothing can issue). */
static int32_t pick_group(Tm *t, const TmWarp *w)
{
    int32_t best = -1, old = -1, n = 0;
    uint64_t bkey = 0;
    for (int32_t i = w->first; i < w->first + w->n; i++) {
        const TmThread *th = &t->thr[i];
        uint64_t key;
        if (th->coll || th->inpb || !mdl_thread_ready(t->m, &t->s, i))
            continue;
        key = (uint64_t)pc_of(t, i) << 32 | (uint32_t)t->L.body[i];
        if (best < 0 || key < bkey) {
            best = i;
            bkey = key;
        }
        if (w->issued - th->last_issue > TM_STARVE &&
            (old < 0 || th->last_issue < t->thr[old].last_issue))
            old = i;
    }
    if (best < 0)
        return 0;
    if (old >= 0)
        bkey = (uint64_t)pc_of(t, old) << 32 | (uint32_t)t->L.body[old];
    for (int32_t i = w->first; i < w->first + w->n; i++) {
        const TmThread *th = &t->thr[i];
        if (th->coll || th->inpb || !mdl_thread_ready(t->m, &t->s, i))
            continue;
        if (((uint64_t)pc_of(t, i) << 32 | (uint32_t)t->L.body[i]) == bkey)
            t->grp[n++] = i;
    }
    return n;
}

/* Why a warp with nothing to issue waits. */
static int idle_cause(const Tm *t, const TmWarp *w)
{
    int cause = C_NONE;
    for (int32_t i = w->first; i < w->first + w->n; i++) {
        const TmThread *th = &t->thr[i];
        if (th->coll || th->inpb)
            return C_PBAR;
        if (!th->done)
            cause = C_BAR;
    }
    return cause;
}

/* The registers a decoded instruction writes (a false guard writes
   nothing); returns how many. */
static int dest_regs(const MdlInstr *d, uint16_t *regs)
{
    return d->op == LIT_NOP ? 0 : lit_instr_sets(d->in, regs);
}

/* Registers the instruction reads or writes: 0 ready, else stalls the
   warp (W_REG, or a wake-up when the register is ready) and returns 1. */
static int scoreboard(Tm *t, int32_t wi, const MdlInstr *d)
{
    TmWarp *w = &t->w[wi];
    uint16_t regs[LIT_MAX_READS + LIT_MAX_VEC];
    int n = lit_instr_reads(d->in, regs);
    Tick ready = t->now;
    n += dest_regs(d, regs + n);
    for (int i = 0; i < n; i++) {
        assert(regs[i] < t->k->nregs);
        if (w->reg_pending[regs[i]]) {
            w->wait_reg = regs[i];
            tm_set_wait(t, wi, W_REG);
            tm_cause(t, w, C_MEM, t->now);
            return 1;
        }
        if (w->reg_ready[regs[i]] > ready)
            ready = w->reg_ready[regs[i]];
    }
    if (ready > t->now) {
        tm_cause(t, w, C_MEM, t->now);
        tm_wake(t, wi, ready);
        return 1;
    }
    return 0;
}

/* ---- what an instruction sends ------------------------------------------- */

/* Distinct (space, line) of the group's accesses to element `elem` (-1:
   every element of a vector access), in first-access order, with the
   number of accesses to each: t->lines holds pairs. */
static int32_t coalesce(Tm *t, int32_t n, int elem)
{
    int32_t nl = 0;
    for (int32_t i = 0; i < n; i++)
        for (int k = elem < 0 ? 0 : elem;
             k < (elem < 0 ? t->dec[i].nelem : elem + 1); k++) {
            int32_t line = lit_line(t->p, t->dec[i].space, t->dec[i].words[k]);
            int32_t key = t->dec[i].space == LIT_PM ? line : -1 - line, j;
            for (j = 0; j < nl; j++)
                if (t->lines[2 * j] == key)
                    break;
            if (j == nl) {
                TM_GROW(t, t->lines, t->caplines, (size_t)(2 * nl + 2));
                t->lines[2 * nl] = key;
                t->lines[2 * nl + 1] = 0;
                nl++;
            }
            t->lines[2 * j + 1]++;
        }
    return nl;
}

static int key_space(int32_t key)
{
    return key >= 0 ? LIT_PM : LIT_DRAM;
}

static int32_t key_line(int32_t key)
{
    return key >= 0 ? key : -1 - key;
}

/* Whether PM stores of the timed model go through the in-order persist
   buffers (tm_pipe.c): every PM store persists as it issues (strict) and
   the policy's reference hardware pipelines them. */
static int piped(const Tm *t, const MdlInstr *d)
{
    return d->space == LIT_PM && (d->flags & MDL_I_WRITE) &&
           (t->pol->store_deps & MDL_SET_ALL) &&
           t->pol->pipe == MDL_PIPE_INORDER;
}

/* A PM store that its SM's persist buffer has no room for does not issue:
   the warp waits (a fence stall) until an entry retires. The buffer may
   then take the whole warp's lines, going past TM_PB_ENTRIES by at most
   one instruction's. */
static int pipe_full(Tm *t, int32_t wi, const MdlInstr *d)
{
    TmWarp *w = &t->w[wi];
    if (!piped(t, d) || !tm_pipe_full(t, w->sm))
        return 0;
    tm_vec_push(t, &t->sm[w->sm].pb_full, wi);
    tm_set_wait(t, wi, W_PIPE);
    tm_cause(t, w, C_FENCE, t->now);
    return 1;
}

/* Loads, stores and atomics. A model whose every store depends on all of P
   (strict) is timed by writing every PM store through: with an in-order
   persist pipe (its policy's `pipe`, tm_pipe.c) each write enters the SM's
   persist buffer and the warp waits only for room in it; without one the
   warp is fenced until the write is persistent. A PM write-through is
   acknowledged once written to NVM with wt_ack = nvm (DESIGN section 4),
   and so are the strict reference's writes when the WPQ is volatile (that
   is when they are persistent). */
static void mem_issue(Tm *t, int32_t wi, const MdlInstr *d, int32_t n)
{
    TmWarp *w = &t->w[wi];
    int op = d->op, space = d->space;
    int write = (d->flags & MDL_I_WRITE) != 0;
    uint16_t regs[LIT_MAX_VEC];
    int nd = dest_regs(d, regs), rd = nd ? regs[0] : -1;
    int atom = write && (d->flags & MDL_I_READ);
    int strict = (t->pol->store_deps & MDL_SET_ALL) && space == LIT_PM &&
                 write;
    int pipe = piped(t, d);
    unsigned wr = pipe ? F_PIPE : F_WRITE;
    unsigned wt_ack = space == LIT_PM &&
                      (t->wt_ack_nvm || (strict && t->volatile_wpq))
                          ? F_ACKNVM : 0;
    Tick start = t->now;
    int32_t nl, r;
    if (space == LIT_SHARED) {
        start = tm_lsu(t, w->sm);
        for (int k = 0; k < nd; k++)
            if (w->reg_ready[regs[k]] < start + TM_L1_LAT)
                w->reg_ready[regs[k]] = start + TM_L1_LAT;
        if (w->ready < start + 1)
            w->ready = start + 1;
        return;
    }
    if (space == LIT_PM && !(t->pol->store_deps & MDL_SET_ALL))
        for (int32_t i = 0; i < n; i++)
            for (int k = 0; k < t->dec[i].nelem; k++) {
                TmThread *th = &t->thr[t->grp[i]];
                int32_t line = lit_line(t->p, space, t->dec[i].words[k]);
                if (write)
                    tm_own_add(t, &th->own, line);
                if ((t->dec[i].flags & MDL_I_READ) &&
                    (t->pol->tracks & MDL_SET_OBS))
                    tm_own_add(t, &th->obs, line);
            }
    /* a load: the lines of each element, for that element's register */
    for (int k = 0; !write && k < nd; k++) {
        nl = coalesce(t, n, k);
        for (int32_t j = 0; j < nl; j++) {
            Tick r;
            start = tm_lsu(t, w->sm);
            r = tm_mem_load(t, space, key_line(t->lines[2 * j]), w->sm, wi,
                            regs[k], start);
            if (r != TICK_NONE && w->reg_ready[regs[k]] < r)
                w->reg_ready[regs[k]] = r;
        }
    }
    nl = !write ? 0 : atom ? n : coalesce(t, n, -1);
    for (int32_t j = 0; j < nl; j++) {
        int32_t line = atom ? lit_line(t->p, space, t->dec[j].word)
                            : key_line(t->lines[2 * j]);
        int32_t bytes = atom ? 8 : 8 * t->lines[2 * j + 1];
        if (bytes > t->line_bytes)
            bytes = t->line_bytes;
        start = tm_lsu(t, w->sm);
        tm_l1_inval(t, w->sm, space, line);
        if (atom)
            r = tm_mem_send(t, RQ_ATOM, space, line, w->sm, wi, -1, rd,
                            wr | (strict ? F_THROUGH | wt_ack : 0), 8,
                            start);
        else if (strict || t->hw[op].write == MDL_HW_WT)
            r = tm_mem_send(t, RQ_WT, space, line, w->sm, wi, -1, -1,
                            wr | wt_ack, bytes, start);
        else
            r = tm_mem_send(t, RQ_STORE, space, line, w->sm, wi, -1, -1,
                            F_WRITE, bytes, start);
        if (pipe)
            tm_pipe_push(t, w->sm, r);
    }
    if (w->ready < start + 1)
        w->ready = start + 1;
    if (w->ready > t->now + 1)
        tm_cause(t, w, C_MEM, t->now + 1);
    if (strict && !pipe) {
        tm_set_wait(t, wi, W_FENCE);
        tm_cause(t, w, C_FENCE, w->ready);
    }
}

/* A request as the hardware's rule r says (model.h, MdlHwRule): for the
   line of each access (clwb, clflush), one per line and LSU slot; for
   every dirty line (l2wb), one per partition; a count (pcommit), one per
   controller (the last two take one LSU slot). */
static void hw_issue(Tm *t, int32_t wi, const MdlHwRule *r, int32_t n)
{
    TmWarp *w = &t->w[wi];
    Tick start;
    if (r->request == MDL_HW_RQ_LINE) {
        int32_t nl = coalesce(t, n, -1);
        for (int32_t j = 0; j < nl; j++) {
            int space = key_space(t->lines[2 * j]);
            int32_t line = key_line(t->lines[2 * j]);
            start = tm_lsu(t, w->sm);
            if (r->inval)
                tm_l1_inval(t, w->sm, space, line);
            tm_mem_send(t, RQ_FLUSH, space, line, w->sm, wi, -1, -1,
                        F_WRITE | (r->inval ? F_INVAL : 0), 0, start);
            if (w->ready < start + 1)
                w->ready = start + 1;
        }
    } else if (r->request == MDL_HW_RQ_DIRTY) {
        start = tm_lsu(t, w->sm);
        for (int32_t p = 0; p < t->npart; p++)
            tm_mem_send(t, RQ_L2WB, LIT_PM, p, w->sm, wi, -1, -1, F_WRITE, 0,
                        start);
    } else {
        assert(r->count);
        start = tm_lsu(t, w->sm);
        for (int32_t c = 0; c < t->nctrl; c++)
            tm_mem_send(t, RQ_DRAIN, LIT_PM, c, w->sm, wi, -1, -1, F_WRITE,
                        0, start);
    }
    if (w->ready > t->now + 1)
        tm_cause(t, w, C_MEM, t->now + 1);
}

/* ---- after the step ------------------------------------------------------- */

static void set_done(Tm *t, int32_t slot)
{
    if (!t->thr[slot].done) {
        t->thr[slot].done = 1;
        tm_thr_update(t, slot);
    }
}

/* Threads the model released from bar.sync / grid.sync: running again, or
   finished when the barrier ended their body. A thread of the group held
   at a collective persist barrier has not arrived under the timed model
   (the strict engine let it pass): then nothing is released, and the run
   ends as the barrier divergence it is (tm_run.c, stuck). */
static int group_held(const Tm *t, int32_t first, int32_t n)
{
    for (int32_t i = first; i < first + n; i++)
        if (t->thr[i].coll)
            return 1;
    return 0;
}

static void bar_scan(Tm *t, int32_t first, int32_t n, int kind)
{
    if (group_held(t, first, n))
        return;
    for (int32_t i = first; i < first + n; i++) {
        TmThread *th = &t->thr[i];
        int done;
        if (th->mwait != kind)
            continue;
        done = mdl_thread_done(t->m, &t->s, i);
        if (!done && !mdl_thread_ready(t->m, &t->s, i))
            continue;
        th->mwait = 0;
        if (kind == 1)
            t->cta_bar[t->L.cta[i]]--;
        else
            t->grid_wait--;
        if (done)
            set_done(t, i);
        else
            tm_wake(t, th->warp, t->now + 1);
    }
}

/* After the group's steps. A launch the model has left (its last thread
   finished) has every thread done; the state then describes the next
   launch, so it is not asked about these slots. A thread the strict engine
   let through a barrier its group cannot pass under the timed model (a
   thread of the group is held at a collective persist barrier) waits. */
static void after_step(Tm *t, int32_t wi, int op, int32_t n)
{
    TmWarp *w = &t->w[wi];
    int scan = 0;
    int left = mdl_terminal(t->m, &t->s) ||
               mdl_launch_index(t->m, &t->s) != t->launch;
    for (int32_t i = 0; i < n; i++) {
        int32_t slot = t->grp[i];
        TmThread *th = &t->thr[slot];
        int done = left || mdl_thread_done(t->m, &t->s, slot);
        int waits = !done && !mdl_thread_ready(t->m, &t->s, slot);
        if ((t->dec[i].flags & MDL_I_WAITS) &&
            (op == LIT_GRID_SYNC ? t->held > 0
                                 : group_held(t, t->L.cta_first[w->cta],
                                              t->L.cta_count[w->cta]))) {
            waits = 1;
            done = 0;
        }
        th->last_issue = w->issued;
        if (waits) {
            th->mwait = op == LIT_BAR_SYNC ? 1 : 2;
            if (th->mwait == 1)
                t->cta_bar[w->cta]++;
            else
                t->grid_wait++;
        }
        scan |= (t->dec[i].flags & MDL_I_WAITS) || done;
        if (done)
            set_done(t, slot);
    }
    if (left) {
        t->ended = 1;
        return;
    }
    if (scan && t->cta_bar[w->cta])
        bar_scan(t, t->L.cta_first[w->cta], t->L.cta_count[w->cta], 1);
    if (scan && t->grid_wait)
        bar_scan(t, 0, t->nthr, 2);
}

static void issue(Tm *t, int32_t wi)
{
    TmWarp *w = &t->w[wi];
    TmSm *sm = &t->sm[w->sm];
    const MdlInstr *d = &t->dec[0];
    const MdlHwRule *hr;
    int32_t n;
    if (sm->issue_t != t->now) {
        sm->issue_t = t->now;
        sm->issued = 0;
    }
    if (sm->issued >= TM_SM_ISSUE) {
        tm_cause(t, w, C_NONE, t->now);
        tm_wake(t, wi, t->now + 1);
        return;
    }
    n = t->ended ? 0 : pick_group(t, w);
    if (!n) {
        tm_warp_idle(t, w, idle_cause(t, w), t->now);
        return;
    }
    if (mdl_decode(t->m, &t->s, t->grp[0], &t->dec[0]) ||
        scoreboard(t, wi, d) || pipe_full(t, wi, d))
        return;
    tm_cause(t, w, C_NONE, t->now);
    sm->issued++;
    for (int32_t i = 0; i < n; i++) {
        MdlError e;
        int r = i && mdl_decode(t->m, &t->s, t->grp[i], &t->dec[i]) ? -1
                : mdl_step(t->m, &t->s, (uint32_t)t->grp[i], NULL, &e);
        t->steps++;
        if (r > 0) {
            tm_error(t, TM_ERROR, "%s: %s (thread %d, line %d)",
                     mdl_err_names[e.kind], e.msg, (int)e.gtid, (int)e.line);
            return;
        }
        if (r < 0) {
            tm_error(t, TM_ERROR, "internal: thread %d cannot step",
                     (int)t->L.gtid[t->grp[i]]);
            return;
        }
    }
    t->out->instructions++;
    hr = &t->hw[d->op];
    w->issued++;
    w->ready = t->now + 1;
    if (t->last_issue < t->now + 1)
        t->last_issue = t->now + 1;
    /* The hardware's instructions cost the same in every model (their
       rules are the hardware's); a persist barrier's cost is the timed
       model's (tm_pbar.c). */
    if (d->flags & (MDL_I_READ | MDL_I_WRITE)) {
        mem_issue(t, wi, d, n);
    } else if (hr->request || hr->count) {
        hw_issue(t, wi, hr, n);
    } else if (hr->fence) {
        if (w->outstanding) {
            tm_set_wait(t, wi, W_FENCE);
            tm_cause(t, w, C_FENCE, w->ready);
        }
    } else if (lit_opflags(d->op) & LIT_OPF_PBAR) {
        tm_pb_issue(t, wi, d->op, n);
    }
    after_step(t, wi, d->op, n);
    if (w->wait == W_NONE)
        tm_wake(t, wi, w->ready);
}

void tm_warp_event(Tm *t, int32_t wi)
{
    TmWarp *w = &t->w[wi];
    if (w->sched != t->now)
        return;
    w->sched = TICK_NONE;
    switch (w->wait) {
    case W_FENCE:
        if (w->outstanding)
            return;
        break;
    case W_PB:
        if (!tm_pb_advance(t, wi))
            return;
        break;
    case W_REG:
        if (w->reg_pending[w->wait_reg])
            return;
        break;
    case W_PIPE:
        if (tm_pipe_full(t, w->sm)) {
            tm_vec_push(t, &t->sm[w->sm].pb_full, wi);
            return;
        }
        break;
    default:
        break;
    }
    tm_set_wait(t, wi, W_NONE);
    if (t->now < w->ready) {
        tm_wake(t, wi, w->ready);
        return;
    }
    issue(t, wi);
}
