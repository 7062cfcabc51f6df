/* lit_arith: 64-bit two's-complement arithmetic shared by constant folding
   and execution, and the constant expressions of the language. */
#include <stdio.h>
#include <string.h>

#include "litmus/litmus_int.h"

int lit_arith(int op, int64_t a, int64_t b, int64_t *out, const char **why)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op) {
    case LIT_ADD:
        *out = (int64_t)(ua + ub);
        return 0;
    case LIT_SUB:
        *out = (int64_t)(ua - ub);
        return 0;
    case LIT_MUL:
        *out = (int64_t)(ua * ub);
        return 0;
    case LIT_DIV:
    case LIT_REM:
        if (b == 0) {
            *why = "division by zero";
            return 1;
        }
        if (a == INT64_MIN && b == -1) {
            if (op == LIT_DIV) {
                *why = "INT64_MIN / -1 overflows";
                return 1;
            }
            *out = 0;                   /* exact; only C leaves it undefined */
            return 0;
        }
        *out = op == LIT_DIV ? a / b : a % b;
        return 0;
    case LIT_AND:
        *out = (int64_t)(ua & ub);
        return 0;
    case LIT_OR:
        *out = (int64_t)(ua | ub);
        return 0;
    case LIT_XOR:
        *out = (int64_t)(ua ^ ub);
        return 0;
    case LIT_SHL:
    case LIT_SHR:
        if (b < 0 || b > 63) {
            *why = "shift count outside 0..63";
            return 1;
        }
        if (op == LIT_SHL)
            *out = (int64_t)(ua << b);
        else                            /* arithmetic, without relying on C */
            *out = a < 0 ? (int64_t) ~(~ua >> b) : (int64_t)(ua >> b);
        return 0;
    case LIT_MIN:
        *out = a < b ? a : b;
        return 0;
    case LIT_MAX:
        *out = a > b ? a : b;
        return 0;
    default:
        *why = "not an arithmetic operation";
        return 1;
    }
}

/* Fold one operator; report an arithmetic error at the operator. */
static int fold(LitParser *P, int op, LitPos at, int64_t a, int64_t b,
                int64_t *v)
{
    const char *why;
    if (lit_arith(op, a, b, v, &why)) {
        lit_parse_error(P, at, "%s in constant expression", why);
        return LIT_BAD;
    }
    return LIT_OK;
}

static int unary(LitParser *P, int64_t *v);

/* Before the recursive descent into '(' or unary '-' at `at` (the
   statement's syntax-error recovery resets the count). */
static void enter(LitParser *P, LitPos at)
{
    if (++P->depth > LIT_MAX_DEPTH)
        lit_parse_syntax(P, at, "expression nested too deeply (more than %d "
                         "levels)", LIT_MAX_DEPTH);
}

/* primary := INT | PARAM | '(' expr ')' */
static int primary(LitParser *P, int64_t *v)
{
    LitToken t = P->tok;
    int64_t reg;
    switch (t.kind) {
    case LT_INT:
        lit_parse_advance(P);
        *v = t.ival;
        return LIT_OK;
    case LT_LPAREN: {
        enter(P, t.pos);
        lit_parse_open(P);
        int st = lit_arith_expr(P, v);
        lit_parse_close(P, LT_RPAREN, "')'");
        P->depth--;
        return st;
    }
    case LT_PERCENT:
        lit_parse_syntax(P, t.pos, "special register not allowed in a "
                                   "constant expression");
    case LT_IDENT:
        break;
    default:
        lit_parse_expected(P, "a constant expression");
    }
    if (lit_lex_register(&t, &reg) == 0)
        lit_parse_syntax(P, t.pos, "register '%.*s' not allowed in a constant "
                         "expression", t.len, t.text);
    int i = lit_parse_find_param(P, t.text, (size_t)t.len);
    if (i >= 0) {
        lit_parse_advance(P);
        *v = P->params[i].p.value;
        return P->params[i].bad ? LIT_BAD : LIT_OK;
    }
    /* The name may be a misplaced keyword (`grid block 1`): end the
       statement rather than misread what follows. */
    if (lit_parse_find_loc(P, t.text, (size_t)t.len) >= 0)
        lit_parse_syntax(P, t.pos, "'%.*s' is a location, not a param", t.len,
                         t.text);
    if (lit_parse_skipped(P, t.text, (size_t)t.len))
        longjmp(*P->jb, 1);             /* its declaration failed: said */
    lit_parse_syntax(P, t.pos, "undefined param '%.*s'", t.len, t.text);
}

/* unary := '-' unary | primary */
static int unary(LitParser *P, int64_t *v)
{
    if (P->tok.kind == LT_MINUS) {
        LitPos at = P->tok.pos;
        enter(P, at);
        lit_parse_advance(P);
        int64_t x;
        int st = unary(P, &x);
        P->depth--;
        if (st != LIT_OK)
            return LIT_BAD;
        return fold(P, LIT_SUB, at, 0, x, v);
    }
    return primary(P, v);
}

/* The binary operators, loosest level first. */
static const struct {
    int tok, op;
} levels[2][3] = {
    {{LT_PLUS, LIT_ADD}, {LT_MINUS, LIT_SUB}, {-1, 0}},
    {{LT_STAR, LIT_MUL}, {LT_SLASH, LIT_DIV}, {LT_PERCENT, LIT_REM}},
};

static int binary_op(const LitParser *P, int level)
{
    for (int i = 0; i < 3; i++)
        if (levels[level][i].tok == P->tok.kind)
            return levels[level][i].op;
    return -1;
}

/* expr := term { ('+' | '-') term }          (level 0)
   term := unary { ('*' | '/' | '%') unary }  (level 1) */
static int binary(LitParser *P, int level, int64_t *v)
{
    int st = level == 1 ? unary(P, v) : binary(P, level + 1, v);
    for (int op; (op = binary_op(P, level)) >= 0;) {
        LitPos at = P->tok.pos;
        lit_parse_advance(P);
        int64_t r;
        int rs = level == 1 ? unary(P, &r) : binary(P, level + 1, &r);
        if (st == LIT_OK && rs == LIT_OK)
            st = fold(P, op, at, *v, r, v);
        else
            st = LIT_BAD;
    }
    return st;
}

int lit_arith_expr(LitParser *P, int64_t *v)
{
    return binary(P, 0, v);
}
