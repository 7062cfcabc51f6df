/*
 * lit_ptx_lower.c — one PTX entry lowered to the program IR: the mapping
 * table of DESIGN section 7, one PTX instruction to one LitInstr (one
 * step). Anything outside the subset is an error naming the CUDA line (or
 * the PTX line) and the instruction, never skipped: a checker that drops
 * what it does not understand would report Ok for code it never read.
 *
 *   statement := '{' | '}' | label ':' | directive
 *              | ['@' ['!'] PRED] OPCODE [operand {',' operand}] ';'
 *   operand   := REG | SREG | NUM | ['-'] NUM | SYMBOL
 *              | '{' REG {',' REG} '}'
 *              | '[' (REG | SYMBOL | NUM) [('+' | '-') NUM] ']'
 *
 * Registers are numbered per entry in order of first use, their PTX
 * names kept for witnesses. A parameter load (ld.param) becomes a mov of
 * the argument's value; a location's address (and a __shared__
 * variable's) is only known after the layout, so the operand is recorded
 * as a fixup (LitFixup) that lit_lower.c patches. The .shared variables
 * an entry uses become shared locations of the test (LitPtxLoc), named by
 * their PTX symbol, with elements of their alignment. Every lowered
 * instruction keeps its PTX text for witnesses and its CUDA line (from
 * .loc) as its position. specs/ptx.md has the subset and the decisions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus_int.h"

#define MAX_OPS 6                       /* operands of one instruction */
#define MAX_MODS 8                      /* dotted parts of an opcode */

enum { O_REG, O_SREG, O_IMM, O_SYM, O_MEM, O_VEC };

typedef struct {
    int kind;                           /* O_* */
    LitOperand o;                       /* REG, SREG, IMM; MEM: its base */
    int64_t off;                        /* MEM: the constant offset */
    const PtxTok *sym;                  /* SYM; MEM: a symbol base */
    int nvec;                           /* VEC: its registers */
    uint16_t vregs[LIT_MAX_VEC];
} Opnd;

typedef struct {
    LitParser *P;
    PtxModule *mod;
    const PtxEntry *e;
    const LitArg *args;
    LitKernelX *kx;
    LitNames regs;                      /* register name -> number */
    uint8_t *used;
    const char **names;                 /* register number -> PTX name */
    int32_t nregs, capused, capnames;
    LitInstr *code;
    const char **text;
    int32_t ninstr, capcode, captext;
    LitLabel *labels;
    int32_t nlabels, caplabels;
    LitNames label_names;
    struct Ref { int32_t instr; const PtxTok *t; } *refs;
    int32_t nrefs, caprefs;
    const char *file;                   /* the body's file (LitBody.file) */
    int32_t line, col;                  /* the current .loc in it, or 0 */
    int32_t sink;                       /* red's discarded result, or -1 */
    struct Pend {                       /* fixups of this body, by index */
        int32_t instr, loc;
        uint8_t field, window, ptx;
    } *pend;
    int32_t *shared_loc;                /* per module shared variable: its
                                           LitParser.ptxlocs index, or -1 */
    int32_t npend, cappend;
    uint8_t has_call;                   /* the body calls a function */
    struct {                            /* where local memory is first used:
                                           reported once, at the end */
        int prio;                       /* 0 none, 1 an address, 2 an access */
        int32_t ptx_line, line, col;
        const char *file;
    } local;
    uint8_t covered;                    /* the statement is dropped for an
                                           error reported already */
    /* the statement being lowered */
    const PtxTok *optok;
    int32_t ptx_line;
    char *mods[MAX_MODS];
    int nmods;
} Low;

static int is(const PtxTok *t, const char *s)
{
    size_t n = strlen(s);
    return (size_t)t->len == n && !memcmp(t->text, s, n);
}

/* An error about the statement being lowered; the statement is dropped. */
static void fail(Low *L, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void fail(Low *L, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    lit_ptx_error(L->P, L->mod, L->ptx_line, L->line ? L->file : NULL,
                  L->line, L->col, "%s (in entry %s)", msg, L->e->name);
}

/* ---- registers ------------------------------------------------------------ */

/* A fresh register number named name, marked used. */
static int32_t new_reg(Low *L, const char *name)
{
    int32_t r = L->nregs, n = r;
    *LIT_PUSH(L->P, L->names, n, L->capnames) = name;
    *LIT_PUSH(L->P, L->used, L->nregs, L->capused) = 1;
    return r;
}

static int32_t reg_of(Low *L, const PtxTok *t)
{
    int32_t r = lit_names_find(&L->regs, t->text, (size_t)t->len);
    if (r >= 0)
        return r;
    if (L->nregs >= UINT16_MAX - 1) {
        fail(L, "more than %d registers", UINT16_MAX - 1);
        return 0;
    }
    const char *name = lit_parse_strndup(L->P, t->text, (size_t)t->len);
    r = new_reg(L, name);
    lit_parse_name(L->P, &L->regs, name, r);
    return r;
}

static const struct {
    const char *name;
    int sreg;                           /* LitSreg, or -1: the value */
    int64_t value;
} sregs[] = {
    {"%tid.x", LIT_SR_TID, 0}, {"%tid.y", -1, 0}, {"%tid.z", -1, 0},
    {"%ntid.x", LIT_SR_NTID, 0}, {"%ntid.y", -1, 1}, {"%ntid.z", -1, 1},
    {"%ctaid.x", LIT_SR_CTAID, 0}, {"%ctaid.y", -1, 0}, {"%ctaid.z", -1, 0},
    {"%nctaid.x", LIT_SR_NCTAID, 0}, {"%nctaid.y", -1, 1},
    {"%nctaid.z", -1, 1}, {"%laneid", LIT_SR_LANEID, 0},
    {"%warpid", LIT_SR_WARPID, 0},
};

/* Whether t is one of PTX's other special registers (PTX ISA, "Special
   Registers"): reading one as an ordinary register would give 0. A name
   in `exact`, or one of `numbered` followed by a digit or a '.'. */
static int other_sreg(const PtxTok *t)
{
    static const char *const exact[] = {
        "%nwarpid", "%smid", "%nsmid", "%gridid", "%lanemask_eq",
        "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
        "%clock", "%clock64", "%clock_hi", "%globaltimer", "%globaltimer_lo",
        "%globaltimer_hi", "%total_smem_size", "%dynamic_smem_size",
        "%aggr_smem_size", "%is_explicit_cluster", "%cluster_ctarank",
        "%cluster_nctarank", "%current_graph_exec",
    };
    static const char *const numbered[] = {
        "%tid", "%ntid", "%ctaid", "%nctaid", "%pm", "%envreg",
        "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid",
        "%reserved_smem_offset",
    };
    for (size_t k = 0; k < sizeof exact / sizeof exact[0]; k++)
        if (is(t, exact[k]))
            return 1;
    for (size_t k = 0; k < sizeof numbered / sizeof numbered[0]; k++) {
        size_t n = strlen(numbered[k]);
        if ((size_t)t->len > n && !memcmp(t->text, numbered[k], n) &&
            ((t->text[n] >= '0' && t->text[n] <= '9') || t->text[n] == '.' ||
             t->text[n] == '_'))
            return 1;
    }
    return 0;
}

/* ---- operands --------------------------------------------------------------- */

static int64_t number(Low *L, const PtxTok *t, int neg)
{
    char buf[40], *end;
    uint64_t v;
    if (t->len >= (int32_t)sizeof buf || (t->len > 1 && t->text[0] == '0' &&
                                          (t->text[1] == 'f' ||
                                           t->text[1] == 'F' ||
                                           t->text[1] == 'd' ||
                                           t->text[1] == 'D'))) {
        fail(L, "'%.*s': floating point is not modelled", t->len, t->text);
        return 0;
    }
    memcpy(buf, t->text, (size_t)t->len);
    buf[t->len] = '\0';
    if (t->len > 1 && buf[t->len - 1] == 'U')
        buf[t->len - 1] = '\0';
    errno = 0;
    if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
        v = strtoull(buf + 2, &end, 2);
    else
        v = strtoull(buf, &end, 0);
    if (errno == ERANGE) {
        fail(L, "'%.*s' does not fit in 64 bits", t->len, t->text);
        return 0;
    }
    if (*end) {
        fail(L, "bad number '%.*s'", t->len, t->text);
        return 0;
    }
    return neg ? (int64_t)(0 - v) : (int64_t)v;
}

/* Reads one operand at token *i; 0 ok. */
static int operand(Low *L, int32_t *i, Opnd *out)
{
    const PtxTok *t = &L->mod->tok[*i];
    memset(out, 0, sizeof *out);
    if (is(t, "[")) {
        const PtxTok *b = &L->mod->tok[++*i];
        out->kind = O_MEM;
        if (b->kind == PT_ID && b->text[0] == '%') {
            out->o.kind = LIT_OPD_REG;
            out->o.reg = (uint16_t)reg_of(L, b);
        } else if (b->kind == PT_ID) {
            out->sym = b;
        } else if (b->kind == PT_NUM) {
            out->off = number(L, b, 0);
        } else {
            fail(L, "bad address operand");
            return -1;
        }
        t = &L->mod->tok[++*i];
        if (is(t, "+") || is(t, "-")) {
            int neg = is(t, "-");
            t = &L->mod->tok[++*i];
            if (is(t, "-")) {
                neg = !neg;
                t = &L->mod->tok[++*i];
            }
            if (t->kind != PT_NUM) {
                fail(L, "bad address offset");
                return -1;
            }
            out->off = (int64_t)((uint64_t)out->off +
                                 (uint64_t)number(L, t, neg));
            t = &L->mod->tok[++*i];
        }
        if (!is(t, "]")) {
            fail(L, "expected ']' in an address");
            return -1;
        }
        ++*i;
        return 0;
    }
    if (is(t, "{")) {                   /* {%r1, %r2}: a vector */
        out->kind = O_VEC;
        for (;;) {
            t = &L->mod->tok[++*i];
            if (t->kind != PT_ID || t->text[0] != '%' ||
                out->nvec == LIT_MAX_VEC) {
                fail(L, out->nvec == LIT_MAX_VEC
                            ? "a vector of more than %d elements"
                            : "a vector element must be a register",
                     LIT_MAX_VEC);
                return -1;
            }
            out->vregs[out->nvec++] = (uint16_t)reg_of(L, t);
            t = &L->mod->tok[++*i];
            if (is(t, "}"))
                break;
            if (!is(t, ",")) {
                fail(L, "expected ',' or '}' in a vector");
                return -1;
            }
        }
        ++*i;
        return 0;
    }
    if (is(t, "-") && L->mod->tok[*i + 1].kind == PT_NUM) {
        ++*i;
        out->kind = O_IMM;
        out->o.kind = LIT_OPD_IMM;
        out->o.imm = number(L, &L->mod->tok[*i], 1);
        ++*i;
        return 0;
    }
    if (t->kind == PT_NUM) {
        out->kind = O_IMM;
        out->o.kind = LIT_OPD_IMM;
        out->o.imm = number(L, t, 0);
        ++*i;
        return 0;
    }
    if (t->kind == PT_ID && t->text[0] == '%') {
        for (size_t k = 0; k < sizeof sregs / sizeof sregs[0]; k++)
            if (is(t, sregs[k].name)) {
                out->kind = sregs[k].sreg >= 0 ? O_SREG : O_IMM;
                out->o.kind = sregs[k].sreg >= 0 ? LIT_OPD_SREG : LIT_OPD_IMM;
                out->o.reg = (uint16_t)(sregs[k].sreg >= 0 ? sregs[k].sreg
                                                           : 0);
                out->o.imm = sregs[k].value;
                ++*i;
                return 0;
            }
        if (other_sreg(t)) {
            fail(L, "special register '%.*s' is not modelled", t->len,
                 t->text);
            return -1;
        }
        out->kind = O_REG;
        out->o.kind = LIT_OPD_REG;
        out->o.reg = (uint16_t)reg_of(L, t);
        ++*i;
        return 0;
    }
    if (t->kind == PT_ID) {
        out->kind = O_SYM;
        out->sym = t;
        ++*i;
        return 0;
    }
    fail(L, "unexpected '%.*s' in operands", t->len, t->text);
    return -1;
}

/* ---- symbols: parameters and shared variables ------------------------------ */

static int param_of(Low *L, const PtxTok *t)
{
    for (int32_t k = 0; k < L->e->nparams; k++)
        if (is(t, L->e->params[k].name))
            return k;
    return -1;
}

/* The pending location (LitParser.ptxlocs) of module shared variable t,
   made on its first use in this entry; -1 when t is not one, -2 after
   reporting that it cannot be one. */
static int32_t shared_of(Low *L, const PtxTok *t)
{
    LitParser *P = L->P;
    for (int32_t k = 0; k < L->mod->nshared; k++) {
        const PtxShared *v = &L->mod->shared[k];
        if (!is(t, v->name))
            continue;
        if (!L->shared_loc) {
            L->shared_loc = lit_parse_alloc(P, (size_t)L->mod->nshared *
                                                   sizeof *L->shared_loc);
            for (int32_t j = 0; j < L->mod->nshared; j++)
                L->shared_loc[j] = -1;
        }
        if (L->shared_loc[k] >= 0)
            return L->shared_loc[k];
        if (v->bytes <= 0) {
            fail(L, "__shared__ '%s' has no size (dynamic shared memory is "
                 "not modelled: give the array a size)", v->name);
            return -2;
        }
        int elem = v->align >= 8 ? 8 : v->align >= 4 ? 4 : v->align >= 2 ? 2
                                                                        : 1;
        LitPtxLoc *x = LIT_PUSH(P, P->ptxlocs, P->nptxlocs, P->capptxlocs);
        memset(x, 0, sizeof *x);
        x->x.l.name = v->name;
        x->x.l.space = LIT_SHARED;
        x->x.l.is_array = 1;
        x->x.l.elem = (uint8_t)elem;
        x->x.l.ptx = 1;
        x->x.l.size = v->bytes / elem > 0 ? v->bytes / elem : 1;
        x->x.l.init = lit_parse_alloc(P, (size_t)x->x.l.size *
                                             sizeof(int64_t));
        x->x.l.pin = -1;
        x->x.l.pos = L->kx->k.pos;
        x->recovery = L->kx->k.recovery;
        x->kernel = L->kx->k.recovery ? P->nrk - 1 : P->nmk - 1;
        x->loc = -1;
        L->shared_loc[k] = P->nptxlocs - 1;
        return L->shared_loc[k];
    }
    return -1;
}

enum { F_A_IMM, F_M_OFF };

/* The instruction being lowered (it will be number ninstr) takes loc's
   address in a field: its generic address (window 1) or its shared-window
   offset (0). The body's code array still moves, so the field is named by
   index and made a pointer at the end (lit_ptx_lower). */
static void fixup(Low *L, int field, int32_t loc, int window, int ptx)
{
    struct Pend *f = LIT_PUSH(L->P, L->pend, L->npend, L->cappend);
    f->instr = L->ninstr;
    f->loc = loc;
    f->field = (uint8_t)field;
    f->window = (uint8_t)window;
    f->ptx = (uint8_t)ptx;
}

/* ---- opcodes ---------------------------------------------------------------- */

/* LitType of a type modifier (.s32 .b64 .pred …); -1 when it is not a
   type, -2 for a floating-point type. */
static int type_of(const char *m)
{
    static const struct { const char *name; int ty; } t[] = {
        {"s8", LIT_S8}, {"s16", LIT_S16}, {"s32", LIT_S32}, {"s64", LIT_S64},
        {"u8", LIT_U8}, {"u16", LIT_U16}, {"u32", LIT_U32}, {"u64", LIT_U64},
        {"b8", LIT_U8}, {"b16", LIT_U16}, {"b32", LIT_U32}, {"b64", LIT_U64},
        {"pred", LIT_PRED},
        {"f16", -2}, {"f16x2", -2}, {"bf16", -2}, {"f32", -2}, {"f64", -2},
        {"tf32", -2},
    };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (!strcmp(m, t[k].name))
            return t[k].ty;
    return -1;
}

static int has(const Low *L, const char *m)
{
    for (int k = 1; k < L->nmods; k++)
        if (!strcmp(L->mods[k], m))
            return 1;
    return 0;
}

/* Every modifier of the opcode is a type or in `ok` (space-separated);
   the types found, in order, into ty[0..1]. 0 ok, -1 reported. */
static int mods_ok(Low *L, const char *ok, int ty[2], int ntypes)
{
    int n = 0;
    ty[0] = ty[1] = -1;
    for (int k = 1; k < L->nmods; k++) {
        int t = type_of(L->mods[k]);
        if (t == -2) {
            fail(L, "'%.*s': floating point is not modelled",
                 L->optok->len, L->optok->text);
            return -1;
        }
        if (t >= 0 && n < ntypes) {
            ty[n++] = t;
            continue;
        }
        char pat[64];
        snprintf(pat, sizeof pat, " %s ", L->mods[k]);
        char list[256];
        snprintf(list, sizeof list, " %s ", ok);
        if (t >= 0 || !strstr(list, pat)) {
            fail(L, "'%.*s': modifier '.%s' is not in the PTX subset "
                 "(specs/ptx.md)", L->optok->len, L->optok->text,
                 L->mods[k]);
            return -1;
        }
    }
    if (n < ntypes) {
        fail(L, "'%.*s' needs a type", L->optok->len, L->optok->text);
        return -1;
    }
    return 0;
}

/* A use of local memory (access: an ld/st of it, else its declaration or
   address): reported once per entry, at its first access if any (clang's
   stack frame is many instructions on __local_depot, the first of them
   on the function's line). -1. */
static int local_use(Low *L, int access)
{
    int prio = access ? 2 : 1;
    if (L->local.prio < prio) {
        L->local.prio = prio;
        L->local.ptx_line = L->ptx_line;
        L->local.line = L->line;
        L->local.col = L->col;
        L->local.file = L->file;
    }
    L->covered = 1;
    return -1;
}

/* Passing an argument to a call or reading its result: the call itself
   is the error (precheck). -1. */
static int call_param(Low *L, const char *what)
{
    if (L->has_call) {
        L->covered = 1;
        return -1;
    }
    fail(L, "%s", what);
    return -1;
}

static int need(Low *L, int n, int want)
{
    if (n == want)
        return 0;
    fail(L, "'%.*s' takes %d operands, found %d", L->optok->len,
         L->optok->text, want, n);
    return -1;
}

static int is_reg(Low *L, const Opnd *o)
{
    if (o->kind == O_REG)
        return 1;
    fail(L, o->kind == O_VEC ? "a vector operand needs .v2 or .v4"
                             : "expected a register");
    return 0;
}

/* The elements of a .v2/.v4 access (0: not one). */
static int vec_of(const Low *L)
{
    return has(L, "v4") ? 4 : has(L, "v2") ? 2 : 0;
}

/* Vector operand o of an access of n elements into in: element 0 is
   *first (rd or a), the others in->vreg. 0 ok. */
static int vec_regs(Low *L, const Opnd *o, int n, LitInstr *in,
                    LitOperand *first)
{
    if (o->kind != O_VEC || o->nvec != n) {
        fail(L, "'%.*s' needs a vector of %d registers {%%a, …}",
             L->optok->len, L->optok->text, n);
        return -1;
    }
    in->vec = (uint8_t)n;
    first->kind = LIT_OPD_REG;
    first->reg = o->vregs[0];
    for (int k = 1; k < n; k++)
        in->vreg[k - 1] = o->vregs[k];
    return 0;
}

/* A source operand: a register, special register or number. */
static int src(Low *L, const Opnd *o, LitOperand *out)
{
    if (o->kind == O_REG || o->kind == O_SREG || o->kind == O_IMM) {
        *out = o->o;
        return 0;
    }
    if (o->kind == O_VEC) {
        fail(L, "a vector operand needs .v2 or .v4");
        return -1;
    }
    if (o->kind == O_MEM || !o->sym) {
        fail(L, "an address [..] cannot be a value here");
        return -1;
    }
    fail(L, "'%.*s' cannot be a value here", o->sym->len, o->sym->text);
    return -1;
}

/* A memory operand into in->m: a register or symbol address. shared: the
   instruction names the .shared space. */
static int mem(Low *L, const Opnd *o, int shared, LitInstr *in)
{
    if (o->kind != O_MEM) {
        fail(L, "expected an address [..]");
        return -1;
    }
    in->m.loc = LIT_MEM_ADDR;
    in->m.aspace = (uint8_t)(shared ? LIT_AS_SHARED : LIT_AS_GENERIC);
    in->m.base = o->o;
    in->m.off = o->off;
    if (o->sym) {
        int32_t loc = shared_of(L, o->sym);
        if (loc == -2)
            return -1;
        if (loc < 0) {
            fail(L, param_of(L, o->sym) >= 0
                        ? "a parameter's address is not modelled"
                        : "'%.*s' is not a location gpmc knows (only "
                          "__shared__ variables and the arguments' "
                          "locations)", o->sym->len, o->sym->text);
            return -1;
        }
        in->m.aspace = LIT_AS_SHARED;
        fixup(L, F_M_OFF, loc, 0, 1);
    }
    return 0;
}

static int space_shared(const Low *L)
{
    return has(L, "shared");
}

/* ld: parameter loads become movs of the argument. */
static int op_ld(Low *L, Opnd *o, int n, LitInstr *in)
{
    int ty[2];
    if (has(L, "param")) {
        if (mods_ok(L, "param", ty, 1) || need(L, n, 2) || !is_reg(L, &o[0]))
            return -1;
        int k = o[1].kind == O_MEM && o[1].sym ? param_of(L, o[1].sym) : -1;
        if (k < 0 && o[1].kind == O_MEM && o[1].sym)
            return call_param(L, "only whole scalar parameters are modelled");
        if (k < 0 || o[1].off) {
            fail(L, "only whole scalar parameters are modelled");
            return -1;
        }
        in->op = LIT_MOV;
        in->ty = in->sty = (uint8_t)ty[0];
        in->rd = o[0].o.reg;
        in->a.kind = LIT_OPD_IMM;
        in->a.imm = L->args[k].value;
        if (L->args[k].loc >= 0)
            fixup(L, F_A_IMM, L->args[k].loc, 1, 0);
        return 0;
    }
    if (has(L, "local"))
        return local_use(L, 1);
    if (has(L, "const") || has(L, "tex")) {
        fail(L, "'%.*s': only global, generic and shared memory are "
             "modelled", L->optok->len, L->optok->text);
        return -1;
    }
    if (mods_ok(L, "global shared weak relaxed acquire volatile ca cg cs lu "
                "cv nc cta gpu sys v2 v4", ty, 1) ||
        need(L, n, 2))
        return -1;
    if (vec_of(L)) {
        LitOperand r;
        if (vec_regs(L, &o[0], vec_of(L), in, &r))
            return -1;
        in->rd = r.reg;
    } else if (!is_reg(L, &o[0])) {
        return -1;
    } else {
        in->rd = o[0].o.reg;
    }
    in->op = LIT_LD;
    in->ty = in->sty = (uint8_t)ty[0];
    return mem(L, &o[1], space_shared(L), in);
}

static int op_st(Low *L, Opnd *o, int n, LitInstr *in)
{
    int ty[2];
    if (has(L, "local"))
        return local_use(L, 1);
    if (has(L, "param")) {
        char what[200];
        snprintf(what, sizeof what, "'%.*s': only global, generic and shared "
                 "memory are modelled", L->optok->len, L->optok->text);
        return call_param(L, what);
    }
    if (mods_ok(L, "global shared weak relaxed release volatile wb wt cg cs "
                "cta gpu sys v2 v4", ty, 1) ||
        need(L, n, 2) ||
        (vec_of(L) ? vec_regs(L, &o[1], vec_of(L), in, &in->a)
                   : src(L, &o[1], &in->a)))
        return -1;
    in->op = has(L, "wt") ? LIT_ST_WT : LIT_ST;
    in->ty = in->sty = (uint8_t)ty[0];
    return mem(L, &o[0], space_shared(L), in);
}

static int op_atom(Low *L, Opnd *o, int n, LitInstr *in, int red)
{
    static const struct { const char *m; int op; } ops[] = {
        {"add", LIT_ATOM_ADD}, {"exch", LIT_ATOM_EXCH}, {"cas", LIT_ATOM_CAS},
        {"and", LIT_ATOM_AND}, {"or", LIT_ATOM_OR}, {"xor", LIT_ATOM_XOR},
        {"min", LIT_ATOM_MIN}, {"max", LIT_ATOM_MAX}, {"inc", LIT_ATOM_INC},
        {"dec", LIT_ATOM_DEC},
    };
    int ty[2], op = -1, k = 0;
    for (size_t j = 0; j < sizeof ops / sizeof ops[0]; j++)
        if (has(L, ops[j].m))
            op = ops[j].op;
    if (op < 0) {
        fail(L, "'%.*s': an atomic operation gpmc does not model",
             L->optok->len, L->optok->text);
        return -1;
    }
    if (mods_ok(L, "global shared add exch cas and or xor min max inc dec "
                "relaxed acquire release acq_rel cta gpu sys", ty, 1))
        return -1;
    if (red) {
        if (L->sink < 0)
            L->sink = new_reg(L, "_");
        in->rd = (uint16_t)L->sink;
    } else {
        if (need(L, n, op == LIT_ATOM_CAS ? 4 : 3) || !is_reg(L, &o[0]))
            return -1;
        in->rd = o[0].o.reg;
        k = 1;
    }
    if (need(L, n - k, op == LIT_ATOM_CAS ? 3 : 2) ||
        src(L, &o[k + 1], &in->a) ||
        (op == LIT_ATOM_CAS && src(L, &o[k + 2], &in->b)))
        return -1;
    in->op = (uint8_t)op;
    in->ty = in->sty = (uint8_t)ty[0];
    return mem(L, &o[k], space_shared(L), in);
}

static int op_fence(Low *L, int n, LitInstr *in)
{
    int ty[2];
    if (need(L, n, 0))
        return -1;
    if (!strcmp(L->mods[0], "fence") &&
        !(has(L, "sc") || has(L, "acq_rel"))) {
        fail(L, "'%.*s': only fence.sc and fence.acq_rel are modelled",
             L->optok->len, L->optok->text);
        return -1;
    }
    if (mods_ok(L, "sc acq_rel cta gl gpu sys", ty, 0))
        return -1;
    in->op = has(L, "cta") ? LIT_MEMBAR_CTA
             : has(L, "sys") ? LIT_MEMBAR_SYS : LIT_SFENCE;
    if (!has(L, "cta") && !has(L, "sys") && !has(L, "gl") && !has(L, "gpu")) {
        fail(L, "'%.*s' needs a scope", L->optok->len, L->optok->text);
        return -1;
    }
    return 0;
}

static int op_bar(Low *L, Opnd *o, int n, LitInstr *in)
{
    int ty[2];
    if (!has(L, "sync")) {
        fail(L, "'%.*s': only bar.sync 0 (__syncthreads) is modelled",
             L->optok->len, L->optok->text);
        return -1;
    }
    if (mods_ok(L, "sync aligned", ty, 0))
        return -1;
    if (n != 1 || o[0].kind != O_IMM || o[0].o.imm != 0) {
        fail(L, "'%.*s': only barrier 0 without a thread count "
             "(__syncthreads) is modelled", L->optok->len, L->optok->text);
        return -1;
    }
    in->op = LIT_BAR_SYNC;
    return 0;
}

/* mov, cvta, cvt: a register (or a converted one), a number, a special
   register, or a shared variable's address. */
static int op_mov(Low *L, Opnd *o, int n, LitInstr *in)
{
    int ty[2], base = !strcmp(L->mods[0], "cvt") ? 2 : 1;
    int cvta = !strcmp(L->mods[0], "cvta");
    if ((cvta && has(L, "local")) ||
        (n == 2 && o[1].kind == O_SYM && o[1].sym->len >= 13 &&
         !memcmp(o[1].sym->text, "__local_depot", 13)))
        return local_use(L, 0);
    if (mods_ok(L, cvta ? "to global shared generic" : "", ty, base) ||
        need(L, n, 2) || !is_reg(L, &o[0]))
        return -1;
    in->op = LIT_MOV;
    in->rd = o[0].o.reg;
    in->ty = (uint8_t)ty[0];
    in->sty = (uint8_t)(base == 2 ? ty[1] : ty[0]);
    if (o[1].kind == O_SYM) {
        int32_t loc = shared_of(L, o[1].sym);
        if (loc == -2)
            return -1;
        if (loc < 0) {
            fail(L, "'%.*s' is not a location gpmc knows", o[1].sym->len,
                 o[1].sym->text);
            return -1;
        }
        in->a.kind = LIT_OPD_IMM;
        in->a.imm = 0;
        /* cvta.shared of a symbol is its generic address */
        fixup(L, F_A_IMM, loc, cvta && has(L, "shared") && !has(L, "to"), 1);
        return 0;
    }
    if (src(L, &o[1], &in->a))
        return -1;
    if (cvta && has(L, "shared")) {
        /* shared window <-> generic: add or take the window's base */
        in->op = has(L, "to") ? LIT_SUB : LIT_ADD;
        in->b.kind = LIT_OPD_IMM;
        in->b.imm = LIT_WINDOW_SHARED;
    }
    return 0;
}

static const struct {
    const char *name;
    int op, nsrc;
} alu[] = {
    {"add", LIT_ADD, 2}, {"sub", LIT_SUB, 2}, {"div", LIT_DIV, 2},
    {"rem", LIT_REM, 2}, {"and", LIT_AND, 2}, {"or", LIT_OR, 2},
    {"xor", LIT_XOR, 2}, {"shl", LIT_SHL, 2}, {"shr", LIT_SHR, 2},
    {"min", LIT_MIN, 2}, {"max", LIT_MAX, 2}, {"not", LIT_NOT, 1},
    {"neg", LIT_NEG, 1}, {"abs", LIT_ABS, 1}, {"selp", LIT_SELP, 3},
    {"mul", LIT_MUL, 2}, {"mad", LIT_MAD, 3},
};

static int op_alu(Low *L, int k, Opnd *o, int n, LitInstr *in)
{
    int ty[2];
    int op = alu[k].op;
    const char *ok = op == LIT_MUL || op == LIT_MAD ? "lo wide hi" : "";
    if (mods_ok(L, ok, ty, 1) || need(L, n, 1 + alu[k].nsrc) ||
        !is_reg(L, &o[0]) || src(L, &o[1], &in->a) ||
        (alu[k].nsrc > 1 && src(L, &o[2], &in->b)) ||
        (alu[k].nsrc > 2 && src(L, &o[3], &in->c)))
        return -1;
    in->op = (uint8_t)op;
    in->rd = o[0].o.reg;
    in->ty = in->sty = (uint8_t)ty[0];
    if (has(L, "wide")) {               /* 2N-bit result of N-bit operands */
        int w = ty[0] == LIT_S32 ? LIT_S64 : ty[0] == LIT_U32 ? LIT_U64
                : ty[0] == LIT_S16 ? LIT_S32 : ty[0] == LIT_U16 ? LIT_U32 : -1;
        if (w < 0) {
            fail(L, "'%.*s': .wide needs a 16- or 32-bit type",
                 L->optok->len, L->optok->text);
            return -1;
        }
        in->ty = (uint8_t)w;
    } else if (has(L, "hi")) {
        if (op == LIT_MAD) {
            fail(L, "mad.hi is not modelled");
            return -1;
        }
        in->op = LIT_MULHI;
    }
    return 0;
}

static int op_setp(Low *L, Opnd *o, int n, LitInstr *in)
{
    static const struct { const char *m; int cmp, uns; } cmps[] = {
        {"eq", LIT_CMP_EQ, 0}, {"ne", LIT_CMP_NE, 0}, {"lt", LIT_CMP_LT, 0},
        {"le", LIT_CMP_LE, 0}, {"gt", LIT_CMP_GT, 0}, {"ge", LIT_CMP_GE, 0},
        {"lo", LIT_CMP_LT, 1}, {"ls", LIT_CMP_LE, 1}, {"hi", LIT_CMP_GT, 1},
        {"hs", LIT_CMP_GE, 1},
    };
    int ty[2], cmp = -1, uns = 0;
    for (size_t k = 0; k < sizeof cmps / sizeof cmps[0]; k++)
        if (has(L, cmps[k].m)) {
            cmp = cmps[k].cmp;
            uns = cmps[k].uns;
        }
    if (cmp < 0 || mods_ok(L, "eq ne lt le gt ge lo ls hi hs", ty, 1))
        return cmp < 0 ? (fail(L, "'%.*s': a comparison gpmc does not model",
                               L->optok->len, L->optok->text), -1) : -1;
    if (n != 3) {
        fail(L, "setp with two results or a combining predicate is not "
             "modelled");
        return -1;
    }
    if (!is_reg(L, &o[0]) || src(L, &o[1], &in->a) || src(L, &o[2], &in->b))
        return -1;
    in->op = LIT_SET;
    in->cmp = (uint8_t)cmp;
    in->rd = o[0].o.reg;
    in->ty = LIT_PRED;
    in->sty = (uint8_t)ty[0];
    if (uns && lit_type_signed(ty[0]))
        in->sty = (uint8_t)(ty[0] + (LIT_U64 - LIT_S64));
    return 0;
}

/* The gpmc instructions gpmc.cuh emits as inline assembly. */
static const struct {
    const char *name;
    int op;
} own[] = {
    {"l2wb", LIT_L2WB}, {"pcommit", LIT_PCOMMIT}, {"sfence", LIT_SFENCE},
    {"pbar", LIT_PBAR_WI}, {"pbar.wi", LIT_PBAR_WI},
    {"pbar.wg", LIT_PBAR_WG}, {"pbar.kr", LIT_PBAR_KR}, {"psync", LIT_PSYNC},
    {"grid.sync", LIT_GRID_SYNC},
};

/* Lowers the statement whose opcode is optok and whose operands are
   o[0..n): 0 done, 1 a branch to the label o[0], -1 after an error. */
static int lower_op(Low *L, Opnd *o, int n, LitInstr *in)
{
    const char *op = L->mods[0];
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
        if (is(L->optok, own[k].name)) {
            in->op = (uint8_t)own[k].op;
            return need(L, n, 0);
        }
    if (!strcmp(op, "ld"))
        return op_ld(L, o, n, in);
    if (!strcmp(op, "st"))
        return op_st(L, o, n, in);
    if (!strcmp(op, "atom") || !strcmp(op, "red"))
        return op_atom(L, o, n, in, !strcmp(op, "red"));
    if (!strcmp(op, "membar") || !strcmp(op, "fence"))
        return op_fence(L, n, in);
    if (!strcmp(op, "bar") || !strcmp(op, "barrier"))
        return op_bar(L, o, n, in);
    if (!strcmp(op, "clwb") || !strcmp(op, "clflush")) {
        int ty[2];
        if (mods_ok(L, "", ty, 0) || need(L, n, 1))
            return -1;
        in->op = op[2] == 'w' ? LIT_CLWB : LIT_CLFLUSH;
        return mem(L, &o[0], 0, in);
    }
    if (!strcmp(op, "ret") || !strcmp(op, "exit")) {
        in->op = LIT_EXIT;
        return need(L, n, 0);
    }
    if (!strcmp(op, "bra")) {
        int ty[2];
        if (mods_ok(L, "uni", ty, 0) || need(L, n, 1))
            return -1;
        if (o[0].kind != O_SYM) {
            fail(L, "bra needs a label");
            return -1;
        }
        in->op = LIT_BRA;
        return 1;                       /* target: a label reference */
    }
    if (!strcmp(op, "mov") || !strcmp(op, "cvta") || !strcmp(op, "cvt"))
        return op_mov(L, o, n, in);
    if (!strcmp(op, "setp"))
        return op_setp(L, o, n, in);
    for (size_t k = 0; k < sizeof alu / sizeof alu[0]; k++)
        if (!strcmp(op, alu[k].name))
            return op_alu(L, (int)k, o, n, in);
    return -1;                          /* precheck reported it */
}

/* ---- statements ------------------------------------------------------------- */

/* The opcode's dotted parts into L->mods; -1 after reporting more than
   MAX_MODS. */
static int split_opcode(Low *L, const PtxTok *t)
{
    char *s = lit_parse_strndup(L->P, t->text, (size_t)t->len), *p = s;
    L->nmods = 0;
    while (p) {
        char *dot = strchr(p, '.');
        if (L->nmods == MAX_MODS) {
            fail(L, "'%.*s': more modifiers than the PTX subset has",
                 t->len, t->text);
            return -1;
        }
        if (dot)
            *dot = '\0';
        L->mods[L->nmods++] = p;
        p = dot ? dot + 1 : NULL;
    }
    return 0;
}

/* What can be said of a statement from its opcode alone, before its
   operands are read: an instruction outside the subset, floating point,
   a call. 0 ok, -1 reported. */
static int precheck(Low *L)
{
    static const char *const known[] = {
        "ld", "st", "atom", "red", "membar", "fence", "bar", "barrier",
        "clwb", "clflush", "ret", "exit", "bra", "mov", "cvta", "cvt", "setp",
    };
    const char *op = L->mods[0];
    int ok = 0;
    if (!strcmp(op, "call")) {
        fail(L, "a call that was not inlined: gpmc models one kernel body "
             "(mark device functions __forceinline__)");
        return -1;
    }
    for (int k = 1; k < L->nmods; k++)
        if (type_of(L->mods[k]) == -2) {
            fail(L, "'%.*s': floating point is not modelled",
                 L->optok->len, L->optok->text);
            return -1;
        }
    for (size_t k = 0; k < sizeof own / sizeof own[0] && !ok; k++)
        ok = is(L->optok, own[k].name);
    for (size_t k = 0; k < sizeof known / sizeof known[0] && !ok; k++)
        ok = !strcmp(op, known[k]);
    for (size_t k = 0; k < sizeof alu / sizeof alu[0] && !ok; k++)
        ok = !strcmp(op, alu[k].name);
    if (!ok)
        fail(L, "PTX instruction '%.*s' is not in the subset gpmc models "
             "(DESIGN section 7, specs/ptx.md)", L->optok->len,
             L->optok->text);
    return ok ? 0 : -1;
}

/* The instruction's text as written, spaces collapsed. */
static const char *stmt_text(Low *L, int32_t from, int32_t to)
{
    BaseStr s = {0};
    const PtxTok *t = &L->mod->tok[from];
    const char *end = L->mod->tok[to].text + L->mod->tok[to].len;
    for (const char *p = t->text; p < end; p++) {
        int c = *p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p;
        if (c == ' ' && s.len && s.s[s.len - 1] == ' ')
            continue;
        base_str_putn(&s, (const char *)&c, 1);
    }
    if (s.failed)
        longjmp(*L->P->oom, 1);
    const char *r = lit_parse_strndup(L->P, s.s ? s.s : "", s.len);
    base_str_free(&s);
    return r;
}

/* One instruction statement whose text starts at token `from` (its
   guard) and whose opcode is token i; returns the index after its ';'. */
static int32_t lower_stmt(Low *L, int32_t from, int32_t i, int guard,
                          int gneg)
{
    Opnd o[MAX_OPS];
    int n = 0;
    LitInstr in;
    memset(&in, 0, sizeof in);
    L->optok = &L->mod->tok[i];
    L->ptx_line = L->optok->line;
    int32_t errs = L->P->errs.n;
    if (split_opcode(L, L->optok) || precheck(L)) {
        while (i < L->e->end && !is(&L->mod->tok[i], ";"))
            i++;
        return i + 1;
    }
    i++;
    while (i < L->e->end && !is(&L->mod->tok[i], ";")) {
        if (n == MAX_OPS || operand(L, &i, &o[n])) {
            if (n == MAX_OPS)
                fail(L, "too many operands");
            while (i < L->e->end && !is(&L->mod->tok[i], ";"))
                i++;
            return i + 1;
        }
        n++;
        if (is(&L->mod->tok[i], ","))
            i++;
        else if (!is(&L->mod->tok[i], ";")) {
            fail(L, "expected ',' or ';' after an operand");
            while (i < L->e->end && !is(&L->mod->tok[i], ";"))
                i++;
            return i + 1;
        }
    }
    int r = lower_op(L, o, n, &in);
    if (r == -1) {
        /* never skipped: a statement that is dropped was reported */
        if (L->P->errs.n == errs && !L->covered)
            fail(L, "'%.*s' is not in the PTX subset gpmc models "
                 "(specs/ptx.md)", L->optok->len, L->optok->text);
        L->covered = 0;
        while (L->npend && L->pend[L->npend - 1].instr == L->ninstr)
            L->npend--;                 /* the statement is dropped */
        return i + 1;
    }
    in.guard = (uint16_t)(guard >= 0 ? guard + 1 : 0);
    in.gneg = (uint8_t)gneg;
    in.pos = (LitPos){L->line ? L->line : L->ptx_line, L->line ? L->col : 0};
    int32_t at = L->ninstr, ntext = at;
    *LIT_PUSH(L->P, L->code, L->ninstr, L->capcode) = in;
    *LIT_PUSH(L->P, L->text, ntext, L->captext) = stmt_text(L, from, i);
    if (r == 1) {
        struct Ref *ref = LIT_PUSH(L->P, L->refs, L->nrefs, L->caprefs);
        ref->instr = at;
        ref->t = o[0].sym;
    }
    return i + 1;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* .loc FILE LINE COL [, …]: the position of what follows. The body's
   file is the one its first line comes from; lines of other files (code
   inlined from a header) and line 0 (code of no line) keep the last one. */
static int32_t loc(Low *L, int32_t i)
{
    const PtxTok *t = L->mod->tok;
    int32_t end = i + 1;
    while (end < L->e->end && !t[end].nl)
        end++;
    if (end - i >= 4 && t[i + 1].kind == PT_NUM && t[i + 2].kind == PT_NUM &&
        t[i + 3].kind == PT_NUM) {
        int64_t f = strtoll(t[i + 1].text, NULL, 10);
        int32_t line = (int32_t)strtol(t[i + 2].text, NULL, 10);
        int32_t col = (int32_t)strtol(t[i + 3].text, NULL, 10);
        const char *name = f >= 0 && f < L->mod->nfiles && L->mod->files[f]
                               ? L->mod->files[f] : NULL;
        /* a file without a name ("" or "dir/") can not be shown: the
           position stays the PTX line */
        if (name && *base_name(name) && line > 0) {
            const char *shown = !strcmp(base_name(name),
                                        base_name(L->mod->shown))
                                    ? L->mod->shown : base_name(name);
            if (!L->line) {
                L->file = shown;
                L->line = line;
                L->col = col;
            } else if (!strcmp(L->file, shown)) {
                L->line = line;
                L->col = col;
            }
        }
    }
    return end;
}

/* Skips to the token after the next ';'. */
static int32_t past_semi(const Low *L, int32_t i)
{
    while (i < L->e->end && !is(&L->mod->tok[i], ";"))
        i++;
    return i + 1;
}

void lit_ptx_lower(LitParser *P, LitKernelX *kx, PtxModule *mod,
                   const PtxEntry *e, const LitArg *args)
{
    Low L;
    memset(&L, 0, sizeof L);
    L.P = P;
    L.mod = mod;
    L.e = e;
    L.args = args;
    L.kx = kx;
    L.sink = -1;
    L.file = mod->shown;
    const PtxTok *t = mod->tok;
    int32_t i = e->first;
    for (int32_t j = e->first; j < e->end; j++)
        if (t[j].kind == PT_ID && t[j].len >= 4 &&
            !memcmp(t[j].text, "call", 4) && (t[j].len == 4 ||
                                               t[j].text[4] == '.'))
            L.has_call = 1;
    while (i < e->end) {
        if (is(&t[i], "{") || is(&t[i], "}")) {
            i++;
        } else if (is(&t[i], ".loc")) {
            i = loc(&L, i);
        } else if (is(&t[i], ".reg") || is(&t[i], ".pragma") ||
                   is(&t[i], ".shared")) {   /* demoted: lit_ptx.c */
            i = past_semi(&L, i);
        } else if (is(&t[i], ".local")) {
            L.ptx_line = t[i].line;
            local_use(&L, 0);
            i = past_semi(&L, i);
        } else if (is(&t[i], ".const") || is(&t[i], ".global")) {
            L.ptx_line = t[i].line;
            L.optok = &t[i];
            fail(&L, "'%.*s' variables inside a function are not modelled",
                 t[i].len, t[i].text);
            i = past_semi(&L, i);
        } else if (t[i].kind == PT_ID && t[i].text[0] == '.') {
            i = past_semi(&L, i);       /* other directives end with ';' */
        } else if (t[i].kind == PT_ID && i + 1 < e->end &&
                   is(&t[i + 1], ":")) {
            const char *name = lit_parse_strndup(P, t[i].text,
                                                 (size_t)t[i].len);
            LitLabel *lb = LIT_PUSH(P, L.labels, L.nlabels, L.caplabels);
            lb->name = name;
            lb->index = L.ninstr;
            lit_parse_name(P, &L.label_names, name, L.nlabels - 1);
            i += 2;
        } else if (is(&t[i], "@")) {
            int neg = 0, at = i;
            i++;
            if (is(&t[i], "!")) {
                neg = 1;
                i++;
            }
            if (t[i].kind != PT_ID || t[i].text[0] != '%') {
                L.ptx_line = t[i].line;
                L.optok = &t[i];
                fail(&L, "expected a predicate register after '@'");
                i = past_semi(&L, i);
                continue;
            }
            int32_t g = reg_of(&L, &t[i]);
            i = lower_stmt(&L, at, i + 1, g, neg);
        } else if (t[i].kind == PT_ID) {
            i = lower_stmt(&L, i, i, -1, 0);
        } else {
            L.ptx_line = t[i].line;
            L.optok = &t[i];
            fail(&L, "unexpected '%.*s'", t[i].len, t[i].text);
            i = past_semi(&L, i);
        }
    }
    if (L.local.prio)
        lit_ptx_error(P, mod, L.local.ptx_line,
                      L.local.line ? L.local.file : NULL, L.local.line,
                      L.local.col, "local memory (a stack array, or a local "
                      "variable whose address is taken) is not modelled: "
                      "gpmc checks global, generic and shared memory (in "
                      "entry %s)", e->name);
    for (int32_t k = 0; k < L.nrefs; k++) {
        const PtxTok *r = L.refs[k].t;
        int32_t lb = lit_names_find(&L.label_names, r->text, (size_t)r->len);
        if (lb < 0) {
            L.ptx_line = r->line;
            L.optok = r;
            fail(&L, "undefined label '%.*s'", r->len, r->text);
            continue;
        }
        L.code[L.refs[k].instr].target = L.labels[lb].index;
    }
    /* the body is final: its fixups can point into it */
    for (int32_t k = 0; k < L.npend; k++) {
        LitFixup *f = LIT_PUSH(P, P->fixups, P->nfixups, P->capfixups);
        LitInstr *in = &L.code[L.pend[k].instr];
        f->slot = L.pend[k].field == F_A_IMM ? &in->a.imm : &in->m.off;
        f->loc = L.pend[k].loc;
        f->window = L.pend[k].window;
        f->ptx = L.pend[k].ptx;
    }
    LitKernel *k = &kx->k;
    k->spmd = 1;
    k->nbodies = 1;
    k->bodies = lit_parse_alloc(P, sizeof(LitBody));
    k->bodies->gtid = -1;
    k->bodies->pos = k->pos;
    k->bodies->ninstr = L.ninstr;
    k->bodies->code = L.code;
    k->bodies->nlabels = L.nlabels;
    k->bodies->labels = L.labels;
    k->bodies->file = L.file;
    k->bodies->text = L.text;
    k->nregs = L.nregs;
    k->reg_used = L.used ? L.used : lit_parse_alloc(P, 1);
    k->reg_names = L.names ? L.names : lit_parse_alloc(P, sizeof *L.names);
}
