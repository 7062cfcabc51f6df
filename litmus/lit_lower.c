/* lit_lower: what follows the last statement — -D and --config, layout,
   the checks that need the whole file, and the LitProgram itself. */
#include <stdio.h>
#include <string.h>

#include "litmus/litmus_int.h"

/* A kernel as the IR has it: its registers as a count and a table (a
   litmus kernel names r0 … r31; the PTX front end numbers its own). */
static LitKernel kernel_regs(LitParser *P, const LitKernelX *x)
{
    LitKernel k = x->k;
    if (k.reg_used)
        return k;
    k.nregs = x->regs ? 32 - __builtin_clz(x->regs) : 0;
    k.reg_used = lit_parse_alloc(P, (size_t)k.nregs + 1);
    for (int r = 0; r < k.nregs; r++)
        k.reg_used[r] = (uint8_t)(x->regs >> r & 1u);
    return k;
}

static const LitPos NOWHERE = {0, 0};

static void options(LitParser *P)
{
    const LitOptions *o = P->opt;
    for (int i = 0; i < o->ndefines; i++)
        if (!P->define_used[i])
            lit_parse_error(P, NOWHERE, "-D %s: no param named '%s'",
                            o->defines[i].name, o->defines[i].name);
    for (int i = 0; i < o->nconfig; i++) {
        const LitConfigSet *cs = &o->config[i];
        int k = lit_config_key(cs->key);
        char msg[256];
        if (k < 0)
            lit_parse_error(P, NOWHERE, "--config %s=%s: unknown config key "
                            "'%s'", cs->key, cs->value, cs->key);
        else if (lit_config_set(&P->prog->config, k, cs->value, msg,
                                sizeof msg))
            lit_parse_error(P, NOWHERE, "--config %s=%s: %s", cs->key,
                            cs->value, msg);
    }
}

/* G:rN names a thread of the main program's last launch. */
static void registers(LitParser *P, const LitCond *c)
{
    if (!c)
        return;
    if (c->kind == LIT_C_REG) {
        if (P->nmk == 0) {
            lit_parse_error(P, c->pos, "'%d:r%d' names a thread, but the "
                            "main program launches no kernel", c->gtid,
                            c->reg);
            return;
        }
        const LitKernelX *last = &P->mk[P->nmk - 1];
        int64_t n = (int64_t)last->k.grid * last->k.block;
        if (!last->bad && (c->gtid < 0 || c->gtid >= n))
            lit_parse_error(P, c->pos, "thread %d does not exist: kernel "
                            "'%s', the last launch, has %lld threads",
                            c->gtid, last->k.name, (long long)n);
        return;
    }
    registers(P, c->l);
    registers(P, c->r);
}

static void checks(LitParser *P)
{
    for (int32_t i = 0; i < P->nchecks; i++) {
        const LitCheckX *x = &P->checks[i];
        if (x->c.phase == LIT_RECOVERED && !P->recover_pos.line)
            lit_parse_error(P, x->phase_pos, "'check recovered' needs a "
                            "'recover' block");
        registers(P, x->c.cond);
    }
}

/* Move the parser's records into the program. */
static void assemble(LitParser *P)
{
    LitProgram *p = P->prog;
    p->nparams = P->nparams;
    p->params = lit_parse_alloc(P, (size_t)P->nparams * sizeof *p->params);
    for (int32_t i = 0; i < P->nparams; i++)
        p->params[i] = P->params[i].p;
    p->nlocs = P->nlocs;
    p->locs = lit_parse_alloc(P, (size_t)P->nlocs * sizeof *p->locs);
    for (int32_t i = 0; i < P->nlocs; i++)
        p->locs[i] = P->locs[i].l;
    p->nkernels = P->nmk + P->nrk;
    p->kernels = lit_parse_alloc(P, (size_t)p->nkernels * sizeof *p->kernels);
    for (int32_t i = 0; i < P->nmk; i++)
        p->kernels[i] = kernel_regs(P, &P->mk[i]);
    for (int32_t j = 0; j < P->nrk; j++)
        p->kernels[P->nmk + j] = kernel_regs(P, &P->rk[j]);
    p->nmain = P->nmk;
    p->main_seq = lit_parse_alloc(P, (size_t)P->nmk * sizeof(int32_t));
    for (int32_t i = 0; i < P->nmk; i++)
        p->main_seq[i] = i;
    p->has_recover = P->recover_pos.line > 0;
    p->nrecover = P->nrseq;
    p->recover_seq = lit_parse_alloc(P, (size_t)P->nrseq * sizeof(int32_t));
    for (int32_t i = 0; i < P->nrseq; i++) {
        int32_t r = P->rseq[i];
        p->recover_seq[i] = r >= 0 ? r : P->nmk + (-r - 1);
    }
    p->nptx = P->nptx;
    const char **ptx = lit_parse_alloc(P, ((size_t)P->nptx + 1) *
                                              sizeof *ptx);
    for (int32_t i = 0; i < P->nptx; i++)
        ptx[i] = P->ptx[i]->text;
    p->ptx = ptx;
    p->nchecks = P->nchecks;
    p->checks = lit_parse_alloc(P, (size_t)P->nchecks * sizeof *p->checks);
    for (int32_t i = 0; i < P->nchecks; i++) {
        LitCheck *c = &p->checks[i];
        *c = P->checks[i].c;
        BaseStr s = {0};
        lit_print_check_text(&s, p, c);
        /* s is on the heap: freed before the arena's failure may jump */
        c->text = s.failed ? NULL : base_arena_strndup(P->arena, s.s, s.len);
        base_str_free(&s);
        if (!c->text)
            longjmp(*P->oom, 1);
    }
}

/* The __shared__ variables of PTX kernels become locations after every
   declaration, main kernels' first (LitPtxLoc). */
static void ptx_locations(LitParser *P)
{
    for (int pass = 0; pass < 2; pass++)
        for (int32_t i = 0; i < P->nptxlocs; i++) {
            LitPtxLoc *x = &P->ptxlocs[i];
            if (x->recovery != pass)
                continue;
            const char *name = x->x.l.name;
            if (lit_parse_find_loc(P, name, strlen(name)) >= 0) {
                const LitKernel *k = pass ? &P->rk[x->kernel].k
                                          : &P->mk[x->kernel].k;
                lit_parse_error(P, k->pos, "__shared__ variable '%s' of "
                                "kernel '%s' has the name of a location",
                                name, k->name);
            }
            x->loc = P->nlocs;
            *LIT_PUSH(P, P->locs, P->nlocs, P->caplocs) = x->x;
        }
    for (int32_t i = 0; i < P->nfixups; i++)
        if (P->fixups[i].ptx) {
            P->fixups[i].loc = P->ptxlocs[P->fixups[i].loc].loc;
            P->fixups[i].ptx = 0;
        }
}

/* Addresses in PTX kernels, now that the layout has placed everything. */
static void apply_fixups(LitParser *P)
{
    static const int64_t window[3] = {LIT_WINDOW_PM, LIT_WINDOW_DRAM,
                                      LIT_WINDOW_SHARED};
    for (int32_t i = 0; i < P->nfixups; i++) {
        const LitFixup *f = &P->fixups[i];
        const LitLoc *l = &P->locs[f->loc].l;
        *f->slot = (int64_t)((uint64_t)*f->slot +
                             (uint64_t)(l->byte + (f->window
                                                       ? window[l->space]
                                                       : 0)));
    }
}

void lit_lower_finish(LitParser *P)
{
    options(P);
    ptx_locations(P);
    lit_layout(P);
    apply_fixups(P);
    checks(P);
    if (P->errs.n == 0)
        assemble(P);
}
