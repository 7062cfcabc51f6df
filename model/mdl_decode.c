/*
 * mdl_decode.c — what a thread's next instruction will do, read off a
 * state without changing it (model.h, MdlInstr). Execution (mdl_exec.c)
 * decodes before it acts, so the decoder and the semantics cannot
 * disagree about operands, addresses or control flow; the reductions use
 * it to see which word a step touches and whether it waits or loops.
 */
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

int64_t mdl_operand(const Model *m, const MdlState *s, const MdlLaunch *L,
                    int slot, const LitOperand *o)
{
    uint32_t regs = L->thr_off + (uint32_t)slot * L->thr_stride + 1;
    switch (o->kind) {
    case LIT_OPD_REG:
        return (int64_t)s->w[regs + (uint32_t)L->regslot[o->reg]];
    case LIT_OPD_SREG:
        return mdl_special(&m->p->kernels[L->kernel], L->gtid[slot], o->reg);
    case LIT_OPD_IMM:
        return o->imm;
    default:
        return 0;
    }
}

int mdl_compare(int cmp, int64_t a, int64_t b)
{
    switch (cmp) {
    case LIT_CMP_EQ: return a == b;
    case LIT_CMP_NE: return a != b;
    case LIT_CMP_LT: return a < b;
    case LIT_CMP_LE: return a <= b;
    case LIT_CMP_GT: return a > b;
    default: return a >= b;
    }
}

int mdl_branch_cmp(int op)
{
    switch (op) {
    case LIT_BEQ: return LIT_CMP_EQ;
    case LIT_BNE: return LIT_CMP_NE;
    case LIT_BLT: return LIT_CMP_LT;
    case LIT_BLE: return LIT_CMP_LE;
    case LIT_BGT: return LIT_CMP_GT;
    default: return LIT_CMP_GE;
    }
}

/* Flags by opcode, before anything is evaluated. */
static unsigned op_flags(const Model *m, int op)
{
    switch (op) {
    case LIT_LD: return MDL_I_READ;
    case LIT_ST: case LIT_ST_WT: return MDL_I_WRITE;
    case LIT_ATOM_ADD: case LIT_ATOM_EXCH: case LIT_ATOM_CAS:
        return MDL_I_READ | MDL_I_WRITE;
    case LIT_CLWB: case LIT_CLFLUSH: case LIT_L2WB: case LIT_PCOMMIT:
    case LIT_SFENCE: case LIT_MEMBAR_CTA: case LIT_MEMBAR_SYS:
    case LIT_PBAR_WI: case LIT_PSYNC:
        return MDL_I_PERSIST;
    case LIT_PBAR_WG:
        return MDL_I_PERSIST |
               (m->ops->collective(m, op) ? MDL_I_WAITS : 0);
    case LIT_PBAR_KR:
        return MDL_I_PERSIST |
               (m->ops->collective(m, op) ? MDL_I_WAITS | MDL_I_GRID : 0);
    case LIT_BAR_SYNC: return MDL_I_WAITS;
    case LIT_GRID_SYNC: return MDL_I_WAITS | MDL_I_GRID;
    default: return 0;
    }
}

void mdl_decode_at(const Model *m, const MdlState *s, const MdlLaunch *L,
                   int slot, MdlInstr *d)
{
    const LitBody *b = &m->p->kernels[L->kernel].bodies[L->body[slot]];
    uint64_t h = s->w[L->thr_off + (uint32_t)slot * L->thr_stride];
    const LitInstr *in = &b->code[TH_PC(h)];
    d->in = in;
    d->op = in->op;
    d->pc = TH_PC(h);
    d->next = d->pc + 1;
    d->line = in->pos.line;
    d->gtid = L->gtid[slot];
    d->cta = L->cta[slot];
    d->kernel = L->kernel;
    d->a = mdl_operand(m, s, L, slot, &in->a);
    d->b = mdl_operand(m, s, L, slot, &in->b);
    d->space = -1;
    d->word = -1;
    d->index = 0;
    d->flags = op_flags(m, in->op);
    if (in->op <= LIT_ATOM_CAS || in->op == LIT_CLWB ||
        in->op == LIT_CLFLUSH) {
        const LitLoc *l = &m->p->locs[in->m.loc];
        int64_t idx = in->m.off;
        if (in->m.base.kind != LIT_OPD_NONE)
            idx = (int64_t)((uint64_t)mdl_operand(m, s, L, slot, &in->m.base) +
                            (uint64_t)in->m.off);
        d->space = l->space;
        d->index = idx;
        if (idx < 0 || idx >= l->size)
            d->flags |= MDL_I_BOUNDS;
        else
            d->word = l->addr + (int32_t)idx;
    }
    switch (in->op) {
    case LIT_BRA:
        d->next = (uint32_t)in->target;
        break;
    case LIT_BEQ: case LIT_BNE: case LIT_BLT: case LIT_BLE: case LIT_BGT:
    case LIT_BGE:
        if (mdl_compare(mdl_branch_cmp(in->op), d->a, d->b))
            d->next = (uint32_t)in->target;
        break;
    default:
        break;
    }
    if (d->flags & MDL_I_WAITS)
        d->next = d->pc;
    else if (d->next <= d->pc)
        d->flags |= MDL_I_BACK;
    if (in->op == LIT_EXIT ||
        (!(d->flags & MDL_I_WAITS) && d->next >= (uint32_t)b->ninstr))
        d->flags |= MDL_I_ENDS;
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
