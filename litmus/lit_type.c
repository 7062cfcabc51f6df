/* lit_type: the types of arithmetic and accesses (LitType): a width and a
   signedness. Litmus computes in S64 only; PTX names the rest. */
#include "litmus/litmus_int.h"

static const uint8_t bits[LIT_NTYPES] = {
    [LIT_S64] = 64, [LIT_S32] = 32, [LIT_S16] = 16, [LIT_S8] = 8,
    [LIT_U64] = 64, [LIT_U32] = 32, [LIT_U16] = 16, [LIT_U8] = 8,
    [LIT_PRED] = 1,
};

int lit_type_bits(int ty)
{
    assert(ty >= 0 && ty < LIT_NTYPES);
    return bits[ty];
}

int lit_type_signed(int ty)
{
    return ty <= LIT_S8;
}

int64_t lit_type_value(int ty, int64_t v)
{
    int w = lit_type_bits(ty);
    uint64_t u = (uint64_t)v;
    if (w == 64)
        return v;
    u &= (1ull << w) - 1;
    if (lit_type_signed(ty) && (u >> (w - 1)))
        u |= ~0ull << w;                /* two's complement, not C's shift */
    return (int64_t)u;
}

int lit_type_of_bytes(int n)
{
    switch (n) {
    case 1: return LIT_U8;
    case 2: return LIT_U16;
    case 4: return LIT_U32;
    default:
        assert(n == 8);
        return LIT_U64;
    }
}
