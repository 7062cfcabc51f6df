/* results: DOT witnesses (res_dot.c) read from witness_json with SQLite's
   JSON functions: odd and broken witnesses, the checker's form with nested
   crashes, thread clusters, reads-from edges (between steps and from the
   crash image), persist-order edges, the title, steps numbered from 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "results/results_int.h"
#include "tests/test_res_fixture.h"

static char *dot(ResDb *db, int64_t id, const char *json, const char *title,
                 int want_rc)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_int_equal(res_dot_witness(db, id, json, title, f), want_rc);
    fclose(f);
    return out;
}

static void test_odd_witnesses(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    free(dot(db, 3, "[1]", "t", RES_EINPUT));
    assert_string_equal(res_errmsg(db),
                        "violation 3: bad witness_json: not an object");
    free(dot(db, 4, "{\"steps\":", "t", RES_EINPUT));
    assert_string_equal(res_errmsg(db),
                        "violation 4: bad witness_json: not valid JSON");
    free(dot(db, 5, NULL, "t", RES_EINPUT));
    assert_string_equal(res_errmsg(db), "violation 5 has no witness_json");
    /* Missing parts and wrong types are left out, not errors; a step
       without an id is numbered by its place. */
    char *out = dot(db, 6,
                    "{\"steps\":[{\"thread\":2},7,\"s\",{\"id\":1,\"thread\":2,"
                    "\"line\":\"x\",\"reads\":3}],\"crash\":[],"
                    "\"deps\":[[1],\"x\",[1,\"a\"]],\"outcome\":5}",
                    "a \"title\"", RES_OK);
    assert_string_equal(out,
        "digraph violation_6 {\n"
        "  label=\"a \\\"title\\\"\";\n"
        "  labelloc=t;\n"
        "  node [shape=box, fontname=\"monospace\"];\n"
        "  subgraph cluster_main {\n"
        "    label=\"main\";\n"
        "    subgraph cluster_main_t2 {\n"
        "      label=\"thread 2\";\n"
        "      s0 [label=\"1: T2\"];\n"
        "      s1 [label=\"2: T2\"];\n"
        "    }\n"
        "  }\n"
        "  s0 -> s1 [label=\"po\"];\n"
        "}\n");
    free(out);
    /* a runtime error's witness: the error in the title */
    out = dot(db, 7, "{\"steps\":[],\"error\":\"assert: failed\"}",
              "violation 7: error", RES_OK);
    assert_string_equal(out, "digraph violation_7 {\n"
                             "  label=\"violation 7: error\\nerror: assert:"
                             " failed\";\n"
                             "  labelloc=t;\n"
                             "  node [shape=box, fontname=\"monospace\"];\n"
                             "}\n");
    free(out);
    /* a livelock's lasso: an edge from the cycle's last step back to its
       first (by step id); a cycle naming no step, or mistyped, draws none */
    static const char lasso[] =
        "{\"steps\":[{\"id\":0,\"thread\":0},{\"id\":1,\"thread\":0},"
        "{\"id\":2,\"thread\":0}],\"cycle\":{\"from\":%s,\"to\":%s},"
        "\"error\":\"livelock\"}";
    char js[256];
    snprintf(js, sizeof js, lasso, "1", "2");
    out = dot(db, 8, js, "v", RES_OK);
    assert_string_equal(out,
        "digraph violation_8 {\n"
        "  label=\"v\\nerror: livelock\";\n"
        "  labelloc=t;\n"
        "  node [shape=box, fontname=\"monospace\"];\n"
        "  subgraph cluster_main {\n"
        "    label=\"main\";\n"
        "    subgraph cluster_main_t0 {\n"
        "      label=\"thread 0\";\n"
        "      s0 [label=\"1: T0\"];\n"
        "      s1 [label=\"2: T0\"];\n"
        "      s2 [label=\"3: T0\"];\n"
        "    }\n"
        "  }\n"
        "  s0 -> s1 [label=\"po\"];\n"
        "  s1 -> s2 [label=\"po\"];\n"
        "  s2 -> s1 [style=bold, color=purple, fontcolor=purple,"
        " constraint=false, label=\"cycle: repeats forever\"];\n"
        "}\n");
    free(out);
    snprintf(js, sizeof js, lasso, "0", "0");
    out = dot(db, 8, js, "v", RES_OK);
    assert_non_null(strstr(out, "  s0 -> s0 [style=bold"));
    free(out);
    snprintf(js, sizeof js, lasso, "5", "2");
    out = dot(db, 8, js, "v", RES_OK);
    assert_null(strstr(out, "cycle"));
    free(out);
    snprintf(js, sizeof js, lasso, "\"1\"", "2");
    out = dot(db, 8, js, "v", RES_OK);
    assert_null(strstr(out, "cycle"));
    free(out);
    res_close(db);
    fx_dir_remove(&d);
}

/* The checker's own form: every step in "steps", each crash in "crashes",
   a step without a thread (thread -1), nested crashes. Recovery 1 reads x
   from crash 1's image, stores it, reads it back from its own store;
   recovery 2 reads x from crash 2's image and y (dram) from nowhere (its
   initial value). */
static void test_nested_crashes(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    char *out = dot(db, 9,
        "{\"kind\":\"counterexample\",\"steps\":["
        "{\"id\":0,\"phase\":\"main\",\"thread\":0,\"kernel\":\"k0\","
        "\"line\":5,\"instr\":\"st x, 1\",\"effect\":\"x = 1\",\"store\":1,"
        "\"space\":\"pm\",\"writes\":\"x\"},"
        "{\"id\":1,\"phase\":\"main\",\"thread\":1,\"kernel\":\"k0\","
        "\"line\":6,\"instr\":\"st z, 1\",\"effect\":\"z = 1\",\"store\":2,"
        "\"space\":\"pm\",\"writes\":\"z\"},"
        "{\"id\":2,\"phase\":\"recovery\",\"thread\":-1,\"kernel\":\"\","
        "\"line\":0,\"instr\":\"launch fix\",\"effect\":\"\"},"
        "{\"id\":3,\"phase\":\"recovery\",\"thread\":0,\"kernel\":\"fix\","
        "\"line\":11,\"instr\":\"ld r1, x\",\"effect\":\"r1 = 1 (x)\","
        "\"space\":\"pm\",\"reads\":\"x\"},"
        "{\"id\":4,\"phase\":\"recovery\",\"thread\":0,\"kernel\":\"fix\","
        "\"line\":13,\"instr\":\"st x, r1\",\"effect\":\"x = 2\",\"store\":3,"
        "\"space\":\"pm\",\"writes\":\"x\"},"
        "{\"id\":5,\"phase\":\"recovery\",\"thread\":0,\"kernel\":\"fix\","
        "\"line\":14,\"instr\":\"ld r2, x\",\"effect\":\"r2 = 2 (x)\","
        "\"space\":\"pm\",\"reads\":\"x\"},"
        "{\"id\":6,\"phase\":\"recovery\",\"thread\":0,\"kernel\":\"fix\","
        "\"line\":11,\"instr\":\"ld r1, x\",\"effect\":\"r1 = 2 (x)\","
        "\"space\":\"pm\",\"reads\":\"x\"},"
        "{\"id\":7,\"phase\":\"recovery\",\"thread\":0,\"kernel\":\"fix\","
        "\"line\":12,\"instr\":\"ld r3, y\",\"effect\":\"r3 = 0 (y)\","
        "\"space\":\"dram\",\"reads\":\"y\"}],"
        "\"crashes\":[{\"after\":1,\"included\":[1],\"excluded\":[2]},"
        "{\"after\":5,\"included\":[3],\"excluded\":[]}],"
        "\"crash\":{\"after\":1,\"included\":[1],\"excluded\":[2]},"
        "\"deps\":[[2,1]],\"outcome\":\"x=2\"}",
        "violation 9: counterexample\ncondition 0: recovered forall (x == 1)",
        RES_OK);
    assert_string_equal(out,
        "digraph violation_9 {\n"
        "  label=\"violation 9: counterexample\\ncondition 0: recovered"
        " forall (x == 1)\\noutcome: x=2\";\n"
        "  labelloc=t;\n"
        "  node [shape=box, fontname=\"monospace\"];\n"
        "  subgraph cluster_main {\n"
        "    label=\"main\";\n"
        "    subgraph cluster_main_t0 {\n"
        "      label=\"thread 0\";\n"
        "      s0 [label=\"1: T0 k0:5\\nst x, 1\\nx = 1\\nstore #1\","
        " style=filled, fillcolor=palegreen];\n"
        "    }\n"
        "    subgraph cluster_main_t1 {\n"
        "      label=\"thread 1\";\n"
        "      s1 [label=\"2: T1 k0:6\\nst z, 1\\nz = 1\\nstore #2\","
        " style=filled, fillcolor=lightpink];\n"
        "    }\n"
        "  }\n"
        "  crash1 [shape=octagon, label=\"crash 1 after step 2\\npersisted:"
        " #1\\nlost: #2\"];\n"
        "  subgraph cluster_recovery1 {\n"
        "    label=\"recovery 1\";\n"
        "    subgraph cluster_recovery1_t0 {\n"
        "      label=\"thread 0\";\n"
        "      s3 [label=\"4: T0 fix:11\\nld r1, x\\nr1 = 1 (x)\"];\n"
        "      s4 [label=\"5: T0 fix:13\\nst x, r1\\nx = 2\\nstore #3\","
        " style=filled, fillcolor=palegreen];\n"
        "      s5 [label=\"6: T0 fix:14\\nld r2, x\\nr2 = 2 (x)\"];\n"
        "    }\n"
        "    s2 [label=\"3:\\nlaunch fix\"];\n"
        "  }\n"
        "  crash2 [shape=octagon, label=\"crash 2 after step 6\\npersisted:"
        " #3\"];\n"
        "  subgraph cluster_recovery2 {\n"
        "    label=\"recovery 2\";\n"
        "    subgraph cluster_recovery2_t0 {\n"
        "      label=\"thread 0\";\n"
        "      s6 [label=\"7: T0 fix:11\\nld r1, x\\nr1 = 2 (x)\"];\n"
        "      s7 [label=\"8: T0 fix:12\\nld r3, y\\nr3 = 0 (y)\"];\n"
        "    }\n"
        "  }\n"
        "  s3 -> s4 [label=\"po\"];\n"
        "  s4 -> s5 [label=\"po\"];\n"
        "  s6 -> s7 [label=\"po\"];\n"
        "  crash1 -> s3 [label=\"rf x\", color=darkgreen,"
        " fontcolor=darkgreen];\n"
        "  s4 -> s5 [label=\"rf x\", color=darkgreen, fontcolor=darkgreen];\n"
        "  crash2 -> s6 [label=\"rf x\", color=darkgreen,"
        " fontcolor=darkgreen];\n"
        "  s1 -> crash1 [style=bold];\n"
        "  crash1 -> s2 [style=bold];\n"
        "  s0 -> crash1 [label=\"persisted\", color=darkgreen,"
        " fontcolor=darkgreen, style=dotted];\n"
        "  s1 -> crash1 [label=\"lost\", color=red, fontcolor=red,"
        " style=dotted];\n"
        "  s5 -> crash2 [style=bold];\n"
        "  crash2 -> s6 [style=bold];\n"
        "  s4 -> crash2 [label=\"persisted\", color=darkgreen,"
        " fontcolor=darkgreen, style=dotted];\n"
        "  s0 -> s1 [style=dashed, color=blue, fontcolor=blue,"
        " label=\"pdep\"];\n"
        "}\n");
    free(out);
    res_close(db);
    fx_dir_remove(&d);
}

/* Reads-from between the threads of the main program: the latest earlier
   store to the word, whichever thread made it. */
static void test_rf_between_threads(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    char *out = dot(db, 2,
        "{\"steps\":["
        "{\"id\":0,\"thread\":0,\"instr\":\"st d, 1\",\"writes\":\"d\"},"
        "{\"id\":1,\"thread\":0,\"instr\":\"st f, 1\",\"writes\":\"f\"},"
        "{\"id\":2,\"thread\":1,\"instr\":\"ld r0, f\",\"reads\":\"f\"},"
        "{\"id\":3,\"thread\":1,\"instr\":\"atom.add r1, d, 1\","
        "\"reads\":\"d\",\"writes\":\"d\"},"
        "{\"id\":4,\"thread\":0,\"instr\":\"ld r2, d\",\"reads\":\"d\"}]}",
        "t", RES_OK);
    assert_non_null(strstr(out, "  s1 -> s2 [label=\"rf f\""));
    assert_non_null(strstr(out, "  s0 -> s3 [label=\"rf d\""));
    assert_non_null(strstr(out, "  s3 -> s4 [label=\"rf d\""));
    assert_null(strstr(out, "s0 -> s4 [label=\"rf"));
    assert_non_null(strstr(out, "  s1 -> s4 [label=\"po\"];\n"));
    free(out);
    res_close(db);
    fx_dir_remove(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_witnesses),
        cmocka_unit_test(test_nested_crashes),
        cmocka_unit_test(test_rf_between_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
