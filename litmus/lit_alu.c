/* lit_alu: what an instruction computes, the one definition execution,
   the reductions' value analysis and witnesses share: register
   arithmetic at any LitType, what an atomic stores, comparisons. Litmus
   instructions are S64 throughout, where this is exactly lit_arith (DESIGN
   section 2: 64-bit wraparound, C99 division, errors for division by zero,
   INT64_MIN / -1 and shift counts outside 0..63). PTX types wrap at their
   width; a shift count outside 0..width-1 is an error too (PTX clamps it;
   CUDA C leaves it undefined, and a checker should say so: specs/ptx.md). */
#include "litmus/litmus_int.h"

int lit_compare(int cmp, int ty, int64_t a, int64_t b)
{
    a = lit_type_value(ty, a);
    b = lit_type_value(ty, b);
    if (!lit_type_signed(ty)) {
        uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
        switch (cmp) {
        case LIT_CMP_EQ: return ua == ub;
        case LIT_CMP_NE: return ua != ub;
        case LIT_CMP_LT: return ua < ub;
        case LIT_CMP_LE: return ua <= ub;
        case LIT_CMP_GT: return ua > ub;
        default: assert(cmp == LIT_CMP_GE); return ua >= ub;
        }
    }
    switch (cmp) {
    case LIT_CMP_EQ: return a == b;
    case LIT_CMP_NE: return a != b;
    case LIT_CMP_LT: return a < b;
    case LIT_CMP_LE: return a <= b;
    case LIT_CMP_GT: return a > b;
    default: assert(cmp == LIT_CMP_GE); return a >= b;
    }
}

/* The high half of the 2w-bit product of a and b, read as type ty. */
static int64_t mul_hi(int ty, int64_t a, int64_t b)
{
    int w = lit_type_bits(ty);
    if (w < 64)                         /* the product fits in 64 bits */
        return (int64_t)((uint64_t)a * (uint64_t)b >> w);
    if (lit_type_signed(ty))
        return (int64_t)(((__int128)a * b) >> 64);
    return (int64_t)(((unsigned __int128)(uint64_t)a * (uint64_t)b) >> 64);
}

/* Binary operation op on a and b, both already of type ty. */
static int binary(int op, int ty, int64_t a, int64_t b, int64_t *out,
                  const char **why)
{
    int w = lit_type_bits(ty), sgn = lit_type_signed(ty);
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    if (w == 64 && sgn && op != LIT_MULHI)
        return lit_arith(op, a, b, out, why);
    switch (op) {
    case LIT_DIV: case LIT_REM:
        if (b == 0) {
            *why = "division by zero";
            return 1;
        }
        if (!sgn)
            *out = (int64_t)(op == LIT_DIV ? ua / ub : ua % ub);
        else if (a == INT64_MIN && b == -1)   /* only at w == 64 */
            *out = op == LIT_DIV ? a : 0;
        else
            *out = op == LIT_DIV ? a / b : a % b;
        return 0;
    case LIT_SHL: case LIT_SHR:
        if (b < 0 || b >= w) {
            *why = w == 64 ? "shift count outside 0..63"
                 : w == 32 ? "shift count outside 0..31"
                 : w == 16 ? "shift count outside 0..15"
                 : "shift count outside 0..7";
            return 1;
        }
        if (op == LIT_SHL)
            *out = (int64_t)(ua << b);
        else if (sgn && a < 0)
            *out = (int64_t) ~(~ua >> b);
        else
            *out = (int64_t)(ua >> b);
        return 0;
    case LIT_MIN: case LIT_MAX:
        *out = lit_compare(op == LIT_MIN ? LIT_CMP_LT : LIT_CMP_GT, ty, a, b)
                   ? a : b;
        return 0;
    case LIT_MULHI:
        *out = mul_hi(ty, a, b);
        return 0;
    default:                            /* add sub mul and or xor */
        return lit_arith(op, a, b, out, why);
    }
}

int lit_alu(const LitInstr *in, int64_t a, int64_t b, int64_t c,
            int64_t *out, const char **why)
{
    int op = lit_opinfo[in->op].alu, sty = in->sty, ty = in->ty;
    int64_t r;
    assert(lit_opflags(in->op) & LIT_OPF_ALU);
    a = lit_type_value(sty, a);
    b = lit_type_value(sty, b);
    switch (op) {
    case LIT_MOV:
        r = a;
        break;
    case LIT_SET:
        r = lit_compare(in->cmp, sty, a, b);
        break;
    case LIT_NOT:
        r = ty == LIT_PRED ? !a : (int64_t) ~(uint64_t)a;
        break;
    case LIT_NEG:
        r = (int64_t)(0 - (uint64_t)a);
        break;
    case LIT_ABS:                       /* of an unsigned value: itself */
        r = lit_type_signed(sty) && a < 0 ? (int64_t)(0 - (uint64_t)a) : a;
        break;
    case LIT_MAD:                       /* c has the result's type */
        r = (int64_t)((uint64_t)a * (uint64_t)b +
                      (uint64_t)lit_type_value(ty, c));
        break;
    case LIT_SELP:
        r = lit_type_value(LIT_PRED, c) ? a : b;
        break;
    default:
        if (binary(op, sty, a, b, &r, why))
            return 1;
        break;
    }
    *out = lit_type_value(ty, r);
    return 0;
}

int lit_atomic(const LitInstr *in, int64_t old, int64_t a, int64_t b,
               int64_t *out)
{
    int ty = in->sty;
    const char *why;
    assert(lit_opflags(in->op) & LIT_OPF_ATOMIC);
    old = lit_type_value(ty, old);
    a = lit_type_value(ty, a);
    switch (in->op) {
    case LIT_ATOM_CAS:
        if (old != a)
            return 0;
        *out = b;
        return 1;
    case LIT_ATOM_EXCH:
        *out = a;
        return 1;
    case LIT_ATOM_INC:                  /* PTX: wraps to 0 past a */
        *out = lit_compare(LIT_CMP_GE, ty, old, a) ? 0
               : (int64_t)((uint64_t)old + 1);
        return 1;
    case LIT_ATOM_DEC:                  /* PTX: wraps to a below 0 or past a */
        *out = old == 0 || lit_compare(LIT_CMP_GT, ty, old, a) ? a
               : (int64_t)((uint64_t)old - 1);
        return 1;
    default:                            /* add and or xor min max */
        if (binary(lit_opinfo[in->op].alu, ty, old, a, out, &why))
            assert(!"an atomic's arithmetic cannot fail");
        return 1;
    }
}
