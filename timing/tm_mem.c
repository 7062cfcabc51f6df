/*
 * tm_mem.c — a request's way from an SM through the crossbar to its L2
 * partition, from there to its memory controller (tm_mc.c), and its
 * acknowledgement or data back to the SM.
 *
 * Line L of a space lives in partition L mod partitions and controller
 * L mod controllers (DESIGN section 2, Layout). Partition p sits next to
 * controller p mod controllers, so only SM <-> partition traffic crosses
 * the crossbar.
 *
 * Paths (every arrow through a FCFS server, section "Parameters" of
 * specs/timing.md gives the numbers):
 *   SM LSU -> crossbar -> partition input port -> L2 tag port -> L2 done
 *   L2 done -> controller front end -> read queue / WPQ -> bank (tm_mc.c)
 *   -> crossbar -> SM input port -> done
 * L2 is write-back, write-allocate without fetch (a store miss allocates
 * the line); loads and atomics that miss fetch the line, and later
 * requests for a line being filled wait for that fill (one MSHR per line).
 * A miss in a set whose every way is being filled waits for the oldest of
 * those fills and tries again (a GPU's L2 stalls such a miss: a line must
 * be reserved before memory is asked); only a machine without L2 sends
 * requests past it to memory.
 *
 * pm_path = pcie (GPM's platform: PM in host memory, DDIO off): a PM
 * access leaves L2 for the PCIe link instead of a controller,
 *   L2 done -> PCIe link (FCFS, pcie_gbps) -> host PM (pcie_ns round trip)
 *   -> crossbar -> SM input port -> done
 * and a write is persistent when it is acknowledged. No controller, bank
 * or WPQ of the GPU sees it.
 */
#include <math.h>
#include <string.h>

#include "timing/timing_int.h"

static int32_t gid(const Tm *t, int space, int32_t line)
{
    return space == LIT_PM ? line : t->pm_lines + line;
}

void tm_mem_init(Tm *t)
{
    int64_t l1_lines = (int64_t)t->p->config.val[LIT_CFG_L1_KB] * 1024 /
                       t->line_bytes;
    int64_t l2_lines = (int64_t)t->p->config.val[LIT_CFG_L2_KB] * 1024 /
                       t->line_bytes / t->npart;
    t->sm = tm_alloc(t, (size_t)t->nsm * sizeof *t->sm);
    t->part = tm_alloc(t, (size_t)t->npart * sizeof *t->part);
    for (int32_t i = 0; i < t->nsm; i++)
        tm_cache_init(t, &t->sm[i].l1, l1_lines, TM_L1_WAYS);
    for (int32_t i = 0; i < t->npart; i++)
        tm_cache_init(t, &t->part[i].l2, l2_lines, TM_L2_WAYS);
    t->rqfree = -1;
}

int32_t tm_req_new(Tm *t, int kind, int space, int32_t line, int32_t sm)
{
    int32_t i = t->rqfree;
    TmReq *r;
    assert(kind >= RQ_LOAD && kind <= RQ_FILL && line >= 0 && sm < t->nsm);
    if (i >= 0) {
        t->rqfree = t->rq[i].next;
    } else {
        TM_GROW(t, t->rq, t->caprq, t->nrq + 1);
        i = (int32_t)t->nrq++;
    }
    r = &t->rq[i];
    memset(r, 0, sizeof *r);
    r->kind = (uint8_t)kind;
    r->space = (uint8_t)space;
    r->line = line;
    r->sm = sm;
    r->warp = r->batch = -1;
    r->reg = -1;
    r->next = r->waiters = r->way = r->bank = r->row = -1;
    return i;
}

void tm_req_free(Tm *t, int32_t i)
{
    t->rq[i].next = t->rqfree;
    t->rqfree = i;
}

/* Counts a request in its warp's and batch's books. */
static void req_attach(Tm *t, int32_t i)
{
    const TmReq *r = &t->rq[i];
    assert(r->warp < t->nwarp && r->batch < (int32_t)t->nb);
    assert(r->reg < 0 || (r->warp >= 0 && r->reg < t->k->nregs));
    if (r->warp >= 0) {
        TmWarp *w = &t->w[r->warp];
        t->live++;
        if (r->flags & F_WRITE)
            w->outstanding++;
        if (r->reg >= 0)
            w->reg_pending[r->reg]++;
    }
    if (r->batch >= 0)
        t->b[r->batch].outstanding++;
}

void tm_stage_at(Tm *t, int32_t i, int stage, Tick at)
{
    assert(i >= 0 && (size_t)i < t->nrq && stage >= S_PART &&
           stage <= S_DONE);
    t->rq[i].stage = (uint8_t)stage;
    tm_post(t, at, EV_REQ, i);
}

Tick tm_lsu(Tm *t, int32_t sm)
{
    TmSm *s = &t->sm[sm];
    Tick start = t->now > s->lsu_free ? t->now : s->lsu_free;
    s->lsu_free = start + 1;
    return start;
}

static void req_send(Tm *t, int32_t i, Tick depart)
{
    tm_stage_at(t, i, S_PART, depart + t->icnt_lat);
}

int32_t tm_mem_send(Tm *t, int kind, int space, int32_t line, int32_t sm,
                    int32_t warp, int32_t batch, int reg, unsigned flags,
                    int32_t bytes, Tick start)
{
    int32_t i = tm_req_new(t, kind, space, line, sm);
    TmReq *r = &t->rq[i];
    r->warp = warp;
    r->batch = batch;
    r->reg = reg;
    r->flags = (uint8_t)flags;
    r->bytes = bytes;
    req_attach(t, i);
    req_send(t, i, start + 1);
    return i;
}

/* ---- L1 ------------------------------------------------------------------- */

Tick tm_mem_load(Tm *t, int space, int32_t line, int32_t sm, int32_t warp,
                 int reg, Tick start)
{
    TmCache *c = &t->sm[sm].l1;
    int32_t tag = gid(t, space, line), set, i, r;
    if (c->ways) {
        set = line % c->sets;
        i = tm_cache_find(c, set, tag);
        if (i >= 0 && c->l[i].fill < 0) {
            tm_cache_touch(c, i);
            return start + TM_L1_LAT;
        }
        if (i >= 0) {                   /* merge with the fill in flight */
            int32_t f = c->l[i].fill;
            r = tm_req_new(t, RQ_MERGED, space, line, sm);
            t->rq[r].warp = warp;
            t->rq[r].reg = reg;
            req_attach(t, r);
            t->rq[r].next = t->rq[f].waiters;
            t->rq[f].waiters = r;
            return TICK_NONE;
        }
    }
    r = tm_mem_send(t, RQ_LOAD, space, line, sm, warp, -1, reg, 0, 0, start);
    if (c->ways) {
        set = line % c->sets;
        i = tm_cache_victim(c, set);
        if (i >= 0) {
            c->l[i].tag = tag;
            c->l[i].fill = r;
            tm_cache_touch(c, i);
            t->rq[r].way = i;
        }
    }
    return TICK_NONE;
}

void tm_l1_inval(Tm *t, int32_t sm, int space, int32_t line)
{
    TmCache *c = &t->sm[sm].l1;
    int32_t i;
    if (!c->ways)
        return;
    i = tm_cache_find(c, line % c->sets, gid(t, space, line));
    if (i >= 0) {
        c->l[i].tag = -1;
        c->l[i].fill = -1;
    }
}

/* A new launch starts with empty L1s (no fill is in flight then). */
void tm_l1_flush_all(Tm *t)
{
    for (int32_t s = 0; s < t->nsm; s++) {
        TmCache *c = &t->sm[s].l1;
        for (int64_t i = 0; i < (int64_t)c->sets * c->ways; i++) {
            c->l[i].tag = -1;
            c->l[i].fill = -1;
        }
    }
}

/* ---- L2 ------------------------------------------------------------------- */

static TmCache *l2_of(Tm *t, int32_t line)
{
    return &t->part[line % t->npart].l2;
}

/* The set of a line in its partition's cache c (lines interleave over
   the partitions first). */
static int32_t l2_set(const Tm *t, const TmCache *c, int32_t line)
{
    return (line / t->npart) % c->sets;
}

static int32_t l2_find(Tm *t, int space, int32_t line)
{
    TmCache *c = l2_of(t, line);
    if (!c->ways)
        return -1;
    return tm_cache_find(c, l2_set(t, c, line), gid(t, space, line));
}

int tm_l2_dirty(Tm *t, int32_t pmline)
{
    int32_t i = l2_find(t, LIT_PM, pmline);
    return i >= 0 && l2_of(t, pmline)->l[i].dirty;
}

int64_t tm_l2_dirty_pm(Tm *t)
{
    int64_t n = 0;
    for (int32_t p = 0; p < t->npart; p++) {
        const TmCache *c = &t->part[p].l2;
        for (int64_t i = 0; i < (int64_t)c->sets * c->ways; i++)
            n += c->l[i].tag >= 0 && c->l[i].tag < t->pm_lines &&
                 c->l[i].dirty;
    }
    return n;
}

static void to_mc(Tm *t, int32_t i, Tick at)
{
    tm_stage_at(t, i, S_MC, at);
}

/* Writes the line held in L2 entry idx of partition cache c back: a new
   request toward its controller, told to warp/batch of `like` if >= 0. */
static int32_t writeback(Tm *t, const TmCache *c, int32_t idx, int32_t like,
                         Tick at)
{
    int32_t tag = c->l[idx].tag, r;
    int space = tag < t->pm_lines ? LIT_PM : LIT_DRAM;
    int32_t line = space == LIT_PM ? tag : tag - t->pm_lines;
    t->out->l2_writebacks++;
    if (like < 0) {
        r = tm_req_new(t, RQ_WB, space, line, -1);
    } else {
        const TmReq *o = &t->rq[like];
        int32_t sm = o->sm, warp = o->warp, batch = o->batch;
        unsigned flags = o->flags & (F_WRITE | F_ACKNVM);
        r = tm_req_new(t, RQ_FLUSH, space, line, sm);
        t->rq[r].warp = warp;
        t->rq[r].batch = batch;
        t->rq[r].flags = (uint8_t)flags;
        req_attach(t, r);
    }
    t->rq[r].bytes = t->line_bytes;
    to_mc(t, r, at);
    return r;
}

/* A line for (space, line) in its partition: a victim is chosen and, if
   dirty, written back. -1 when every candidate is being filled. */
static int32_t l2_alloc(Tm *t, int space, int32_t line)
{
    TmCache *c = l2_of(t, line);
    int32_t i;
    if (!c->ways)
        return -1;
    i = tm_cache_victim(c, l2_set(t, c, line));
    if (i < 0)
        return -1;
    if (c->l[i].tag >= 0 && c->l[i].dirty)
        writeback(t, c, i, -1, t->now);
    c->l[i].tag = gid(t, space, line);
    c->l[i].dirty = 0;
    c->l[i].fill = -1;
    tm_cache_touch(c, i);
    return i;
}

static int32_t resp_flits(const Tm *t, const TmReq *r)
{
    switch (r->kind) {
    case RQ_LOAD: return 1 + (t->line_bytes + TM_FLIT - 1) / TM_FLIT;
    case RQ_ATOM: return 2;
    default: return 1;
    }
}

static int32_t req_flits(const TmReq *r)
{
    switch (r->kind) {
    case RQ_STORE: case RQ_WT: return 1 + (r->bytes + TM_FLIT - 1) / TM_FLIT;
    case RQ_ATOM: return 2;
    default: return 1;
    }
}

void tm_respond(Tm *t, int32_t i)
{
    tm_stage_at(t, i, S_SM, t->now + t->icnt_lat);
}

/* Without an L2, stores and atomics go to memory directly. */
static void bypass(Tm *t, int32_t i)
{
    const TmReq *r = &t->rq[i];
    assert(!l2_of(t, r->line)->ways);
    int32_t wb = tm_req_new(t, RQ_WB, r->space, r->line, -1);
    t->rq[wb].bytes = t->rq[i].bytes ? t->rq[i].bytes : 8;
    to_mc(t, wb, t->now);
}

/* An atomic performs at L2 entry idx (or without a line). */
static void atom_apply(Tm *t, int32_t i, int32_t idx)
{
    TmReq *r = &t->rq[i];
    TmCache *c = l2_of(t, r->line);
    int through = r->flags & F_THROUGH;
    if (idx >= 0 && !through)
        c->l[idx].dirty = 1;
    else if (idx < 0 && !through)
        bypass(t, i);
    r = &t->rq[i];
    if (through) {
        r->bytes = 8;
        to_mc(t, i, t->now);
    } else {
        tm_respond(t, i);
    }
}

static void start_fill(Tm *t, int32_t i, int32_t idx)
{
    int32_t f = tm_req_new(t, RQ_FILL, t->rq[i].space, t->rq[i].line, -1);
    t->rq[f].way = idx;
    t->rq[f].waiters = i;
    t->rq[i].next = -1;
    if (idx >= 0)
        l2_of(t, t->rq[i].line)->l[idx].fill = f;
    to_mc(t, f, t->now);
}

/* Reverses a waiter chain (pushed at its head) into arrival order. */
static int32_t chain_fifo(Tm *t, int32_t head)
{
    int32_t prev = -1;
    while (head >= 0) {
        int32_t next = t->rq[head].next;
        t->rq[head].next = prev;
        prev = head;
        head = next;
    }
    return prev;
}

/* Request i found every way of its set being filled: it waits for the
   fill that started first (the least recently allocated) and is retried
   when that fill is done. */
static void wait_way(Tm *t, int32_t i)
{
    TmCache *c = l2_of(t, t->rq[i].line);
    int32_t base = l2_set(t, c, t->rq[i].line) * c->ways, old = base;
    TmReq *f;
    for (int32_t k = base; k < base + c->ways; k++) {
        assert(c->l[k].tag >= 0 && c->l[k].fill >= 0);
        if (c->l[k].lru < c->l[old].lru)
            old = k;
    }
    f = &t->rq[c->l[old].fill];
    assert(f->kind == RQ_FILL && f->way == old);
    t->rq[i].flags |= F_WAYWAIT;
    t->rq[i].next = f->waiters;
    f->waiters = i;
}

static void l2_read(Tm *t, int32_t i)
{
    TmReq *r = &t->rq[i];
    TmCache *c = l2_of(t, r->line);
    int32_t idx = l2_find(t, r->space, r->line);
    if (idx >= 0 && c->l[idx].fill >= 0) {
        TmReq *f = &t->rq[c->l[idx].fill];
        r->next = f->waiters;
        f->waiters = i;
        return;
    }
    if (idx >= 0) {
        tm_cache_touch(c, idx);
        if (r->kind == RQ_ATOM)
            atom_apply(t, i, idx);
        else
            tm_respond(t, i);
        return;
    }
    idx = l2_alloc(t, r->space, r->line);
    if (idx < 0 && c->ways)
        wait_way(t, i);
    else
        start_fill(t, i, idx);
}

static void l2wb_partition(Tm *t, int32_t i)
{
    TmPart *pt = &t->part[t->rq[i].line % t->npart];
    TmCache *c = &pt->l2;
    for (int64_t k = 0; k < (int64_t)c->sets * c->ways; k++) {
        Tick start;
        if (c->l[k].tag < 0 || !c->l[k].dirty)
            continue;
        c->l[k].dirty = 0;
        start = t->now > pt->tag_free ? t->now : pt->tag_free;
        pt->tag_free = start + 1;
        writeback(t, c, (int32_t)k, i, start + 1);
    }
    tm_respond(t, i);
}

/* A PM access over the PCIe link: its bytes cross the link in turn, the
   host answers a round trip later; a write then is persistent. */
static void over_pcie(Tm *t, int32_t i)
{
    TmReq *r = &t->rq[i];
    int32_t bytes = r->kind == RQ_LOAD ? t->line_bytes
                    : r->bytes ? r->bytes : 8;
    Tick start = t->now > t->pcie_free ? t->now : t->pcie_free;
    t->pcie_free = start + (Tick)ceil(bytes * t->pcie_cyc_byte - 1e-9);
    if (r->kind != RQ_LOAD) {
        t->out->nvm_writes++;
        t->out->nvm_bytes += bytes;
    }
    tm_stage_at(t, i, S_SM, t->pcie_free + t->pcie_lat);
}

static void l2_done(Tm *t, int32_t i)
{
    TmReq *r = &t->rq[i];
    TmCache *c = l2_of(t, r->line);
    int32_t idx;
    if (t->pcie && r->space == LIT_PM &&
        (r->kind == RQ_LOAD || r->kind == RQ_ATOM || r->kind == RQ_WT ||
         r->kind == RQ_STORE)) {
        over_pcie(t, i);
        return;
    }
    switch (r->kind) {
    case RQ_LOAD: case RQ_ATOM:
        l2_read(t, i);
        break;
    case RQ_STORE:
        idx = l2_find(t, r->space, r->line);
        if (idx < 0)
            idx = l2_alloc(t, r->space, r->line);
        if (idx < 0 && c->ways) {
            wait_way(t, i);
            break;
        }
        if (idx >= 0) {
            c->l[idx].dirty = 1;
            tm_cache_touch(c, idx);
        } else {
            bypass(t, i);
        }
        tm_respond(t, i);
        break;
    case RQ_WT:
        idx = l2_find(t, r->space, r->line);
        if (idx >= 0)
            tm_cache_touch(c, idx);
        to_mc(t, i, t->now);
        break;
    case RQ_FLUSH:
        idx = l2_find(t, r->space, r->line);
        if (idx >= 0 && c->l[idx].dirty) {
            c->l[idx].dirty = 0;
            t->out->l2_writebacks++;
            r->bytes = t->line_bytes;
            to_mc(t, i, t->now);
        } else {
            tm_respond(t, i);
        }
        if (idx >= 0 && (r->flags & F_INVAL) && c->l[idx].fill < 0)
            c->l[idx].tag = -1;
        break;
    case RQ_L2WB:
        l2wb_partition(t, i);
        break;
    default:                            /* RQ_DRAIN */
        to_mc(t, i, t->now);
        break;
    }
}

/* The line's own waiters are answered first: an atomic among them
   dirties way idx, which a retried miss may take next. */
static void filled(Tm *t, int32_t f)
{
    int32_t idx = t->rq[f].way, w, retry = -1, last = -1;
    TmCache *c = l2_of(t, t->rq[f].line);
    if (idx >= 0)
        c->l[idx].fill = -1;
    w = chain_fifo(t, t->rq[f].waiters);
    tm_req_free(t, f);
    while (w >= 0) {
        int32_t next = t->rq[w].next;
        if (t->rq[w].flags & F_WAYWAIT) {
            t->rq[w].flags &= (uint8_t)~F_WAYWAIT;
            t->rq[w].next = -1;
            if (last >= 0)
                t->rq[last].next = w;
            else
                retry = w;
            last = w;
        } else if (t->rq[w].kind == RQ_ATOM) {
            atom_apply(t, w, idx);
        } else {
            tm_respond(t, w);
        }
        w = next;
    }
    while (retry >= 0) {
        int32_t next = t->rq[retry].next;
        l2_done(t, retry);
        retry = next;
    }
}

/* ---- back at the SM ----------------------------------------------------------- */

static void complete(Tm *t, int32_t i)
{
    TmReq *r = &t->rq[i];
    int32_t merged = chain_fifo(t, r->waiters);
    if (r->kind == RQ_LOAD && r->way >= 0) {
        TmCache *c = &t->sm[r->sm].l1;
        if (c->l[r->way].fill == i)
            c->l[r->way].fill = -1;
    }
    if (r->warp >= 0)
        tm_warp_req_done(t, r);
    if (r->batch >= 0)
        tm_batch_dec(t, r->batch);
    tm_req_free(t, i);
    while (merged >= 0) {
        int32_t next = t->rq[merged].next;
        tm_warp_req_done(t, &t->rq[merged]);
        tm_req_free(t, merged);
        merged = next;
    }
}

void tm_req_event(Tm *t, int32_t i)
{
    TmReq *r = &t->rq[i];
    Tick start, *free_at;
    switch (r->stage) {
    case S_PART:
        free_at = &t->part[r->line % t->npart].port_free;
        start = t->now > *free_at ? t->now : *free_at;
        *free_at = start + tm_icnt(t, req_flits(r));
        tm_stage_at(t, i, S_L2, *free_at);
        break;
    case S_L2:
        free_at = &t->part[r->line % t->npart].tag_free;
        start = t->now > *free_at ? t->now : *free_at;
        *free_at = start + 1;
        tm_stage_at(t, i, S_L2DONE, start + TM_L2_LAT);
        break;
    case S_L2DONE:
        l2_done(t, i);
        break;
    case S_MC:
        free_at = &t->ctrl[r->line % t->nctrl].fe_free;
        start = t->now > *free_at ? t->now : *free_at;
        *free_at = start + t->mc_occ;
        tm_stage_at(t, i, S_MCDONE, start + t->mc_lat);
        break;
    case S_MCDONE:
        tm_mc_arrive(t, i);
        break;
    case S_FILLED:
        filled(t, i);
        break;
    case S_WRITTEN:
        tm_mc_written(t, i);
        break;
    case S_SM:
        free_at = &t->sm[r->sm].port_free;
        start = t->now > *free_at ? t->now : *free_at;
        *free_at = start + tm_icnt(t, resp_flits(t, r));
        tm_stage_at(t, i, S_DONE, *free_at);
        break;
    default:                            /* S_DONE */
        complete(t, i);
        break;
    }
}
