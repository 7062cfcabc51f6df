/* lit_print: the canonical text of a program. Every constant folded,
   params listed with their values, config keys only where set, explicit
   initializers, one statement per line, 4-space indentation, sections in a
   fixed order. Parsing it again gives an equal program (lit_equal.c). */
#include <stdio.h>
#include <string.h>

#include "litmus/litmus_int.h"

void lit_print_int(BaseStr *s, int64_t v)
{
    /* -9223372036854775808 would read as minus an out-of-range constant. */
    if (v == INT64_MIN)
        base_str_printf(s, "0x8000000000000000");
    else
        base_str_printf(s, "%lld", (long long)v);
}

static void operand(BaseStr *s, const LitOperand *o)
{
    switch (o->kind) {
    case LIT_OPD_REG:
        base_str_printf(s, "r%d", o->reg);
        break;
    case LIT_OPD_SREG:
        base_str_printf(s, "%s", o->reg < LIT_NSREG ? lit_sreg_names[o->reg]
                                                   : "%?");
        break;
    default:
        lit_print_int(s, o->imm);
        break;
    }
}

static const char *loc_name(const LitProgram *p, int32_t loc)
{
    return loc >= 0 && loc < p->nlocs ? p->locs[loc].name : "?";
}

/* name | name[K] | name[S] | name[S + K] | name[S - K] */
static void memop(BaseStr *s, const LitProgram *p, const LitMem *m)
{
    int array = m->loc >= 0 && m->loc < p->nlocs && p->locs[m->loc].is_array;
    base_str_printf(s, "%s", loc_name(p, m->loc));
    if (m->base.kind == LIT_OPD_NONE) {
        if (array || m->off != 0) {
            base_str_printf(s, "[");
            lit_print_int(s, m->off);
            base_str_printf(s, "]");
        }
        return;
    }
    base_str_printf(s, "[");
    operand(s, &m->base);
    if (m->off < 0 && m->off != INT64_MIN)
        base_str_printf(s, " - %lld", -(long long)m->off);
    else if (m->off != 0) {
        base_str_printf(s, " + ");
        lit_print_int(s, m->off);
    }
    base_str_printf(s, "]");
}

/* The first label at target. Labels are in definition order, so their
   indices never decrease: a binary search. */
static const char *label_at(const LitBody *b, int32_t target)
{
    if (!b || !b->nlabels)
        return NULL;
    int32_t lo = 0, hi = b->nlabels - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (b->labels[mid].index < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return b->labels[lo].index == target ? b->labels[lo].name : NULL;
}

static void instr(BaseStr *s, const LitProgram *p, const LitBody *b,
                  const LitInstr *in)
{
    base_str_printf(s, "%s", lit_opcode_name(in->op));
    const char *sep = " ";
    switch (lit_opcode_shape(in->op)) {
    case LIT_SH_LD:
        base_str_printf(s, " r%d, ", in->rd);
        memop(s, p, &in->m);
        return;
    case LIT_SH_ST:
        base_str_printf(s, " ");
        memop(s, p, &in->m);
        base_str_printf(s, ", ");
        operand(s, &in->a);
        return;
    case LIT_SH_ATOM:
    case LIT_SH_CAS:
        base_str_printf(s, " r%d, ", in->rd);
        memop(s, p, &in->m);
        base_str_printf(s, ", ");
        operand(s, &in->a);
        if (lit_opcode_shape(in->op) == LIT_SH_CAS) {
            base_str_printf(s, ", ");
            operand(s, &in->b);
        }
        return;
    case LIT_SH_MOV:
    case LIT_SH_ALU:
        base_str_printf(s, " r%d, ", in->rd);
        operand(s, &in->a);
        if (in->op != LIT_MOV) {
            base_str_printf(s, ", ");
            operand(s, &in->b);
        }
        return;
    case LIT_SH_BCOND:
        base_str_printf(s, " ");
        operand(s, &in->a);
        base_str_printf(s, ", ");
        operand(s, &in->b);
        sep = ", ";
        /* fall through */
    case LIT_SH_BRA: {
        const char *l = label_at(b, in->target);
        if (l)
            base_str_printf(s, "%s%s", sep, l);
        else                            /* a hand-made IR without labels */
            base_str_printf(s, "%s<%d>", sep, in->target);
        return;
    }
    case LIT_SH_ASSERT:
        base_str_printf(s, " ");
        operand(s, &in->a);
        base_str_printf(s, " %s ", lit_cmp_names[in->cmp < 6 ? in->cmp : 0]);
        operand(s, &in->b);
        return;
    case LIT_SH_MEM:
        base_str_printf(s, " ");
        memop(s, p, &in->m);
        return;
    default:
        return;
    }
}

const char *lit_reg_name(const LitKernel *k, int r, char *buf, size_t len)
{
    if (k->reg_names && r >= 0 && r < k->nregs && k->reg_names[r])
        return k->reg_names[r];
    snprintf(buf, len, "r%d", r);
    return buf;
}

int lit_format_instr(const LitProgram *p, const LitBody *b,
                     const LitInstr *in, char *buf, size_t len)
{
    BaseStr s = {0};
    if (b->text) {                      /* PTX: as written there */
        snprintf(buf, len, "%s", b->text[in - b->code]);
        return 0;
    }
    instr(&s, p, b, in);
    int r = base_str_copy(&s, buf, len);
    base_str_free(&s);
    return r;
}

/* ---- conditions -------------------------------------------------------- */

/* Binding strength, loosest first, as in lit_cond.c's grammar. */
enum { PR_IMP = 1, PR_OR, PR_AND, PR_NOT, PR_CMP, PR_SUM, PR_PROD, PR_NEG,
       PR_ATOM };

static int prec(int kind)
{
    switch (kind) {
    case LIT_C_IMP: return PR_IMP;
    case LIT_C_OR: return PR_OR;
    case LIT_C_AND: return PR_AND;
    case LIT_C_NOT: return PR_NOT;
    case LIT_C_EQ: case LIT_C_NE: case LIT_C_LT: case LIT_C_LE:
    case LIT_C_GT: case LIT_C_GE: case LIT_C_ARREQ: case LIT_C_ARRNE:
        return PR_CMP;
    case LIT_C_ADD: case LIT_C_SUB: return PR_SUM;
    case LIT_C_MUL: return PR_PROD;
    case LIT_C_NEG: return PR_NEG;
    default: return PR_ATOM;
    }
}

static void cond(BaseStr *s, const LitProgram *p, const LitCond *c, int min);

static const char *const binop[] = {
    [LIT_C_ADD] = "+", [LIT_C_SUB] = "-", [LIT_C_MUL] = "*",
    [LIT_C_EQ] = "==", [LIT_C_NE] = "!=", [LIT_C_LT] = "<",
    [LIT_C_LE] = "<=", [LIT_C_GT] = ">", [LIT_C_GE] = ">=",
    [LIT_C_AND] = "&&", [LIT_C_OR] = "||", [LIT_C_IMP] = "->",
    [LIT_C_ARREQ] = "==", [LIT_C_ARRNE] = "!=",
};

static void body(BaseStr *s, const LitProgram *p, const LitCond *c)
{
    int pr = prec(c->kind);
    switch (c->kind) {
    case LIT_C_INT:
        lit_print_int(s, c->val);
        return;
    case LIT_C_LOC: {
        const char *n = loc_name(p, c->loc);
        if (c->loc >= 0 && c->loc < p->nlocs && p->locs[c->loc].is_array)
            base_str_printf(s, "%s[%d]", n, c->index);
        else
            base_str_printf(s, "%s", n);
        return;
    }
    case LIT_C_REG:
        base_str_printf(s, "%d:r%d", c->gtid, c->reg);
        return;
    case LIT_C_NEG:
        base_str_printf(s, "-");
        cond(s, p, c->l, PR_NEG);
        return;
    case LIT_C_NOT:
        /* !(x == 1), not !x == 1, although both read the same */
        base_str_printf(s, "!");
        cond(s, p, c->l, c->l->kind == LIT_C_NOT ? PR_NOT : PR_ATOM);
        return;
    case LIT_C_ARREQ:
    case LIT_C_ARRNE:
        base_str_printf(s, "%s %s {", loc_name(p, c->loc), binop[c->kind]);
        for (int32_t i = 0; i < c->n; i++) {
            base_str_printf(s, "%s", i ? ", " : "");
            lit_print_int(s, c->vals[i]);
        }
        base_str_printf(s, "}");
        return;
    case LIT_C_IMP:                     /* right-associative */
        cond(s, p, c->l, pr + 1);
        base_str_printf(s, " -> ");
        cond(s, p, c->r, pr);
        return;
    default:                            /* left-associative binary */
        cond(s, p, c->l, pr == PR_CMP ? pr + 1 : pr);
        base_str_printf(s, " %s ", binop[c->kind]);
        cond(s, p, c->r, pr + 1);
        return;
    }
}

/* c, parenthesised when it binds looser than min */
static void cond(BaseStr *s, const LitProgram *p, const LitCond *c, int min)
{
    int paren = prec(c->kind) < min;
    base_str_printf(s, "%s", paren ? "(" : "");
    body(s, p, c);
    base_str_printf(s, "%s", paren ? ")" : "");
}

void lit_print_cond(BaseStr *s, const LitProgram *p, const LitCond *c)
{
    cond(s, p, c, PR_IMP);
}

int lit_format_cond(const LitProgram *p, const LitCond *c, char *buf,
                    size_t len)
{
    BaseStr s = {0};
    lit_print_cond(&s, p, c);
    int r = base_str_copy(&s, buf, len);
    base_str_free(&s);
    return r;
}

void lit_print_check_text(BaseStr *s, const LitProgram *p, const LitCheck *c)
{
    if (c->phase == LIT_NOERROR) {
        base_str_printf(s, "noerror");
        return;
    }
    base_str_printf(s, "%s (", lit_quant_names[c->quant]);
    lit_print_cond(s, p, c->cond);
    base_str_printf(s, ")");
}

/* ---- the program ------------------------------------------------------- */

/* Write out what s holds; -1 once an append ran out of memory or a write
   failed (the text then stops short). */
static int flush(FILE *f, BaseStr *s)
{
    if (s->failed)
        return -1;
    if (s->len && fwrite(s->s, 1, s->len, f) != s->len)
        s->failed = 1;
    base_str_clear(s);
    return s->failed ? -1 : 0;
}

static void decl(BaseStr *s, const LitLoc *l)
{
    static const char *const space[] = {"pm", "dram", "shared"};
    base_str_printf(s, "%s ", space[l->space]);
    if (l->elem != 8)
        base_str_printf(s, "u%d ", 8 * l->elem);
    base_str_printf(s, "%s", l->name);
    if (l->is_array)
        base_str_printf(s, "[%d]", l->size);
    int same = 1;
    for (int32_t i = 1; i < l->size; i++)
        same &= l->init[i] == l->init[0];
    base_str_printf(s, "%s", same ? " = " : " = {");
    for (int32_t i = 0; i < (same ? 1 : l->size); i++) {
        base_str_printf(s, "%s", i ? ", " : "");
        lit_print_int(s, l->init[i]);
    }
    base_str_printf(s, "%s", same ? "" : "}");
    if (l->pin >= 0)
        base_str_printf(s, " line %d", l->pin);
    base_str_printf(s, "\n");
}

/* Instructions at INDENT, labels on their own line 4 columns left. */
static void code(BaseStr *s, const LitProgram *p, const LitBody *b, int indent)
{
    int32_t l = 0;
    for (int32_t i = 0; i <= b->ninstr; i++) {
        for (; l < b->nlabels && b->labels[l].index == i; l++)
            base_str_printf(s, "%*s%s:\n", indent - 4, "", b->labels[l].name);
        if (i == b->ninstr)
            break;
        base_str_printf(s, "%*s", indent, "");
        instr(s, p, b, &b->code[i]);
        base_str_printf(s, "\n");
    }
}

/* "TEXT" with '"' and '\\' escaped, as the lexer reads strings. */
static void quoted(BaseStr *s, const char *text)
{
    base_str_printf(s, "\"");
    for (const char *c = text; *c; c++)
        base_str_printf(s, "%s%c", *c == '"' || *c == '\\' ? "\\" : "", *c);
    base_str_printf(s, "\"");
}

/* An entry name as a name when it reads back as one, else quoted
   ("ns::f"). */
static void entry_name(BaseStr *s, const char *e)
{
    int plain = (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') ||
                *e == '_';
    for (const char *c = e; *c && plain; c++)
        plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                (*c >= '0' && *c <= '9') || *c == '_';
    if (plain)
        base_str_printf(s, "%s", e);
    else
        quoted(s, e);
}

/* from "FILE" ENTRY(ARG, …): what the kernel was lowered from, not its
   instructions. */
static void from(BaseStr *s, const LitProgram *p, const LitKernel *k)
{
    base_str_printf(s, " from ");
    quoted(s, k->from);
    base_str_printf(s, " ");
    entry_name(s, k->entry);
    base_str_printf(s, "(");
    for (int32_t i = 0; i < k->nargs; i++) {
        base_str_printf(s, "%s", i ? ", " : "");
        if (k->args[i].loc >= 0)
            base_str_printf(s, "%s", loc_name(p, k->args[i].loc));
        else
            lit_print_int(s, k->args[i].value);
    }
    base_str_printf(s, ")\n");
}

static void kernel(BaseStr *s, const LitProgram *p, const LitKernel *k,
                   int indent)
{
    base_str_printf(s, "%*skernel %s grid %d block %d", indent, "", k->name,
                   k->grid, k->block);
    if (k->warp_set)
        base_str_printf(s, " warp %d", k->warp);
    if (k->from) {
        from(s, p, k);
        return;
    }
    base_str_printf(s, " {\n");
    for (int32_t i = 0; i < k->nbodies; i++) {
        const LitBody *b = &k->bodies[i];
        if (k->spmd) {
            code(s, p, b, indent + 4);
            continue;
        }
        base_str_printf(s, "%*sthread %d {\n", indent + 4, "", b->gtid);
        code(s, p, b, indent + 8);
        base_str_printf(s, "%*s}\n", indent + 4, "");
    }
    base_str_printf(s, "%*s}\n", indent, "");
}

static void check(BaseStr *s, const LitProgram *p, const LitCheck *c)
{
    base_str_printf(s, "check %s", lit_phase_names[c->phase]);
    if (c->phase != LIT_NOERROR) {
        base_str_printf(s, " ");
        lit_print_check_text(s, p, c);
    }
    const char *sep = " expect";
    for (int m = 0; m < LIT_NMODELS; m++) {
        if (c->expect[m] < 0)
            continue;
        base_str_printf(s, "%s %s=%s", sep, lit_model_names[m],
                       c->expect[m] ? "ok" : "no");
        sep = "";
    }
    base_str_printf(s, "\n");
}

int lit_print(FILE *f, const LitProgram *p)
{
    BaseStr s = {0};
    base_str_printf(&s, "test %s", p->name);
    if (p->doc) {
        base_str_printf(&s, " ");
        quoted(&s, p->doc);
    }
    base_str_printf(&s, "\n");
    if (p->nparams)
        base_str_printf(&s, "\n");
    for (int32_t i = 0; i < p->nparams; i++) {
        base_str_printf(&s, "param %s = ", p->params[i].name);
        lit_print_int(&s, p->params[i].value);
        base_str_printf(&s, "\n");
    }
    if (p->config.set)
        base_str_printf(&s, "\n");
    for (int k = 0; k < LIT_NCONFIG; k++) {
        if (!(p->config.set & (1u << k)))
            continue;
        char v[64];
        lit_config_format(&p->config, k, v, sizeof v);
        base_str_printf(&s, "config %s = %s\n", lit_config_name(k), v);
    }
    if (p->nlocs && !p->locs[0].ptx)    /* those come last */
        base_str_printf(&s, "\n");
    for (int32_t i = 0; i < p->nlocs; i++) {
        if (p->locs[i].ptx)             /* its kernel declares it */
            continue;
        decl(&s, &p->locs[i]);
        flush(f, &s);
    }
    for (int32_t i = 0; i < p->nmain; i++) {
        base_str_printf(&s, "\n");
        kernel(&s, p, &p->kernels[p->main_seq[i]], 0);
        flush(f, &s);
    }
    if (p->has_recover) {
        base_str_printf(&s, "\nrecover {\n");
        /* A recovery kernel is written where it is first launched: it is
           launched first at the first `run` that follows every earlier
           recovery kernel's first launch, i.e. recovery kernels appear in
           their own order. */
        int32_t written = p->nmain;     /* next recovery kernel to write */
        for (int32_t i = 0; i < p->nrecover; i++) {
            int32_t k = p->recover_seq[i];
            if (k >= written && p->kernels[k].recovery) {
                kernel(&s, p, &p->kernels[k], 4);
                written = k + 1;
            } else {
                base_str_printf(&s, "    run %s\n", p->kernels[k].name);
            }
            flush(f, &s);
        }
        base_str_printf(&s, "}\n");
    }
    if (p->nchecks)
        base_str_printf(&s, "\n");
    for (int32_t i = 0; i < p->nchecks; i++)
        check(&s, p, &p->checks[i]);
    int rc = flush(f, &s);
    base_str_free(&s);
    return rc;
}
