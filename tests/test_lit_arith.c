/* Tests of lit_arith and of constant expressions in litmus files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "litmus/litmus.h"
#include "tests/test_lit_common.h"

static int64_t ok(int op, int64_t a, int64_t b)
{
    int64_t r = 0;
    const char *why = NULL;
    assert_int_equal(lit_arith(op, a, b, &r, &why), 0);
    return r;
}

static const char *fails(int op, int64_t a, int64_t b)
{
    int64_t r = 0;
    const char *why = NULL;
    assert_int_not_equal(lit_arith(op, a, b, &r, &why), 0);
    assert_non_null(why);
    return why;
}

static void test_wraparound(void **state)
{
    (void)state;
    assert_true(ok(LIT_ADD, INT64_MAX, 1) == INT64_MIN);
    assert_true(ok(LIT_SUB, INT64_MIN, 1) == INT64_MAX);
    assert_true(ok(LIT_MUL, INT64_MAX, 2) == -2);
    assert_true(ok(LIT_MUL, INT64_MIN, -1) == INT64_MIN);
    assert_true(ok(LIT_ADD, -5, 3) == -2);
    assert_true(ok(LIT_SUB, 3, 5) == -2);
    assert_true(ok(LIT_MUL, -4, 6) == -24);
}

static void test_division(void **state)
{
    (void)state;
    /* C99: truncation toward zero; the remainder has the dividend's sign */
    assert_true(ok(LIT_DIV, 7, 2) == 3);
    assert_true(ok(LIT_DIV, -7, 2) == -3);
    assert_true(ok(LIT_DIV, 7, -2) == -3);
    assert_true(ok(LIT_DIV, -7, -2) == 3);
    assert_true(ok(LIT_REM, 7, 2) == 1);
    assert_true(ok(LIT_REM, -7, 2) == -1);
    assert_true(ok(LIT_REM, 7, -2) == 1);
    assert_true(ok(LIT_REM, -7, -2) == -1);
    assert_true(ok(LIT_DIV, INT64_MIN, 1) == INT64_MIN);
    assert_true(ok(LIT_REM, INT64_MIN, -1) == 0);
    assert_string_equal(fails(LIT_DIV, 1, 0), "division by zero");
    assert_string_equal(fails(LIT_REM, 1, 0), "division by zero");
    assert_string_equal(fails(LIT_DIV, 0, 0), "division by zero");
    assert_string_equal(fails(LIT_DIV, INT64_MIN, -1),
                        "INT64_MIN / -1 overflows");
}

static void test_bits_and_shifts(void **state)
{
    (void)state;
    assert_true(ok(LIT_AND, 12, 10) == 8);
    assert_true(ok(LIT_OR, 12, 10) == 14);
    assert_true(ok(LIT_XOR, 12, 10) == 6);
    assert_true(ok(LIT_AND, -1, 0x55) == 0x55);
    assert_true(ok(LIT_SHL, 1, 0) == 1);
    assert_true(ok(LIT_SHL, 1, 63) == INT64_MIN);
    assert_true(ok(LIT_SHL, 3, 62) == INT64_MIN + ((int64_t)1 << 62));
    assert_true(ok(LIT_SHR, -8, 1) == -4);     /* arithmetic */
    assert_true(ok(LIT_SHR, -1, 63) == -1);
    assert_true(ok(LIT_SHR, INT64_MIN, 63) == -1);
    assert_true(ok(LIT_SHR, INT64_MAX, 62) == 1);
    assert_true(ok(LIT_SHR, 5, 0) == 5);
    assert_string_equal(fails(LIT_SHL, 1, 64), "shift count outside 0..63");
    assert_string_equal(fails(LIT_SHL, 1, -1), "shift count outside 0..63");
    assert_string_equal(fails(LIT_SHR, 1, 64), "shift count outside 0..63");
    assert_string_equal(fails(LIT_SHR, 1, INT64_MIN),
                        "shift count outside 0..63");
}

static void test_min_max(void **state)
{
    (void)state;
    assert_true(ok(LIT_MIN, -3, 2) == -3);
    assert_true(ok(LIT_MAX, -3, 2) == 2);
    assert_true(ok(LIT_MIN, INT64_MIN, INT64_MAX) == INT64_MIN);
    assert_true(ok(LIT_MAX, INT64_MIN, INT64_MAX) == INT64_MAX);
    assert_string_equal(fails(LIT_LD, 1, 2), "not an arithmetic operation");
}

/* The value of param P after parsing SRC. */
static int64_t param(const char *src, int i)
{
    LitProgram *p = parse_ok(src);
    assert_true(i < p->nparams);
    int64_t v = p->params[i].value;
    lit_program_free(p);
    return v;
}

static void test_constant_expressions(void **state)
{
    (void)state;
    assert_true(param("test t\nparam A = 1 + 2 * 3", 0) == 7);
    assert_true(param("test t\nparam A = (1 + 2) * 3", 0) == 9);
    assert_true(param("test t\nparam A = 10 - 4 - 3", 0) == 3);
    assert_true(param("test t\nparam A = 100 / 10 / 5", 0) == 2);
    assert_true(param("test t\nparam A = 7 / -2", 0) == -3);
    assert_true(param("test t\nparam A = -7 % 2", 0) == -1);
    assert_true(param("test t\nparam A = 2 * -3", 0) == -6);
    assert_true(param("test t\nparam A = - -4", 0) == 4);
    assert_true(param("test t\nparam A = 0x10 + 0XfF", 0) == 271);
    assert_true(param("test t\nparam A = 9223372036854775807 + 1", 0) ==
                INT64_MIN);
    assert_true(param("test t\nparam A = -0x8000000000000000", 0) ==
                INT64_MIN);
    assert_true(param("test t\nparam A = 6\nparam B = A * A - 1", 1) == 35);
    assert_true(param("test t\nparam A = 6\nparam B = (A + 2) % 5", 1) == 3);
    /* newlines inside parentheses are blank */
    assert_true(param("test t\nparam A = (1 +\n 2\n)", 0) == 3);
}

static void test_constant_errors(void **state)
{
    (void)state;
    assert_error("test t\nparam A = 1 / 0",
                 "t.litmus:2:13: error: division by zero in constant "
                 "expression");
    assert_error("test t\nparam A = 5 % (2 - 2)",
                 "t.litmus:2:13: error: division by zero in constant "
                 "expression");
    assert_error("test t\nparam A = -0x8000000000000000 / -1",
                 "t.litmus:2:31: error: INT64_MIN / -1 overflows in constant "
                 "expression");
    assert_error("test t\nparam A = B + 1",
                 "t.litmus:2:11: error: undefined param 'B'");
    assert_error("test t\nparam A = B\nparam B = 1",
                 "t.litmus:2:11: error: undefined param 'B'");
    assert_error("test t\npm x\nparam A = x",
                 "t.litmus:3:11: error: 'x' is a location, not a param");
    assert_error("test t\nparam A = r1",
                 "t.litmus:2:11: error: register 'r1' not allowed in a "
                 "constant expression");
    assert_error("test t\nparam A = %tid",
                 "t.litmus:2:11: error: special register not allowed in a "
                 "constant expression");
    assert_error("test t\nparam A = (1 + 2",
                 "t.litmus:2:17: error: expected ')', found end of file");
    assert_error("test t\nparam A = 1 +",
                 "t.litmus:2:14: error: expected a constant expression, "
                 "found end of file");
    assert_error("test t\nparam A = 1.5",
                 "t.litmus:2:11: error: expected a constant expression, "
                 "found '1.5'");
}

/* A value that could not be computed poisons what uses it silently. */
static void test_no_cascade(void **state)
{
    (void)state;
    assert_error("test t\nparam A = 1 / 0\nparam B = A * 2\npm x[B]\n"
                 "pm y[A + 1] = {1, 2}\nkernel k grid A block 1 { nop }",
                 "t.litmus:2:13: error: division by zero in constant "
                 "expression");
    assert_string_equal(parse_fail("test t\nparam A = 1 / 0 + 2 / 0"),
                        "t.litmus:2:13: error: division by zero in constant "
                        "expression\n"
                        "t.litmus:2:21: error: division by zero in constant "
                        "expression\n");
}

/* Arithmetic in instructions is folded with the same rules. */
static void test_folded_immediates(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\nparam N = 4\npm a[N]\n"
                             "kernel k grid 1 block 1 {\n"
                             "  mov r0, N * 2 - 1\n"
                             "  st a[N - 1], -N\n"
                             "  st a[r0 - N / 2], 0x7fffffffffffffff + 1\n"
                             "}\n");
    const LitInstr *c = p->kernels[0].bodies[0].code;
    assert_true(c[0].a.imm == 7);
    assert_int_equal(c[1].m.base.kind, LIT_OPD_NONE);
    assert_true(c[1].m.off == 3);
    assert_true(c[1].a.imm == -4);
    assert_int_equal(c[2].m.base.kind, LIT_OPD_REG);
    assert_true(c[2].m.off == -2);
    assert_true(c[2].a.imm == INT64_MIN);
    lit_program_free(p);
}

/* Constant expressions nest at most LIT_MAX_DEPTH deep: '(' and unary
   '-' each count. The review's crashes (29 k parentheses, 200 k minus
   signs) end in one error; the count starts afresh after it. */
static void test_expression_depth(void **state)
{
    (void)state;
    char *opens = repeat("test t\nparam N = ", "(", "", 128, "");
    char *negs = repeat(opens, "-", "", 128, "7");
    char *src = repeat(negs, ")", "", 128, "\n");
    LitProgram *p = parse_ok(src);
    assert_int_equal(p->params[0].value, 7);
    lit_program_free(p);
    free(src);
    free(negs);
    free(opens);
    static const struct {
        const char *open, *close;
        int n, col;
    } cases[] = {
        {"(", ")", 257, 11 + 256}, {"(", ")", 29000, 11 + 256},
        {"-", "", 257, 11 + 256}, {"-", "", 200000, 11 + 256},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *head = repeat("test t\nparam N = ", cases[i].open, "",
                            cases[i].n, "1");
        char *tail = repeat("", cases[i].close, "", cases[i].n,
                            "\nparam M = ((((-1))))\npm a[M]\n");
        char *bad = repeat(head, tail, "", 1, "");
        char want[160];
        snprintf(want, sizeof want, "t.litmus:2:%d: error: expression nested "
                 "too deeply (more than 256 levels)\n"
                 "t.litmus:4:6: error: size of 'a' must be positive, got -1\n",
                 cases[i].col);
        assert_string_equal(parse_fail(bad), want);
        free(bad);
        free(tail);
        free(head);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wraparound),
        cmocka_unit_test(test_division),
        cmocka_unit_test(test_bits_and_shifts),
        cmocka_unit_test(test_min_max),
        cmocka_unit_test(test_constant_expressions),
        cmocka_unit_test(test_constant_errors),
        cmocka_unit_test(test_no_cascade),
        cmocka_unit_test(test_folded_immediates),
        cmocka_unit_test(test_expression_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
