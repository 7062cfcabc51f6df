/*
 * tm_mc.c — the memory controllers: read and write queues, FR-FCFS
 * scheduling with read priority and write-drain watermarks, banks with
 * row buffers, one data bus per controller.
 *
 * MEMORY CONTROLLER. A request that has passed the front end (tm_mem.c)
 * joins its bank's read list (L2 fills) or, as a write, the controller's
 * write-pending queue (the WPQ, wpq_entries entries, reads and writes of
 * both spaces share the controller; DRAM writes use its WPQ too). A write
 * that finds the WPQ full waits in arrival order (back-pressure) and enters
 * as entries leave. Line L of a space is on controller L mod controllers;
 * its controller-local index i = L / controllers lies in row r = i / (R *
 * nvm_banks) of bank (i / R + r) mod nvm_banks, R = row_bytes / line_bytes
 * lines per row: consecutive lines of a controller share a row, and the
 * bank rotates with the row (permutation-based interleaving, Zhang, Zhu and
 * Zhang, MICRO 2000), so lines a cache set holds, a row apart, do not all
 * fall on one bank (NVM banks and as many DRAM banks, apart).
 *
 * Scheduling (one command per memory cycle on the command bus): writes
 * wait while reads are queued, unless the controller drains: it starts
 * draining when wpq_high writes are queued, when a write waits for an entry
 * or when a pcommit or barrier drain waits, and stops when at most wpq_low
 * are queued and neither waits (hysteresis, as USIMM's write-drain
 * scheduler). In the chosen class, among the banks that can take a command
 * now, a request to the bank's open row goes first (first ready), else the
 * oldest; ties by arrival. Same line means same bank and row, so writes of
 * one line are written in arrival order: NVM never goes backwards.
 *
 * An access on a bank: if it needs another row, the writes buffered in the
 * open row are first written to the array (`close`: the space's write
 * latency) and the new row is activated (`act`: the space's read latency
 * less the column access and the burst, so that a read that misses an
 * idle bank takes exactly nvm_read_ns); then the column access (`cas`:
 * row_hit_ns) and the burst on the data bus (`burst`: line_bytes /
 * bus_bytes memory cycles), which waits for the bus. A read is done when
 * its burst ends. A write goes into the row buffer, which is volatile: it
 * is in NVM once the row is written to the array. The controller writes a
 * row back as soon as no queued write targets it (right after that write's
 * burst), so writes to one row that wait together share one array write,
 * and a row is also written back when another access needs the bank. The
 * bank takes its next command when the burst could start, or when the
 * write-back ends: its busy time excludes the CAS latency and the bus wait,
 * which only delay this request. A written entry leaves the WPQ when it is
 * in NVM. Acknowledgements: a write is acknowledged when the WPQ accepts
 * it, or when it is in NVM if flagged F_ACKNVM (write-throughs with wt_ack
 * = nvm, the abstract models' persists with a volatile WPQ). A drain
 * (pcommit, the hw barrier) answers once every write that arrived before
 * it is in NVM.
 */
#include <assert.h>
#include <string.h>

#include "timing/timing_int.h"

static int is_write(const TmReq *r)
{
    return r->kind != RQ_FILL && r->kind != RQ_DRAIN;
}

void tm_mc_init(Tm *t)
{
    const int32_t lines[2] = {t->p->pm_lines, t->p->dram_lines};
    t->ctrl = tm_alloc(t, (size_t)t->nctrl * sizeof *t->ctrl);
    for (int32_t i = 0; i < t->nctrl; i++) {
        TmCtrl *c = &t->ctrl[i];
        c->bank = tm_alloc(t, 2 * (size_t)t->nbank * sizeof *c->bank);
        for (int32_t b = 0; b < 2 * t->nbank; b++) {
            TmBank *k = &c->bank[b];
            k->row = k->open_key = -1;
            k->rd_head = k->rd_tail = k->wr_head = k->wr_tail = -1;
            k->wb_head = -1;
        }
        c->blk_head = c->blk_tail = c->drn_head = c->drn_tail = -1;
        c->sched = TICK_NONE;
    }
    for (int sp = 0; sp < 2; sp++) {
        int64_t n = ((int64_t)lines[sp] / t->nctrl / t->row_lines + 1) *
                    t->nctrl;
        t->nkeys[sp] = (int32_t)n;
        for (int cl = 0; cl < 2; cl++) {
            t->row_head[cl][sp] = tm_alloc(t, (size_t)n * sizeof(int32_t));
            t->row_tail[cl][sp] = tm_alloc(t, (size_t)n * sizeof(int32_t));
            memset(t->row_head[cl][sp], 0xff, (size_t)n * sizeof(int32_t));
            memset(t->row_tail[cl][sp], 0xff, (size_t)n * sizeof(int32_t));
        }
    }
}

/* ---- lists of requests, linked through TmReq.next ---------------------- */

static void list_append(Tm *t, int32_t *head, int32_t *tail, int32_t i)
{
    t->rq[i].next = -1;
    if (*tail >= 0)
        t->rq[*tail].next = i;
    else
        *head = i;
    *tail = i;
}

/* Unlinks i, whose predecessor is prev (-1: i is the head). */
static void list_remove(Tm *t, int32_t *head, int32_t *tail, int32_t prev,
                        int32_t i)
{
    int32_t next = t->rq[i].next;
    if (prev >= 0)
        t->rq[prev].next = next;
    else
        *head = next;
    if (*tail == i)
        *tail = prev;
    t->rq[i].next = -1;
}

/* ---- bank queues ----------------------------------------------------------- */

/* A bank keeps each class (reads, writes) in arrival order, doubly linked,
   and every request is also on its row's chain of that class, in arrival
   order: the oldest request to the open row is its chain's head, and the
   oldest of the bank is the head of the bank's list and so of its row's
   chain too. Picking and taking are O(1); scanning the bank's list for a
   row hit made the controller quadratic in the requests queued (44% of a
   10^5-thread lbm run). */
static void q_push(Tm *t, TmBank *k, int cl, int32_t i)
{
    TmReq *r = &t->rq[i];
    int32_t *head = cl ? &k->wr_head : &k->rd_head;
    int32_t *tail = cl ? &k->wr_tail : &k->rd_tail;
    int32_t *rh = &t->row_head[cl][r->space][r->rkey];
    int32_t *rt = &t->row_tail[cl][r->space][r->rkey];
    r->next = -1;
    r->prev = *tail;
    if (*tail >= 0)
        t->rq[*tail].next = i;
    else
        *head = i;
    *tail = i;
    r->rnext = -1;
    if (*rt >= 0)
        t->rq[*rt].rnext = i;
    else
        *rh = i;
    *rt = i;
}

/* Unlinks i, the head of its row's chain, from the bank's list. */
static void q_take(Tm *t, TmBank *k, int cl, int32_t i)
{
    TmReq *r = &t->rq[i];
    int32_t *head = cl ? &k->wr_head : &k->rd_head;
    int32_t *tail = cl ? &k->wr_tail : &k->rd_tail;
    int32_t *rh = &t->row_head[cl][r->space][r->rkey];
    int32_t *rt = &t->row_tail[cl][r->space][r->rkey];
    assert(*rh == i);
    if (r->prev >= 0)
        t->rq[r->prev].next = r->next;
    else
        *head = r->next;
    if (r->next >= 0)
        t->rq[r->next].prev = r->prev;
    else
        *tail = r->prev;
    *rh = r->rnext;
    if (*rh < 0)
        *rt = -1;
    r->next = r->prev = r->rnext = -1;
}

/* The oldest request of class cl queued for row rkey of a space, or -1. */
static int32_t row_first(const Tm *t, int cl, int space, int32_t rkey)
{
    return rkey < 0 ? -1 : t->row_head[cl][space][rkey];
}

/* ---- scheduling ---------------------------------------------------------- */

static void arm(Tm *t, TmCtrl *c, Tick at)
{
    if (c->sched != TICK_NONE && c->sched <= at)
        return;
    c->sched = at;
    tm_post(t, at, EV_MC, (int32_t)(c - t->ctrl));
}

static void update_mode(Tm *t, TmCtrl *c)
{
    int urgent = c->blk_head >= 0 || c->drn_head >= 0;
    if (!c->draining && (c->wqueued >= t->wpq_high || urgent))
        c->draining = 1;
    else if (c->draining && c->wqueued <= t->wpq_low && !urgent)
        c->draining = 0;
}

/* A bank's choice in one class: its oldest request to the open row, else
   its oldest; whether it hits in *hit; -1 when the list is empty. */
static int32_t bank_pick(const Tm *t, const TmBank *k, int cl, int space,
                         int *hit)
{
    int32_t i = row_first(t, cl, space, k->open_key);
    *hit = i >= 0;
    return i >= 0 ? i : cl ? k->wr_head : k->rd_head;
}

/* Writes the open row's buffered writes to the array from `start`: they
   are in NVM when it ends (returned), and the bank is busy until then. */
static Tick write_back(Tm *t, TmBank *k, int space, Tick start)
{
    Tick end = start + t->close[space];
    for (int32_t i = k->wb_head, next; i >= 0; i = next) {
        next = t->rq[i].next;
        tm_stage_at(t, i, S_WRITTEN, end);
    }
    k->wb_head = -1;
    return end;
}

/* Puts request i on bank k at the current cycle and posts its completion:
   a read's when its burst ends, a write's when its row is written back. */
static void issue(Tm *t, TmCtrl *c, TmBank *k, int32_t i, int space)
{
    TmReq *r = &t->rq[i];
    Tick col = t->now, data;
    int write = is_write(r);
    c->cmd_free = t->now + t->mc_occ;
    if (k->row != r->row) {
        if (k->wb_head >= 0)
            col = write_back(t, k, space, col);
        col += t->act[space];
        k->row = r->row;
        k->open_key = r->rkey;
    }
    k->free = col + t->burst;
    data = col + t->cas;
    if (data < c->bus_free)
        data = c->bus_free;
    c->bus_free = data + t->burst;
    if (!write) {
        tm_stage_at(t, i, S_FILLED, data + t->burst);
        return;
    }
    r->next = k->wb_head;
    k->wb_head = i;
    if (row_first(t, 1, space, r->rkey) < 0)
        k->free = write_back(t, k, space, data + t->burst);
}

/* Issues what can go now, one command per memory cycle, and arms the next
   look (the command bus or the first bank that frees). */
static void schedule(Tm *t, TmCtrl *c)
{
    for (;;) {
        int writes, best_hit = 0, best_sp = 0;
        int32_t best = -1, best_bank = -1;
        Tick soonest = TICK_NONE;
        update_mode(t, c);
        writes = c->draining ? c->wqueued > 0 : c->nread == 0;
        if (!(writes ? c->wqueued : c->nread))
            return;
        if (c->cmd_free > t->now) {
            arm(t, c, c->cmd_free);
            return;
        }
        for (int32_t b = 0; b < 2 * t->nbank; b++) {
            TmBank *k = &c->bank[b];
            int32_t i, head = writes ? k->wr_head : k->rd_head;
            int hit;
            if (head < 0)
                continue;
            if (k->free > t->now) {
                if (k->free < soonest)
                    soonest = k->free;
                continue;
            }
            i = bank_pick(t, k, writes, b >= t->nbank, &hit);
            if (best < 0 || hit > best_hit ||
                (hit == best_hit && t->rq[i].seq < t->rq[best].seq)) {
                best = i;
                best_hit = hit;
                best_bank = b;
                best_sp = b >= t->nbank;
            }
        }
        if (best < 0) {
            arm(t, c, soonest);
            return;
        }
        {
            TmBank *k = &c->bank[best_bank];
            q_take(t, k, writes, best);
            if (writes)
                c->wqueued--;
            else
                c->nread--;
            issue(t, c, k, best, best_sp);
        }
    }
}

void tm_mc_event(Tm *t, int32_t ci)
{
    TmCtrl *c = &t->ctrl[ci];
    if (c->sched != t->now)
        return;
    c->sched = TICK_NONE;
    schedule(t, c);
}

/* ---- arrivals -------------------------------------------------------------- */

static TmBank *bank_of(Tm *t, TmCtrl *c, TmReq *r)
{
    int32_t local = r->line / t->nctrl, col_row = local / t->row_lines;
    r->row = col_row / t->nbank;
    r->bank = (int32_t)(((int64_t)col_row + r->row) % t->nbank);
    r->rkey = col_row * t->nctrl + r->line % t->nctrl;
    assert(r->rkey < t->nkeys[r->space]);
    return &c->bank[(r->space == LIT_PM ? 0 : t->nbank) + r->bank];
}

/* Whether the write is acknowledged when written rather than accepted. */
static int ack_written(const TmReq *r)
{
    return r->kind != RQ_WB && r->space == LIT_PM && (r->flags & F_ACKNVM);
}

/* Into the WPQ. A write acknowledged now goes back to its sender, and an
   entry of its own (an RQ_WB, freed when written) stays queued. */
static void accept(Tm *t, TmCtrl *c, int32_t i)
{
    int32_t e = i;
    TmBank *k;
    if (t->rq[i].kind != RQ_WB && !ack_written(&t->rq[i])) {
        e = tm_req_new(t, RQ_WB, t->rq[i].space, t->rq[i].line, -1);
        t->rq[e].bytes = t->rq[i].bytes;
        t->rq[e].seq = t->rq[i].seq;
        tm_respond(t, i);
    }
    k = bank_of(t, c, &t->rq[e]);
    c->nwrite++;
    c->wqueued++;
    if (c->nwrite > t->out->wpq_peak)
        t->out->wpq_peak = c->nwrite;
    q_push(t, k, 1, e);
}

void tm_mc_arrive(Tm *t, int32_t i)
{
    TmReq *r = &t->rq[i];
    TmCtrl *c = &t->ctrl[r->line % t->nctrl];
    r->seq = c->arrivals++;
    if (r->kind == RQ_FILL) {
        TmBank *k = bank_of(t, c, r);
        q_push(t, k, 0, i);
        c->nread++;
    } else if (r->kind == RQ_DRAIN) {
        if (c->ndone == c->wr_in) {
            tm_respond(t, i);
            return;
        }
        r->wait = (int32_t)(c->wr_in - c->ndone);
        list_append(t, &c->drn_head, &c->drn_tail, i);
    } else {
        c->wr_in++;
        if (c->nwrite < t->wpq_cap && c->blk_head < 0)
            accept(t, c, i);
        else
            list_append(t, &c->blk_head, &c->blk_tail, i);
    }
    arm(t, c, t->now);
}

/* ---- completions ------------------------------------------------------------ */

void tm_mc_written(Tm *t, int32_t i)
{
    TmReq *r = &t->rq[i];
    TmCtrl *c = &t->ctrl[r->line % t->nctrl];
    int64_t seq = r->seq;
    int32_t prev = -1, d;
    assert(c->nwrite > 0 && c->ndone < c->wr_in);
    c->nwrite--;
    c->ndone++;
    if (r->space == LIT_PM) {
        t->out->nvm_writes++;
        t->out->nvm_bytes += r->bytes;
    }
    if (r->kind == RQ_WB)
        tm_req_free(t, i);
    else if (ack_written(r))
        tm_respond(t, i);
    /* A drain counts down the writes that arrived before it. */
    for (d = c->drn_head; d >= 0;) {
        int32_t next = t->rq[d].next;
        TmReq *x = &t->rq[d];
        assert(x->wait > 0);
        if (seq < x->seq && --x->wait == 0) {
            list_remove(t, &c->drn_head, &c->drn_tail, prev, d);
            tm_respond(t, d);
        } else {
            prev = d;
        }
        d = next;
    }
    if (c->blk_head >= 0) {
        int32_t b = c->blk_head;
        list_remove(t, &c->blk_head, &c->blk_tail, -1, b);
        accept(t, c, b);
    }
    arm(t, c, t->now);
}
