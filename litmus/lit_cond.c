/* lit_cond: the conditions of `check` statements, typed as they are read
   (a value or a condition) and checked against the phase. Their semantic
   errors wait for the closing ')': after a syntax error the tree is
   half-built and its type errors would be noise.
   Every consumer of a LitCond (printer, equality, checker) recurses over
   it, so the tree is kept at most LIT_MAX_DEPTH nodes high: the parser's
   own recursion ('(', '!', unary '-', '->') is bounded as it descends,
   and the height of what it builds, long left-associative chains
   included, as it goes up. Either ends the statement with one error. */
#include <stdio.h>
#include <string.h>

#include "litmus/litmus_int.h"

_Static_assert(LIT_C_GE - LIT_C_EQ == LIT_CMP_GE - LIT_CMP_EQ &&
               LIT_C_LT - LIT_C_EQ == LIT_CMP_LT - LIT_CMP_EQ,
               "condition comparisons in LitCmp order");

typedef struct {
    LitPos pos;
    const char *msg;
} Pending;

typedef struct {
    LitParser *P;
    int phase;
    Pending *errs;
    int32_t nerrs, caperrs;
    int level;                          /* open recursive constructs */
    int h;                              /* height of the node just built */
} Ctx;

static _Noreturn void too_deep(Ctx *C, LitPos at)
{
    lit_parse_syntax(C->P, at, "condition nested too deeply (more than %d "
                     "levels)", LIT_MAX_DEPTH);
}

/* Before a recursive descent at `at`; the caller decrements C->level. */
static void enter(Ctx *C, LitPos at)
{
    if (++C->level > LIT_MAX_DEPTH)
        too_deep(C, at);
}

/* The node just built has height h (a folded constant: 1). */
static LitCond *height(Ctx *C, LitCond *c, int h, LitPos at)
{
    if (c->kind == LIT_C_INT)
        h = 1;
    if (h > LIT_MAX_DEPTH)
        too_deep(C, at);
    C->h = h;
    return c;
}

static int max2(int a, int b)
{
    return a > b ? a : b;
}

static void defer(Ctx *C, LitPos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void defer(Ctx *C, LitPos pos, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    Pending *e = LIT_PUSH(C->P, C->errs, C->nerrs, C->caperrs);
    e->pos = pos;
    e->msg = lit_parse_strndup(C->P, buf, strlen(buf));
}

/* A bare location name is read with index BARE until its use is known:
   a value (scalar: index 0; array: an error) or the left of `== {…}`. */
enum { BARE = -1 };

static LitCond *node(Ctx *C, int kind, LitPos pos)
{
    LitCond *c = lit_parse_alloc(C->P, sizeof *c);
    c->kind = (uint8_t)kind;
    c->pos = pos;
    return c;
}

static int is_cond(const LitCond *c)
{
    return c->kind >= LIT_C_EQ;
}

static void need_value(Ctx *C, LitCond *c)
{
    if (is_cond(c)) {
        defer(C, c->pos, "expected a value, found a condition");
    } else if (c->kind == LIT_C_LOC && c->index == BARE) {
        const LitLoc *l = &C->P->locs[c->loc].l;
        if (l->is_array && !C->P->locs[c->loc].bad)
            defer(C, c->pos, "array '%s' used as a scalar (write "
                            "%s[K] or %s == {...})", l->name, l->name,
                            l->name);
        c->index = 0;
    }
}

static void need_cond(Ctx *C, LitCond *c)
{
    if (is_cond(c))
        return;
    int array = c->kind == LIT_C_LOC && c->index == BARE &&
                (C->P->locs[c->loc].l.is_array || C->P->locs[c->loc].bad);
    need_value(C, c);
    if (!array)
        defer(C, c->pos, "expected a condition, found a value");
}

static LitCond *binary(Ctx *C, int kind, LitCond *l, LitCond *r)
{
    LitCond *c = node(C, kind, l->pos);
    c->l = l;
    c->r = r;
    return c;
}

/* Arithmetic on two values; constants fold (wraparound, never fails). */
static LitCond *arith(Ctx *C, int kind, LitCond *l, LitCond *r)
{
    need_value(C, l);
    need_value(C, r);
    if (l->kind == LIT_C_INT && r->kind == LIT_C_INT) {
        static const int ops[] = {[LIT_C_ADD] = LIT_ADD, [LIT_C_SUB] = LIT_SUB,
                                  [LIT_C_MUL] = LIT_MUL};
        const char *why;
        lit_arith(ops[kind], l->val, r->val, &l->val, &why);
        return l;
    }
    return binary(C, kind, l, r);
}

static LitCond *cond(Ctx *C);

/* G:rN — G was read, ':' is current */
static LitCond *reg_term(Ctx *C, const LitToken *g)
{
    LitParser *P = C->P;
    lit_parse_advance(P);
    LitToken t = P->tok;
    int64_t n;
    if (lit_lex_register(&t, &n))
        lit_parse_expected(P, "a register after ':'");
    lit_parse_advance(P);
    LitCond *c = node(C, LIT_C_REG, g->pos);
    /* A thread number no kernel can reach is reported here, as written
       (LIT_MAX_THREADS < INT32_MAX); lit_lower checks the rest against the
       last launch. gtid -1 tells it this one is done. */
    c->gtid = g->ival >= 0 && g->ival < LIT_MAX_THREADS ? (int32_t)g->ival
                                                        : -1;
    if (c->gtid < 0)
        defer(C, g->pos, "thread %.*s does not exist: a kernel has at most "
              "%d threads", g->len, g->text, LIT_MAX_THREADS);
    if (n >= LIT_NREGS)
        defer(C, t.pos, "register '%.*s' out of range (r0..r31)",
                        t.len, t.text);
    else
        c->reg = (uint8_t)n;
    if (C->phase != LIT_FINAL)
        defer(C, g->pos, "register terms are allowed only in "
                        "'final' conditions");
    return c;
}

/* NAME ['[' expr ']'] — the name is current */
static LitCond *name_term(Ctx *C)
{
    LitParser *P = C->P;
    LitToken t = P->tok;
    lit_parse_advance(P);
    LitCond *c = node(C, LIT_C_INT, t.pos);
    int64_t k = 0;
    int indexed = P->tok.kind == LT_LBRACK, kst = LIT_OK;
    if (indexed) {
        lit_parse_open(P);
        kst = lit_arith_expr(P, &k);
        lit_parse_close(P, LT_RBRACK, "']'");
    }
    int i = lit_parse_find_loc(P, t.text, (size_t)t.len);
    int p = lit_parse_find_param(P, t.text, (size_t)t.len);
    int64_t reg;
    if (i < 0) {
        if (p >= 0 && !indexed)
            c->val = P->params[p].p.value;
        else if (p >= 0)
            defer(C, t.pos, "'%.*s' is a param, not a location",
                            t.len, t.text);
        else if (lit_lex_register(&t, &reg) == 0)
            defer(C, t.pos, "a register in a condition is written "
                            "G:%.*s (thread G)", t.len, t.text);
        else if (!lit_parse_skipped(P, t.text, (size_t)t.len)) {
            char hint[96];
            lit_suggest_hint(hint, sizeof hint,
                             lit_suggest_loc(P, t.text, (size_t)t.len));
            defer(C, t.pos, "undefined name '%.*s'%s", t.len, t.text, hint);
        }
        return c;
    }
    const LitLocX *x = &P->locs[i];
    if (x->l.space == LIT_SHARED)
        defer(C, t.pos, "conditions may not name shared location "
                        "'%s'", x->l.name);
    else if (C->phase == LIT_CRASH && x->l.space != LIT_PM)
        defer(C, t.pos, "crash conditions may name only pm "
                        "locations; '%s' is dram", x->l.name);
    c->kind = LIT_C_LOC;
    c->loc = i;
    c->index = indexed ? 0 : BARE;
    if (indexed && kst == LIT_OK && !x->bad) {
        if (k < 0 || k >= x->l.size)
            defer(C, t.pos, "index %lld out of range for '%s' "
                            "(size %d)", (long long)k, x->l.name, x->l.size);
        else
            c->index = (int32_t)k;
    }
    return c;
}

/* primary := INT [':' REG] | NAME ['[' expr ']'] | '(' cond ')' */
static LitCond *primary(Ctx *C)
{
    LitParser *P = C->P;
    LitToken t = P->tok;
    switch (t.kind) {
    case LT_INT: {
        lit_parse_advance(P);
        C->h = 1;
        if (P->tok.kind == LT_COLON)
            return reg_term(C, &t);
        LitCond *c = node(C, LIT_C_INT, t.pos);
        c->val = t.ival;
        return c;
    }
    case LT_IDENT:
        C->h = 1;
        return name_term(C);
    case LT_LPAREN: {
        enter(C, t.pos);
        lit_parse_open(P);
        LitCond *c = cond(C);
        lit_parse_close(P, LT_RPAREN, "')'");
        C->level--;
        return c;
    }
    default:
        lit_parse_expected(P, "a term");
    }
}

/* neg := '-' neg | primary */
static LitCond *neg(Ctx *C)
{
    LitParser *P = C->P;
    if (P->tok.kind != LT_MINUS)
        return primary(C);
    LitPos at = P->tok.pos;
    enter(C, at);
    lit_parse_advance(P);
    LitCond *x = neg(C);
    C->level--;
    need_value(C, x);
    if (x->kind == LIT_C_INT) {
        x->val = (int64_t)(0 - (uint64_t)x->val);
        x->pos = at;
        return x;
    }
    LitCond *c = node(C, LIT_C_NEG, at);
    c->l = x;
    return height(C, c, C->h + 1, at);
}

/* prod := neg { '*' neg } */
static LitCond *prod(Ctx *C)
{
    LitParser *P = C->P;
    LitCond *l = neg(C);
    for (;;) {
        int hl = C->h;
        LitPos at = P->tok.pos;
        if (!lit_parse_accept(P, LT_STAR))
            return l;
        LitCond *r = neg(C);
        l = height(C, arith(C, LIT_C_MUL, l, r), max2(hl, C->h) + 1, at);
    }
}

/* sum := prod { ('+' | '-') prod } */
static LitCond *sum(Ctx *C)
{
    LitParser *P = C->P;
    LitCond *l = prod(C);
    for (;;) {
        int kind = P->tok.kind == LT_PLUS    ? LIT_C_ADD
                   : P->tok.kind == LT_MINUS ? LIT_C_SUB
                                             : -1;
        if (kind < 0)
            return l;
        int hl = C->h;
        LitPos at = P->tok.pos;
        lit_parse_advance(P);
        LitCond *r = prod(C);
        l = height(C, arith(C, kind, l, r), max2(hl, C->h) + 1, at);
    }
}

/* '{' expr { ',' expr } '}' after NAME == or NAME != — '{' is current */
static LitCond *array_eq(Ctx *C, int kind, LitCond *l)
{
    LitParser *P = C->P;
    LitPos at = P->tok.pos;
    lit_parse_open(P);
    int64_t *vals = NULL;
    int32_t n = 0, cap = 0;
    for (;;) {
        int64_t v = 0;
        lit_arith_expr(P, &v);
        *LIT_PUSH(P, vals, n, cap) = v;
        if (!lit_parse_accept(P, LT_COMMA))
            break;
    }
    lit_parse_close(P, LT_RBRACE, "',' or '}'");
    LitCond *c = node(C, kind, l->pos);
    C->h = 1;
    c->loc = l->loc;
    c->n = n;
    c->vals = vals;
    if (l->kind != LIT_C_LOC || l->index != BARE) {
        need_value(C, l);
        defer(C, at, "'{...}' must follow a bare array name");
        return c;
    }
    const LitLocX *x = &P->locs[l->loc];
    if (!x->l.is_array)
        defer(C, l->pos, "'%s' is not an array", x->l.name);
    else if (!x->bad && n != x->l.size)
        defer(C, at, "'%s' has %d elements, list has %d",
                        x->l.name, x->l.size, n);
    return c;
}

static const struct {
    int tok, kind;
} cmpops[] = {
    {LT_EQ, LIT_C_EQ}, {LT_NE, LIT_C_NE}, {LT_LT, LIT_C_LT},
    {LT_LE, LIT_C_LE}, {LT_GT, LIT_C_GT}, {LT_GE, LIT_C_GE},
};

/* cmp := sum [ CMPOP sum | ('==' | '!=') '{' expr { ',' expr } '}' ] */
static LitCond *cmp(Ctx *C)
{
    LitParser *P = C->P;
    LitCond *l = sum(C);
    int kind = -1;
    for (size_t i = 0; i < sizeof cmpops / sizeof cmpops[0]; i++)
        if (P->tok.kind == cmpops[i].tok)
            kind = cmpops[i].kind;
    if (kind < 0)
        return l;
    int hl = C->h;
    LitPos at = P->tok.pos;
    lit_parse_advance(P);
    if (P->tok.kind == LT_LBRACE && (kind == LIT_C_EQ || kind == LIT_C_NE))
        return array_eq(C, kind == LIT_C_EQ ? LIT_C_ARREQ : LIT_C_ARRNE, l);
    LitCond *r = sum(C);
    need_value(C, l);
    need_value(C, r);
    return height(C, binary(C, kind, l, r), max2(hl, C->h) + 1, at);
}

/* not := '!' not | cmp */
static LitCond *cond_not(Ctx *C)
{
    LitParser *P = C->P;
    if (P->tok.kind != LT_NOT)
        return cmp(C);
    LitPos at = P->tok.pos;
    enter(C, at);
    lit_parse_advance(P);
    LitCond *c = node(C, LIT_C_NOT, at);
    c->l = cond_not(C);
    C->level--;
    need_cond(C, c->l);
    return height(C, c, C->h + 1, at);
}

/* l OP r, where l has height hl and r was the last built */
static LitCond *logic(Ctx *C, int kind, LitCond *l, int hl, LitCond *r,
                      LitPos at)
{
    need_cond(C, l);
    need_cond(C, r);
    return height(C, binary(C, kind, l, r), max2(hl, C->h) + 1, at);
}

/* A left-associative chain: operand { OP operand } */
static LitCond *chain(Ctx *C, int tok, int kind, LitCond *(*operand)(Ctx *))
{
    LitParser *P = C->P;
    LitCond *l = operand(C);
    for (;;) {
        int hl = C->h;
        LitPos at = P->tok.pos;
        if (!lit_parse_accept(P, tok))
            return l;
        LitCond *r = operand(C);
        l = logic(C, kind, l, hl, r, at);
    }
}

/* and := not { '&&' not } */
static LitCond *cond_and(Ctx *C)
{
    return chain(C, LT_AND, LIT_C_AND, cond_not);
}

/* or := and { '||' and } */
static LitCond *cond_or(Ctx *C)
{
    return chain(C, LT_OR, LIT_C_OR, cond_and);
}

/* cond := or [ '->' cond ] */
static LitCond *cond(Ctx *C)
{
    LitParser *P = C->P;
    LitCond *l = cond_or(C);
    int hl = C->h;
    LitPos at = P->tok.pos;
    if (!lit_parse_accept(P, LT_IMP))
        return l;
    enter(C, at);
    LitCond *r = cond(C);
    C->level--;
    return logic(C, LIT_C_IMP, l, hl, r, at);
}

/* '(' cond ')' */
LitCond *lit_cond_parse(LitParser *P, int phase)
{
    Ctx C = {P, phase, NULL, 0, 0, 0, 0};
    if (P->tok.kind != LT_LPAREN)
        lit_parse_expected(P, "'('");
    lit_parse_open(P);
    LitCond *c = cond(&C);
    lit_parse_close(P, LT_RPAREN, "')'");
    need_cond(&C, c);
    for (int32_t i = 0; i < C.nerrs; i++)
        lit_parse_error(P, C.errs[i].pos, "%s", C.errs[i].msg);
    return c;
}
