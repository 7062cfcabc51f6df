/* Tests of the arithmetic PTX kernels compute, at every LitType
   (litmus/lit_alu.c, lit_type.c): lit_alu for each operation, lit_compare
   for each comparison, lit_atomic for each atomic, lit_type_value. The
   expected values were computed apart from gpmc (exact integer arithmetic
   then reduced to the type: two's complement of its width, C99 division,
   PTX's atom.inc/dec) and are kept here as literals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/litmus.h"

static const char *const type_names[LIT_NTYPES] = {
    "s64", "s32", "s16", "s8", "u64", "u32", "u16", "u8", "pred"
};

/* op ty sty: rd = a OP b (c: mad's addend, selp's predicate), or an
   error. */
static const struct {
    int op, ty, sty;
    int64_t a, b, c, want;
    int fails;
} alu[] = {
    {LIT_ADD, LIT_S64, LIT_S64, 9223372036854775807LL, 1, 0, INT64_MIN, 0},
    {LIT_SUB, LIT_S64, LIT_S64, INT64_MIN, 1, 0, 9223372036854775807LL, 0},
    {LIT_MUL, LIT_S64, LIT_S64, 9223372036854775807LL, 2, 0, -2, 0},
    {LIT_DIV, LIT_S64, LIT_S64, -7, 2, 0, -3, 0},
    {LIT_REM, LIT_S64, LIT_S64, -7, 2, 0, -1, 0},
    {LIT_DIV, LIT_S64, LIT_S64, 5, 0, 0, 0, 1},
    {LIT_REM, LIT_S64, LIT_S64, 5, 0, 0, 0, 1},
    {LIT_AND, LIT_S64, LIT_S64, 6510615555426900570LL, -16, 0, 6510615555426900560LL, 0},
    {LIT_OR, LIT_S64, LIT_S64, 15, 496, 0, 511, 0},
    {LIT_XOR, LIT_S64, LIT_S64, -1, 255, 0, -256, 0},
    {LIT_SHL, LIT_S64, LIT_S64, 3, 63, 0, INT64_MIN, 0},
    {LIT_SHR, LIT_S64, LIT_S64, INT64_MIN, 63, 0, -1, 0},
    {LIT_SHR, LIT_S64, LIT_S64, -16, 2, 0, -4, 0},
    {LIT_SHL, LIT_S64, LIT_S64, 1, 64, 0, 0, 1},
    {LIT_SHR, LIT_S64, LIT_S64, 1, -1, 0, 0, 1},
    {LIT_MIN, LIT_S64, LIT_S64, -1, 1, 0, -1, 0},
    {LIT_MAX, LIT_S64, LIT_S64, -1, 1, 0, 1, 0},
    {LIT_MULHI, LIT_S64, LIT_S64, 9223372036854775807LL, 9223372036854775807LL, 0, 4611686018427387903LL, 0},
    {LIT_MULHI, LIT_S64, LIT_S64, -1, -1, 0, 0, 0},
    {LIT_MULHI, LIT_S64, LIT_S64, -3, 5, 0, -1, 0},
    {LIT_NOT, LIT_S64, LIT_S64, 15, 0, 0, -16, 0},
    {LIT_NEG, LIT_S64, LIT_S64, INT64_MIN, 0, 0, INT64_MIN, 0},
    {LIT_NEG, LIT_S64, LIT_S64, 1, 0, 0, -1, 0},
    {LIT_ABS, LIT_S64, LIT_S64, INT64_MIN, 0, 0, INT64_MIN, 0},
    {LIT_ABS, LIT_S64, LIT_S64, -5, 0, 0, 5, 0},
    {LIT_MAD, LIT_S64, LIT_S64, 9223372036854775807LL, 3, 7, -9223372036854775804LL, 0},
    {LIT_SELP, LIT_S64, LIT_S64, 11, 22, 1, 11, 0},
    {LIT_SELP, LIT_S64, LIT_S64, 11, 22, 2, 22, 0},
    {LIT_MOV, LIT_S64, LIT_S64, -994074541749903632LL, 0, 0, -994074541749903632LL, 0},
    {LIT_MOV, LIT_S64, LIT_S64, -2, 0, 0, -2, 0},
    {LIT_MOV, LIT_U64, LIT_S64, -2, 0, 0, -2, 0},
    {LIT_ADD, LIT_S32, LIT_S32, 2147483647, 1, 0, -2147483648, 0},
    {LIT_SUB, LIT_S32, LIT_S32, -2147483648, 1, 0, 2147483647, 0},
    {LIT_MUL, LIT_S32, LIT_S32, 2147483647, 2, 0, -2, 0},
    {LIT_DIV, LIT_S32, LIT_S32, -7, 2, 0, -3, 0},
    {LIT_REM, LIT_S32, LIT_S32, -7, 2, 0, -1, 0},
    {LIT_DIV, LIT_S32, LIT_S32, 5, 0, 0, 0, 1},
    {LIT_REM, LIT_S32, LIT_S32, 5, 0, 0, 0, 1},
    {LIT_AND, LIT_S32, LIT_S32, 6510615555426900570LL, -16, 0, 1515870800, 0},
    {LIT_OR, LIT_S32, LIT_S32, 15, 496, 0, 511, 0},
    {LIT_XOR, LIT_S32, LIT_S32, -1, 255, 0, -256, 0},
    {LIT_SHL, LIT_S32, LIT_S32, 3, 31, 0, -2147483648, 0},
    {LIT_SHR, LIT_S32, LIT_S32, -2147483648, 31, 0, -1, 0},
    {LIT_SHR, LIT_S32, LIT_S32, -16, 2, 0, -4, 0},
    {LIT_SHL, LIT_S32, LIT_S32, 1, 32, 0, 0, 1},
    {LIT_SHR, LIT_S32, LIT_S32, 1, -1, 0, 0, 1},
    {LIT_MIN, LIT_S32, LIT_S32, -1, 1, 0, -1, 0},
    {LIT_MAX, LIT_S32, LIT_S32, -1, 1, 0, 1, 0},
    {LIT_MULHI, LIT_S32, LIT_S32, 2147483647, 2147483647, 0, 1073741823, 0},
    {LIT_MULHI, LIT_S32, LIT_S32, -1, -1, 0, 0, 0},
    {LIT_MULHI, LIT_S32, LIT_S32, -3, 5, 0, -1, 0},
    {LIT_NOT, LIT_S32, LIT_S32, 15, 0, 0, -16, 0},
    {LIT_NEG, LIT_S32, LIT_S32, -2147483648, 0, 0, -2147483648, 0},
    {LIT_NEG, LIT_S32, LIT_S32, 1, 0, 0, -1, 0},
    {LIT_ABS, LIT_S32, LIT_S32, -2147483648, 0, 0, -2147483648, 0},
    {LIT_ABS, LIT_S32, LIT_S32, -5, 0, 0, 5, 0},
    {LIT_MAD, LIT_S32, LIT_S32, 2147483647, 3, 7, -2147483644, 0},
    {LIT_SELP, LIT_S32, LIT_S32, 11, 22, 1, 11, 0},
    {LIT_SELP, LIT_S32, LIT_S32, 11, 22, 2, 22, 0},
    {LIT_MOV, LIT_S32, LIT_S64, -994074541749903632LL, 0, 0, -1698898192, 0},
    {LIT_MOV, LIT_S64, LIT_S32, -2, 0, 0, -2, 0},
    {LIT_MOV, LIT_U64, LIT_S32, -2, 0, 0, -2, 0},
    {LIT_ADD, LIT_S16, LIT_S16, 32767, 1, 0, -32768, 0},
    {LIT_SUB, LIT_S16, LIT_S16, -32768, 1, 0, 32767, 0},
    {LIT_MUL, LIT_S16, LIT_S16, 32767, 2, 0, -2, 0},
    {LIT_DIV, LIT_S16, LIT_S16, -7, 2, 0, -3, 0},
    {LIT_REM, LIT_S16, LIT_S16, -7, 2, 0, -1, 0},
    {LIT_DIV, LIT_S16, LIT_S16, 5, 0, 0, 0, 1},
    {LIT_REM, LIT_S16, LIT_S16, 5, 0, 0, 0, 1},
    {LIT_AND, LIT_S16, LIT_S16, 6510615555426900570LL, -16, 0, 23120, 0},
    {LIT_OR, LIT_S16, LIT_S16, 15, 496, 0, 511, 0},
    {LIT_XOR, LIT_S16, LIT_S16, -1, 255, 0, -256, 0},
    {LIT_SHL, LIT_S16, LIT_S16, 3, 15, 0, -32768, 0},
    {LIT_SHR, LIT_S16, LIT_S16, -32768, 15, 0, -1, 0},
    {LIT_SHR, LIT_S16, LIT_S16, -16, 2, 0, -4, 0},
    {LIT_SHL, LIT_S16, LIT_S16, 1, 16, 0, 0, 1},
    {LIT_SHR, LIT_S16, LIT_S16, 1, -1, 0, 0, 1},
    {LIT_MIN, LIT_S16, LIT_S16, -1, 1, 0, -1, 0},
    {LIT_MAX, LIT_S16, LIT_S16, -1, 1, 0, 1, 0},
    {LIT_MULHI, LIT_S16, LIT_S16, 32767, 32767, 0, 16383, 0},
    {LIT_MULHI, LIT_S16, LIT_S16, -1, -1, 0, 0, 0},
    {LIT_MULHI, LIT_S16, LIT_S16, -3, 5, 0, -1, 0},
    {LIT_NOT, LIT_S16, LIT_S16, 15, 0, 0, -16, 0},
    {LIT_NEG, LIT_S16, LIT_S16, -32768, 0, 0, -32768, 0},
    {LIT_NEG, LIT_S16, LIT_S16, 1, 0, 0, -1, 0},
    {LIT_ABS, LIT_S16, LIT_S16, -32768, 0, 0, -32768, 0},
    {LIT_ABS, LIT_S16, LIT_S16, -5, 0, 0, 5, 0},
    {LIT_MAD, LIT_S16, LIT_S16, 32767, 3, 7, -32764, 0},
    {LIT_SELP, LIT_S16, LIT_S16, 11, 22, 1, 11, 0},
    {LIT_SELP, LIT_S16, LIT_S16, 11, 22, 2, 22, 0},
    {LIT_MOV, LIT_S16, LIT_S64, -994074541749903632LL, 0, 0, -8464, 0},
    {LIT_MOV, LIT_S64, LIT_S16, -2, 0, 0, -2, 0},
    {LIT_MOV, LIT_U64, LIT_S16, -2, 0, 0, -2, 0},
    {LIT_ADD, LIT_S8, LIT_S8, 127, 1, 0, -128, 0},
    {LIT_SUB, LIT_S8, LIT_S8, -128, 1, 0, 127, 0},
    {LIT_MUL, LIT_S8, LIT_S8, 127, 2, 0, -2, 0},
    {LIT_DIV, LIT_S8, LIT_S8, -7, 2, 0, -3, 0},
    {LIT_REM, LIT_S8, LIT_S8, -7, 2, 0, -1, 0},
    {LIT_DIV, LIT_S8, LIT_S8, 5, 0, 0, 0, 1},
    {LIT_REM, LIT_S8, LIT_S8, 5, 0, 0, 0, 1},
    {LIT_AND, LIT_S8, LIT_S8, 6510615555426900570LL, -16, 0, 80, 0},
    {LIT_OR, LIT_S8, LIT_S8, 15, 496, 0, -1, 0},
    {LIT_XOR, LIT_S8, LIT_S8, -1, 255, 0, 0, 0},
    {LIT_SHL, LIT_S8, LIT_S8, 3, 7, 0, -128, 0},
    {LIT_SHR, LIT_S8, LIT_S8, -128, 7, 0, -1, 0},
    {LIT_SHR, LIT_S8, LIT_S8, -16, 2, 0, -4, 0},
    {LIT_SHL, LIT_S8, LIT_S8, 1, 8, 0, 0, 1},
    {LIT_SHR, LIT_S8, LIT_S8, 1, -1, 0, 0, 1},
    {LIT_MIN, LIT_S8, LIT_S8, -1, 1, 0, -1, 0},
    {LIT_MAX, LIT_S8, LIT_S8, -1, 1, 0, 1, 0},
    {LIT_MULHI, LIT_S8, LIT_S8, 127, 127, 0, 63, 0},
    {LIT_MULHI, LIT_S8, LIT_S8, -1, -1, 0, 0, 0},
    {LIT_MULHI, LIT_S8, LIT_S8, -3, 5, 0, -1, 0},
    {LIT_NOT, LIT_S8, LIT_S8, 15, 0, 0, -16, 0},
    {LIT_NEG, LIT_S8, LIT_S8, -128, 0, 0, -128, 0},
    {LIT_NEG, LIT_S8, LIT_S8, 1, 0, 0, -1, 0},
    {LIT_ABS, LIT_S8, LIT_S8, -128, 0, 0, -128, 0},
    {LIT_ABS, LIT_S8, LIT_S8, -5, 0, 0, 5, 0},
    {LIT_MAD, LIT_S8, LIT_S8, 127, 3, 7, -124, 0},
    {LIT_SELP, LIT_S8, LIT_S8, 11, 22, 1, 11, 0},
    {LIT_SELP, LIT_S8, LIT_S8, 11, 22, 2, 22, 0},
    {LIT_MOV, LIT_S8, LIT_S64, -994074541749903632LL, 0, 0, -16, 0},
    {LIT_MOV, LIT_S64, LIT_S8, -2, 0, 0, -2, 0},
    {LIT_MOV, LIT_U64, LIT_S8, -2, 0, 0, -2, 0},
    {LIT_ADD, LIT_U64, LIT_U64, -1, 1, 0, 0, 0},
    {LIT_SUB, LIT_U64, LIT_U64, 0, 1, 0, -1, 0},
    {LIT_MUL, LIT_U64, LIT_U64, -1, 2, 0, -2, 0},
    {LIT_DIV, LIT_U64, LIT_U64, -7, 2, 0, 9223372036854775804LL, 0},
    {LIT_REM, LIT_U64, LIT_U64, -7, 2, 0, 1, 0},
    {LIT_DIV, LIT_U64, LIT_U64, 5, 0, 0, 0, 1},
    {LIT_REM, LIT_U64, LIT_U64, 5, 0, 0, 0, 1},
    {LIT_AND, LIT_U64, LIT_U64, 6510615555426900570LL, -16, 0, 6510615555426900560LL, 0},
    {LIT_OR, LIT_U64, LIT_U64, 15, 496, 0, 511, 0},
    {LIT_XOR, LIT_U64, LIT_U64, -1, 255, 0, -256, 0},
    {LIT_SHL, LIT_U64, LIT_U64, 3, 63, 0, INT64_MIN, 0},
    {LIT_SHR, LIT_U64, LIT_U64, -1, 63, 0, 1, 0},
    {LIT_SHR, LIT_U64, LIT_U64, -16, 2, 0, 4611686018427387900LL, 0},
    {LIT_SHL, LIT_U64, LIT_U64, 1, 64, 0, 0, 1},
    {LIT_SHR, LIT_U64, LIT_U64, 1, -1, 0, 0, 1},
    {LIT_MIN, LIT_U64, LIT_U64, -1, 1, 0, 1, 0},
    {LIT_MAX, LIT_U64, LIT_U64, -1, 1, 0, -1, 0},
    {LIT_MULHI, LIT_U64, LIT_U64, -1, -1, 0, -2, 0},
    {LIT_MULHI, LIT_U64, LIT_U64, -1, -1, 0, -2, 0},
    {LIT_MULHI, LIT_U64, LIT_U64, -3, 5, 0, 4, 0},
    {LIT_NOT, LIT_U64, LIT_U64, 15, 0, 0, -16, 0},
    {LIT_NEG, LIT_U64, LIT_U64, 0, 0, 0, 0, 0},
    {LIT_NEG, LIT_U64, LIT_U64, 1, 0, 0, -1, 0},
    {LIT_ABS, LIT_U64, LIT_U64, 0, 0, 0, 0, 0},
    {LIT_ABS, LIT_U64, LIT_U64, -5, 0, 0, -5, 0},
    {LIT_MAD, LIT_U64, LIT_U64, -1, 3, 7, 4, 0},
    {LIT_SELP, LIT_U64, LIT_U64, 11, 22, 1, 11, 0},
    {LIT_SELP, LIT_U64, LIT_U64, 11, 22, 2, 22, 0},
    {LIT_MOV, LIT_U64, LIT_S64, -994074541749903632LL, 0, 0, -994074541749903632LL, 0},
    {LIT_MOV, LIT_S64, LIT_U64, -2, 0, 0, -2, 0},
    {LIT_MOV, LIT_U64, LIT_U64, -2, 0, 0, -2, 0},
    {LIT_ADD, LIT_U32, LIT_U32, 4294967295LL, 1, 0, 0, 0},
    {LIT_SUB, LIT_U32, LIT_U32, 0, 1, 0, 4294967295LL, 0},
    {LIT_MUL, LIT_U32, LIT_U32, 4294967295LL, 2, 0, 4294967294LL, 0},
    {LIT_DIV, LIT_U32, LIT_U32, -7, 2, 0, 2147483644, 0},
    {LIT_REM, LIT_U32, LIT_U32, -7, 2, 0, 1, 0},
    {LIT_DIV, LIT_U32, LIT_U32, 5, 0, 0, 0, 1},
    {LIT_REM, LIT_U32, LIT_U32, 5, 0, 0, 0, 1},
    {LIT_AND, LIT_U32, LIT_U32, 6510615555426900570LL, -16, 0, 1515870800, 0},
    {LIT_OR, LIT_U32, LIT_U32, 15, 496, 0, 511, 0},
    {LIT_XOR, LIT_U32, LIT_U32, -1, 255, 0, 4294967040LL, 0},
    {LIT_SHL, LIT_U32, LIT_U32, 3, 31, 0, 2147483648, 0},
    {LIT_SHR, LIT_U32, LIT_U32, 4294967295LL, 31, 0, 1, 0},
    {LIT_SHR, LIT_U32, LIT_U32, -16, 2, 0, 1073741820, 0},
    {LIT_SHL, LIT_U32, LIT_U32, 1, 32, 0, 0, 1},
    {LIT_SHR, LIT_U32, LIT_U32, 1, -1, 0, 0, 1},
    {LIT_MIN, LIT_U32, LIT_U32, -1, 1, 0, 1, 0},
    {LIT_MAX, LIT_U32, LIT_U32, -1, 1, 0, 4294967295LL, 0},
    {LIT_MULHI, LIT_U32, LIT_U32, 4294967295LL, 4294967295LL, 0, 4294967294LL, 0},
    {LIT_MULHI, LIT_U32, LIT_U32, -1, -1, 0, 4294967294LL, 0},
    {LIT_MULHI, LIT_U32, LIT_U32, -3, 5, 0, 4, 0},
    {LIT_NOT, LIT_U32, LIT_U32, 15, 0, 0, 4294967280LL, 0},
    {LIT_NEG, LIT_U32, LIT_U32, 0, 0, 0, 0, 0},
    {LIT_NEG, LIT_U32, LIT_U32, 1, 0, 0, 4294967295LL, 0},
    {LIT_ABS, LIT_U32, LIT_U32, 0, 0, 0, 0, 0},
    {LIT_ABS, LIT_U32, LIT_U32, -5, 0, 0, 4294967291LL, 0},
    {LIT_MAD, LIT_U32, LIT_U32, 4294967295LL, 3, 7, 4, 0},
    {LIT_SELP, LIT_U32, LIT_U32, 11, 22, 1, 11, 0},
    {LIT_SELP, LIT_U32, LIT_U32, 11, 22, 2, 22, 0},
    {LIT_MOV, LIT_U32, LIT_S64, -994074541749903632LL, 0, 0, 2596069104LL, 0},
    {LIT_MOV, LIT_S64, LIT_U32, -2, 0, 0, 4294967294LL, 0},
    {LIT_MOV, LIT_U64, LIT_U32, -2, 0, 0, 4294967294LL, 0},
    {LIT_ADD, LIT_U16, LIT_U16, 65535, 1, 0, 0, 0},
    {LIT_SUB, LIT_U16, LIT_U16, 0, 1, 0, 65535, 0},
    {LIT_MUL, LIT_U16, LIT_U16, 65535, 2, 0, 65534, 0},
    {LIT_DIV, LIT_U16, LIT_U16, -7, 2, 0, 32764, 0},
    {LIT_REM, LIT_U16, LIT_U16, -7, 2, 0, 1, 0},
    {LIT_DIV, LIT_U16, LIT_U16, 5, 0, 0, 0, 1},
    {LIT_REM, LIT_U16, LIT_U16, 5, 0, 0, 0, 1},
    {LIT_AND, LIT_U16, LIT_U16, 6510615555426900570LL, -16, 0, 23120, 0},
    {LIT_OR, LIT_U16, LIT_U16, 15, 496, 0, 511, 0},
    {LIT_XOR, LIT_U16, LIT_U16, -1, 255, 0, 65280, 0},
    {LIT_SHL, LIT_U16, LIT_U16, 3, 15, 0, 32768, 0},
    {LIT_SHR, LIT_U16, LIT_U16, 65535, 15, 0, 1, 0},
    {LIT_SHR, LIT_U16, LIT_U16, -16, 2, 0, 16380, 0},
    {LIT_SHL, LIT_U16, LIT_U16, 1, 16, 0, 0, 1},
    {LIT_SHR, LIT_U16, LIT_U16, 1, -1, 0, 0, 1},
    {LIT_MIN, LIT_U16, LIT_U16, -1, 1, 0, 1, 0},
    {LIT_MAX, LIT_U16, LIT_U16, -1, 1, 0, 65535, 0},
    {LIT_MULHI, LIT_U16, LIT_U16, 65535, 65535, 0, 65534, 0},
    {LIT_MULHI, LIT_U16, LIT_U16, -1, -1, 0, 65534, 0},
    {LIT_MULHI, LIT_U16, LIT_U16, -3, 5, 0, 4, 0},
    {LIT_NOT, LIT_U16, LIT_U16, 15, 0, 0, 65520, 0},
    {LIT_NEG, LIT_U16, LIT_U16, 0, 0, 0, 0, 0},
    {LIT_NEG, LIT_U16, LIT_U16, 1, 0, 0, 65535, 0},
    {LIT_ABS, LIT_U16, LIT_U16, 0, 0, 0, 0, 0},
    {LIT_ABS, LIT_U16, LIT_U16, -5, 0, 0, 65531, 0},
    {LIT_MAD, LIT_U16, LIT_U16, 65535, 3, 7, 4, 0},
    {LIT_SELP, LIT_U16, LIT_U16, 11, 22, 1, 11, 0},
    {LIT_SELP, LIT_U16, LIT_U16, 11, 22, 2, 22, 0},
    {LIT_MOV, LIT_U16, LIT_S64, -994074541749903632LL, 0, 0, 57072, 0},
    {LIT_MOV, LIT_S64, LIT_U16, -2, 0, 0, 65534, 0},
    {LIT_MOV, LIT_U64, LIT_U16, -2, 0, 0, 65534, 0},
    {LIT_ADD, LIT_U8, LIT_U8, 255, 1, 0, 0, 0},
    {LIT_SUB, LIT_U8, LIT_U8, 0, 1, 0, 255, 0},
    {LIT_MUL, LIT_U8, LIT_U8, 255, 2, 0, 254, 0},
    {LIT_DIV, LIT_U8, LIT_U8, -7, 2, 0, 124, 0},
    {LIT_REM, LIT_U8, LIT_U8, -7, 2, 0, 1, 0},
    {LIT_DIV, LIT_U8, LIT_U8, 5, 0, 0, 0, 1},
    {LIT_REM, LIT_U8, LIT_U8, 5, 0, 0, 0, 1},
    {LIT_AND, LIT_U8, LIT_U8, 6510615555426900570LL, -16, 0, 80, 0},
    {LIT_OR, LIT_U8, LIT_U8, 15, 496, 0, 255, 0},
    {LIT_XOR, LIT_U8, LIT_U8, -1, 255, 0, 0, 0},
    {LIT_SHL, LIT_U8, LIT_U8, 3, 7, 0, 128, 0},
    {LIT_SHR, LIT_U8, LIT_U8, 255, 7, 0, 1, 0},
    {LIT_SHR, LIT_U8, LIT_U8, -16, 2, 0, 60, 0},
    {LIT_SHL, LIT_U8, LIT_U8, 1, 8, 0, 0, 1},
    {LIT_SHR, LIT_U8, LIT_U8, 1, -1, 0, 0, 1},
    {LIT_MIN, LIT_U8, LIT_U8, -1, 1, 0, 1, 0},
    {LIT_MAX, LIT_U8, LIT_U8, -1, 1, 0, 255, 0},
    {LIT_MULHI, LIT_U8, LIT_U8, 255, 255, 0, 254, 0},
    {LIT_MULHI, LIT_U8, LIT_U8, -1, -1, 0, 254, 0},
    {LIT_MULHI, LIT_U8, LIT_U8, -3, 5, 0, 4, 0},
    {LIT_NOT, LIT_U8, LIT_U8, 15, 0, 0, 240, 0},
    {LIT_NEG, LIT_U8, LIT_U8, 0, 0, 0, 0, 0},
    {LIT_NEG, LIT_U8, LIT_U8, 1, 0, 0, 255, 0},
    {LIT_ABS, LIT_U8, LIT_U8, 0, 0, 0, 0, 0},
    {LIT_ABS, LIT_U8, LIT_U8, -5, 0, 0, 251, 0},
    {LIT_MAD, LIT_U8, LIT_U8, 255, 3, 7, 4, 0},
    {LIT_SELP, LIT_U8, LIT_U8, 11, 22, 1, 11, 0},
    {LIT_SELP, LIT_U8, LIT_U8, 11, 22, 2, 22, 0},
    {LIT_MOV, LIT_U8, LIT_S64, -994074541749903632LL, 0, 0, 240, 0},
    {LIT_MOV, LIT_S64, LIT_U8, -2, 0, 0, 254, 0},
    {LIT_MOV, LIT_U64, LIT_U8, -2, 0, 0, 254, 0},
    {LIT_DIV, LIT_S32, LIT_S32, -2147483648, -1, 0, -2147483648, 0},
    {LIT_REM, LIT_S32, LIT_S32, -2147483648, -1, 0, 0, 0},
    {LIT_DIV, LIT_S64, LIT_S64, INT64_MIN, -1, 0, 0, 1},
    {LIT_AND, LIT_PRED, LIT_PRED, 1, 3, 0, 1, 0},
    {LIT_OR, LIT_PRED, LIT_PRED, 0, 2, 0, 0, 0},
    {LIT_XOR, LIT_PRED, LIT_PRED, 1, 1, 0, 0, 0},
    {LIT_NOT, LIT_PRED, LIT_PRED, 0, 0, 0, 1, 0},
    {LIT_NOT, LIT_PRED, LIT_PRED, 1, 0, 0, 0, 0},
    {LIT_MOV, LIT_PRED, LIT_PRED, 2, 0, 0, 0, 0},
    {LIT_MUL, LIT_S64, LIT_S32, -16, 3, 0, -48, 0},
    {LIT_MUL, LIT_U64, LIT_U32, -16, 3, 0, 12884901840LL, 0},
    {LIT_MUL, LIT_S32, LIT_S16, -300, 300, 0, -90000, 0},
    {LIT_MUL, LIT_U32, LIT_U16, -1, -1, 0, 4294836225LL, 0},
    {LIT_MAD, LIT_S64, LIT_S32, -16, 4, 4294967280LL, 4294967216LL, 0},
    {LIT_MAD, LIT_U64, LIT_U32, -16, 4, 1, 17179869121LL, 0},
};

static void test_alu(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof alu / sizeof alu[0]; i++) {
        LitInstr in;
        int64_t out = 12345;
        const char *why = NULL;
        memset(&in, 0, sizeof in);
        in.op = (uint8_t)alu[i].op;
        in.ty = (uint8_t)alu[i].ty;
        in.sty = (uint8_t)alu[i].sty;
        int rc = lit_alu(&in, alu[i].a, alu[i].b, alu[i].c, &out, &why);
        if (alu[i].fails ? !rc || !why : rc || out != alu[i].want)
            fail_msg("row %zu: %s.%s/%s %lld, %lld, %lld gives rc %d, %lld; "
                     "want %s %lld", i, lit_opinfo[alu[i].op].name,
                     type_names[alu[i].ty], type_names[alu[i].sty],
                     (long long)alu[i].a, (long long)alu[i].b,
                     (long long)alu[i].c, rc, (long long)out,
                     alu[i].fails ? "an error" : "", (long long)alu[i].want);
    }
}

/* The messages of the errors, at each width. */
static void test_alu_errors(void **state)
{
    (void)state;
    static const struct { int op, ty; int64_t a, b; const char *why; } e[] = {
        {LIT_DIV, LIT_S64, 1, 0, "division by zero"},
        {LIT_REM, LIT_U8, 1, 0, "division by zero"},
        {LIT_DIV, LIT_S64, INT64_MIN, -1, "INT64_MIN / -1 overflows"},
        {LIT_SHL, LIT_S64, 1, 64, "shift count outside 0..63"},
        {LIT_SHL, LIT_U64, 1, 64, "shift count outside 0..63"},
        {LIT_SHR, LIT_S32, 1, 32, "shift count outside 0..31"},
        {LIT_SHR, LIT_U16, 1, 16, "shift count outside 0..15"},
        {LIT_SHL, LIT_S8, 1, -1, "shift count outside 0..7"},
    };
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) {
        LitInstr in;
        int64_t out;
        const char *why = NULL;
        memset(&in, 0, sizeof in);
        in.op = (uint8_t)e[i].op;
        in.ty = in.sty = (uint8_t)e[i].ty;
        assert_int_not_equal(lit_alu(&in, e[i].a, e[i].b, 0, &out, &why), 0);
        assert_string_equal(why, e[i].why);
    }
}

/* ty a b: "EQ NE LT LE GT GE" as six bits. */
static const struct {
    int ty;
    int64_t a, b;
    const char *want;
} cmp[] = {
    {LIT_S64, -1, 1, "011100"},
    {LIT_S64, 5, 5, "100101"},
    {LIT_S64, INT64_MIN, 0, "011100"},
    {LIT_S64, 259, 4, "010011"},
    {LIT_S32, -1, 1, "011100"},
    {LIT_S32, 5, 5, "100101"},
    {LIT_S32, 2147483648LL, 0, "011100"},
    {LIT_S32, 259, 4, "010011"},
    {LIT_S16, -1, 1, "011100"},
    {LIT_S16, 5, 5, "100101"},
    {LIT_S16, 32768, 0, "011100"},
    {LIT_S16, 259, 4, "010011"},
    {LIT_S8, -1, 1, "011100"},
    {LIT_S8, 5, 5, "100101"},
    {LIT_S8, 128, 0, "011100"},
    {LIT_S8, 259, 4, "011100"},
    {LIT_U64, -1, 1, "010011"},
    {LIT_U64, 5, 5, "100101"},
    {LIT_U64, INT64_MIN, 0, "010011"},
    {LIT_U64, 259, 4, "010011"},
    {LIT_U32, -1, 1, "010011"},
    {LIT_U32, 5, 5, "100101"},
    {LIT_U32, 2147483648LL, 0, "010011"},
    {LIT_U32, 259, 4, "010011"},
    {LIT_U16, -1, 1, "010011"},
    {LIT_U16, 5, 5, "100101"},
    {LIT_U16, 32768, 0, "010011"},
    {LIT_U16, 259, 4, "010011"},
    {LIT_U8, -1, 1, "010011"},
    {LIT_U8, 5, 5, "100101"},
    {LIT_U8, 128, 0, "010011"},
    {LIT_U8, 259, 4, "011100"},
    {LIT_PRED, -1, 1, "100101"},
    {LIT_PRED, 5, 5, "100101"},
    {LIT_PRED, 1, 0, "010011"},
    {LIT_PRED, 259, 4, "010011"},
};

static void test_compare(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cmp / sizeof cmp[0]; i++)
        for (int c = LIT_CMP_EQ; c <= LIT_CMP_GE; c++)
            if (lit_compare(c, cmp[i].ty, cmp[i].a, cmp[i].b) !=
                (cmp[i].want[c] == '1'))
                fail_msg("%s: %lld %s %lld", type_names[cmp[i].ty],
                         (long long)cmp[i].a, lit_cmp_names[c],
                         (long long)cmp[i].b);
    /* litmus compares as signed 64-bit integers */
    assert_true(lit_compare(LIT_CMP_LT, LIT_S64, -1, 0));
    assert_false(lit_compare(LIT_CMP_LT, LIT_U64, -1, 0));
}

/* op ty: what an atomic on `old` with operands a, b stores (its value
   in the element's type), or nothing (a failed cas). */
static const struct {
    int op, ty;
    int64_t old, a, b;
    int stores;
    int64_t want;
} atom[] = {
    {LIT_ATOM_ADD, LIT_S64, -1, 1, 0, 1, 0},
    {LIT_ATOM_ADD, LIT_S64, 5, -7, 0, 1, -2},
    {LIT_ATOM_MIN, LIT_S64, -1, 1, 0, 1, -1},
    {LIT_ATOM_MAX, LIT_S64, -1, 1, 0, 1, 1},
    {LIT_ATOM_INC, LIT_S64, 5, 5, 0, 1, 0},
    {LIT_ATOM_INC, LIT_S64, 2, 5, 0, 1, 3},
    {LIT_ATOM_INC, LIT_S64, -1, 5, 0, 1, 0},
    {LIT_ATOM_DEC, LIT_S64, 0, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_S64, 7, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_S64, 3, 5, 0, 1, 2},
    {LIT_ATOM_CAS, LIT_S64, 3, 3, 9, 1, 9},
    {LIT_ATOM_CAS, LIT_S64, 3, 4, 9, 0, 0},
    {LIT_ATOM_CAS, LIT_S64, -1, -1, 9, 1, 9},
    {LIT_ATOM_EXCH, LIT_S64, 3, 4660, 0, 1, 4660},
    {LIT_ATOM_AND, LIT_S64, 255, 240, 0, 1, 240},
    {LIT_ATOM_OR, LIT_S64, 3840, 15, 0, 1, 3855},
    {LIT_ATOM_XOR, LIT_S64, -1, 1, 0, 1, -2},
    {LIT_ATOM_ADD, LIT_S32, -1, 1, 0, 1, 0},
    {LIT_ATOM_ADD, LIT_S32, 5, -7, 0, 1, -2},
    {LIT_ATOM_MIN, LIT_S32, -1, 1, 0, 1, -1},
    {LIT_ATOM_MAX, LIT_S32, -1, 1, 0, 1, 1},
    {LIT_ATOM_INC, LIT_S32, 5, 5, 0, 1, 0},
    {LIT_ATOM_INC, LIT_S32, 2, 5, 0, 1, 3},
    {LIT_ATOM_INC, LIT_S32, -1, 5, 0, 1, 0},
    {LIT_ATOM_DEC, LIT_S32, 0, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_S32, 7, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_S32, 3, 5, 0, 1, 2},
    {LIT_ATOM_CAS, LIT_S32, 3, 3, 9, 1, 9},
    {LIT_ATOM_CAS, LIT_S32, 3, 4, 9, 0, 0},
    {LIT_ATOM_CAS, LIT_S32, -1, -1, 9, 1, 9},
    {LIT_ATOM_EXCH, LIT_S32, 3, 4660, 0, 1, 4660},
    {LIT_ATOM_AND, LIT_S32, 255, 240, 0, 1, 240},
    {LIT_ATOM_OR, LIT_S32, 3840, 15, 0, 1, 3855},
    {LIT_ATOM_XOR, LIT_S32, -1, 1, 0, 1, -2},
    {LIT_ATOM_ADD, LIT_S16, -1, 1, 0, 1, 0},
    {LIT_ATOM_ADD, LIT_S16, 5, -7, 0, 1, -2},
    {LIT_ATOM_MIN, LIT_S16, -1, 1, 0, 1, -1},
    {LIT_ATOM_MAX, LIT_S16, -1, 1, 0, 1, 1},
    {LIT_ATOM_INC, LIT_S16, 5, 5, 0, 1, 0},
    {LIT_ATOM_INC, LIT_S16, 2, 5, 0, 1, 3},
    {LIT_ATOM_INC, LIT_S16, -1, 5, 0, 1, 0},
    {LIT_ATOM_DEC, LIT_S16, 0, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_S16, 7, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_S16, 3, 5, 0, 1, 2},
    {LIT_ATOM_CAS, LIT_S16, 3, 3, 9, 1, 9},
    {LIT_ATOM_CAS, LIT_S16, 3, 4, 9, 0, 0},
    {LIT_ATOM_CAS, LIT_S16, -1, -1, 9, 1, 9},
    {LIT_ATOM_EXCH, LIT_S16, 3, 4660, 0, 1, 4660},
    {LIT_ATOM_AND, LIT_S16, 255, 240, 0, 1, 240},
    {LIT_ATOM_OR, LIT_S16, 3840, 15, 0, 1, 3855},
    {LIT_ATOM_XOR, LIT_S16, -1, 1, 0, 1, -2},
    {LIT_ATOM_ADD, LIT_S8, -1, 1, 0, 1, 0},
    {LIT_ATOM_ADD, LIT_S8, 5, -7, 0, 1, -2},
    {LIT_ATOM_MIN, LIT_S8, -1, 1, 0, 1, -1},
    {LIT_ATOM_MAX, LIT_S8, -1, 1, 0, 1, 1},
    {LIT_ATOM_INC, LIT_S8, 5, 5, 0, 1, 0},
    {LIT_ATOM_INC, LIT_S8, 2, 5, 0, 1, 3},
    {LIT_ATOM_INC, LIT_S8, -1, 5, 0, 1, 0},
    {LIT_ATOM_DEC, LIT_S8, 0, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_S8, 7, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_S8, 3, 5, 0, 1, 2},
    {LIT_ATOM_CAS, LIT_S8, 3, 3, 9, 1, 9},
    {LIT_ATOM_CAS, LIT_S8, 3, 4, 9, 0, 0},
    {LIT_ATOM_CAS, LIT_S8, -1, -1, 9, 1, 9},
    {LIT_ATOM_EXCH, LIT_S8, 3, 4660, 0, 1, 52},
    {LIT_ATOM_AND, LIT_S8, 255, 240, 0, 1, -16},
    {LIT_ATOM_OR, LIT_S8, 3840, 15, 0, 1, 15},
    {LIT_ATOM_XOR, LIT_S8, -1, 1, 0, 1, -2},
    {LIT_ATOM_ADD, LIT_U64, -1, 1, 0, 1, 0},
    {LIT_ATOM_ADD, LIT_U64, 5, -7, 0, 1, -2},
    {LIT_ATOM_MIN, LIT_U64, -1, 1, 0, 1, 1},
    {LIT_ATOM_MAX, LIT_U64, -1, 1, 0, 1, -1},
    {LIT_ATOM_INC, LIT_U64, 5, 5, 0, 1, 0},
    {LIT_ATOM_INC, LIT_U64, 2, 5, 0, 1, 3},
    {LIT_ATOM_INC, LIT_U64, -1, 5, 0, 1, 0},
    {LIT_ATOM_DEC, LIT_U64, 0, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_U64, 7, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_U64, 3, 5, 0, 1, 2},
    {LIT_ATOM_CAS, LIT_U64, 3, 3, 9, 1, 9},
    {LIT_ATOM_CAS, LIT_U64, 3, 4, 9, 0, 0},
    {LIT_ATOM_CAS, LIT_U64, -1, -1, 9, 1, 9},
    {LIT_ATOM_EXCH, LIT_U64, 3, 4660, 0, 1, 4660},
    {LIT_ATOM_AND, LIT_U64, 255, 240, 0, 1, 240},
    {LIT_ATOM_OR, LIT_U64, 3840, 15, 0, 1, 3855},
    {LIT_ATOM_XOR, LIT_U64, -1, 1, 0, 1, -2},
    {LIT_ATOM_ADD, LIT_U32, -1, 1, 0, 1, 0},
    {LIT_ATOM_ADD, LIT_U32, 5, -7, 0, 1, 4294967294LL},
    {LIT_ATOM_MIN, LIT_U32, -1, 1, 0, 1, 1},
    {LIT_ATOM_MAX, LIT_U32, -1, 1, 0, 1, 4294967295LL},
    {LIT_ATOM_INC, LIT_U32, 5, 5, 0, 1, 0},
    {LIT_ATOM_INC, LIT_U32, 2, 5, 0, 1, 3},
    {LIT_ATOM_INC, LIT_U32, -1, 5, 0, 1, 0},
    {LIT_ATOM_DEC, LIT_U32, 0, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_U32, 7, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_U32, 3, 5, 0, 1, 2},
    {LIT_ATOM_CAS, LIT_U32, 3, 3, 9, 1, 9},
    {LIT_ATOM_CAS, LIT_U32, 3, 4, 9, 0, 0},
    {LIT_ATOM_CAS, LIT_U32, -1, -1, 9, 1, 9},
    {LIT_ATOM_EXCH, LIT_U32, 3, 4660, 0, 1, 4660},
    {LIT_ATOM_AND, LIT_U32, 255, 240, 0, 1, 240},
    {LIT_ATOM_OR, LIT_U32, 3840, 15, 0, 1, 3855},
    {LIT_ATOM_XOR, LIT_U32, -1, 1, 0, 1, 4294967294LL},
    {LIT_ATOM_ADD, LIT_U16, -1, 1, 0, 1, 0},
    {LIT_ATOM_ADD, LIT_U16, 5, -7, 0, 1, 65534},
    {LIT_ATOM_MIN, LIT_U16, -1, 1, 0, 1, 1},
    {LIT_ATOM_MAX, LIT_U16, -1, 1, 0, 1, 65535},
    {LIT_ATOM_INC, LIT_U16, 5, 5, 0, 1, 0},
    {LIT_ATOM_INC, LIT_U16, 2, 5, 0, 1, 3},
    {LIT_ATOM_INC, LIT_U16, -1, 5, 0, 1, 0},
    {LIT_ATOM_DEC, LIT_U16, 0, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_U16, 7, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_U16, 3, 5, 0, 1, 2},
    {LIT_ATOM_CAS, LIT_U16, 3, 3, 9, 1, 9},
    {LIT_ATOM_CAS, LIT_U16, 3, 4, 9, 0, 0},
    {LIT_ATOM_CAS, LIT_U16, -1, -1, 9, 1, 9},
    {LIT_ATOM_EXCH, LIT_U16, 3, 4660, 0, 1, 4660},
    {LIT_ATOM_AND, LIT_U16, 255, 240, 0, 1, 240},
    {LIT_ATOM_OR, LIT_U16, 3840, 15, 0, 1, 3855},
    {LIT_ATOM_XOR, LIT_U16, -1, 1, 0, 1, 65534},
    {LIT_ATOM_ADD, LIT_U8, -1, 1, 0, 1, 0},
    {LIT_ATOM_ADD, LIT_U8, 5, -7, 0, 1, 254},
    {LIT_ATOM_MIN, LIT_U8, -1, 1, 0, 1, 1},
    {LIT_ATOM_MAX, LIT_U8, -1, 1, 0, 1, 255},
    {LIT_ATOM_INC, LIT_U8, 5, 5, 0, 1, 0},
    {LIT_ATOM_INC, LIT_U8, 2, 5, 0, 1, 3},
    {LIT_ATOM_INC, LIT_U8, -1, 5, 0, 1, 0},
    {LIT_ATOM_DEC, LIT_U8, 0, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_U8, 7, 5, 0, 1, 5},
    {LIT_ATOM_DEC, LIT_U8, 3, 5, 0, 1, 2},
    {LIT_ATOM_CAS, LIT_U8, 3, 3, 9, 1, 9},
    {LIT_ATOM_CAS, LIT_U8, 3, 4, 9, 0, 0},
    {LIT_ATOM_CAS, LIT_U8, -1, -1, 9, 1, 9},
    {LIT_ATOM_EXCH, LIT_U8, 3, 4660, 0, 1, 52},
    {LIT_ATOM_AND, LIT_U8, 255, 240, 0, 1, 240},
    {LIT_ATOM_OR, LIT_U8, 3840, 15, 0, 1, 15},
    {LIT_ATOM_XOR, LIT_U8, -1, 1, 0, 1, 254},
};

static void test_atomic(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof atom / sizeof atom[0]; i++) {
        LitInstr in;
        int64_t out = 12345;
        memset(&in, 0, sizeof in);
        in.op = (uint8_t)atom[i].op;
        in.ty = in.sty = (uint8_t)atom[i].ty;
        int st = lit_atomic(&in, atom[i].old, atom[i].a, atom[i].b, &out);
        if (st != atom[i].stores ||
            (st && lit_type_value(atom[i].ty, out) != atom[i].want))
            fail_msg("row %zu: %s.%s old %lld, %lld, %lld: stores %d %lld; "
                     "want %d %lld", i, lit_opinfo[atom[i].op].name,
                     type_names[atom[i].ty], (long long)atom[i].old,
                     (long long)atom[i].a, (long long)atom[i].b, st,
                     (long long)lit_type_value(atom[i].ty, out),
                     atom[i].stores, (long long)atom[i].want);
    }
}

/* ty v: v as a value of ty. */
static const struct {
    int ty;
    int64_t v, want;
} val[] = {
    {LIT_S64, 511, 511},
    {LIT_S64, -1, -1},
    {LIT_S64, 128, 128},
    {LIT_S64, -994074541749903632LL, -994074541749903632LL},
    {LIT_S32, 511, 511},
    {LIT_S32, -1, -1},
    {LIT_S32, 128, 128},
    {LIT_S32, -994074541749903632LL, -1698898192},
    {LIT_S16, 511, 511},
    {LIT_S16, -1, -1},
    {LIT_S16, 128, 128},
    {LIT_S16, -994074541749903632LL, -8464},
    {LIT_S8, 511, -1},
    {LIT_S8, -1, -1},
    {LIT_S8, 128, -128},
    {LIT_S8, -994074541749903632LL, -16},
    {LIT_U64, 511, 511},
    {LIT_U64, -1, -1},
    {LIT_U64, 128, 128},
    {LIT_U64, -994074541749903632LL, -994074541749903632LL},
    {LIT_U32, 511, 511},
    {LIT_U32, -1, 4294967295LL},
    {LIT_U32, 128, 128},
    {LIT_U32, -994074541749903632LL, 2596069104LL},
    {LIT_U16, 511, 511},
    {LIT_U16, -1, 65535},
    {LIT_U16, 128, 128},
    {LIT_U16, -994074541749903632LL, 57072},
    {LIT_U8, 511, 255},
    {LIT_U8, -1, 255},
    {LIT_U8, 128, 128},
    {LIT_U8, -994074541749903632LL, 240},
    {LIT_PRED, 511, 1},
    {LIT_PRED, -1, 1},
    {LIT_PRED, 128, 0},
    {LIT_PRED, -994074541749903632LL, 0},
};

static void test_type_value(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof val / sizeof val[0]; i++)
        if (lit_type_value(val[i].ty, val[i].v) != val[i].want)
            fail_msg("%s of %lld is %lld, not %lld", type_names[val[i].ty],
                     (long long)val[i].v,
                     (long long)lit_type_value(val[i].ty, val[i].v),
                     (long long)val[i].want);
    static const struct { int ty, bits, sgn; } t[] = {
        {LIT_S64, 64, 1}, {LIT_S32, 32, 1}, {LIT_S16, 16, 1}, {LIT_S8, 8, 1},
        {LIT_U64, 64, 0}, {LIT_U32, 32, 0}, {LIT_U16, 16, 0}, {LIT_U8, 8, 0},
        {LIT_PRED, 1, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        assert_int_equal(lit_type_bits(t[i].ty), t[i].bits);
        assert_int_equal(lit_type_signed(t[i].ty), t[i].sgn);
    }
    assert_int_equal(lit_type_of_bytes(1), LIT_U8);
    assert_int_equal(lit_type_of_bytes(2), LIT_U16);
    assert_int_equal(lit_type_of_bytes(4), LIT_U32);
    assert_int_equal(lit_type_of_bytes(8), LIT_U64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu),
        cmocka_unit_test(test_alu_errors),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_atomic),
        cmocka_unit_test(test_type_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
