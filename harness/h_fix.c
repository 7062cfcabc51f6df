/*
 * h_fix.c — `gpmc fix FILE [--model M[,M…]] [--max-size K]
 * [--max-candidates N] [--timeout S] [--show N] [--apply N] [--db F]`
 * and run's exploration options: proposes edits of persistency and
 * synchronisation instructions that make every check of the test hold
 * under every chosen model, verified by full checks, cheapest first
 * (specs/fix.md).
 *
 * The search is breadth first by the number of changes. The changes tried
 * on a program come from its witness (a shortest failing execution with the
 * crash image it reaches): where the image holds a store that a store it
 * lacks (or that had not happened yet) should have preceded, an order is
 * missing between the two, so barriers, fences, flushes and write-throughs
 * go between the held store and its thread's previous store first, then
 * anywhere else the witness passes. A program of size k+1 is a program of
 * size k that still fails plus one change its own witness suggests. The
 * first size at which some program holds ends the search; its programs are
 * ranked by the cycles the timing model gives them (summed over the
 * models), then by their order of discovery.
 *
 * Exit 0 when a fix was found (or nothing fails), 1 when none was found
 * (the search space of that size exhausted or the budget spent: the report
 * says which), 2 on usage or input errors, 3 on internal errors.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/harness.h"

static const char *fix_help =
    "usage: gpmc fix FILE [--model M[,M...]|all] [--max-size K]\n"
    "                [--max-candidates N] [--timeout SECONDS] [--show N]\n"
    "                [--apply N] [--db F] [--progress] [-D NAME=V]\n"
    "                [--config KEY=V] [--crash-depth D] [--naive]\n"
    "                [--max-states N] [--max-steps N] [--threads N]\n"
    "Searches for the smallest edits of persistency instructions (pbar.wi,\n"
    "pbar.wg, pbar.kr, psync, sfence, clwb + sfence, pcommit, st -> st.wt,\n"
    "a wider barrier scope, a store moved after a barrier) and execution\n"
    "barriers (bar.sync, grid.sync) that make every check of FILE hold under\n"
    "every chosen model (default: all), guided by the failing witnesses.\n"
    "Each proposal is verified by a full check under every model and\n"
    "printed as a unified diff of the test (or of its .cu file) with its\n"
    "cost in cycles, cheapest first. --max-size bounds the edits of one\n"
    "fix (default 2), --max-candidates the programs checked (default\n"
    "2000), --timeout the whole search; --show prints the N cheapest fixes\n"
    "(default 5); --apply N writes fix N into the files; --db records the\n"
    "original's checks and every proposal (table proposals).\n";

/* ---- what a witness says ------------------------------------------------ */

typedef struct {
    int k, b, i;                        /* the instruction */
    int thread;
    int main;                           /* a main-program step */
    int pm_write;                       /* stores to PM */
    int64_t store;                      /* its pending store's number */
} Step;

typedef struct {
    Step *steps;
    int nsteps;
    int crash;                          /* steps before the first crash */
    int64_t *included, *excluded;
    int nincluded, nexcluded;
} Witness;

static void witness_free(Witness *w)
{
    base_free(w->steps);
    base_free(w->included);
    base_free(w->excluded);
    memset(w, 0, sizeof *w);
}

/* The instruction a witness step names: the kernel by name, the body of
   its thread, the instruction on that line with that text (or the first
   on the line: PTX steps name the PTX text). */
static int locate(const LitProgram *p, const char *kernel, int thread,
                  int line, const char *text, Step *s)
{
    for (int k = 0; k < p->nkernels; k++) {
        const LitKernel *kn = &p->kernels[k];
        if (strcmp(kn->name, kernel))
            continue;
        if (thread < 0 || thread >= kn->grid * kn->block)
            return -1;
        int b = kn->spmd ? 0 : kn->body_of[thread];
        if (b < 0 || b >= kn->nbodies)
            return -1;
        const LitBody *body = &kn->bodies[b];
        int first = -1;
        for (int i = 0; i < body->ninstr; i++) {
            char buf[256];
            if (body->code[i].pos.line != line)
                continue;
            if (first < 0)
                first = i;
            lit_format_instr(p, body, &body->code[i], buf, sizeof buf);
            if (text && !strcmp(buf, text)) {
                first = i;
                break;
            }
        }
        if (first < 0)
            return -1;
        s->k = k;
        s->b = b;
        s->i = first;
        return 0;
    }
    return -1;
}

static int64_t *ids(const HJson *arr, int *n)
{
    *n = 0;
    if (!arr || arr->type != HJ_ARRAY)
        return NULL;
    int64_t *v = base_calloc((size_t)arr->n + 1, sizeof *v);
    for (int32_t i = 0; v && i < arr->n; i++)
        if (arr->items[i].type == HJ_NUMBER)
            v[(*n)++] = arr->items[i].num;
    return v;
}

/* 0 with w filled; -1 when json is not a witness we can read (the search
   then has nothing to go on for this program). */
static int read_witness(const LitProgram *p, const char *json, Witness *w)
{
    memset(w, 0, sizeof *w);
    HJson *j = json ? h_json_parse(json) : NULL;
    const HJson *steps = h_json_get(j, "steps");
    if (!steps || steps->type != HJ_ARRAY) {
        h_json_free(j);
        return -1;
    }
    w->steps = base_calloc((size_t)steps->n + 1, sizeof *w->steps);
    if (!w->steps) {
        h_json_free(j);
        return -1;
    }
    const HJson *crash = h_json_get(j, "crash");
    int64_t after = h_json_int(crash, "after", -1);
    w->crash = -1;
    for (int32_t x = 0; x < steps->n; x++) {
        const HJson *st = &steps->items[x];
        const char *kernel = h_json_str(st, "kernel"), *phase;
        int thread = (int)h_json_int(st, "thread", -1);
        Step s = {0};
        int last = h_json_int(st, "id", -1) == after;
        if (!kernel || thread < 0 ||
            locate(p, kernel, thread, (int)h_json_int(st, "line", 0),
                   h_json_str(st, "instr"), &s)) {
            if (last)
                w->crash = w->nsteps;
            continue;
        }
        phase = h_json_str(st, "phase");
        s.thread = thread;
        s.main = phase && !strcmp(phase, "main");
        s.pm_write = h_json_str(st, "writes") && h_json_str(st, "space") &&
                     !strcmp(h_json_str(st, "space"), "pm");
        s.store = h_json_int(st, "store", 0);
        w->steps[w->nsteps++] = s;
        if (last)
            w->crash = w->nsteps;
    }
    if (w->crash < 0)
        w->crash = w->nsteps;
    w->included = ids(h_json_get(crash, "included"), &w->nincluded);
    w->excluded = ids(h_json_get(crash, "excluded"), &w->nexcluded);
    h_json_free(j);
    return 0;
}

static int has_id(const int64_t *v, int n, int64_t id)
{
    for (int i = 0; i < n; i++)
        if (v[i] == id)
            return 1;
    return 0;
}

/* ---- candidates --------------------------------------------------------- */

enum { K_INSERT, K_OPCODE, K_MOVE };

/* Cand.op of a flush of the store's word: with or without a fence. */
enum { CLWB_SFENCE = -1, CLWB_ALONE = -2 };

typedef struct {
    uint8_t kind, where, tier;
    int16_t op;                         /* inserted or new opcode, or
                                           CLWB_* */
    int k, b, i;
    int rank;                           /* witness step: later first */
    int order;                          /* of suggestion: ties of rank */
} Cand;

typedef struct {
    Cand *v;
    size_t n, cap;
} Cands;

/* The models the search runs under, as what their rules tell apart. */
typedef struct {
    int hw, scoped, buffered, nonstrict;
    int pbar_collective;                /* pbar.wg/kr synchronise */
    int volatile_wpq;
} Relevance;

static void relevance(const HOpts *o, const LitProgram *p, Relevance *r)
{
    memset(r, 0, sizeof *r);
    for (int m = 0; m < o->nmodels; m++) {
        int x = o->models[m];
        r->hw |= x == LIT_HW;
        r->scoped |= x == LIT_SCOPED || x == LIT_BSCOPED;
        r->buffered |= x == LIT_BEPOCH || x == LIT_BSCOPED;
        r->nonstrict |= x != LIT_STRICT;
    }
    r->pbar_collective = r->scoped || r->hw;
    r->volatile_wpq = p->config.val[LIT_CFG_WPQ] != 0;
}

static int push(Cands *c, Cand x)
{
    for (size_t i = 0; i < c->n; i++) {
        const Cand *y = &c->v[i];
        if (y->kind == x.kind && y->op == x.op && y->k == x.k &&
            y->b == x.b && y->i == x.i && y->where == x.where) {
            if (x.tier < y->tier || (x.tier == y->tier && x.rank < y->rank)) {
                x.order = y->order;     /* the better place in the order */
                c->v[i] = x;
            }
            return 0;
        }
    }
    if (c->n == c->cap && BASE_GROW(c->v, c->cap, c->n + 1))
        return -1;
    x.order = (int)c->n;
    c->v[c->n++] = x;
    return 0;
}

/* What may be inserted at a point of kernel k under these models, in the
   order tried. */
static int insertable(const Relevance *r, const LitKernel *kn, int *ops)
{
    int n = 0;
    if (kn->block > 1)
        ops[n++] = LIT_BAR_SYNC;
    if (r->nonstrict)
        ops[n++] = LIT_PBAR_WI;
    if (r->pbar_collective && kn->block > 1)
        ops[n++] = LIT_PBAR_WG;
    if (r->pbar_collective && kn->grid > 1)
        ops[n++] = LIT_PBAR_KR;
    if (r->buffered)
        ops[n++] = LIT_PSYNC;
    if (r->hw)
        ops[n++] = LIT_SFENCE;
    if (r->hw && r->volatile_wpq)
        ops[n++] = LIT_PCOMMIT;
    if (kn->grid > 1)
        ops[n++] = LIT_GRID_SYNC;
    return n;
}

/* The stronger opcode a replacement tries for op, or -1. */
static int stronger(const Relevance *r, const LitKernel *kn, int op,
                    int alt)
{
    switch (op) {
    case LIT_ST:
        return r->hw && !alt ? LIT_ST_WT : -1;
    case LIT_PBAR_WI:
        if (!alt)
            return r->pbar_collective && kn->block > 1 ? LIT_PBAR_WG : -1;
        return r->buffered ? LIT_PSYNC : -1;
    case LIT_PBAR_WG:
        return !alt && r->pbar_collective && kn->grid > 1 ? LIT_PBAR_KR : -1;
    case LIT_MEMBAR_CTA:
        return r->hw && !alt ? LIT_SFENCE : -1;
    default:
        return -1;
    }
}

/* A barrier whose scope or strength a change may raise. */
static int is_barrier_op(int op)
{
    return (lit_opflags(op) & LIT_OPF_PBAR) || op == LIT_MEMBAR_CTA;
}

static int orders(int op)
{
    return (lit_opflags(op) & (LIT_OPF_PBAR | LIT_OPF_BARRIER |
                               LIT_OPF_FENCE)) != 0;
}

/* The candidates a witness suggests for program p. */
static int suggest(const LitProgram *p, const Relevance *rel,
                   const Witness *w, Cands *out)
{
    int n = w->nsteps, held = -1;
    uint8_t *tier = base_malloc((size_t)n * 2 + 2);
    if (!tier)
        return -1;
    memset(tier, 1, (size_t)n * 2 + 2);  /* [2s]: before s, [2s+1]: after */
    /* The held store: the last PM store before the crash the image holds
       (or, where stores have no numbers, the last one). */
    for (int s = 0; s < w->crash && s < n; s++)
        if (w->steps[s].main && w->steps[s].pm_write &&
            (!w->nincluded || has_id(w->included, w->nincluded,
                                     w->steps[s].store)))
            held = s;
    if (held >= 0) {
        int t = w->steps[held].thread, s = held;
        tier[2 * s] = 0;
        while (--s >= 0) {
            if (w->steps[s].thread != t || !w->steps[s].main)
                continue;
            tier[2 * s + 1] = 0;
            if (w->steps[s].pm_write)
                break;
            tier[2 * s] = 0;
        }
    }
    for (int s = 0; s < w->crash && s < n; s++) {
        const Step *x = &w->steps[s];
        if (!x->main)
            continue;
        int lacked = x->pm_write && has_id(w->excluded, w->nexcluded,
                                           x->store);
        int last = 1;                   /* the thread's last step */
        for (int q = s + 1; q < w->crash && q < n && last; q++)
            last = !(w->steps[q].main && w->steps[q].thread == x->thread);
        if (lacked || (last && (held < 0 ||
                                x->thread != w->steps[held].thread)))
            tier[2 * s + 1] = 0;
        if (lacked)                     /* up to its thread's next store */
            for (int q = s + 1; q < w->crash && q < n; q++) {
                if (!w->steps[q].main || w->steps[q].thread != x->thread)
                    continue;
                tier[2 * q] = 0;
                if (w->steps[q].pm_write)
                    break;
                tier[2 * q + 1] = 0;
            }
    }
    int rc = 0;
    for (int s = n - 1; s >= 0 && !rc; s--) {
        const Step *x = &w->steps[s];
        const LitKernel *kn = &p->kernels[x->k];
        const LitInstr *in = &kn->bodies[x->b].code[x->i];
        int ops[16], nops = insertable(rel, kn, ops), rank = n - 1 - s;
        for (int where = 0; where < 2 && !rc; where++)
            for (int o = 0; o < nops && !rc; o++)
                rc = push(out, (Cand){K_INSERT, (uint8_t)where,
                                      tier[2 * s + where], (int16_t)ops[o],
                                      x->k, x->b, x->i, rank, 0});
        int flush = rel->hw && in->op == LIT_ST && x->pm_write;
        for (int fl = CLWB_SFENCE; flush && fl >= CLWB_ALONE && !rc; fl--)
            rc = push(out, (Cand){K_INSERT, LIT_EDIT_AFTER, tier[2 * s + 1],
                                  (int16_t)fl, x->k, x->b, x->i, rank, 0});
        for (int alt = 0; alt < 2 && !rc; alt++) {
            int op = stronger(rel, kn, in->op, alt);
            if (op >= 0)
                rc = push(out, (Cand){K_OPCODE, 0, tier[2 * s],
                                      (int16_t)op, x->k, x->b, x->i, rank, 0});
        }
        const LitBody *body = &kn->bodies[x->b];
        if (!rc && x->pm_write && x->i + 1 < body->ninstr &&
            orders(body->code[x->i + 1].op)) {
            int labelled = 0;
            for (int l = 0; l < body->nlabels; l++)
                labelled |= body->labels[l].index == x->i + 1;
            if (!labelled)
                rc = push(out, (Cand){K_MOVE, 0, tier[2 * s], -1, x->k,
                                      x->b, x->i, rank, 0});
        }
    }
    /* the barriers of the threads involved, executed or not, may widen */
    for (int s = 0; s < n && !rc; s++) {
        const Step *x = &w->steps[s];
        const LitKernel *kn = &p->kernels[x->k];
        const LitBody *body = &kn->bodies[x->b];
        for (int i = 0; i < body->ninstr && !rc; i++)
            for (int alt = 0; alt < 2 && !rc; alt++) {
                int op = stronger(rel, kn, body->code[i].op, alt);
                if (op >= 0 && is_barrier_op(body->code[i].op))
                    rc = push(out, (Cand){K_OPCODE, 0, 1, (int16_t)op, x->k,
                                          x->b, i, n, 0});
            }
    }
    base_free(tier);
    return rc;
}

/* ---- candidates as source edits ----------------------------------------- */

static int add_edit(HRChange *ch, int file, int rc, LitEdit *e)
{
    if (rc)
        return -1;
    if (ch->nedits == HR_MAX_EDITS) {
        lit_edit_free(e);
        return -1;
    }
    ch->edits[ch->nedits++] = (HREdit){file, *e};
    return 0;
}

static int collective(const Relevance *r, int op)
{
    unsigned f = lit_opflags(op);
    return (f & LIT_OPF_BARRIER) || ((f & LIT_OPF_SCOPED) &&
                                     r->pbar_collective);
}

/* Where a body of a per-thread kernel gets its copy of a collective
   barrier inserted at (b, i, where): at the end of the same segment
   (between the same two collective barriers), so that instances keep
   matching by count. -1: an empty body. */
static int segment_point(const Relevance *r, const LitKernel *kn, int b,
                         int i, int where, int bb, int *at, int *at_where)
{
    const LitBody *x = &kn->bodies[b], *y = &kn->bodies[bb];
    int seg = 0;
    for (int j = 0; j < i + (where == LIT_EDIT_AFTER) && j < x->ninstr; j++)
        seg += collective(r, x->code[j].op);
    for (int j = 0, c = 0; j < y->ninstr; j++)
        if (collective(r, y->code[j].op) && c++ == seg) {
            *at = j;
            *at_where = LIT_EDIT_BEFORE;
            return 0;
        }
    if (!y->ninstr)
        return -1;
    *at = y->ninstr - 1;
    *at_where = LIT_EDIT_AFTER;
    return 0;
}

/* "line 51 `add r0, r0, 1`", the line counted in the original file. */
static void where_text(const HRVariant *v, int file, const char *src,
                       size_t len, const LitInstr *in, char *buf, size_t n)
{
    char text[128];
    int32_t line = h_repair_line(v, file, in->pos.line);
    if (lit_edit_text(src, len, in->pos, text, sizeof text))
        snprintf(text, sizeof text, "?");
    if (line)
        snprintf(buf, n, "line %d `%s`", (int)line, text);
    else
        snprintf(buf, n, "the new `%s`", text);
}

static const char *const where_names[2] = {"before", "after"};

/* The litmus spelling of what an insertion adds. */
static int insert_text(const LitProgram *p, const LitBody *body,
                       const Cand *c, char (*ins)[128])
{
    if (c->op < 0) {                    /* clwb of the store's word */
        LitInstr fl = body->code[c->i];
        fl.op = LIT_CLWB;
        lit_format_instr(p, body, &fl, ins[0], sizeof ins[0]);
        snprintf(ins[1], sizeof ins[1], "sfence");
        return c->op == CLWB_SFENCE ? 2 : 1;
    }
    snprintf(ins[0], sizeof ins[0], "%s", lit_opinfo[c->op].name);
    if (c->op == LIT_PCOMMIT) {
        snprintf(ins[1], sizeof ins[1], "sfence");
        return 2;
    }
    return 1;
}

static int cuda_change(const HRepair *R, const HRVariant *v, int file,
                       const Cand *c, HRChange *ch)
{
    const LitKernel *kn = &v->p->kernels[c->k];
    const LitInstr *in = &kn->bodies[c->b].code[c->i];
    const char *src = v->text[file];
    size_t len = v->len[file];
    int32_t line = in->pos.line, orig = h_repair_line(v, file, line);
    const char *base = strrchr(R->path[file], '/');
    base = base ? base + 1 : R->path[file];
    LitEdit e;
    if (c->kind == K_INSERT) {
        const char *call = c->op >= 0 ? h_repair_cuda_call(c->op, 0) : NULL;
        char stmt[96];
        if (!call)
            return -1;
        snprintf(stmt, sizeof stmt, "%s();%s", call,
                 c->op == LIT_PCOMMIT ? " gpmc_sfence();" : "");
        if (add_edit(ch, file, lit_edit_cuda_insert(src, len, line, c->where,
                                                    stmt, &e), &e))
            return -1;
        snprintf(ch->desc, sizeof ch->desc, "insert `%s` %s %s:%d", stmt,
                 where_names[c->where], base, (int)orig);
        return 0;
    }
    if (c->kind != K_OPCODE)
        return -1;
    const char *to = h_repair_cuda_call(c->op, 0);
    for (int nth = 0; to; nth++) {
        const char *from = h_repair_cuda_call(in->op, nth);
        if (!from)
            return -1;
        if (!lit_edit_cuda_call(src, len, line, from, to, &e)) {
            add_edit(ch, file, 0, &e);
            snprintf(ch->desc, sizeof ch->desc, "`%s` -> `%s` at %s:%d",
                     from, to, base, (int)orig);
            return 0;
        }
    }
    return -1;
}

/* The change a candidate stands for, as edits of v's files. */
static int make_change(const HRepair *R, const HRVariant *v,
                       const Relevance *rel, const Cand *c, HRChange *ch)
{
    const LitProgram *p = v->p;
    const LitKernel *kn = &p->kernels[c->k];
    const LitBody *body = &kn->bodies[c->b];
    const LitInstr *in = &body->code[c->i];
    const char *src = v->text[0];
    size_t len = v->len[0];
    char at[192], ins[2][128];
    LitEdit e;
    memset(ch, 0, sizeof *ch);
    int file = h_repair_cuda_file(R, p, c->k, c->b);
    if (file)
        return cuda_change(R, v, file, c, ch);
    if (kn->from)                       /* a .ptx body: not edited */
        return -1;
    where_text(v, 0, src, len, in, at, sizeof at);
    if (c->kind == K_INSERT) {
        const char *list[2] = {ins[0], ins[1]};
        int n = insert_text(p, body, c, ins);
        if (add_edit(ch, 0, lit_edit_insert(src, len, in->pos, c->where,
                                            list, n, &e), &e))
            return -1;
        int group = !kn->spmd && c->op >= 0 && collective(rel, c->op);
        for (int bb = 0; group && bb < kn->nbodies; bb++) {
            int j, w;
            if (bb == c->b)
                continue;
            if (segment_point(rel, kn, c->b, c->i, c->where, bb, &j, &w) ||
                add_edit(ch, 0, lit_edit_insert(src, len,
                                                kn->bodies[bb].code[j].pos, w,
                                                list, n, &e), &e))
                return -1;
        }
        snprintf(ch->desc, sizeof ch->desc, "insert `%s%s%s` %s %s (kernel "
                 "%s%s)", ins[0], n > 1 ? "; " : "", n > 1 ? ins[1] : "",
                 where_names[c->where], at, kn->name,
                 group ? ", every thread body" : "");
        return 0;
    }
    if (c->kind == K_OPCODE) {
        int mb[256], mi[256];
        int n = h_repair_group(p, c->k, c->b, c->i, mb, mi, 256);
        for (int m = 0; m < n; m++)
            if (add_edit(ch, 0, lit_edit_opcode(src, len,
                                                kn->bodies[mb[m]]
                                                    .code[mi[m]].pos,
                                                lit_opinfo[c->op].name, &e),
                         &e))
                return -1;
        snprintf(ch->desc, sizeof ch->desc, "`%s` -> `%s` at %s (kernel "
                 "%s%s)", lit_opinfo[in->op].name, lit_opinfo[c->op].name, at,
                 kn->name, n > 1 ? ", every thread body" : "");
        return 0;
    }
    /* K_MOVE: the store after the barrier that follows it */
    char text[256], bar[192];
    const char *list[1] = {text};
    if (lit_edit_text(src, len, in->pos, text, sizeof text) ||
        add_edit(ch, 0, lit_edit_delete(src, len, in->pos, &e), &e) ||
        add_edit(ch, 0, lit_edit_insert(src, len, body->code[c->i + 1].pos,
                                        LIT_EDIT_AFTER, list, 1, &e), &e))
        return -1;
    where_text(v, 0, src, len, &body->code[c->i + 1], bar, sizeof bar);
    snprintf(ch->desc, sizeof ch->desc, "move %s after %s (kernel %s)", at,
             bar, kn->name);
    return 0;
}

/* ---- the search --------------------------------------------------------- */

/* Programs that fail, best first: more models hold, fewer checks fail,
   fewer bad states, older. */
static int cmp_parent(const void *a, const void *b)
{
    const HRVariant *x = *(HRVariant *const *)a, *y = *(HRVariant *const *)b;
    if (x->models_ok != y->models_ok)
        return y->models_ok - x->models_ok;
    if (x->nfail != y->nfail)
        return x->nfail - y->nfail;
    if (x->negative != y->negative)
        return x->negative < y->negative ? -1 : 1;
    return x->seq - y->seq;
}

/* Fixes: cheapest first, then smaller, then older. */
static int cmp_fix(const void *a, const void *b)
{
    const HRVariant *x = *(HRVariant *const *)a, *y = *(HRVariant *const *)b;
    if (x->total != y->total)
        return x->total < y->total ? -1 : 1;
    if (x->size != y->size)
        return x->size - y->size;
    return x->seq - y->seq;
}

static int cmp_cand(const void *a, const void *b)
{
    const Cand *x = a, *y = b;
    return x->rank != y->rank ? x->rank - y->rank : x->order - y->order;
}

/* Parents kept from one size for the next. */
#define MAX_PARENTS 256

typedef struct {
    HRepair *R;
    Relevance rel;
    HRVariant **fixes, **tried, **next;
    size_t nfixes, capfixes, ntried, captried, nnext, capnext;
    int size;                           /* the size being searched */
    int complete;                       /* that size fully searched */
    int dropped;                        /* parents left out */
} Search;

static int keep(HRVariant ***arr, size_t *n, size_t *cap, HRVariant *v)
{
    if (*n == *cap && BASE_GROW(*arr, *cap, *n + 1))
        return -1;
    (*arr)[(*n)++] = v;
    return 0;
}

/* The candidates of one parent, tier by tier (each sorted by rank). */
static int parent_cands(Search *S, HRVariant *v, Cands *c)
{
    Witness w;
    memset(c, 0, sizeof *c);
    if (read_witness(v->p, v->witness_json, &w))
        return 0;                       /* nothing to go on */
    int rc = suggest(v->p, &S->rel, &w, c);
    witness_free(&w);
    if (!rc && c->n)
        qsort(c->v, c->n, sizeof *c->v, cmp_cand);
    return rc;
}

/* One size: every candidate of every parent, the near ones (tier 0) of all
   parents before the others. */
static int search_size(Search *S, HRVariant **parents, size_t nparents)
{
    HRepair *R = S->R;
    Cands *cs = base_calloc(nparents + 1, sizeof *cs);
    int64_t total = 0;
    int rc = H_OK;
    if (!cs)
        return H_INTERNAL;
    for (size_t i = 0; i < nparents && !rc; i++) {
        if (h_repair_build(R, parents[i]) ||
            parent_cands(S, parents[i], &cs[i]))
            rc = H_INTERNAL;
        total += (int64_t)cs[i].n;
    }
    static char stage[32];
    snprintf(stage, sizeof stage, "size %d", S->size);
    h_repair_stage(R, stage, total);
    S->complete = 1;
    for (int tier = 0; tier < 2 && !rc; tier++)
        for (size_t i = 0; i < nparents && !rc; i++)
            for (size_t j = 0; j < cs[i].n && !rc; j++) {
                const Cand *c = &cs[i].v[j];
                HRChange ch;
                int dup;
                if (c->tier != tier)
                    continue;
                if (h_repair_exhausted(R)) {
                    S->complete = 0;
                    R->out_of_budget = 1;
                    break;
                }
                if (make_change(R, parents[i], &S->rel, c, &ch)) {
                    h_repair_change_free(&ch);
                    R->stage_done++;
                    continue;
                }
                HRVariant *v = h_repair_derive(R, parents[i], &ch, &dup);
                h_repair_change_free(&ch);
                if (!v) {
                    R->stage_done++;
                    continue;           /* a repeat, or does not apply */
                }
                if ((rc = h_repair_verify(R, v, 0)) ||
                    keep(&S->tried, &S->ntried, &S->captried, v)) {
                    rc = H_INTERNAL;
                    break;
                }
                if (v->state == HR_HOLDS)
                    rc = keep(&S->fixes, &S->nfixes, &S->capfixes, v)
                             ? H_INTERNAL : H_OK;
                else if (v->state == HR_FAILS && v->witness_json)
                    rc = keep(&S->next, &S->nnext, &S->capnext, v)
                             ? H_INTERNAL : H_OK;
                h_repair_release(v);
            }
    for (size_t i = 0; i < nparents; i++) {
        base_free(cs[i].v);
        h_repair_release(parents[i]);
    }
    base_free(cs);
    h_repair_stage(R, NULL, 0);
    return rc;
}

static int search(Search *S, int max_size)
{
    HRVariant *orig = S->R->orig;
    HRVariant **parents = &orig;
    size_t nparents = 1;
    HRVariant **owned = NULL;
    int rc = H_OK;
    for (S->size = 1; S->size <= max_size && !rc; S->size++) {
        S->nnext = 0;
        rc = search_size(S, parents, nparents);
        base_free(owned);
        owned = NULL;
        if (rc || S->nfixes || !S->complete || S->size == max_size ||
            !S->nnext)
            break;
        /* the next size grows from the best of those that still fail */
        qsort(S->next, S->nnext, sizeof *S->next, cmp_parent);
        if (S->nnext > MAX_PARENTS) {
            S->dropped = 1;
            S->nnext = MAX_PARENTS;
        }
        owned = parents = base_malloc((S->nnext + 1) * sizeof *parents);
        if (!owned)
            return H_INTERNAL;
        memcpy(parents, S->next, S->nnext * sizeof *parents);
        nparents = S->nnext;
    }
    base_free(owned);
    return rc;
}

/* ---- the report --------------------------------------------------------- */

static int report(const Search *S, int max_size, int show)
{
    const HRepair *R = S->R;
    const HRVariant *o = R->orig;
    const char *name = R->f->p->name;
    for (size_t i = 0; i < S->nfixes && (int)i < show; i++) {
        const HRVariant *v = S->fixes[i];
        BaseStr d = {0};
        printf("Fix %zu: %d change%s, cycles", i + 1, v->size,
               v->size == 1 ? "" : "s");
        h_repair_print_cycles(R, v);
        printf(" (total %lld, %+lld against the original)\n",
               (long long)v->total, (long long)(v->total - o->total));
        h_repair_print_indented(v->desc, "  ");
        if (h_repair_diff(R, v, &d)) {
            base_str_free(&d);
            fprintf(stderr, "gpmc fix: internal error: out of memory\n");
            return H_INTERNAL;
        }
        fputs(d.s ? d.s : "", stdout);
        base_str_free(&d);
    }
    if (S->nfixes > (size_t)show)
        printf("(%zu more fixes of size %d: --show %zu lists them)\n",
               S->nfixes - (size_t)show, S->fixes[0]->size, S->nfixes);
    for (size_t i = 0; i < S->nfixes; i++)
        printf("Fixed %s %zu %d %lld\n", name, i + 1, S->fixes[i]->size,
               (long long)S->fixes[i]->total);
    const char *why = R->deadline > 0 && R->tried < R->max_candidates
                          ? "--timeout" : "--max-candidates";
    int size = S->size > max_size ? max_size : S->size;
    if (S->nfixes && S->complete)
        printf("Search %s found %zu fix%s of size %d among %lld "
               "candidates\n", name, S->nfixes, S->nfixes == 1 ? "" : "es",
               size, (long long)R->tried);
    else if (S->nfixes)
        printf("Search %s found %zu fix%s of size %d among %lld candidates "
               "(%s reached before size %d was searched to the end)\n",
               name, S->nfixes, S->nfixes == 1 ? "" : "es", size,
               (long long)R->tried, why, size);
    else if (!S->complete)
        printf("Search %s incomplete: no fix found within %lld candidates "
               "(%s reached at size %d)\n", name, (long long)R->tried, why,
               size);
    else if (S->dropped)
        printf("Search %s incomplete: no fix of size %d or less found among "
               "%lld candidates (only the best %d programs of each size were "
               "extended)\n", name, size, (long long)R->tried, MAX_PARENTS);
    else
        printf("Search %s complete: no fix of size %d or less among the "
               "changes the witnesses suggest (%lld candidates)\n", name,
               size, (long long)R->tried);
    return H_OK;
}

/* The fixed file's `expect` lines are left as they were: where they
   expect the bug (No) under a model the fix was checked under, say so. */
static void stale_expectations(const HFile *f, const HOpts *o)
{
    BaseStr s = {0};
    for (int k = 0; k < f->p->nchecks; k++)
        for (int m = 0; m < o->nmodels; m++)
            if (f->p->checks[k].expect[o->models[m]] == 0)
                base_str_printf(&s, "%scheck %d %s", s.len ? ", " : "", k,
                                lit_model_names[o->models[m]]);
    if (s.len && !s.failed)
        fprintf(stderr, "gpmc fix: note: %s still expects No (%s), where "
                "every check now holds: update its expect lines\n", f->path,
                s.s);
    base_str_free(&s);
}

/* ---- the command -------------------------------------------------------- */

int h_cmd_fix(int argc, char **argv)
{
    int64_t max_size = 2, max_candidates = 2000, show = 5, apply = 0;
    const HROpt opts[] = {
        {"--max-size", &max_size, 1, 8, 0},
        {"--max-candidates", &max_candidates, 1, INT64_MAX, 0},
        {"--show", &show, 1, INT32_MAX, 0},
        {"--apply", &apply, 1, INT32_MAX, 0},
    };
    HOpts o;
    HFile f;
    HRepair R;
    Search S;
    int status = h_repair_args("fix", fix_help, argc, argv, opts, 4, &o, &f);
    if (status >= 0)
        return status;
    memset(&S, 0, sizeof S);
    if ((status = h_repair_begin(&R, "fix", &f, &o, max_candidates)))
        goto done;
    S.R = &R;
    relevance(&o, f.p, &S.rel);
    if (R.orig->state == HR_HOLDS) {
        printf("  every check holds: nothing to fix\nSearch %s complete: "
               "nothing to fix\n", f.p->name);
        status = H_OK;
        goto done;
    }
    printf("  fails: %s\n", R.orig->why);
    h_repair_print_indented(R.orig->witness, "    ");
    if (R.orig->state != HR_FAILS || !R.orig->witness_json) {
        printf("Search %s incomplete: no witness to start from (%s)\n",
               f.p->name, R.orig->state != HR_FAILS
                              ? "the check is incomplete: raise --max-states, "
                                "--max-steps or --timeout"
                              : "only `exists` claims fail, and no execution "
                                "shows where");
        status = H_FAIL;
        goto done;
    }
    if ((status = search(&S, (int)max_size)))
        goto done;
    if (S.nfixes)                       /* qsort wants an array */
        qsort(S.fixes, S.nfixes, sizeof *S.fixes, cmp_fix);
    if ((status = report(&S, (int)max_size, (int)show)))
        goto done;
    status = S.nfixes ? H_OK : H_FAIL;
    if (apply && (size_t)apply > S.nfixes) {
        fprintf(stderr, "gpmc fix: error: --apply %lld: %zu fix%s found\n",
                (long long)apply, S.nfixes, S.nfixes == 1 ? "" : "es");
        status = H_USAGE;
    } else if (apply) {
        if (!(status = h_repair_apply(&R, S.fixes[apply - 1]))) {
            fprintf(stderr, "gpmc fix: applied fix %lld to %s\n",
                    (long long)apply, f.path);
            stale_expectations(&f, &o);
        }
    }
    if (o.db && status != H_INTERNAL) {
        int *rank = base_calloc(S.ntried + 1, sizeof *rank);
        int rc = rank ? H_OK : H_INTERNAL;
        for (size_t i = 0; rank && i < S.ntried; i++) {
            rank[i] = -1;
            for (size_t j = 0; j < S.nfixes; j++)
                if (S.fixes[j] == S.tried[i])
                    rank[i] = (int)j + 1;
        }
        if (!rc)
            rc = h_repair_store(&R, argc, argv, S.tried, rank,
                                (int)S.ntried);
        base_free(rank);
        if (rc)
            status = rc;
    }
done:
    h_repair_variants_free(S.tried, S.ntried);
    base_free(S.fixes);
    base_free(S.next);
    h_repair_end(&R, &f, &o);
    return status;
}
