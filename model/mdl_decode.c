/*
 * mdl_decode.c — what a thread's next instruction will do, read off a
 * state without changing it (model.h, MdlInstr). Execution (mdl_exec.c)
 * decodes before it acts, so the decoder and the semantics cannot
 * disagree about operands, addresses or control flow; the reductions use
 * it to see which word a step touches and whether it waits or loops.
 */
#include <assert.h>

#include "model/model_int.h"

int64_t mdl_special(const LitKernel *k, int32_t gtid, int r)
{
    int32_t tid = gtid % k->block;
    switch (r) {
    case LIT_SR_TID: return tid;
    case LIT_SR_CTAID: return gtid / k->block;
    case LIT_SR_NTID: return k->block;
    case LIT_SR_NCTAID: return k->grid;
    case LIT_SR_GTID: return gtid;
    case LIT_SR_LANEID: return tid % k->warp;
    case LIT_SR_WARPID: return tid / k->warp;
    default: return 0;
    }
}

int64_t mdl_reg_value(const Model *m, const MdlState *s, const MdlLaunch *L,
                      int slot, int reg)
{
    (void)m;
    assert(reg >= 0 && reg < L->nregslot && L->regslot[reg] >= 0);
    return (int64_t)s->w[L->thr_off + (uint32_t)slot * L->thr_stride + 1 +
                         (uint32_t)L->regslot[reg]];
}

int64_t mdl_operand(const Model *m, const MdlState *s, const MdlLaunch *L,
                    int slot, const LitOperand *o)
{
    switch (o->kind) {
    case LIT_OPD_REG:
        return mdl_reg_value(m, s, L, slot, o->reg);
    case LIT_OPD_SREG:
        return mdl_special(&m->p->kernels[L->kernel], L->gtid[slot], o->reg);
    case LIT_OPD_IMM:
        return o->imm;
    default:
        return 0;
    }
}

/* What an opcode does before anything is evaluated (MDL_I_*), from its
   row in lit_opinfo and, for the scoped barriers, the model. */
static unsigned op_flags(const Model *m, int op)
{
    unsigned f = lit_opflags(op), out = 0;
    if (f & LIT_OPF_READ)
        out |= MDL_I_READ;
    if (f & LIT_OPF_WRITE)
        out |= MDL_I_WRITE;
    if (f & LIT_OPF_PERSIST)
        out |= MDL_I_PERSIST;
    if ((f & LIT_OPF_BARRIER) ||
        mdl_policy_collective(m->pol, op))
        out |= MDL_I_WAITS | (f & LIT_OPF_GRID ? MDL_I_GRID : 0);
    return out;
}

/* A PTX access at byte address addr: each of its elements (one, or a
   vector's) must be one whole element of its width of one location, all
   in one space (DESIGN section 7); else the step fails, and index names
   the first element that does not resolve. */
static void decode_addr(const Model *m, const LitInstr *in, int64_t addr,
                        MdlInstr *d)
{
    int flush = (lit_opflags(in->op) & LIT_OPF_FLUSH) != 0;
    int bytes = flush ? 0 : lit_type_bits(in->ty) / 8;
    d->nelem = flush ? 1 : lit_instr_elems(in);
    for (int k = 0; k < d->nelem; k++) {
        int64_t a = (int64_t)((uint64_t)addr + (uint64_t)k * (uint64_t)bytes),
                idx;
        int32_t loc;
        if (lit_addr_resolve(m->p, in->m.aspace, a, bytes, &loc, &idx) ||
            (k && m->p->locs[loc].space != d->space)) {
            d->flags |= MDL_I_BOUNDS;
            d->index = a;
            d->loc = -1;
            d->space = -1;
            d->word = -1;
            return;
        }
        if (!k) {
            d->loc = loc;
            d->space = m->p->locs[loc].space;
        }
        d->words[k] = m->p->locs[loc].addr + (int32_t)idx;
    }
    d->word = d->words[0];
}

void mdl_decode_at(const Model *m, const MdlState *s, const MdlLaunch *L,
                   int slot, MdlInstr *d)
{
    const LitBody *b;
    uint64_t h;
    const LitInstr *in;
    assert(L->kernel >= 0 && slot >= 0 && slot < L->nthreads);
    b = &m->p->kernels[L->kernel].bodies[L->body[slot]];
    h = s->w[L->thr_off + (uint32_t)slot * L->thr_stride];
    assert(TH_STATUS(h) == TS_RUN && TH_PC(h) < (uint32_t)b->ninstr);
    in = &b->code[TH_PC(h)];
    d->in = in;
    d->op = in->op;
    d->pc = TH_PC(h);
    d->next = d->pc + 1;
    d->line = in->pos.line;
    d->gtid = L->gtid[slot];
    d->cta = L->cta[slot];
    d->kernel = L->kernel;
    d->loc = -1;
    d->space = -1;
    d->word = -1;
    d->nelem = 1;
    d->words[0] = -1;
    d->index = 0;
    if (in->guard &&
        (lit_type_value(LIT_PRED, mdl_reg_value(m, s, L, slot,
                                                 in->guard - 1)) != 0) ==
            (in->gneg != 0)) {
        /* a false guard: the step only moves the pc on */
        d->op = LIT_NOP;
        d->a = d->b = d->c = 0;
        d->flags = 0;
        goto flow;
    }
    d->a = mdl_operand(m, s, L, slot, &in->a);
    d->b = mdl_operand(m, s, L, slot, &in->b);
    d->c = mdl_operand(m, s, L, slot, &in->c);
    d->flags = op_flags(m, in->op);
    if (lit_opflags(in->op) & LIT_OPF_MEM) {
        int32_t loc = in->m.loc;
        int64_t idx = in->m.off;
        if (in->m.base.kind != LIT_OPD_NONE)
            idx = (int64_t)((uint64_t)mdl_operand(m, s, L, slot, &in->m.base) +
                            (uint64_t)in->m.off);
        d->index = idx;
        if (loc != LIT_MEM_ADDR) {
            const LitLoc *l = &m->p->locs[loc];
            d->loc = loc;
            d->space = l->space;
            if (idx < 0 || idx >= l->size)
                d->flags |= MDL_I_BOUNDS;
            else
                d->word = d->words[0] = l->addr + (int32_t)idx;
        } else {
            decode_addr(m, in, idx, d);
        }
        d->va[0] = d->a;
        if (!(d->flags & MDL_I_READ))
            for (int k = 1; k < d->nelem; k++)
                d->va[k] = mdl_reg_value(m, s, L, slot, in->vreg[k - 1]);
    }
    if ((lit_opflags(in->op) & LIT_OPF_BRANCH) &&
        (!(lit_opflags(in->op) & LIT_OPF_COND) ||
         lit_compare(lit_opinfo[in->op].cmp, in->sty, d->a, d->b)))
        d->next = (uint32_t)in->target;
flow:
    if (d->flags & MDL_I_WAITS)
        d->next = d->pc;
    else if (d->next <= d->pc)
        d->flags |= MDL_I_BACK;
    if ((lit_opflags(d->op) & LIT_OPF_ENDS) ||
        (!(d->flags & MDL_I_WAITS) && d->next >= (uint32_t)b->ninstr))
        d->flags |= MDL_I_ENDS;
}

int64_t mdl_store_value(const Model *m, const MdlInstr *d, int64_t v)
{
    assert(d->loc >= 0);
    return lit_type_value(lit_type_of_bytes(m->p->locs[d->loc].elem), v);
}

int mdl_decode(const Model *m, const MdlState *s, int slot, MdlInstr *out)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    if (mdl_terminal(m, s) || L->kernel < 0 || slot < 0 ||
        slot >= L->nthreads ||
        TH_STATUS(s->w[L->thr_off + (uint32_t)slot * L->thr_stride]) != TS_RUN)
        return -1;
    mdl_decode_at(m, s, L, slot, out);
    return 0;
}
