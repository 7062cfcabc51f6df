/* lit_equal: structural equality of programs. Source positions, the file
   path and whether a param came from -D are not part of the program. */
#include <string.h>

#include "litmus/litmus_int.h"

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static int operand_eq(const LitOperand *a, const LitOperand *b)
{
    return a->kind == b->kind && a->reg == b->reg && a->imm == b->imm;
}

static int instr_eq(const LitInstr *a, const LitInstr *b)
{
    return a->op == b->op && a->cmp == b->cmp && a->rd == b->rd &&
           a->ty == b->ty && a->sty == b->sty && a->guard == b->guard &&
           a->gneg == b->gneg && operand_eq(&a->c, &b->c) &&
           a->vec == b->vec && !memcmp(a->vreg, b->vreg, sizeof a->vreg) &&
           a->m.aspace == b->m.aspace &&
           operand_eq(&a->a, &b->a) && operand_eq(&a->b, &b->b) &&
           a->m.loc == b->m.loc && operand_eq(&a->m.base, &b->m.base) &&
           a->m.off == b->m.off && a->target == b->target;
}

static int body_eq(const LitBody *a, const LitBody *b)
{
    if (a->gtid != b->gtid || a->ninstr != b->ninstr ||
        a->nlabels != b->nlabels || !str_eq(a->file, b->file) ||
        !a->text != !b->text)
        return 0;
    for (int32_t i = 0; a->text && i < a->ninstr; i++)
        if (!str_eq(a->text[i], b->text[i]))
            return 0;
    for (int32_t i = 0; i < a->ninstr; i++)
        if (!instr_eq(&a->code[i], &b->code[i]))
            return 0;
    for (int32_t i = 0; i < a->nlabels; i++)
        if (!str_eq(a->labels[i].name, b->labels[i].name) ||
            a->labels[i].index != b->labels[i].index)
            return 0;
    return 1;
}

static int kernel_eq(const LitKernel *a, const LitKernel *b)
{
    if (!str_eq(a->name, b->name) || a->grid != b->grid ||
        a->block != b->block || a->warp != b->warp ||
        a->warp_set != b->warp_set || a->spmd != b->spmd ||
        a->recovery != b->recovery || a->nbodies != b->nbodies ||
        a->nregs != b->nregs ||
        memcmp(a->reg_used, b->reg_used, (size_t)a->nregs) ||
        !str_eq(a->from, b->from) || !str_eq(a->entry, b->entry) ||
        a->nargs != b->nargs || !a->reg_names != !b->reg_names)
        return 0;
    for (int32_t r = 0; a->reg_names && r < a->nregs; r++)
        if (!str_eq(a->reg_names[r], b->reg_names[r]))
            return 0;
    for (int32_t i = 0; i < a->nargs; i++)
        if (a->args[i].loc != b->args[i].loc ||
            a->args[i].value != b->args[i].value)
            return 0;
    for (int32_t i = 0; i < a->nbodies; i++)
        if (!body_eq(&a->bodies[i], &b->bodies[i]))
            return 0;
    int64_t n = (int64_t)a->grid * a->block;
    return !n || !memcmp(a->body_of, b->body_of, (size_t)n * sizeof(int32_t));
}

static int loc_eq(const LitLoc *a, const LitLoc *b)
{
    return str_eq(a->name, b->name) && a->space == b->space &&
           a->is_array == b->is_array && a->size == b->size &&
           a->elem == b->elem && a->ptx == b->ptx && a->byte == b->byte &&
           a->addr == b->addr && a->line == b->line && a->pin == b->pin &&
           !memcmp(a->init, b->init, (size_t)a->size * sizeof(int64_t));
}

static int cond_eq(const LitCond *a, const LitCond *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->loc != b->loc || a->index != b->index ||
        a->gtid != b->gtid || a->reg != b->reg || a->val != b->val ||
        a->n != b->n)
        return 0;
    if (a->n && memcmp(a->vals, b->vals, (size_t)a->n * sizeof(int64_t)))
        return 0;
    return cond_eq(a->l, b->l) && cond_eq(a->r, b->r);
}

static int check_eq(const LitCheck *a, const LitCheck *b)
{
    return a->phase == b->phase && a->quant == b->quant &&
           !memcmp(a->expect, b->expect, sizeof a->expect) &&
           str_eq(a->text, b->text) && cond_eq(a->cond, b->cond);
}

static int seq_eq(const int32_t *a, const int32_t *b, int32_t n)
{
    return !n || !memcmp(a, b, (size_t)n * sizeof(int32_t));
}

int lit_program_equal(const LitProgram *a, const LitProgram *b)
{
    if (!str_eq(a->name, b->name) || !str_eq(a->doc, b->doc) ||
        a->nparams != b->nparams || a->config.set != b->config.set ||
        memcmp(a->config.val, b->config.val, sizeof a->config.val) ||
        a->line_bytes != b->line_bytes || a->nlocs != b->nlocs ||
        a->pm_words != b->pm_words || a->dram_words != b->dram_words ||
        a->shared_words != b->shared_words || a->nkernels != b->nkernels ||
        a->nmain != b->nmain || a->has_recover != b->has_recover ||
        a->nrecover != b->nrecover || a->nchecks != b->nchecks)
        return 0;
    for (int32_t i = 0; i < a->nparams; i++)
        if (!str_eq(a->params[i].name, b->params[i].name) ||
            a->params[i].value != b->params[i].value)
            return 0;
    for (int32_t i = 0; i < a->nlocs; i++)
        if (!loc_eq(&a->locs[i], &b->locs[i]))
            return 0;
    for (int32_t i = 0; i < a->nkernels; i++)
        if (!kernel_eq(&a->kernels[i], &b->kernels[i]))
            return 0;
    if (!seq_eq(a->main_seq, b->main_seq, a->nmain) ||
        !seq_eq(a->recover_seq, b->recover_seq, a->nrecover))
        return 0;
    for (int32_t i = 0; i < a->nchecks; i++)
        if (!check_eq(&a->checks[i], &b->checks[i]))
            return 0;
    return 1;
}
