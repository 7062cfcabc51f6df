/* Tests of base_mem (the one allocator, base_grow, failure injection) and of
   base_str (growable strings, the JSON escaper). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/litmus.h"
#include "tests/test_lit_common.h"

static void test_grow_doubles_from_8(void **state)
{
    int32_t *v = NULL;
    size_t cap = 0;
    (void)state;
    assert_int_equal(BASE_GROW(v, cap, 1), 0);
    assert_int_equal(cap, 8);
    v[7] = 7;
    assert_int_equal(BASE_GROW(v, cap, 8), 0);
    assert_int_equal(cap, 8);
    assert_int_equal(BASE_GROW(v, cap, 9), 0);
    assert_int_equal(cap, 16);
    assert_int_equal(v[7], 7);
    assert_int_equal(BASE_GROW(v, cap, 1000), 0);
    assert_int_equal(cap, 1024);
    assert_int_equal(v[7], 7);
    base_free(v);
}

static void test_grow_overflow_fails(void **state)
{
    uint64_t *v = NULL;
    size_t cap = 0;
    (void)state;
    assert_int_equal(BASE_GROW(v, cap, SIZE_MAX / 4), -1);
    assert_null(v);
    assert_int_equal(cap, 0);
}

static void test_fail_injection(void **state)
{
    int *v = NULL;
    size_t cap = 0;
    void *p;
    (void)state;
    assert_int_equal(BASE_GROW(v, cap, 4), 0);
    v[0] = 42;
    base_mem_fail_after(2);
    p = base_malloc(16);                 /* the first one still succeeds */
    assert_non_null(p);
    base_free(p);
    assert_int_equal(BASE_GROW(v, cap, 100), -1);       /* the second fails */
    assert_int_equal(cap, 8);           /* untouched */
    assert_int_equal(v[0], 42);
    p = base_malloc(16);                 /* and then it is off again */
    assert_non_null(p);
    base_free(p);
    base_free(v);
    base_mem_fail_after(0);
}

static void test_str_failure_is_sticky(void **state)
{
    BaseStr s = {0};
    (void)state;
    base_str_printf(&s, "%s", "abc");
    base_mem_fail_after(1);
    base_str_printf(&s, "%0200d", 1);
    assert_int_equal(s.failed, 1);
    base_str_printf(&s, "x");
    assert_int_equal(s.len, 3);
    assert_string_equal(s.s, "abc");
    base_mem_fail_after(0);
    base_str_free(&s);
}

/* A line the collector cannot keep is counted by the caller, and the loss
   is sticky; the text stays what it was, NUL-terminated. */
static void test_diag_failure_is_sticky(void **state)
{
    BaseDiag d;
    (void)state;
    base_diag_init(&d);
    base_diag_append(&d, "a: error: one");
    base_mem_fail_after(1);
    base_diag_append(&d, "a: error: a line long enough to need a larger"
                         " buffer than the first one had");
    base_mem_fail_after(0);
    assert_int_equal(d.failed, 1);
    assert_string_equal(d.text, "a: error: one\n");
    base_diag_append(&d, "a: error: three");
    assert_int_equal(d.failed, 1);
    assert_string_equal(d.text, "a: error: one\na: error: three\n");
    base_diag_free(&d);
    assert_int_equal(d.failed, 0);
}

static void test_json_escapes(void **state)
{
    BaseStr s = {0};
    (void)state;
    base_str_json(&s, "a\"b\\c\nd\te\x01\x7f");
    assert_string_equal(s.s, "\"a\\\"b\\\\c\\nd\\te\\u0001\\u007f\"");
    base_str_free(&s);
}

static void test_json_utf8(void **state)
{
    BaseStr s = {0};
    (void)state;
    /* valid 2, 3 and 4 byte sequences pass; a lone continuation byte, an
       overlong encoding, a surrogate and a truncated sequence do not */
    base_str_json(&s, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\x80|\xc0\xaf|"
                     "\xed\xa0\x80|\xe2\x82");
    assert_string_equal(s.s, "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|"
                             "\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|"
                             "\\ufffd\\ufffd\"");
    base_str_free(&s);
}

/* ---- every allocation of the front end may fail -------------------------

   Parse (and print) files with the n-th allocation failing, for n = 1, 2,
   … until the n-th never comes: each failure must end in a clean error,
   never a crash, and (under ASan) nothing leaks. */

static const char *const sweep_files[] = {
    "tests/data/lit/design_example.litmus",
    "tests/data/lit/all_instructions.litmus",
    "tests/data/lit/conditions.litmus",
    "tests/data/lit/layout_pins.litmus",
    "tests/data/lit/recovery_chain.litmus",
};

static LitProgram *parse_clean(const char *path, const LitOptions *o)
{
    BaseDiag d;
    LitProgram *p = NULL;
    base_diag_init(&d);
    assert_int_equal(lit_parse_file(path, o, &p, &d), 0);
    base_diag_free(&d);
    return p;
}

/* Sweeps one parse; returns how many allocations it makes. */
static long sweep_parse(const char *path, const char *src,
                        const LitOptions *o, const LitProgram *want)
{
    for (long n = 1;; n++) {
        BaseDiag d;
        LitProgram *p = NULL;
        base_diag_init(&d);
        base_mem_fail_after(n);
        int rc = src ? lit_parse_string(path, src, o, &p, &d)
                     : lit_parse_file(path, o, &p, &d);
        long left = base_mem_fail_after(0);
        if (left > 0) {                 /* the n-th allocation never came */
            assert_int_equal(rc, want ? 0 : 1);
            if (want)
                assert_true(lit_program_equal(p, want));
            lit_program_free(p);
            base_diag_free(&d);
            return n - 1;
        }
        if (rc == 0)
            fail_msg("%s: allocation %ld failed, yet the parse succeeded",
                     path, n);
        assert_null(p);
        assert_true(d.nerrors > 0);
        /* the message itself may be what could not be allocated */
        if (d.text && !strstr(d.text, "out of memory") && want)
            fail_msg("%s: allocation %ld failed: %s", path, n, d.text);
        base_diag_free(&d);
    }
}

static void test_parse_out_of_memory(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof sweep_files / sizeof *sweep_files; i++) {
        LitProgram *want = parse_clean(sweep_files[i], NULL);
        assert_true(sweep_parse(sweep_files[i], NULL, NULL, want) >= 5);
        lit_program_free(want);
    }
    /* A file big enough that the arena takes many chunks and big blocks,
       so that failures land in every kind of call: names, labels,
       bodies, conditions, check texts, layout. */
    BaseStr s = {0};
    base_str_printf(&s, "test big\nparam N = 3\n");
    for (int i = 0; i < 200; i++)
        base_str_printf(&s, "pm v%d[N] = %d line %d\ndram d%d\n", i, i, i, i);
    base_str_printf(&s, "kernel k grid 2 block 2 {\n");
    for (int i = 0; i < 300; i++)
        base_str_printf(&s, "L%d: st v%d[%%tid], r%d\nbne r1, %d, L%d\n", i,
                       i % 200, i % 32, i, i / 2);
    base_str_printf(&s, "}\nrecover {\n kernel r grid 1 block 1 {\n"
                   "  thread 0 { ld r0, v1[2]; pbar }\n }\n run k\n}\n");
    for (int i = 0; i < 100; i++)
        base_str_printf(&s, "check crash forall (v%d[1] == %d -> !(v%d == "
                       "{1, 2, 3}) || v%d[0] * 2 < -N)\n", i, i, i + 1, i);
    assert_false(s.failed);
    LitProgram *big = parse_ok(s.s);
    assert_true(sweep_parse("big.litmus", s.s, NULL, big) >= 100);
    lit_program_free(big);
    base_str_free(&s);
    /* A check text longer than a quarter chunk: its copy into the arena
       is a big block of its own, an allocation that can fail after the
       text was printed (which must then be freed) */
    base_str_printf(&s, "test long\npm x[2500] = 0\n"
                    "kernel k grid 1 block 1 {\n  st x[0], 1\n}\n"
                    "check crash forall (x == {10000");
    for (int i = 1; i < 2500; i++)
        base_str_printf(&s, ", %d", 10000 + i);
    base_str_printf(&s, "})\n");
    assert_false(s.failed);
    big = parse_ok(s.s);
    assert_true(strlen(big->checks[0].text) > 16 * 1024);
    sweep_parse("long.litmus", s.s, NULL, big);
    lit_program_free(big);
    base_str_free(&s);
    /* -D and --config, and a file full of errors */
    LitDefine defs[] = {{"N", 2}};
    LitConfigSet cs[] = {{"wpq", "volatile"}};
    LitOptions o = {1, defs, 1, cs};
    LitProgram *want = parse_clean(sweep_files[0], &o);
    sweep_parse(sweep_files[0], NULL, &o, want);
    lit_program_free(want);
    sweep_parse("bad.litmus",
                "test t\nparam N = 1 / 0\npm a[N]\npm x line 0\n"
                "pm y[20] line 0\npm z line 1\nkernel k grid 1 block 2 {\n"
                "  thread 0 { ld r0, q; mov r40, 1; bra nowhere }\n}\n"
                "recover { run w }\ncheck final forall (2:r0 == 0)\n"
                "check crash forall (x == 1 && !(a == {1})) expect hw=ok "
                "hw=no\nbogus\n", NULL, NULL);
}

static void test_print_out_of_memory(void **state)
{
    (void)state;
    LitProgram *p = parse_clean(sweep_files[0], NULL);
    char *full = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&full, &len);
    assert_int_equal(lit_print(f, p), 0);
    fclose(f);
    for (long n = 1;; n++) {
        char *text = NULL;
        size_t tlen = 0;
        FILE *g = open_memstream(&text, &tlen);
        base_mem_fail_after(n);
        int rc = lit_print(g, p);
        long left = base_mem_fail_after(0);
        fclose(g);
        if (left > 0) {
            assert_int_equal(rc, 0);
            assert_string_equal(text, full);
            free(text);
            break;
        }
        assert_int_equal(rc, -1);       /* never a silently short text */
        free(text);
    }
    free(full);
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grow_doubles_from_8),
        cmocka_unit_test(test_grow_overflow_fails),
        cmocka_unit_test(test_fail_injection),
        cmocka_unit_test(test_str_failure_is_sticky),
        cmocka_unit_test(test_diag_failure_is_sticky),
        cmocka_unit_test(test_json_escapes),
        cmocka_unit_test(test_json_utf8),
        cmocka_unit_test(test_parse_out_of_memory),
        cmocka_unit_test(test_print_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
