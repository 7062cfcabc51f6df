/*
 * test_base_budget.c — the checker out of memory (base_budget.c): every
 * allocation of a check may fail, and the budget of --max-memory may be
 * reached; either way chk_run returns a report, the check ends incomplete
 * with its reason, and no verdict is decided differently from the full run.
 */
#include "tests/check_util.h"

static const char *prog =
    "test M \"two threads, a flag, and a recovery that reads both\"\n"
    "pm x = 0\n"
    "pm f = 0\n"
    "pm seen = 0\n"
    "kernel k grid 1 block 2 {\n"
    "  thread 0 {\n"
    "    st x, 1\n"
    "    pbar\n"
    "    st f, 1\n"
    "  }\n"
    "  thread 1 {\n"
    "    ld r0, x\n"
    "    st seen, r0\n"
    "  }\n"
    "}\n"
    "recover {\n"
    "  kernel r grid 1 block 1 {\n"
    "    ld r1, f\n"
    "    ld r2, x\n"
    "    st seen, r2\n"
    "  }\n"
    "}\n"
    "check crash forall (f == 1 -> x == 1)\n"
    "check recovered exists (seen == 1)\n"
    "check final forall (f == 1)\n"
    "check noerror\n";

static ChkReport *run(const LitProgram *p, int model, int naive,
                      int64_t max_memory_kb)
{
    ChkOptions o;
    ChkReport *r = NULL;
    char err[256];
    chk_options_default(&o);
    o.model = model;
    o.naive = naive;
    o.threads = 1;
    o.max_memory_kb = max_memory_kb;
    assert_int_equal(chk_run(p, &o, &r, err, sizeof err), 0);
    assert_non_null(r);
    return r;
}

/* Whatever r lists is whole: every violation has its witness in text and
   JSON, every error its text. */
static void whole(const ChkReport *r)
{
    for (int i = 0; i < r->nviolations; i++) {
        assert_non_null(r->violations[i].witness);
        assert_non_null(r->violations[i].witness_json);
    }
    for (int i = 0; i < r->nerrors; i++)
        assert_non_null(r->errors[i]);
}

/* r ended early: incomplete or error, with a reason, and each verdict is
   Unknown or the full run's (no verdicts at all when not even the
   report's arena could be had). */
static void ended_early(const ChkReport *r, const ChkReport *full,
                        const char *why)
{
    whole(r);
    assert_int_not_equal(r->status, CHK_DONE);
    assert_non_null(r->reason);
    if (!strstr(r->reason, why))
        fail_msg("reason '%s' does not say '%s'", r->reason, why);
    if (r->nresults)
        assert_int_equal(r->nresults, full->nresults);
    for (int i = 0; i < r->nresults; i++)
        if (r->results[i].verdict != CHK_UNKNOWN)
            assert_int_equal(r->results[i].verdict, full->results[i].verdict);
}

/* Verdicts and witnesses as the full run's: a check that ends done lost
   nothing. (The state count may differ: the reductions assume any
   footprint they could not compute, and explore more.) */
static void same(const ChkReport *r, const ChkReport *full)
{
    assert_int_equal(r->status, CHK_DONE);
    assert_int_equal(r->nresults, full->nresults);
    for (int i = 0; i < r->nresults; i++)
        assert_int_equal(r->results[i].verdict, full->results[i].verdict);
    whole(r);
    assert_int_equal(r->nviolations, full->nviolations);
    for (int i = 0; i < r->nviolations; i++) {
        assert_string_equal(r->violations[i].witness,
                            full->violations[i].witness);
        assert_string_equal(r->violations[i].witness_json,
                            full->violations[i].witness_json);
    }
    assert_int_equal(r->nerrors, full->nerrors);
}

/* The n-th allocation fails, for every n up to the last one a check makes,
   under every model, in both modes. */
static void test_every_allocation_may_fail(void **state)
{
    LitProgram *p = cu_parse(prog);
    long fired = 0;
    (void)state;
    for (int model = 0; model < LIT_NMODELS; model++)
        for (int naive = 0; naive <= 1; naive++) {
            ChkReport *full = run(p, model, naive, 0);
            assert_int_equal(full->status, CHK_DONE);
            for (long n = 1;; n++) {
                base_mem_fail_after(n);
                ChkReport *r = run(p, model, naive, 0);
                long left = base_mem_fail_after(0);
                if (left > 0) {         /* the n-th allocation never came */
                    assert_int_equal(r->states, full->states);
                    same(r, full);
                    chk_report_free(r);
                    break;
                }
                fired++;
                if (r->status == CHK_DONE)
                    same(r, full);      /* a cache that did without */
                else
                    ended_early(r, full, "memory");
                chk_report_free(r);
            }
            chk_report_free(full);
        }
    print_message("%ld failing allocations\n", fired);
    assert_true(fired > 100);
    lit_program_free(p);
}

/* --max-memory: a budget too small for the state space ends the check
   incomplete; undecided checks are Unknown. */
static void test_budget(void **state)
{
    LitProgram *p = cu_parse(prog);
    (void)state;
    for (int model = 0; model < LIT_NMODELS; model++) {
        ChkReport *full = run(p, model, 1, 0);
        ChkReport *r = run(p, model, 1, 1);
        ended_early(r, full, "max-memory (1 KB) reached");
        chk_report_free(r);
        chk_report_free(full);
    }
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_may_fail),
        cmocka_unit_test(test_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
