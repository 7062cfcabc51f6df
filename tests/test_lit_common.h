/* Helpers shared by the tests/test_lit_*.c files: parse a string that must
   parse (or must fail, returning the exact diagnostics), and round-trip a
   program through the printer. cmocka is included by the test first. */
#ifndef GPMC_TEST_LIT_COMMON_H
#define GPMC_TEST_LIT_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"

/* Diagnostics of the last failed parse (owned here, replaced each call). */
static char *lit_test_diag_text;

static inline LitProgram *parse_opt(const char *src, const LitOptions *opt)
{
    BaseDiag d;
    base_diag_init(&d);
    LitProgram *p = NULL;
    int rc = lit_parse_string("t.litmus", src, opt, &p, &d);
    if (rc)
        fprintf(stderr, "unexpected errors:\n%s", d.text ? d.text : "");
    assert_int_equal(rc, 0);
    assert_int_equal(d.nerrors, 0);
    assert_non_null(p);
    base_diag_free(&d);
    return p;
}

static inline LitProgram *parse_ok(const char *src)
{
    return parse_opt(src, NULL);
}

/* The diagnostics of a file that must fail; valid until the next call. */
static inline const char *parse_fail_opt(const char *src, const LitOptions *opt)
{
    BaseDiag d;
    base_diag_init(&d);
    LitProgram *p = (LitProgram *)1;
    int rc = lit_parse_string("t.litmus", src, opt, &p, &d);
    assert_int_not_equal(rc, 0);
    assert_null(p);
    assert_true(d.nerrors > 0);
    free(lit_test_diag_text);
    lit_test_diag_text = strdup(d.text ? d.text : "");
    base_diag_free(&d);
    return lit_test_diag_text;
}

static inline const char *parse_fail(const char *src)
{
    return parse_fail_opt(src, NULL);
}

/* Exactly one error, exactly this line (without its newline). */
#define assert_error(src, msg) \
    assert_string_equal(parse_fail(src), msg "\n")

/* PREFIX, then UNIT n times joined by SEP, then SUFFIX (malloc'd): the
   long and deep inputs of the limit tests. */
static inline char *repeat(const char *prefix, const char *unit,
                           const char *sep, int n, const char *suffix)
{
    BaseStr s = {0};
    base_str_printf(&s, "%s", prefix);
    for (int i = 0; i < n; i++)
        base_str_printf(&s, "%s%s", i ? sep : "", unit);
    base_str_printf(&s, "%s", suffix);
    assert_false(s.failed);
    char *text = strdup(s.s);
    base_str_free(&s);
    return text;
}

/* The canonical text of p; the caller frees it. */
static inline char *print_str(const LitProgram *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    lit_print(f, p);
    fclose(f);
    return buf;
}

/* print(p) parses to a program equal to p, and printing is a fixed
   point. */
static inline void assert_roundtrip(const LitProgram *p)
{
    char *text = print_str(p);
    LitProgram *q = parse_ok(text);
    assert_true(lit_program_equal(p, q));
    assert_true(lit_program_equal(q, p));
    char *again = print_str(q);
    assert_string_equal(text, again);
    free(again);
    free(text);
    lit_program_free(q);
}

/* The registers a kernel uses, as a bit set (litmus: r0 … r31). */
static inline uint32_t regs_mask(const LitKernel *k)
{
    uint32_t m = 0;
    assert_true(k->nregs <= 32);
    for (int r = 0; r < k->nregs; r++)
        if (k->reg_used[r])
            m |= 1u << r;
    return m;
}

#endif
