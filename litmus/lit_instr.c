/* lit_instr: instructions, operands and labels of a kernel body. */
#include <stdio.h>
#include <string.h>

#include "litmus/litmus_int.h"

/* A register token rN; an out-of-range N is reported and read as r0. */
static uint8_t reg_number(LitParser *P, LitBodyBuild *b, const LitToken *t)
{
    int64_t n;
    lit_lex_register(t, &n);
    lit_parse_advance(P);
    if (n >= LIT_NREGS) {
        lit_parse_error(P, t->pos, "register '%.*s' out of range (r0..r31)",
                        t->len, t->text);
        return 0;
    }
    b->regs_used |= 1u << n;
    return (uint8_t)n;
}

/* sreg := '%' NAME */
static uint8_t special(LitParser *P, LitPos *at)
{
    *at = P->tok.pos;
    lit_parse_advance(P);
    LitToken t = P->tok;
    if (t.kind != LT_IDENT)
        lit_parse_expected(P, "a special register name after '%'");
    lit_parse_advance(P);
    int s = lit_sreg_lookup(t.text, (size_t)t.len);
    if (s < 0) {
        lit_parse_error(P, *at, "unknown special register '%%%.*s'", t.len,
                        t.text);
        return 0;
    }
    return (uint8_t)s;
}

static int is_register(const LitToken *t)
{
    int64_t n;
    return lit_lex_register(t, &n) == 0;
}

/* dst := REG */
static uint8_t dst(LitParser *P, LitBodyBuild *b)
{
    if (is_register(&P->tok)) {
        LitToken t = P->tok;
        return reg_number(P, b, &t);
    }
    if (P->tok.kind == LT_PERCENT) {
        LitPos at;
        uint8_t s = special(P, &at);
        lit_parse_error(P, at, "cannot write special register '%s'",
                        lit_sreg_names[s]);
        return 0;
    }
    lit_parse_expected(P, "a register");
}

/* src := REG | SREG | expr */
static void src(LitParser *P, LitBodyBuild *b, LitOperand *o)
{
    LitPos at;
    if (is_register(&P->tok)) {
        LitToken t = P->tok;
        o->kind = LIT_OPD_REG;
        o->reg = reg_number(P, b, &t);
    } else if (P->tok.kind == LT_PERCENT) {
        o->kind = LIT_OPD_SREG;
        o->reg = special(P, &at);
    } else {
        int64_t v = 0;
        o->kind = LIT_OPD_IMM;
        if (lit_arith_expr(P, &v) == LIT_OK)
            o->imm = v;
    }
}

/* mem := NAME [ '[' ( expr | (REG | SREG) [ ('+' | '-') expr ] ) ']' ] */
static void mem(LitParser *P, LitBodyBuild *b, LitMem *m)
{
    LitToken t = P->tok;
    if (t.kind != LT_IDENT || is_register(&t))
        lit_parse_expected(P, "a memory operand");
    lit_parse_advance(P);
    m->loc = lit_parse_find_loc(P, t.text, (size_t)t.len);
    if (m->loc < 0) {
        if (lit_parse_find_param(P, t.text, (size_t)t.len) >= 0)
            lit_parse_error(P, t.pos, "'%.*s' is a param, not a location",
                            t.len, t.text);
        else
            lit_parse_error(P, t.pos, "undefined location '%.*s'", t.len,
                            t.text);
    }
    if (P->tok.kind != LT_LBRACK)
        return;
    lit_parse_open(P);
    int64_t k = 0;
    if (is_register(&P->tok) || P->tok.kind == LT_PERCENT) {
        src(P, b, &m->base);
        int neg = P->tok.kind == LT_MINUS;
        if (neg || P->tok.kind == LT_PLUS) {
            lit_parse_advance(P);
            if (lit_arith_expr(P, &k) == LIT_OK)
                m->off = neg ? (int64_t)(0 - (uint64_t)k) : k;
        }
    } else if (lit_arith_expr(P, &k) == LIT_OK) {
        m->off = k;
    }
    lit_parse_close(P, LT_RBRACK, "']'");
}

/* lbl := NAME */
static void label_ref(LitParser *P, LitBodyBuild *b)
{
    LitToken t = P->tok;
    if (t.kind != LT_IDENT || memchr(t.text, '.', (size_t)t.len))
        lit_parse_expected(P, "a label");
    lit_parse_advance(P);
    LitLabelRef *r = LIT_PUSH(P, b->refs, b->nrefs, b->caprefs);
    r->instr = b->ninstr;
    r->name = lit_parse_strndup(P, t.text, (size_t)t.len);
    r->pos = t.pos;
}

static void operand_count(LitParser *P, int op, const char *what)
{
    lit_parse_syntax(P, P->tok.pos, "too %s operands for '%s' (expected "
                     "'%s%s')", what, lit_opcode_name(op),
                     lit_opcode_name(op), lit_opcode_usage(op));
}

static void comma(LitParser *P, int op)
{
    if (lit_parse_at_end(P))
        operand_count(P, op, "few");
    lit_parse_expect(P, LT_COMMA, "','");
}

static const struct {
    int tok, cmp;
} cmps[] = {
    {LT_EQ, LIT_CMP_EQ}, {LT_NE, LIT_CMP_NE}, {LT_LT, LIT_CMP_LT},
    {LT_LE, LIT_CMP_LE}, {LT_GT, LIT_CMP_GT}, {LT_GE, LIT_CMP_GE},
};

/* instr := OPCODE operands, shaped by the opcode (lit_opcode.c) */
void lit_instr_parse(LitParser *P, LitBodyBuild *b, const LitToken *optok)
{
    int op = lit_opcode_lookup(optok->text, (size_t)optok->len);
    if (op < 0)
        lit_parse_syntax(P, optok->pos, "unknown instruction '%.*s'",
                         optok->len, optok->text);
    LitInstr in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.pos = optok->pos;
    int shape = lit_opcode_shape(op);
    if (shape != LIT_SH_NONE && lit_parse_at_end(P))
        operand_count(P, op, "few");
    switch (shape) {
    case LIT_SH_NONE:
        break;
    case LIT_SH_LD:
        in.rd = dst(P, b);
        comma(P, op);
        mem(P, b, &in.m);
        break;
    case LIT_SH_ST:
        mem(P, b, &in.m);
        comma(P, op);
        src(P, b, &in.a);
        break;
    case LIT_SH_ATOM:
    case LIT_SH_CAS:
        in.rd = dst(P, b);
        comma(P, op);
        mem(P, b, &in.m);
        comma(P, op);
        src(P, b, &in.a);
        if (shape == LIT_SH_CAS) {
            comma(P, op);
            src(P, b, &in.b);
        }
        break;
    case LIT_SH_MOV:
        in.rd = dst(P, b);
        comma(P, op);
        src(P, b, &in.a);
        break;
    case LIT_SH_ALU:
        in.rd = dst(P, b);
        comma(P, op);
        src(P, b, &in.a);
        comma(P, op);
        src(P, b, &in.b);
        break;
    case LIT_SH_BRA:
        label_ref(P, b);
        break;
    case LIT_SH_BCOND:
        src(P, b, &in.a);
        comma(P, op);
        src(P, b, &in.b);
        comma(P, op);
        label_ref(P, b);
        break;
    case LIT_SH_ASSERT: {
        src(P, b, &in.a);
        int cmp = -1;
        for (size_t i = 0; i < sizeof cmps / sizeof cmps[0]; i++)
            if (P->tok.kind == cmps[i].tok)
                cmp = cmps[i].cmp;
        if (cmp < 0)
            lit_parse_expected(P, "a comparison (== != < <= > >=)");
        lit_parse_advance(P);
        in.cmp = (uint8_t)cmp;
        src(P, b, &in.b);
        break;
    }
    default:                            /* LIT_SH_MEM */
        mem(P, b, &in.m);
        break;
    }
    if (P->tok.kind == LT_COMMA || (shape == LIT_SH_NONE && !lit_parse_at_end(P)))
        operand_count(P, op, "many");
    if (b->ninstr == LIT_MAX_INSTRS) {
        if (!b->full)
            lit_parse_error(P, in.pos, "too many instructions: a body holds "
                            "at most %d", LIT_MAX_INSTRS);
        b->full = 1;
        return;
    }
    *LIT_PUSH(P, b->code, b->ninstr, b->capinstr) = in;
}

/* label := NAME ':' — the name token was read, ':' is current */
void lit_instr_label(LitParser *P, LitBodyBuild *b, const LitToken *t)
{
    if (memchr(t->text, '.', (size_t)t->len))
        lit_parse_syntax(P, t->pos, "invalid label name '%.*s'", t->len,
                         t->text);
    int32_t i = lit_names_find(&b->label_names, t->text, (size_t)t->len);
    if (i >= 0) {
        lit_parse_error(P, t->pos, "duplicate label '%s' (first at %d:%d)",
                        b->labels[i].name, b->label_pos[i].line,
                        b->label_pos[i].col);
        return;
    }
    int32_t n = b->nlabels, npos = n;
    LitLabel *l = LIT_PUSH(P, b->labels, b->nlabels, b->caplabels);
    l->name = lit_parse_strndup(P, t->text, (size_t)t->len);
    l->index = b->ninstr;
    *LIT_PUSH(P, b->label_pos, npos, b->caplabel_pos) = t->pos;
    lit_parse_name(P, &b->label_names, l->name, n);
}

void lit_instr_finish(LitParser *P, LitBodyBuild *b, LitBody *out)
{
    for (int32_t r = 0; r < b->nrefs; r++) {
        const LitLabelRef *ref = &b->refs[r];
        int32_t i = lit_names_find(&b->label_names, ref->name,
                                   strlen(ref->name));
        if (i < 0)
            lit_parse_error(P, ref->pos, "undefined label '%s'", ref->name);
        else if (ref->instr < b->ninstr)    /* else its instruction failed */
            b->code[ref->instr].target = b->labels[i].index;
    }
    memset(out, 0, sizeof *out);
    out->ninstr = b->ninstr;
    out->code = b->code;
    out->nlabels = b->nlabels;
    out->labels = b->labels;
}

/* ---- registers an instruction uses -------------------------------------- */

static int reg_of(const LitOperand *o, uint16_t *regs, int n)
{
    if (o->kind == LIT_OPD_REG)
        regs[n++] = o->reg;
    return n;
}

int lit_instr_reads(const LitInstr *in, uint16_t *regs)
{
    unsigned f = lit_opflags(in->op);
    int n = 0;
    if (in->guard)
        regs[n++] = (uint16_t)(in->guard - 1);
    n = reg_of(&in->a, regs, n);
    n = reg_of(&in->b, regs, n);
    n = reg_of(&in->c, regs, n);
    if (f & LIT_OPF_MEM)
        n = reg_of(&in->m.base, regs, n);
    if (!(f & LIT_OPF_READ))            /* a vector store's sources */
        for (int k = 1; k < lit_instr_elems(in); k++)
            regs[n++] = in->vreg[k - 1];
    assert(n <= LIT_MAX_READS);
    return n;
}

int lit_instr_sets(const LitInstr *in, uint16_t *regs)
{
    int n = 0;
    if (!(lit_opflags(in->op) & LIT_OPF_SETS_RD))
        return 0;
    regs[n++] = in->rd;
    for (int k = 1; k < lit_instr_elems(in); k++)
        regs[n++] = in->vreg[k - 1];
    return n;
}
