/* results internals: the JSON reader behind `show --dot`, the DOT writer's
   handling of odd witnesses, and fixed-width tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "results/results_int.h"
#include "tests/test_res_fixture.h"

static void test_json_values(void **state)
{
    (void)state;
    ResArena *a = res_arena_new();
    char err[128] = "";
    const ResJson *v = res_json_parse(
        a, " {\"s\": \"a\\\"b\\\\c\\/\\n\\t\\u00e9\\ud83d\\ude00\", "
           "\"n\": -12.5e1, \"i\": 42, \"z\": 0, \"t\": true, \"f\": false,"
           " \"null\": null, \"arr\": [1, [2, {}], \"x\"], \"e\": {}} ",
        err, sizeof err);
    assert_non_null(v);
    assert_int_equal(v->type, RES_JOBJ);
    assert_int_equal(v->nkids, 9);
    assert_string_equal(res_json_str(v, "s"),
                        "a\"b\\c/\n\t\xc3\xa9\xf0\x9f\x98\x80");
    assert_true(res_json_get(v, "n")->num == -125.0);
    assert_int_equal(res_json_int(v, "i", -1), 42);
    assert_int_equal(res_json_int(v, "z", -1), 0);
    assert_int_equal(res_json_int(v, "s", -1), -1);
    assert_int_equal(res_json_int(v, "missing", 7), 7);
    assert_int_equal(res_json_get(v, "t")->type, RES_JBOOL);
    assert_true(res_json_get(v, "t")->num == 1);
    assert_true(res_json_get(v, "f")->num == 0);
    assert_int_equal(res_json_get(v, "null")->type, RES_JNULL);
    const ResJson *arr = res_json_get(v, "arr");
    assert_int_equal(arr->nkids, 3);
    assert_int_equal(arr->kids->next->type, RES_JARR);
    assert_int_equal(arr->kids->next->kids->next->type, RES_JOBJ);
    assert_string_equal(arr->kids->next->next->str, "x");
    assert_int_equal(res_json_get(v, "e")->nkids, 0);
    assert_null(res_json_str(arr, "x"));
    res_arena_free(a);
}

static void expect_json_error(const char *text, const char *msg)
{
    ResArena *a = res_arena_new();
    char err[128] = "";
    assert_null(res_json_parse(a, text, err, sizeof err));
    assert_string_equal(err, msg);
    res_arena_free(a);
}

static void test_json_errors(void **state)
{
    (void)state;
    expect_json_error("", "json: unexpected character at offset 0");
    expect_json_error("{\"a\" 1}", "json: expected ':' at offset 5");
    expect_json_error("{\"a\":1,}", "json: expected a member name at offset 7");
    expect_json_error("[1 2]", "json: expected ',' or ']' at offset 3");
    expect_json_error("{\"a\":1", "json: expected ',' or '}' at offset 6");
    expect_json_error("\"abc", "json: unterminated string at offset 4");
    expect_json_error("\"a\nb\"", "json: unterminated string at offset 2");
    expect_json_error("\"\\x\"", "json: bad escape at offset 3");
    expect_json_error("\"\\u12G4\"", "json: bad \\u escape at offset 7");
    expect_json_error("01", "json: trailing characters at offset 1");
    expect_json_error("1.", "json: bad number at offset 0");
    expect_json_error("-", "json: unexpected character at offset 0");
    expect_json_error("tru", "json: unexpected character at offset 0");
    expect_json_error("{} x", "json: trailing characters at offset 3");
    char deep[200];
    memset(deep, '[', 100);
    deep[100] = '\0';
    expect_json_error(deep, "json: nested too deeply at offset 65");
}

static void test_dot_odd_witnesses(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_int_equal(res_dot_witness(db, 3, "[1]", f), RES_EINPUT);
    assert_string_equal(res_errmsg(db),
                        "violation 3: bad witness_json: not an object");
    assert_int_equal(res_dot_witness(db, 4, "{\"steps\":", f), RES_EINPUT);
    assert_string_equal(res_errmsg(db), "violation 4: bad witness_json:"
                                        " json: unexpected character at"
                                        " offset 9");
    /* Missing parts and wrong types are left out, not errors. */
    assert_int_equal(res_dot_witness(db, 5,
                                     "{\"steps\":[{\"thread\":2},7,"
                                     "{\"id\":1,\"thread\":2,\"line\":\"x\"}],"
                                     "\"crash\":[],\"deps\":[[1],\"x\"]}", f),
                     RES_OK);
    fclose(f);
    assert_string_equal(out,
        "digraph violation_5 {\n"
        "  node [shape=box, fontname=\"monospace\"];\n"
        "  subgraph cluster_main {\n"
        "    label=\"main\";\n"
        "    s0 [label=\"0: T2\"];\n"
        "    s1 [label=\"1: T2\"];\n"
        "  }\n"
        "  s0 -> s1 [label=\"po\"];\n"
        "}\n");
    free(out);
    res_close(db);
    fx_dir_remove(&d);
}

/* The checker's own form: every step in "steps", each crash in "crashes",
   a step without a thread (thread -1), nested crashes. */
static void test_dot_nested_crashes(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_int_equal(res_dot_witness(db, 9,
        "{\"kind\":\"counterexample\",\"steps\":["
        "{\"id\":0,\"phase\":\"main\",\"thread\":0,\"kernel\":\"k0\","
        "\"line\":5,\"instr\":\"st x, 1\",\"effect\":\"x = 1\",\"store\":1},"
        "{\"id\":1,\"phase\":\"recovery\",\"thread\":-1,\"kernel\":\"\","
        "\"line\":0,\"instr\":\"launch fix\",\"effect\":\"\"},"
        "{\"id\":2,\"phase\":\"recovery\",\"thread\":0,\"kernel\":\"fix\","
        "\"line\":11,\"instr\":\"ld r1, x\",\"effect\":\"r1 = 1 (x)\"},"
        "{\"id\":3,\"phase\":\"recovery\",\"thread\":0,\"kernel\":\"fix\","
        "\"line\":13,\"instr\":\"st x, r1\",\"effect\":\"x = 2\",\"store\":2},"
        "{\"id\":4,\"phase\":\"recovery\",\"thread\":0,\"kernel\":\"fix\","
        "\"line\":11,\"instr\":\"ld r1, x\",\"effect\":\"r1 = 2 (x)\"}],"
        "\"crashes\":[{\"after\":0,\"included\":[1],\"excluded\":[]},"
        "{\"after\":3,\"included\":[2],\"excluded\":[]}],"
        "\"crash\":{\"after\":0,\"included\":[1],\"excluded\":[]},"
        "\"deps\":[]}", f), RES_OK);
    fclose(f);
    assert_string_equal(out,
        "digraph violation_9 {\n"
        "  node [shape=box, fontname=\"monospace\"];\n"
        "  subgraph cluster_main {\n"
        "    label=\"main\";\n"
        "    s0 [label=\"0: T0 k0:5\\nst x, 1\\nx = 1\\nstore 1\","
        " style=filled, fillcolor=palegreen];\n"
        "  }\n"
        "  crash1 [shape=octagon, label=\"crash 1\\npersisted: 1\"];\n"
        "  subgraph cluster_recovery1 {\n"
        "    label=\"recovery 1\";\n"
        "    s1 [label=\"1:\\nlaunch fix\"];\n"
        "    s2 [label=\"2: T0 fix:11\\nld r1, x\\nr1 = 1 (x)\"];\n"
        "    s3 [label=\"3: T0 fix:13\\nst x, r1\\nx = 2\\nstore 2\","
        " style=filled, fillcolor=palegreen];\n"
        "  }\n"
        "  crash2 [shape=octagon, label=\"crash 2\\npersisted: 2\"];\n"
        "  subgraph cluster_recovery2 {\n"
        "    label=\"recovery 2\";\n"
        "    s4 [label=\"4: T0 fix:11\\nld r1, x\\nr1 = 2 (x)\"];\n"
        "  }\n"
        "  s2 -> s3 [label=\"po\"];\n"
        "  s0 -> crash1 [style=bold];\n"
        "  crash1 -> s1 [style=bold];\n"
        "  s3 -> crash2 [style=bold];\n"
        "  crash2 -> s4 [style=bold];\n"
        "}\n");
    free(out);
    res_close(db);
    fx_dir_remove(&d);
}

static void test_table_layout(void **state)
{
    (void)state;
    ResArena *a = res_arena_new();
    static const char *const h[] = {"name", "n", "note"};
    ResTable *t = res_table_new(a, 3, h);
    res_table_right(t, 1);
    const char *r1[] = {"caf\xc3\xa9", "7", "a\tb\x01"};
    const char *r2[] = {"x", "12345", NULL};
    res_table_add(t, r1);
    res_table_add(t, r2);
    assert_int_equal(res_table_rows(t), 2);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    res_table_print(t, f);
    fclose(f);
    assert_string_equal(out, "name      n  note\n"
                             "----  -----  --------\n"
                             "caf\xc3\xa9      7  a\\tb\\x01\n"
                             "x     12345\n");
    free(out);
    res_arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_values),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_dot_odd_witnesses),
        cmocka_unit_test(test_dot_nested_crashes),
        cmocka_unit_test(test_table_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
