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
 * sets only grow and are capped: known sets grow to VS_MAX, then become
 * unknown with bases (below), whose bases grow to VS_MAX, then plain
 * unknown.
 *
 * PROVENANCE (MDL_CONFINE). An unknown value may keep BASES: the values it
 * was computed from by adding an unknown (`add`, `sub`, `mad`'s addend, a
 * 64-bit `mov`/`cvta` of one): HCL's `b->sig[lane]`, lane loaded, is sig's
 * address plus something. A PTX access through such a register is assumed
 * to stay in the locations its bases (plus the constant offset) fall in
 * (FP_CONF), where an unknown address would otherwise be any word of any
 * space. That is an ASSUMPTION, not a fact of the semantics (DESIGN
 * section 7 lets an access land on any element of any location), and it
 * is checked where it matters: every executed access of an FP_CONF
 * instruction must land in its footprint (red_access_check), else the
 * model records it (mdl_confine_broken) and the checker runs the check
 * again without MDL_CONFINE. Why a clean run is exact: specs/checker.md,
 * "Provenance".
 */
#include <stdlib.h>
#include <string.h>

#include "model/reduce/red_int.h"

#define VS_MAX 16

/* Known (!top): the value is one of v[0..n). Unknown (top): any value;
   with n > 0, one of the bases v[0..n) plus an unknown (PROVENANCE). */
typedef struct {
    int top, n;
    int64_t v[VS_MAX];
} Vs;

/* Adds x to s's values, or to its bases when it is unknown; a known set
   that overflows keeps its first value as a base, bases that overflow
   are dropped. */
static int vs_add(Vs *s, int64_t x)
{
    if (s->top && !s->n)
        return 0;
    for (int i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return 0;
    if (s->n == VS_MAX) {
        s->n = s->top ? 0 : 1;
        s->top = 1;
        return 1;
    }
    s->v[s->n++] = x;
    return 1;
}

static int vs_merge(Vs *dst, const Vs *src)
{
    int changed = 0;
    if (dst->top && !dst->n)
        return 0;
    if (src->top && !src->n) {
        dst->top = 1;
        dst->n = 0;
        return 1;
    }
    if (src->top && !dst->top) {
        if (!dst->n) {
            *dst = *src;
            return 1;
        }
        dst->top = 1;                   /* dst's values become bases */
        changed = 1;
    }
    for (int i = 0; i < src->n; i++)
        changed |= vs_add(dst, src->v[i]);
    return changed;
}

/* An unknown value with a's values (or bases) as its bases. */
static void vs_based(Vs *out, const Vs *a)
{
    *out = *a;
    out->top = 1;
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

/* The bases of an unknown result (PROVENANCE): an address plus or minus
   an unknown integer keeps the address's values (or bases) as its bases;
   anything else has none. An operand with bases, or a known one beside an
   unknown one without, is the address; two of them are not. */
static void def_bases(const LitInstr *in, const Vs *a, const Vs *b,
                      const Vs *c, Vs *out)
{
    const Vs *addr = NULL, *other = NULL;
    switch (lit_opinfo[in->op].alu) {
    case LIT_MOV:
        if (lit_type_bits(in->ty) == 64 && lit_type_bits(in->sty) == 64)
            addr = a;
        break;
    case LIT_ADD:
        addr = a->top && a->n ? a : (b->top && b->n) || a->top ? b : a;
        other = addr == a ? b : a;
        break;
    case LIT_SUB:
        addr = a;
        other = b;
        break;
    case LIT_MAD:                       /* a * b + c */
        if (!(a->top && a->n) && !(b->top && b->n))
            addr = c;
        break;
    default:
        break;
    }
    if (!addr || (addr->top && !addr->n) ||
        (other && (other->top ? other->n > 0 : !addr->top)))
        return;
    vs_based(out, addr);
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
        def_bases(in, &a, &b, &c, out);
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

/* PATHS: limits of one thread's path exploration (instructions executed
   over all paths, bytes of states kept); beyond them the thread's value
   sets are the flow-insensitive ones. */
#define PATH_STEPS 65536
#define PATH_BYTES ((size_t)4 << 20)

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* One representation per set, so that equal states compare equal. */
static void vs_norm(Vs *s)
{
    if (s->top && !s->n)
        memset(s->v, 0, sizeof s->v);
    qsort(s->v, (size_t)s->n, sizeof *s->v, cmp_i64);
    memset(s->v + s->n, 0, (size_t)(VS_MAX - s->n) * sizeof *s->v);
}

/* Whether a guard or branch on predicate set p goes each way: bit 1
   taken, bit 2 not (both when unknown). */
static int guard_ways(const LitInstr *in, const Vs *p)
{
    int ways = 0;
    if (p->top)
        return 3;
    for (int i = 0; i < p->n; i++)
        ways |= (lit_type_value(LIT_PRED, p->v[i]) != 0) != (in->gneg != 0)
                    ? 1 : 2;
    return ways;
}

typedef struct {
    const LitKernel *k;
    const LitBody *b;
    int32_t gtid;
    size_t nr;                          /* registers per state */
    Vs *st;                             /* states: kept ones, then the
                                           stack of ways not yet taken */
    int32_t *pcs;                       /* their pcs */
    size_t nkept, nstack, cap;
    uint32_t *hash;                     /* open addressing over kept states
                                           (index + 1), hcap entries */
    size_t hcap;
} Paths;

static uint64_t state_hash(const Paths *P, int32_t pc, const Vs *r)
{
    const unsigned char *c = (const unsigned char *)r;
    uint64_t h = 1469598103934665603ull ^ (uint64_t)pc;
    for (size_t i = 0; i < P->nr * sizeof *r; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

/* Room for one more state at the end; -1 past PATH_BYTES. */
static int paths_room(Paths *P)
{
    size_t need = P->nkept + P->nstack + 1;
    if (need * P->nr * sizeof *P->st > PATH_BYTES)
        return -1;
    if (BASE_GROW(P->st, P->cap, need * P->nr))
        return -1;
    {
        size_t pcap = P->cap / P->nr + 1;
        int32_t *np = base_realloc(P->pcs, pcap * sizeof *np);
        if (!np)
            return -1;
        P->pcs = np;
    }
    return 0;
}

/* Whether state (pc, r) was kept before; else keeps it (the stack above
   the kept states moves up one). 1 seen, 0 new, -1 out of room. */
static int paths_seen(Paths *P, int32_t pc, const Vs *r)
{
    uint64_t h = state_hash(P, pc, r);
    size_t at;
    if (2 * (P->nkept + 1) > P->hcap) {
        size_t ncap = P->hcap ? 2 * P->hcap : 64;
        uint32_t *nh = base_calloc(ncap, sizeof *nh);
        if (!nh)
            return -1;
        for (size_t i = 0; i < P->nkept; i++) {
            size_t j = state_hash(P, P->pcs[i], P->st + i * P->nr) % ncap;
            while (nh[j])
                j = (j + 1) % ncap;
            nh[j] = (uint32_t)i + 1;
        }
        base_free(P->hash);
        P->hash = nh;
        P->hcap = ncap;
    }
    for (at = h % P->hcap; P->hash[at]; at = (at + 1) % P->hcap) {
        size_t i = P->hash[at] - 1;
        if (P->pcs[i] == pc &&
            !memcmp(P->st + i * P->nr, r, P->nr * sizeof *r))
            return 1;
    }
    if (paths_room(P))
        return -1;
    memmove(P->st + (P->nkept + 1) * P->nr, P->st + P->nkept * P->nr,
            P->nstack * P->nr * sizeof *P->st);
    memmove(P->pcs + P->nkept + 1, P->pcs + P->nkept,
            P->nstack * sizeof *P->pcs);
    memcpy(P->st + P->nkept * P->nr, r, P->nr * sizeof *r);
    P->pcs[P->nkept] = pc;
    P->hash[at] = (uint32_t)P->nkept + 1;
    P->nkept++;
    return 0;
}

static int paths_push(Paths *P, int32_t pc, const Vs *r)
{
    size_t i = P->nkept + P->nstack;
    if (paths_room(P))
        return -1;
    memcpy(P->st + i * P->nr, r, P->nr * sizeof *r);
    P->pcs[i] = pc;
    P->nstack++;
    return 0;
}

/* PATHS. The values of each memory instruction's index (or address)
   register in thread gtid of a PTX kernel (at, per pc; an instruction no
   path reaches gets none), by running the thread on abstract states:
   every register holds a value set, a load makes it unknown, and a branch
   or guard whose predicate is not known goes both ways. Each state stands
   for the concrete states whose registers hold values of its sets, and
   its successors for all of theirs (def_vals is lit_alu over the sets), so
   every path of the thread is followed. States at branch targets are
   kept, and a state met again is not followed twice: every loop closes
   there or grows a known counter (checkpointKernel's `offset += stride`
   runs its one pass and leaves, where the flow-insensitive sets of
   thread_values lose the counter). -1 beyond PATH_STEPS or PATH_BYTES. */
static int thread_paths(const LitKernel *k, int32_t gtid, const LitBody *b,
                        Vs *at)
{
    Paths P;
    Vs *cur = NULL;
    uint8_t *target = base_calloc((size_t)b->ninstr + 1, 1);
    long steps = 0;
    int rc = -1;
    memset(&P, 0, sizeof P);
    P.k = k;
    P.b = b;
    P.gtid = gtid;
    P.nr = k->nregs ? (size_t)k->nregs : 1;
    cur = base_malloc(P.nr * sizeof *cur);
    if (!target || !cur)
        goto out;
    for (int32_t pc = 0; pc < b->ninstr; pc++) {
        const LitInstr *in = &b->code[pc];
        at[pc].top = 0;
        at[pc].n = 0;
        if ((lit_opflags(in->op) & LIT_OPF_BRANCH) && in->target < b->ninstr)
            target[in->target] = 1;
    }
    for (size_t r = 0; r < P.nr; r++) {
        cur[r].top = 0;
        cur[r].n = 0;
        vs_add(&cur[r], 0);
        vs_norm(&cur[r]);
    }
    if (paths_push(&P, 0, cur))
        goto out;
    while (P.nstack) {
        int32_t pc;
        P.nstack--;
        pc = P.pcs[P.nkept + P.nstack];
        memcpy(cur, P.st + (P.nkept + P.nstack) * P.nr, P.nr * sizeof *cur);
        while (pc < b->ninstr) {
            const LitInstr *in = &b->code[pc];
            unsigned f = lit_opflags(in->op);
            uint16_t set[LIT_MAX_VEC];
            int ns, ways = 1, seen;
            if (++steps > PATH_STEPS)
                goto out;
            if (target[pc] && (seen = paths_seen(&P, pc, cur)) != 0) {
                if (seen < 0)
                    goto out;
                break;
            }
            if (in->guard)
                ways = guard_ways(in, &cur[in->guard - 1]);
            if (ways & 2) {             /* the instruction does nothing */
                if (ways == 2) {
                    pc++;
                    continue;
                }
                if (paths_push(&P, pc + 1, cur))
                    goto out;
            }
            if (f & (LIT_OPF_MEM | LIT_OPF_FLUSH)) {
                Vs idx;
                index_vals(k, gtid, cur, in, &idx);
                vs_merge(&at[pc], &idx);
            }
            ns = lit_instr_sets(in, set);
            if (ns) {
                Vs d;
                def_vals(k, gtid, cur, in, &d);
                if (!d.top && !d.n)
                    break;              /* fails on every value */
                vs_norm(&d);
                for (int j = 0; j < ns; j++)
                    cur[set[j]] = d;
            }
            if ((f & LIT_OPF_ENDS) ||
                ((f & LIT_OPF_BRANCH) && !(f & LIT_OPF_COND) &&
                 in->target >= b->ninstr))
                break;
            if (!(f & LIT_OPF_BRANCH)) {
                pc++;
                continue;
            }
            if (f & LIT_OPF_COND) {     /* a litmus branch: both ways */
                if (paths_push(&P, pc + 1, cur))
                    goto out;
            }
            pc = in->target;
        }
    }
    rc = 0;
out:
    base_free(P.st);
    base_free(P.pcs);
    base_free(P.hash);
    base_free(cur);
    base_free(target);
    return rc;
}

/* The value set of each memory instruction's index (or address)
   register in thread gtid (at, per pc): PATHS for a PTX kernel, else (or
   beyond PATHS' limits) from the flow-insensitive sets, into regs. */
static void access_values(const LitKernel *k, int32_t gtid, const LitBody *b,
                          Vs *regs, Vs *at)
{
    if (k->from && !thread_paths(k, gtid, b, at))
        return;
    thread_values(k, gtid, b, regs);
    for (int pc = 0; pc < b->ninstr; pc++)
        index_vals(k, gtid, regs, &b->code[pc], &at[pc]);
}

/* PROVENANCE: the locations (at most 2 * VS_MAX, into locs) an access of
   in whose address register is unknown with bases idx is assumed to stay
   in, in in's window: those holding a base, and a base plus the constant
   offset where that falls in a location (a struct's later field is a
   location of its own: `[%rd25+8]`, %rd25 = &b->sig[lane], is b->loc[lane];
   `[%rd15+-4]`, %rd15 = log + head, stays in log).
   Returns how many, or -1 when the access may be anywhere (no bases, one
   in no location, a litmus operand, or MDL_CONFINE off). */
static int confine(const Model *m, const LitInstr *in, const Vs *idx,
                   int32_t *locs)
{
    int n = 0;
    if (!(m->mode & MDL_CONFINE) || in->m.loc != LIT_MEM_ADDR ||
        !idx->top || !idx->n)
        return -1;
    for (int v = 0; v < 2 * idx->n; v++) {
        int64_t x = idx->v[v / 2], e;
        int32_t loc;
        int seen = 0;
        if (v % 2)
            x = (int64_t)((uint64_t)x + (uint64_t)in->m.off);
        if (lit_addr_resolve(m->p, in->m.aspace, x, 0, &loc, &e)) {
            if (v % 2)
                continue;
            return -1;
        }
        for (int q = 0; q < n; q++)
            seen |= locs[q] == loc;
        if (!seen)
            locs[n++] = loc;
    }
    return n;
}

int red_access_pm_reads(const Model *m, int32_t kernel, uint8_t *mark)
{
    const LitProgram *p = m->p;
    const LitKernel *k = &p->kernels[kernel];
    int64_t total = (int64_t)k->grid * k->block;
    int32_t most = 0;
    Vs *regs = base_malloc(((size_t)k->nregs + 1) * sizeof *regs), *at;
    for (int q = 0; q < k->nbodies; q++)
        if (k->bodies[q].ninstr > most)
            most = k->bodies[q].ninstr;
    at = base_malloc(((size_t)most + 1) * sizeof *at);
    if (!regs || !at) {
        base_free(regs);
        base_free(at);
        return -1;
    }
    for (int64_t g = 0; g < total; g++) {
        const LitBody *b;
        if (k->body_of[g] < 0)
            continue;
        b = &k->bodies[k->body_of[g]];
        access_values(k, (int32_t)g, b, regs, at);
        for (int pc = 0; pc < b->ninstr; pc++) {
            const LitInstr *in = &b->code[pc];
            const LitLoc *l;
            int32_t locs[2 * VS_MAX];
            int nl;
            Vs idx = at[pc];
            if (!(lit_opflags(in->op) & LIT_OPF_READ))
                continue;
            /* the same assumption as the launch's footprints, checked
               there (red_access_check): none beyond RED_MAX_THREADS */
            nl = total <= RED_MAX_THREADS ? confine(m, in, &idx, locs) : -1;
            for (int q = 0; q < nl; q++) {
                l = &p->locs[locs[q]];
                if (l->space == LIT_PM)
                    memset(mark + l->addr, 1, (size_t)l->size);
            }
            if (nl >= 0)
                continue;
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
    base_free(at);
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
    Vs *regs = base_malloc(((size_t)k->nregs + 1) * sizeof *regs),
       *at = base_malloc(((size_t)b->ninstr + 1) * sizeof *at);
    uint32_t *pool = NULL, npool = 0;
    size_t cap = 0;
    if (!regs || !at) {
        base_free(regs);
        base_free(at);
        return -1;
    }
    access_values(k, L->gtid[i], b, regs, at);
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
            Vs idx = at[pc];
            uint32_t start = npool;
            int32_t locs[2 * VS_MAX];
            int nl = confine(m, in, &idx, locs);
            a->rw = (uint8_t)((lit_opflags(in->op) & LIT_OPF_READ
                                   ? MDL_I_READ : 0) |
                              (lit_opflags(in->op) & LIT_OPF_WRITE
                                   ? MDL_I_WRITE : 0));
            if (BASE_GROW(pool, cap, 2 * ((size_t)npool + 2 * VS_MAX *
                                                          LIT_MAX_VEC)))
                goto oom;
            if (nl >= 0) {
                a->flags |= FP_CONF;
                for (int q = 0; q < nl; q++) {
                    const LitLoc *l = &p->locs[locs[q]];
                    pool[2 * npool] = red_access_id(m, L, i, l->space,
                                                    l->addr);
                    pool[2 * npool + 1] = pool[2 * npool] +
                                          (uint32_t)l->size - 1;
                    npool++;
                }
            } else if (idx.top && in->m.loc == LIT_MEM_ADDR) {
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
    base_free(at);
    if (!sr->foot[0] || !sr->foot[1]) {
        sr->acc = NULL;
        return -1;
    }
    return 0;
oom:
    sr->acc = NULL;
    base_free(pool);
    base_free(regs);
    base_free(at);
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

void red_access_check(Model *m, const MdlLaunch *L, int slot,
                      const MdlInstr *d)
{
    MdlSlotRed *sr;
    const MdlAcc *a;
    if (m->conf_broken)
        return;
    sr = slot_red(m, L, slot);
    if (!sr) {
        /* no footprint assumes anything about a launch beyond
           RED_MAX_THREADS (nor does red_access_pm_reads); out of memory,
           the assumption cannot be checked */
        m->conf_broken = L->nthreads <= RED_MAX_THREADS;
        return;
    }
    a = &sr->acc[d->pc];
    if (!(a->flags & FP_CONF))
        return;
    for (int k = 0; k < d->nelem; k++)
        if (!red_access_has(sr->pool + 2 * a->first, a->n,
                            red_access_id(m, L, slot, d->space,
                                          d->words[k]))) {
            m->conf_broken = 1;
            return;
        }
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
