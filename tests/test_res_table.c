/* results: the one table printer (text, CSV, JSON) of query, report, show
   and time; its handling of odd text and of failed allocations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "litmus/litmus.h"
#include "tests/test_res_fixture.h"

static char *print(const ResTable *t, int fmt, int want_rc)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_int_equal(res_table_print(t, fmt, f), want_rc);
    fclose(f);
    return out;
}

/* name (text), n (numbers, right-aligned), note (a note column). */
static ResTable *sample(void)
{
    static const char *const h[] = {"name", "n", "why"};
    ResTable *t = res_table_new(3, h);
    assert_non_null(t);
    res_table_numeric(t, 1);
    res_table_note(t, 2);
    res_table_null_text(t, "-");
    const char *r1[] = {"caf\xc3\xa9", "7", "a\tb\x01"};
    const char *r2[] = {"x,\"y\"", "12345", NULL};
    const char *r3[] = {"bad \xff byte", NULL, NULL};
    res_table_add(t, r1, NULL);
    res_table_add(t, r2, NULL);
    res_table_add(t, r3, NULL);
    assert_int_equal(res_table_rows(t), 3);
    return t;
}

static void test_text(void **state)
{
    (void)state;
    ResTable *t = sample();
    char *out = print(t, RES_FMT_TABLE, RES_OK);
    /* widths count characters; NULL shows as the null text; the note is a
       line under its row; no trailing blanks */
    assert_string_equal(out, "name            n\n"
                             "----------  -----\n"
                             "caf\xc3\xa9            7\n"
                             "  why: a\\tb\\x01\n"
                             "x,\"y\"       12345\n"
                             "bad \xff byte      -\n");
    free(out);
    res_table_free(t);
}

/* A cell wider than RES_TABLE_CELL_MAX (a test name of megabytes) is
   clipped in text tables, on a character boundary, so it cannot widen every
   row of its column; CSV keeps it whole; note lines are not clipped. */
static void test_text_clips_wide_cells(void **state)
{
    (void)state;
    enum { LONG = 4000 };
    static const char *const h[] = {"test", "n", "why"};
    char *name = malloc(LONG + 1), *want = NULL;
    assert_non_null(name);
    /* 76 ASCII characters, then 'é' (2 bytes) as the 77th, then more */
    memset(name, 'a', LONG);
    memcpy(name + 76, "\xc3\xa9", 2);
    name[LONG] = '\0';
    ResTable *t = res_table_new(3, h);
    assert_non_null(t);
    res_table_note(t, 2);
    const char *r1[] = {name, "1", name};
    const char *r2[] = {"short", "2", NULL};
    /* escapes count as what they show: 40 newlines are 80 characters */
    const char *r3[] = {"\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
                        "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
                        "3", NULL};
    const char *r4[] = {"\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
                        "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nx",
                        "4", NULL};
    res_table_add(t, r1, NULL);
    res_table_add(t, r2, NULL);
    res_table_add(t, r3, NULL);
    res_table_add(t, r4, NULL);
    char *out = print(t, RES_FMT_TABLE, RES_OK);
    BaseStr w = {0};
    char clipped[128], rule[RES_TABLE_CELL_MAX + 1];
    snprintf(clipped, sizeof clipped, "%.78s...", name);  /* 77 characters */
    memset(rule, '-', RES_TABLE_CELL_MAX);
    rule[RES_TABLE_CELL_MAX] = '\0';
    base_str_printf(&w, "%-80s  n\n%s  -\n", "test", rule);
    base_str_printf(&w, "%s  1\n  why: %s\n", clipped, name);
    base_str_printf(&w, "%-80s  2\n", "short");
    for (int i = 0; i < 40; i++)
        base_str_printf(&w, "\\n");
    base_str_printf(&w, "  3\n");
    for (int i = 0; i < 38; i++)
        base_str_printf(&w, "\\n");
    base_str_printf(&w, "...   4\n");
    want = w.s;
    assert_string_equal(out, want);
    free(out);
    out = print(t, RES_FMT_CSV, RES_OK);
    assert_non_null(strstr(out, name));
    free(out);
    base_str_free(&w);
    free(name);
    res_table_free(t);
}

static void test_csv(void **state)
{
    (void)state;
    ResTable *t = sample();
    char *out = print(t, RES_FMT_CSV, RES_OK);
    assert_string_equal(out, "name,n,why\n"
                             "caf\xc3\xa9,7,a\tb\x01\n"
                             "\"x,\"\"y\"\"\",12345,\n"
                             "bad \xff byte,,\n");
    free(out);
    res_table_free(t);
}

static void test_json(void **state)
{
    (void)state;
    ResTable *t = sample();
    char *out = print(t, RES_FMT_JSON, RES_OK);
    /* numbers as numbers, NULL as null, strings escaped, invalid UTF-8
       replaced by U+FFFD */
    assert_string_equal(out, "[\n"
                             "{\"name\":\"caf\xc3\xa9\",\"n\":7,"
                             "\"why\":\"a\\tb\\u0001\"},\n"
                             "{\"name\":\"x,\\\"y\\\"\",\"n\":12345,"
                             "\"why\":null},\n"
                             "{\"name\":\"bad \\ufffd byte\",\"n\":null,"
                             "\"why\":null}\n"
                             "]\n");
    free(out);
    res_table_free(t);
    static const char *const h[] = {"a"};
    t = res_table_new(1, h);
    out = print(t, RES_FMT_JSON, RES_OK);
    assert_string_equal(out, "[]\n");
    free(out);
    out = print(t, RES_FMT_TABLE, RES_OK);
    assert_string_equal(out, "a\n-\n");
    free(out);
    /* per-row kinds override the columns' */
    const char *row[] = {"3"};
    const int num[] = {RES_CELL_NUM}, text[] = {RES_CELL_TEXT};
    res_table_add(t, row, num);
    res_table_add(t, row, text);
    out = print(t, RES_FMT_JSON, RES_OK);
    assert_string_equal(out, "[\n{\"a\":3},\n{\"a\":\"3\"}\n]\n");
    free(out);
    res_table_free(t);
}

/* Every allocation the table makes, building or printing, may fail: the
   table is then marked, and printing it fails without printing anything.
   n counts up until no allocation is left to fail. */
static void test_allocation_failures(void **state)
{
    (void)state;
    int failed = 0, rc = 1;
    for (long n = 1; rc && n < 1000; n++) {
        base_mem_fail_after(n);
        static const char *const h[] = {"name", "n"};
        ResTable *t = res_table_new(2, h);
        char *out = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        rc = RES_EINTERNAL;
        if (t) {
            const char *row[] = {"a", "1"};
            for (int i = 0; i < 40; i++)
                res_table_add(t, row, NULL);
            const char *s = res_table_printf(t, "%d", 42);
            rc = res_table_print(t, (int)(n % 3), f);
            assert_true(rc || !strcmp(s, "42"));
        }
        base_mem_fail_after(0);
        fclose(f);
        if (rc) {
            assert_int_equal(rc, RES_EINTERNAL);
            assert_string_equal(out, "");
            failed++;
        }
        free(out);
        res_table_free(t);
    }
    assert_int_equal(rc, RES_OK);
    assert_true(failed >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_text_clips_wide_cells),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
