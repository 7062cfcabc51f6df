/* Tests of lit_mem (the one allocator, lit_grow, failure injection) and of
   lit_str (growable strings, the JSON escaper). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/litmus.h"

static void test_grow_doubles_from_8(void **state)
{
    int32_t *v = NULL;
    size_t cap = 0;
    (void)state;
    assert_int_equal(LIT_GROW(v, cap, 1), 0);
    assert_int_equal(cap, 8);
    v[7] = 7;
    assert_int_equal(LIT_GROW(v, cap, 8), 0);
    assert_int_equal(cap, 8);
    assert_int_equal(LIT_GROW(v, cap, 9), 0);
    assert_int_equal(cap, 16);
    assert_int_equal(v[7], 7);
    assert_int_equal(LIT_GROW(v, cap, 1000), 0);
    assert_int_equal(cap, 1024);
    assert_int_equal(v[7], 7);
    lit_free(v);
}

static void test_grow_overflow_fails(void **state)
{
    uint64_t *v = NULL;
    size_t cap = 0;
    (void)state;
    assert_int_equal(LIT_GROW(v, cap, SIZE_MAX / 4), -1);
    assert_null(v);
    assert_int_equal(cap, 0);
}

static void test_fail_injection(void **state)
{
    int *v = NULL;
    size_t cap = 0;
    void *p;
    (void)state;
    assert_int_equal(LIT_GROW(v, cap, 4), 0);
    v[0] = 42;
    lit_mem_fail_after(2);
    p = lit_malloc(16);                 /* the first one still succeeds */
    assert_non_null(p);
    lit_free(p);
    assert_int_equal(LIT_GROW(v, cap, 100), -1);       /* the second fails */
    assert_int_equal(cap, 8);           /* untouched */
    assert_int_equal(v[0], 42);
    p = lit_malloc(16);                 /* and then it is off again */
    assert_non_null(p);
    lit_free(p);
    lit_free(v);
    lit_mem_fail_after(0);
}

static void test_str_failure_is_sticky(void **state)
{
    LitStr s = {0};
    (void)state;
    lit_str_printf(&s, "%s", "abc");
    lit_mem_fail_after(1);
    lit_str_printf(&s, "%0200d", 1);
    assert_int_equal(s.failed, 1);
    lit_str_printf(&s, "x");
    assert_int_equal(s.len, 3);
    assert_string_equal(s.s, "abc");
    lit_mem_fail_after(0);
    lit_str_free(&s);
}

static void test_json_escapes(void **state)
{
    LitStr s = {0};
    (void)state;
    lit_str_json(&s, "a\"b\\c\nd\te\x01\x7f");
    assert_string_equal(s.s, "\"a\\\"b\\\\c\\nd\\te\\u0001\\u007f\"");
    lit_str_free(&s);
}

static void test_json_utf8(void **state)
{
    LitStr s = {0};
    (void)state;
    /* valid 2, 3 and 4 byte sequences pass; a lone continuation byte, an
       overlong encoding, a surrogate and a truncated sequence do not */
    lit_str_json(&s, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\x80|\xc0\xaf|"
                     "\xed\xa0\x80|\xe2\x82");
    assert_string_equal(s.s, "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|"
                             "\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|"
                             "\\ufffd\\ufffd\"");
    lit_str_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grow_doubles_from_8),
        cmocka_unit_test(test_grow_overflow_fails),
        cmocka_unit_test(test_fail_injection),
        cmocka_unit_test(test_str_failure_is_sticky),
        cmocka_unit_test(test_json_escapes),
        cmocka_unit_test(test_json_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
