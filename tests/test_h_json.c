/* Tests of harness/h_json.c: reading back what gpmc writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "harness/harness.h"

static void test_values(void **state)
{
    (void)state;
    HJson *j = h_json_parse(" {\"steps\": [{\"id\": 0, \"line\": -12,"
                            " \"instr\": \"st x, 1\\n\\\"\\u0041\\u00e9\"},"
                            " true, null, false, []], \"crash\": {}} ");
    assert_non_null(j);
    const HJson *steps = h_json_get(j, "steps");
    assert_int_equal(steps->type, HJ_ARRAY);
    assert_int_equal(steps->n, 5);
    assert_int_equal(h_json_int(&steps->items[0], "line", 0), -12);
    assert_int_equal(h_json_int(&steps->items[0], "id", 7), 0);
    assert_int_equal(h_json_int(&steps->items[0], "nope", 7), 7);
    assert_string_equal(h_json_str(&steps->items[0], "instr"),
                        "st x, 1\n\"A?");
    assert_int_equal(steps->items[1].type, HJ_BOOL);
    assert_int_equal(steps->items[1].num, 1);
    assert_int_equal(steps->items[2].type, HJ_NULL);
    assert_int_equal(steps->items[4].n, 0);
    assert_int_equal(h_json_get(j, "crash")->type, HJ_OBJECT);
    assert_null(h_json_get(j, "missing"));
    assert_null(h_json_str(j, "crash"));
    h_json_free(j);
}

static void test_bad(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "{", "[1,]", "{\"a\" 1}", "{\"a\": 1,}", "1.5", "1e3", "tru",
        "\"a\tb\"", "\"\\x\"", "[1] 2", "{1: 2}", "\"\\u12\"",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (h_json_parse(bad[i]))
            fail_msg("'%s' was accepted", bad[i]);
    char deep[201];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 100);
    deep[200] = '\0';
    assert_null(h_json_parse(deep));    /* nesting beyond 64 */
    HJson *j = h_json_parse(deep + 40); /* 60 deep, then extra ']' */
    assert_null(j);
    deep[160] = '\0';
    j = h_json_parse(deep + 40);        /* 60 deep, balanced */
    assert_non_null(j);
    h_json_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
