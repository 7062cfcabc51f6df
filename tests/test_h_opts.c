/* Tests of harness/h_opts.c: the options of run, suite, time and parse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "harness/harness.h"

static void test_parse_int(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int64_t v;
    } good[] = {
        {"0", 0}, {"42", 42}, {"-5", -5}, {"+3", 3}, {"0x10", 16},
        {"-0X1f", -31}, {"010", 10}, {"9223372036854775807", INT64_MAX},
        {"-9223372036854775808", INT64_MIN},
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        int64_t v = -1;
        assert_int_equal(h_parse_int(good[i].s, &v), 0);
        assert_int_equal(v, good[i].v);
    }
    static const char *const bad[] = {
        "", " 1", "1 ", "--1", "-+1", "x", "1x", "0x", "0xg",
        "9223372036854775808", "-9223372036854775809", "1e3", "-",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t v = 7;
        if (h_parse_int(bad[i], &v) != -1)
            fail_msg("'%s' was read as %lld", bad[i], (long long)v);
        assert_int_equal(v, 7);
    }
}

static void test_models(void **state)
{
    (void)state;
    int m[LIT_NMODELS], n = -1;
    assert_int_equal(h_models_parse("all", m, &n), 0);
    assert_int_equal(n, LIT_NMODELS);
    for (int i = 0; i < n; i++)
        assert_int_equal(m[i], i);
    assert_int_equal(h_models_parse("hw,strict,hw,bscoped", m, &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(m[0], LIT_HW);
    assert_int_equal(m[1], LIT_STRICT);
    assert_int_equal(m[2], LIT_BSCOPED);
    assert_int_equal(h_models_parse("epoch,bogus", m, &n), -1);
    assert_int_equal(h_models_parse("", m, &n), -1);
    assert_int_equal(h_models_parse(",,", m, &n), -1);
    assert_int_equal(h_models_parse("All", m, &n), -1);
}

/* Parses argv (a NULL-terminated list) for the commands in allowed. */
static int opts(HOpts *o, unsigned allowed, const char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    return h_opts_parse(argc, (char **)argv, o, allowed, "test");
}

static void test_run_options(void **state)
{
    (void)state;
    HOpts o;
    const char *argv[] = {"a.litmus", "--model", "epoch,hw", "-D", "N=3",
                          "-DM=0x10", "--config", "wpq=volatile",
                          "--config=sms=4", "--crash-depth=3",
                          "--max-states", "100", "--max-steps", "50",
                          "--timeout", "1.5", "--naive", "--json", "--db",
                          "x.db", "-", "b.litmus", NULL};
    assert_int_equal(opts(&o, HO_RUN | HO_DEFINE, argv), 0);
    assert_int_equal(o.nfiles, 3);
    assert_string_equal(o.files[0], "a.litmus");
    assert_string_equal(o.files[1], "-");
    assert_string_equal(o.files[2], "b.litmus");
    assert_int_equal(o.nmodels, 2);
    assert_int_equal(o.models[0], LIT_EPOCH);
    assert_int_equal(o.models[1], LIT_HW);
    assert_int_equal(o.ndefines, 2);
    assert_string_equal(o.defines[0].name, "N");
    assert_int_equal(o.defines[0].value, 3);
    assert_string_equal(o.defines[1].name, "M");
    assert_int_equal(o.defines[1].value, 16);
    assert_int_equal(o.nconfig, 2);
    assert_string_equal(o.config[0].key, "wpq");
    assert_string_equal(o.config[0].value, "volatile");
    assert_string_equal(o.config[1].key, "sms");
    assert_string_equal(o.config[1].value, "4");
    assert_int_equal(o.chk.crash_depth, 3);
    assert_int_equal(o.chk.max_states, 100);
    assert_int_equal(o.chk.max_steps, 50);
    assert_true(o.chk.timeout_s == 1.5);
    assert_int_equal(o.chk.naive, 1);
    assert_int_equal(o.json, 1);
    assert_string_equal(o.db, "x.db");
    assert_int_equal(o.help, 0);
    LitOptions lo;
    h_lit_options(&o, &lo);
    assert_int_equal(lo.ndefines, 2);
    assert_ptr_equal(lo.defines, o.defines);
    assert_int_equal(lo.nconfig, 2);
    assert_ptr_equal(lo.config, o.config);
    h_opts_free(&o);
}

static void test_defaults(void **state)
{
    (void)state;
    HOpts o;
    ChkOptions d;
    chk_options_default(&d);
    const char *argv[] = {"f.litmus", NULL};
    assert_int_equal(opts(&o, HO_RUN | HO_DEFINE, argv), 0);
    assert_int_equal(o.nmodels, LIT_NMODELS);
    assert_null(o.db);
    assert_int_equal(o.jobs, 1);
    assert_int_equal(o.chk.crash_depth, d.crash_depth);
    assert_int_equal(o.chk.max_states, d.max_states);
    assert_int_equal(o.chk.max_steps, d.max_steps);
    assert_int_equal(o.chk.naive, 0);
    assert_int_equal(o.ndefines + o.nconfig + o.json + o.resume, 0);
    h_opts_free(&o);
}

static void test_suite_options(void **state)
{
    (void)state;
    HOpts o;
    const char *argv[] = {"dir", "--jobs", "4", "--shard=2/3", "--resume",
                          NULL};
    assert_int_equal(opts(&o, HO_RUN | HO_SUITE | HO_DEFINE, argv), 0);
    assert_int_equal(o.jobs, 4);
    assert_int_equal(o.shard_i, 2);
    assert_int_equal(o.shard_n, 3);
    assert_int_equal(o.resume, 1);
    h_opts_free(&o);
}

/* Each is a usage error (exit 2) for the commands given. */
static void test_usage_errors(void **state)
{
    (void)state;
    static const struct {
        unsigned allowed;
        const char *argv[4];
    } bad[] = {
        {HO_RUN | HO_DEFINE, {"--crash-depth", "0"}},
        {HO_RUN | HO_DEFINE, {"--crash-depth", "17"}},
        {HO_RUN | HO_DEFINE, {"--crash-depth", "x"}},
        {HO_RUN | HO_DEFINE, {"--max-states", "0"}},
        {HO_RUN | HO_DEFINE, {"--max-steps", "-1"}},
        {HO_RUN | HO_DEFINE, {"--timeout", "0"}},
        {HO_RUN | HO_DEFINE, {"--timeout", "nan"}},
        {HO_RUN | HO_DEFINE, {"--timeout", "1s"}},
        {HO_RUN | HO_DEFINE, {"--jobs", "2"}},          /* suite only */
        {HO_RUN | HO_DEFINE, {"--resume"}},
        {HO_RUN | HO_SUITE, {"--jobs", "0"}},
        {HO_RUN | HO_SUITE, {"--jobs", "257"}},
        {HO_RUN | HO_SUITE, {"--shard", "0/3"}},
        {HO_RUN | HO_SUITE, {"--shard", "4/3"}},
        {HO_RUN | HO_SUITE, {"--shard", "1/2x"}},
        {HO_RUN | HO_SUITE, {"--shard", "1"}},
        {HO_RUN | HO_DEFINE, {"-D", "N"}},
        {HO_RUN | HO_DEFINE, {"-D", "=3"}},
        {HO_RUN | HO_DEFINE, {"-DN=x"}},
        {HO_RUN | HO_DEFINE, {"-D"}},
        {HO_RUN, {"-DN=1"}},                            /* no -D here */
        {HO_RUN | HO_DEFINE, {"--config", "wpq"}},
        {HO_RUN | HO_DEFINE, {"--config", "=1"}},
        {HO_RUN | HO_DEFINE, {"--model", "bogus"}},
        {HO_RUN | HO_DEFINE, {"--model"}},
        {HO_RUN | HO_DEFINE, {"--db"}},
        {HO_RUN | HO_DEFINE, {"--bogus"}},
        {HO_RUN | HO_DEFINE, {"--a-very-long-option-name-indeed=1"}},
        {HO_DEFINE | HO_PARSE, {"--model", "hw"}},      /* parse: no model */
        {HO_DEFINE | HO_PARSE, {"--db", "x.db"}},
        {HO_DEFINE | HO_PARSE, {"--naive"}},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        HOpts o;
        const char *argv[6] = {"f.litmus"};
        for (int k = 0; k < 4 && bad[i].argv[k]; k++)
            argv[k + 1] = bad[i].argv[k];
        if (opts(&o, bad[i].allowed, argv) != H_USAGE)
            fail_msg("accepted: %s %s", bad[i].argv[0],
                     bad[i].argv[1] ? bad[i].argv[1] : "");
        h_opts_free(&o);
    }
}

static void test_done(void **state)
{
    (void)state;
    HOpts o;
    const char *files[] = {"f.litmus", NULL};
    assert_int_equal(opts(&o, HO_RUN, files), 0);
    /* files and no error: the command goes on (and frees o itself) */
    assert_int_equal(h_opts_done(&o, 0, "test", "usage\n", "no file"), -1);
    h_opts_free(&o);
    const char *help[] = {"--help", NULL};
    assert_int_equal(opts(&o, HO_RUN, help), 0);
    assert_int_equal(o.help, 1);
    assert_int_equal(h_opts_done(&o, 0, "test", "", "no file"), H_OK);
    const char *none[] = {NULL};
    assert_int_equal(opts(&o, HO_RUN, none), 0);
    assert_int_equal(h_opts_done(&o, 0, "test", "", "no file"), H_USAGE);
    const char *bad[] = {"--bogus", NULL};
    int r = opts(&o, HO_RUN, bad);
    assert_int_equal(h_opts_done(&o, r, "test", "", "no file"), H_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_int),
        cmocka_unit_test(test_models),
        cmocka_unit_test(test_run_options),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_suite_options),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_done),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
