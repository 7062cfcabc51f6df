/*
 * red_access.c — which words a thread's instructions may touch, and what
 * a thread may do before another thread moves again (its footprint).
 * The layout of word ids and footprints is in reduce.h.
 *
 * VALUE SETS. A register's possible values are over-approximated per
 * thread, flow-insensitively: every register starts at {0}; each
 * instruction that defines it adds what it can produce (mov and
 * arithmetic over the operands' sets, special registers being constants
 * of the thread); a load or an atomic, or a set of more than VS_MAX
 * values, makes it unknown. An index through an unknown register may be
 * any word of its declaration. Iterating to a fixpoint terminates because
 * sets only grow and are capped.
 */
#include <stdlib.h>
#include <string.h>

#include "model/reduce/red_int.h"

#define VS_MAX 16

typedef struct {
    int top, n;
    int64_t v[VS_MAX];
} Vs;

static int vs_add(Vs *s, int64_t x)
{
    if (s->top)
        return 0;
    for (int i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return 0;
    if (s->n == VS_MAX) {
        s->top = 1;
        return 1;
    }
    s->v[s->n++] = x;
    return 1;
}

static int vs_merge(Vs *dst, const Vs *src)
{
    int changed = 0;
    if (dst->top)
        return 0;
    if (src->top) {
        dst->top = 1;
        return 1;
    }
    for (int i = 0; i < src->n; i++)
        changed |= vs_add(dst, src->v[i]);
    return changed;
}

static void opd_vals(const LitKernel *k, int32_t gtid, const Vs *regs,
                     const LitOperand *o, Vs *out)
{
    out->top = 0;
    out->n = 0;
    switch (o->kind) {
    case LIT_OPD_REG: *out = regs[o->reg]; break;
    case LIT_OPD_SREG: vs_add(out, mdl_special(k, gtid, o->reg)); break;
    case LIT_OPD_IMM: vs_add(out, o->imm); break;
    default: vs_add(out, 0); break;
    }
}

/* The values instruction `in` may give its destination register: what
   its arithmetic gives over its operands' sets; unknown for a load or an
   atomic. */
static void def_vals(const LitKernel *k, int32_t gtid, const Vs *regs,
                     const LitInstr *in, Vs *out)
{
    Vs a, b, c;
    out->top = 0;
    out->n = 0;
    if (!(lit_opflags(in->op) & LIT_OPF_ALU)) {
        out->top = 1;
        return;
    }
    opd_vals(k, gtid, regs, &in->a, &a);
    opd_vals(k, gtid, regs, &in->b, &b);
    opd_vals(k, gtid, regs, &in->c, &c);
    if (a.top || b.top || c.top || a.n * b.n * c.n > VS_MAX) {
        out->top = 1;
        return;
    }
    for (int i = 0; i < a.n; i++)
        for (int j = 0; j < b.n; j++)
            for (int l = 0; l < c.n; l++) {
                int64_t v;
                const char *why;
                if (!lit_alu(in, a.v[i], b.v[j], c.v[l], &v, &why))
                    vs_add(out, v);
            }
}

/* The pcs control may go to after instruction `in` at pc `at` (some may
   be past the end); returns how many. A false guard falls through. */
static int cfg_next(const LitInstr *in, int32_t at, int32_t next[2])
{
    unsigned f = lit_opflags(in->op);
    int n = 0;
    if ((f & LIT_OPF_ENDS) && !in->guard)
        return 0;
    if (f & LIT_OPF_BRANCH)
        next[n++] = in->target;
    if (!(f & LIT_OPF_BRANCH) || (f & LIT_OPF_COND) || in->guard)
        next[n++] = at + 1;
    return n;
}

/* Register bit sets of a kernel: RW words each. */
#define RW(nregs) (((size_t)(nregs) + 63) / 64)

static void bit_set(uint64_t *set, int r)
{
    set[r / 64] |= 1ull << (r % 64);
}

static int bit_has(const uint64_t *set, int r)
{
    return (int)(set[r / 64] >> (r % 64) & 1u);
}

/* The registers some instruction may read before any definition of them
   (a forward must-analysis of the defined registers; a guarded
   definition may not happen), as a bit set the caller frees; the others
   never show their initial 0. NULL when out of memory: assume all. */
static uint64_t *read_undefined(const LitBody *b, int nregs)
{
    size_t rw = RW(nregs) ? RW(nregs) : 1;
    uint64_t *in = base_malloc(((size_t)b->ninstr + 1) * rw * sizeof *in);
    uint64_t *out = base_malloc(rw * sizeof *out);
    uint64_t *bad = base_calloc(rw, sizeof *bad);
    int changed = 1;
    if (!in || !out || !bad) {
        base_free(in);
        base_free(out);
        base_free(bad);
        return NULL;
    }
    for (int32_t pc = 0; pc < b->ninstr; pc++)
        memset(in + (size_t)pc * rw, pc ? 0xFF : 0, rw * sizeof *in);
    while (changed) {
        changed = 0;
        for (int32_t pc = 0; pc < b->ninstr; pc++) {
            const LitInstr *ins = &b->code[pc];
            int32_t next[2];
            int nn = cfg_next(ins, pc, next);
            uint16_t set[LIT_MAX_VEC];
            int ns = ins->guard ? 0 : lit_instr_sets(ins, set);
            memcpy(out, in + (size_t)pc * rw, rw * sizeof *out);
            for (int k = 0; k < ns; k++)
                bit_set(out, set[k]);
            for (int k = 0; k < nn; k++) {
                uint64_t *to = in + (size_t)next[k] * rw;
                if (next[k] >= b->ninstr)
                    continue;
                for (size_t w = 0; w < rw; w++)
                    if ((to[w] & out[w]) != to[w]) {
                        to[w] &= out[w];
                        changed = 1;
                    }
            }
        }
    }
    for (int32_t pc = 0; pc < b->ninstr; pc++) {
        uint16_t regs[LIT_MAX_READS];
        int n = lit_instr_reads(&b->code[pc], regs);
        for (int i = 0; i < n; i++)
            if (!bit_has(in + (size_t)pc * rw, regs[i]))
                bit_set(bad, regs[i]);
    }
    base_free(in);
    base_free(out);
    return bad;
}

/* Every register's value set in thread gtid running body b (regs has
   k->nregs entries). */
static void thread_values(const LitKernel *k, int32_t gtid, const LitBody *b,
                          Vs *regs)
{
    int changed = 1;
    uint64_t *zero = read_undefined(b, k->nregs);
    for (int r = 0; r < k->nregs; r++) {
        regs[r].top = 0;
        regs[r].n = 0;
        if (!zero || bit_has(zero, r))
            vs_add(&regs[r], 0);
    }
    base_free(zero);
    while (changed) {
        changed = 0;
        for (int pc = 0; pc < b->ninstr; pc++) {
            Vs d;
            uint16_t set[LIT_MAX_VEC];
            int ns = lit_instr_sets(&b->code[pc], set);
            if (!ns)
                continue;
            def_vals(k, gtid, regs, &b->code[pc], &d);
            for (int j = 0; j < ns; j++)
                changed |= vs_merge(&regs[set[j]], &d);
        }
    }
}

/* The element value v of in's index (or address) register names (of a
   vector access, its element k): 0 with *loc and *idx, -1 when that
   value fails. */
static int elem_of(const LitProgram *p, const LitInstr *in, int64_t v, int k,
                   int32_t *loc, int64_t *idx)
{
    int64_t x = (int64_t)((uint64_t)v + (uint64_t)in->m.off);
    int bytes = lit_opflags(in->op) & LIT_OPF_FLUSH
                    ? 0 : lit_type_bits(in->ty) / 8;
    if (in->m.loc != LIT_MEM_ADDR) {
        *loc = in->m.loc;
        *idx = x;
        return x >= 0 && x < p->locs[in->m.loc].size ? 0 : -1;
    }
    x = (int64_t)((uint64_t)x + (uint64_t)k * (uint64_t)bytes);
    return lit_addr_resolve(p, in->m.aspace, x, bytes, loc, idx);
}

/* The values the index of in's memory operand may take (before the
   constant offset). */
static void index_vals(const LitKernel *k, int32_t gtid, const Vs *regs,
                       const LitInstr *in, Vs *idx)
{
    if (in->m.base.kind == LIT_OPD_NONE) {
        idx->top = 0;
        idx->n = 0;
        vs_add(idx, 0);
    } else {
        opd_vals(k, gtid, regs, &in->m.base, idx);
    }
}

int red_access_pm_reads(const Model *m, int32_t kernel, uint8_t *mark)
{
    const LitProgram *p = m->p;
    const LitKernel *k = &p->kernels[kernel];
    int64_t total = (int64_t)k->grid * k->block;
    Vs *regs = base_malloc(((size_t)k->nregs + 1) * sizeof *regs);
    if (!regs)
        return -1;
    for (int64_t g = 0; g < total; g++) {
        const LitBody *b;
        if (k->body_of[g] < 0)
            continue;
        b = &k->bodies[k->body_of[g]];
        thread_values(k, (int32_t)g, b, regs);
        for (int pc = 0; pc < b->ninstr; pc++) {
            const LitInstr *in = &b->code[pc];
            const LitLoc *l;
            Vs idx;
            if (!(lit_opflags(in->op) & LIT_OPF_READ))
                continue;
            index_vals(k, (int32_t)g, regs, in, &idx);
            if (idx.top && in->m.loc == LIT_MEM_ADDR) {
                memset(mark, 1, (size_t)p->pm_words);
                continue;
            }
            if (idx.top) {
                l = &p->locs[in->m.loc];
                if (l->space == LIT_PM)
                    memset(mark + l->addr, 1, (size_t)l->size);
                continue;
            }
            for (int v = 0; v < idx.n; v++)
                for (int e = 0; e < lit_instr_elems(in); e++) {
                    int32_t loc;
                    int64_t x;
                    if (!elem_of(p, in, idx.v[v], e, &loc, &x) &&
                        p->locs[loc].space == LIT_PM)
                        mark[p->locs[loc].addr + x] = 1;
                }
        }
    }
    base_free(regs);
    return 0;
}

uint32_t red_access_id(const Model *m, const MdlLaunch *L, int i, int space,
                       int32_t word)
{
    const LitProgram *p = m->p;
    switch (space) {
    case LIT_PM:
        return (uint32_t)word;
    case LIT_DRAM:
        return (uint32_t)p->pm_words + (uint32_t)word;
    default:
        return (uint32_t)p->pm_words + (uint32_t)p->dram_words +
               (uint32_t)L->cta[i] * (uint32_t)p->shared_words +
               (uint32_t)word;
    }
}

int red_access_has(const uint32_t *iv, uint32_t n, uint32_t id)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (iv[2 * mid + 1] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && iv[2 * lo] <= id;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_iv(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : cmp_u32(x + 1, y + 1);
}

/* Sorts and merges n intervals in place; returns how many remain. */
static uint32_t iv_norm(uint32_t *iv, uint32_t n)
{
    uint32_t k = 0;
    if (!n)
        return 0;
    qsort(iv, n, 2 * sizeof *iv, cmp_iv);
    for (uint32_t i = 1; i < n; i++) {
        if (iv[2 * i] <= iv[2 * k + 1] + 1) {
            if (iv[2 * i + 1] > iv[2 * k + 1])
                iv[2 * k + 1] = iv[2 * i + 1];
        } else {
            k++;
            iv[2 * k] = iv[2 * i];
            iv[2 * k + 1] = iv[2 * i + 1];
        }
    }
    return k + 1;
}

static int launch_part(const Model *m, const MdlLaunch *L, int32_t *idx)
{
    for (int part = 0; part < 2; part++) {
        int32_t n = m->nlaunch[part] ? m->nlaunch[part] : 1;
        if (L >= m->launch[part] && L < m->launch[part] + n) {
            *idx = (int32_t)(L - m->launch[part]);
            return part;
        }
    }
    return -1;
}

/* Whether interval [lo, hi] of word ids holds a PM word whose writes may
   change the crash images (MdlOps.keeps). */
static int keeps_any(const Model *m, uint32_t lo, uint32_t hi)
{
    for (uint32_t w = lo; w <= hi && w < (uint32_t)m->p->pm_words; w++)
        if (m->ops->keeps(m, (int32_t)w))
            return 1;
    return 0;
}

/* None of these adds crash images (red_por.c, CLASSES): requests, fences
   and pcommit counts are not part of them, and a settle only completes
   what hardware events could. A write or a flush acts on its line; a
   request for every dirty line, and a collective settle (its release
   writes back the group's lines), on every line; a fence or a
   thread-local settle, with a durable WPQ, on the lines the thread may
   have written or requested (lines persist independently), and with a
   volatile WPQ on every line (the queues order them); a count on every
   line with a volatile WPQ, on none with a durable one (nothing is ever
   queued). */
unsigned red_access_hier(const Model *m, int op)
{
    const MdlHwRule *r = &m->hw[op];
    int durable = m->red->durable;
    if (r->write || r->request == MDL_HW_RQ_LINE)
        return FP_LINE;
    if (r->request == MDL_HW_RQ_DIRTY ||
        (r->settle && mdl_policy_collective(m->pol, op)))
        return FP_HIER_ALL;
    if (r->fence || r->settle)
        return durable ? FP_SETTLE : FP_HIER_ALL;
    if (r->count)
        return durable ? 0 : FP_HIER_ALL;
    return 0;
}

/* Whether some thread of kernel k may arrive at a collective pbar. */
static int has_collective(const Model *m, const LitKernel *k)
{
    for (int b = 0; b < k->nbodies; b++)
        for (int pc = 0; pc < k->bodies[b].ninstr; pc++)
            if (mdl_policy_collective(m->pol, k->bodies[b].code[pc].op))
                return 1;
    return 0;
}

/* Flags of one instruction (FP_*), apart from its memory accesses. */
static unsigned instr_flags(const Model *m, const LitKernel *k,
                            const LitBody *b, int pc)
{
    const LitInstr *in = &b->code[pc];
    unsigned f = 0, of = lit_opflags(in->op);
    int coll = mdl_policy_collective(m->pol, in->op);
    if ((of & LIT_OPF_BARRIER) || coll)
        f |= of & LIT_OPF_GRID ? FP_WAIT_GRID : FP_WAIT_CTA;
    if (coll)
        f |= of & LIT_OPF_GRID ? FP_PBAR_GRID : FP_PBAR_CTA;
    f |= red_access_hier(m, in->op);
    if (of & LIT_OPF_ENDS)
        f |= FP_ENDS;
    else if (!(f & (FP_WAIT_CTA | FP_WAIT_GRID)) &&
             ((in->op != LIT_BRA && pc + 1 >= b->ninstr) ||
              ((of & LIT_OPF_BRANCH) && in->target >= b->ninstr)))
        f |= FP_ENDS;
    if ((f & FP_ENDS) && m->red->coll[k - m->p->kernels])
        f |= m->red->release;           /* may complete a collective pbar */
    return f;
}

/* Largest increment of a growing counter: wrapping around then takes 2^32
   passes, more states than an exploration can number. */
#define STEP_MAX ((int64_t)1 << 32)

/* Whether register r only ever grows in body b (STICKY JUMPS). */
static int grows_only(const LitBody *b, int r)
{
    int defs = 0;
    for (int pc = 0; pc < b->ninstr; pc++) {
        const LitInstr *in = &b->code[pc];
        uint16_t set[LIT_MAX_VEC];
        int ns = lit_instr_sets(in, set), sets_r = 0;
        for (int j = 0; j < ns; j++)
            sets_r |= set[j] == r;
        if (!sets_r)
            continue;
        /* 2^32 passes to wrap: more states than an exploration numbers */
        if (in->guard || lit_type_bits(in->ty) < 32 || in->ty != in->sty ||
            (lit_type_bits(in->ty) == 32 && (in->b.imm < -1 || in->b.imm > 1)))
            return 0;
        if (in->a.kind != LIT_OPD_REG || in->a.reg != r ||
            in->b.kind != LIT_OPD_IMM ||
            !((in->op == LIT_ADD && in->b.imm > 0 &&
               in->b.imm <= STEP_MAX) ||
              (in->op == LIT_SUB && in->b.imm < 0 &&
               in->b.imm >= -STEP_MAX)))
            return 0;
        defs++;
    }
    return defs > 0;
}

/* Whether every path from pc t reaches pc b only through pc p. */
static int dominates(const LitBody *b, int32_t t, int32_t p, int32_t to,
                     int32_t *stack, uint8_t *seen)
{
    int32_t top = 0;
    if (t == p)
        return 1;
    memset(seen, 0, (size_t)b->ninstr + 1);
    stack[top++] = t;
    seen[t] = 1;
    while (top) {
        int32_t at = stack[--top], next[2], nn;
        const LitInstr *in = &b->code[at];
        if (at == to)
            return 0;
        nn = cfg_next(in, at, next);
        for (int k = 0; k < nn; k++)
            if (next[k] < b->ninstr && next[k] != p && !seen[next[k]]) {
                seen[next[k]] = 1;
                stack[top++] = next[k];
            }
    }
    return 1;
}

/* STICKY JUMPS of body b into sticky (per pc). */
static int find_sticky(const LitBody *b, uint8_t *sticky)
{
    int32_t *stack = base_malloc(((size_t)b->ninstr + 1) * sizeof *stack);
    uint8_t *seen = base_malloc((size_t)b->ninstr + 1);
    if (!stack || !seen) {
        base_free(stack);
        base_free(seen);
        return -1;
    }
    for (int32_t pc = 0; pc < b->ninstr; pc++) {
        const LitInstr *in = &b->code[pc];
        int bounded = 0;
        if (!(lit_opflags(in->op) & LIT_OPF_BRANCH) || in->target > pc)
            continue;
        for (int32_t p = in->target; p <= pc && !bounded; p++) {
            const LitInstr *d = &b->code[p];
            bounded = (d->op == LIT_ADD || d->op == LIT_SUB) &&
                      grows_only(b, d->rd) &&
                      dominates(b, in->target, p, pc, stack, seen);
        }
        sticky[pc] = (uint8_t)!bounded;
    }
    base_free(stack);
    base_free(seen);
    return 0;
}

/* Appends to iv (cnt intervals) the kept lines of the PM words of access
   a: those the model keeps state for (Model.kept); -1 out of memory. */
static int add_lines(const Model *m, const MdlSlotRed *sr, const MdlAcc *a,
                     uint32_t **iv, size_t *cap, uint32_t *cnt)
{
    const int32_t *line = m->p->pm_line;
    for (uint32_t q = 0; q < a->n; q++) {
        uint32_t lo = sr->pool[2 * (a->first + q)],
                 hi = sr->pool[2 * (a->first + q) + 1];
        if (lo >= (uint32_t)m->p->pm_words)
            continue;                   /* not PM */
        if (hi >= (uint32_t)m->p->pm_words)
            hi = (uint32_t)m->p->pm_words - 1;
        for (uint32_t l = (uint32_t)line[lo]; l <= (uint32_t)line[hi]; l++) {
            if (!mdl_kept(m, l))
                continue;
            if (BASE_GROW(*iv, *cap, 2 * ((size_t)*cnt + 1)))
                return -1;
            (*iv)[2 * *cnt] = (*iv)[2 * *cnt + 1] = l;
            (*cnt)++;
        }
    }
    return 0;
}

/* The lines every PM write and flush of the body acts on (sr->lines),
   using buf (capacity cap) as scratch; every line when the body requests
   a write-back of every dirty line (l2wb). None when no rule of the model
   acts on lines. */
static int body_lines(Model *m, const LitBody *b, MdlSlotRed *sr,
                      uint32_t **buf, size_t *cap)
{
    uint32_t n = 0;
    for (int pc = 0; pc < b->ninstr; pc++) {
        const MdlAcc *a = &sr->acc[pc];
        if (m->hw[b->code[pc].op].request == MDL_HW_RQ_DIRTY &&
            m->p->pm_words > 0) {
            if (BASE_GROW(*buf, *cap, 2 * ((size_t)n + 1)))
                return -1;
            (*buf)[2 * n] = 0;
            (*buf)[2 * n + 1] = (uint32_t)m->p->pm_lines - 1;
            n++;
        }
        if ((a->flags & FP_LINE) && add_lines(m, sr, a, buf, cap, &n))
            return -1;
    }
    n = iv_norm(*buf, n);
    sr->lines = base_arena_alloc(m->arena, (2 * (size_t)n + 1) *
                                          sizeof *sr->lines);
    if (!sr->lines)
        return -1;
    for (uint32_t q = 0; q < 2 * n; q++)
        sr->lines[q] = (*buf)[q];
    sr->nlines = n;
    return 0;
}

/* The static accesses of every instruction of slot i. */
static int slot_accesses(Model *m, const MdlLaunch *L, int i, MdlSlotRed *sr)
{
    const LitProgram *p = m->p;
    const LitKernel *k = &p->kernels[L->kernel];
    const LitBody *b = &k->bodies[L->body[i]];
    Vs *regs = base_malloc(((size_t)k->nregs + 1) * sizeof *regs);
    uint32_t *pool = NULL, npool = 0;
    size_t cap = 0;
    if (!regs)
        return -1;
    thread_values(k, L->gtid[i], b, regs);
    sr->acc = base_arena_alloc(m->arena, ((size_t)b->ninstr + 1) *
                                        sizeof *sr->acc);
    sr->sticky = base_arena_alloc(m->arena, (size_t)b->ninstr + 1);
    if (!sr->acc || !sr->sticky || find_sticky(b, sr->sticky))
        goto oom;
    for (int pc = 0; pc < b->ninstr; pc++) {
        const LitInstr *in = &b->code[pc];
        MdlAcc *a = &sr->acc[pc];
        a->flags = (uint16_t)instr_flags(m, k, b, pc);
        a->first = npool;
        if (!(lit_opflags(in->op) & (LIT_OPF_READ | LIT_OPF_WRITE)) &&
            !(a->flags & FP_LINE))
            continue;
        {
            Vs idx;
            uint32_t start = npool;
            index_vals(k, L->gtid[i], regs, in, &idx);
            a->rw = (uint8_t)((lit_opflags(in->op) & LIT_OPF_READ
                                   ? MDL_I_READ : 0) |
                              (lit_opflags(in->op) & LIT_OPF_WRITE
                                   ? MDL_I_WRITE : 0));
            if (BASE_GROW(pool, cap, 2 * ((size_t)npool +
                                         (idx.top ? 1 : (size_t)idx.n *
                                                        LIT_MAX_VEC))))
                goto oom;
            if (idx.top && in->m.loc == LIT_MEM_ADDR) {
                pool[2 * npool] = 0;    /* any word of any space */
                pool[2 * npool + 1] = red_access_id(m, L, L->nthreads - 1,
                                                    LIT_SHARED,
                                                    p->shared_words) - 1;
                npool += pool[2 * npool + 1] != UINT32_MAX;
            } else if (idx.top) {
                const LitLoc *l = &p->locs[in->m.loc];
                pool[2 * npool] = red_access_id(m, L, i, l->space, l->addr);
                pool[2 * npool + 1] = pool[2 * npool] + (uint32_t)l->size - 1;
                npool++;
            } else {
                for (int v = 0; v < idx.n; v++)
                    for (int e = 0; e < lit_instr_elems(in); e++) {
                        int32_t loc;
                        int64_t x;
                        if (elem_of(p, in, idx.v[v], e, &loc, &x))
                            continue;   /* that element fails: no access */
                        pool[2 * npool] = red_access_id(
                            m, L, i, p->locs[loc].space,
                            p->locs[loc].addr + (int32_t)x);
                        pool[2 * npool + 1] = pool[2 * npool];
                        npool++;
                    }
            }
            npool = start + iv_norm(pool + 2 * start, npool - start);
            a->n = (uint16_t)(npool - start);
            assert(npool - start < 65536);
            if (a->rw & MDL_I_WRITE)
                for (uint32_t j = start; j < npool; j++)
                    if (keeps_any(m, pool[2 * j], pool[2 * j + 1]))
                        a->flags |= FP_GROW |
                                    (m->hw[in->op].write == MDL_HW_WT
                                         ? FP_WT : 0);
        }
        if ((a->flags & FP_ENDS) &&
            ((a->rw & MDL_I_WRITE) ||
             (a->flags & (FP_GROW | FP_LINE | FP_SETTLE | FP_HIER_ALL))))
            a->flags |= FP_ENDS_DIRTY;
    }
    sr->pool = base_arena_alloc(m->arena, (2 * (size_t)npool + 1) *
                                         sizeof *sr->pool);
    if (!sr->pool)
        goto oom;
    for (uint32_t j = 0; j < 2 * npool; j++)
        sr->pool[j] = pool[j];
    if (body_lines(m, b, sr, &pool, &cap))
        goto oom;
    sr->foot[0] = base_arena_alloc(m->arena, ((size_t)b->ninstr + 1) *
                                            sizeof *sr->foot[0]);
    sr->foot[1] = base_arena_alloc(m->arena, ((size_t)b->ninstr + 1) *
                                            sizeof *sr->foot[1]);
    base_free(pool);
    base_free(regs);
    if (!sr->foot[0] || !sr->foot[1]) {
        sr->acc = NULL;
        return -1;
    }
    return 0;
oom:
    sr->acc = NULL;
    base_free(pool);
    base_free(regs);
    return -1;
}

static MdlSlotRed *slot_red(Model *m, const MdlLaunch *L, int j)
{
    int32_t idx;
    int part = launch_part(m, L, &idx);
    MdlSlotRed **arr;
    if (part < 0 || L->kernel < 0 || L->nthreads > RED_MAX_THREADS)
        return NULL;
    arr = &m->red->slots[part][idx];
    if (!*arr) {
        *arr = base_arena_alloc(m->arena, ((size_t)L->nthreads + 1) *
                                         sizeof **arr);
        if (!*arr)
            return NULL;
    }
    if (!(*arr)[j].acc && slot_accesses(m, L, j, &(*arr)[j]))
        return NULL;
    return &(*arr)[j];
}

/* Computes the footprint of slot j from pc, variant v. */
static MdlFoot *foot_build(Model *m, const MdlLaunch *L, int j, uint32_t pc,
                           int v, const MdlSlotRed *sr)
{
    const LitBody *b = &m->p->kernels[L->kernel].bodies[L->body[j]];
    unsigned stop = v ? FP_WAIT_GRID : FP_WAIT_CTA | FP_WAIT_GRID;
    int32_t n = b->ninstr, *stack = base_malloc(((size_t)n + 1) * sizeof *stack);
    uint8_t *seen = base_calloc((size_t)n + 1, 1);
    uint32_t *iv[3] = {NULL, NULL, NULL}, cnt[3] = {0, 0, 0};
    size_t cap[3] = {0, 0, 0};
    int32_t top = 0;
    MdlFoot *f = base_arena_alloc(m->arena, sizeof *f);
    if (!stack || !seen || !f)
        goto fail;
    stack[top++] = (int32_t)pc;
    seen[pc] = 1;
    while (top) {
        int32_t at = stack[--top], next[2], nn;
        const LitInstr *in = &b->code[at];
        const MdlAcc *a = &sr->acc[at];
        f->flags |= a->flags;
        for (int k = 0; k < 2; k++) {
            int want = k ? MDL_I_WRITE : MDL_I_READ;
            if (!(a->rw & want))
                continue;
            if (BASE_GROW(iv[k], cap[k], 2 * ((size_t)cnt[k] + a->n)))
                goto fail;
            for (uint32_t q = 0; q < 2u * a->n; q++)
                iv[k][2 * cnt[k] + q] = sr->pool[2 * a->first + q];
            cnt[k] += a->n;
        }
        if ((a->flags & FP_LINE) &&
            add_lines(m, sr, a, &iv[2], &cap[2], &cnt[2]))
            goto fail;
        if (a->flags & FP_SETTLE) {
            if (BASE_GROW(iv[2], cap[2], 2 * ((size_t)cnt[2] + sr->nlines)))
                goto fail;
            for (uint32_t q = 0; q < 2 * sr->nlines; q++)
                iv[2][2 * cnt[2] + q] = sr->lines[q];
            cnt[2] += sr->nlines;
        }
        if (a->flags & stop)
            continue;
        nn = cfg_next(in, at, next);
        for (int k = 0; k < nn; k++)
            if (next[k] < n && !seen[next[k]]) {
                seen[next[k]] = 1;
                stack[top++] = next[k];
            }
    }
    for (int k = 0; k < 3; k++) {
        uint32_t *dst;
        cnt[k] = iv_norm(iv[k], cnt[k]);
        dst = base_arena_alloc(m->arena, (2 * (size_t)cnt[k] + 1) *
                                        sizeof *dst);
        if (!dst)
            goto fail;
        for (uint32_t q = 0; q < 2 * cnt[k]; q++)
            dst[q] = iv[k][q];
        if (k == 2)
            f->h = dst;
        else if (k)
            f->w = dst;
        else
            f->r = dst;
    }
    f->nr = cnt[0];
    f->nw = cnt[1];
    f->nh = cnt[2];
    for (int k = 0; k < 3; k++)
        base_free(iv[k]);
    base_free(stack);
    base_free(seen);
    return f;
fail:
    for (int k = 0; k < 3; k++)
        base_free(iv[k]);
    base_free(stack);
    base_free(seen);
    return NULL;
}

const MdlFoot *red_access_foot(Model *m, const MdlLaunch *L, int j,
                               uint32_t pc, int v)
{
    MdlSlotRed *sr = slot_red(m, L, j);
    const LitBody *b;
    if (!sr)
        return NULL;
    b = &m->p->kernels[L->kernel].bodies[L->body[j]];
    assert(pc < (uint32_t)b->ninstr);
    if (!sr->foot[v][pc])
        sr->foot[v][pc] = foot_build(m, L, j, pc, v, sr);
    return sr->foot[v][pc];
}

int red_access_meet(const uint32_t *a, uint32_t na, const uint32_t *b,
                    uint32_t nb)
{
    uint32_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (a[2 * i + 1] < b[2 * j])
            i++;
        else if (b[2 * j + 1] < a[2 * i])
            j++;
        else
            return 1;
    }
    return 0;
}

const uint32_t *red_access_lines(Model *m, const MdlLaunch *L, int j,
                                 uint32_t *n)
{
    MdlSlotRed *sr = slot_red(m, L, j);
    if (!sr)
        return NULL;
    *n = sr->nlines;
    return sr->lines;
}

int red_access_sticky(Model *m, const MdlLaunch *L, int j, uint32_t pc)
{
    MdlSlotRed *sr = slot_red(m, L, j);
    return !sr || sr->sticky[pc];
}

int red_access_setup(Model *m)
{
    m->red = base_arena_alloc(m->arena, sizeof *m->red);
    if (!m->red)
        return -1;
    m->red->durable = m->p->config.val[LIT_CFG_WPQ] == 0;
    for (int op = 0; op < LIT_NOPCODES; op++)
        if (mdl_policy_collective(m->pol, op))
            m->red->release |= red_access_hier(m, op);
    return 0;
}

int red_access_collective(const Model *m, const MdlLaunch *L)
{
    return L->kernel >= 0 && m->red->coll[L->kernel];
}

int red_access_launches(Model *m)
{
    m->red->coll = base_arena_alloc(m->arena, (size_t)m->p->nkernels + 1);
    if (!m->red->coll)
        return -1;
    for (int k = 0; k < 2; k++) {
        m->red->ev[k].cap = m->max_words;
        m->red->ev[k].w = base_arena_alloc(m->arena, (size_t)m->max_words *
                                                    sizeof(uint64_t));
        if (!m->red->ev[k].w)
            return -1;
    }
    for (int k = 0; k < m->p->nkernels; k++)
        m->red->coll[k] = (uint8_t)has_collective(m, &m->p->kernels[k]);
    for (int part = 0; part < 2; part++) {
        m->red->slots[part] = base_arena_alloc(
            m->arena, ((size_t)(m->nlaunch[part] ? m->nlaunch[part] : 1) + 1) *
                          sizeof *m->red->slots[part]);
        if (!m->red->slots[part])
            return -1;
    }
    return 0;
}
