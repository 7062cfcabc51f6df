/*
 * test_chk_explore.c — the explorer: crash points, recovery and nested
 * crashes, runtime errors, barriers, limits, witnesses, determinism.
 */
#include "tests/check_util.h"

/* Every reachable state is a crash point, the initial one included: a
   program that makes x durable at once still has the image x = 0. */
static void test_initial_and_final_crash_points(void **state)
{
    LitProgram *p = cu_parse(
        "test init\npm x = 0\n"
        "kernel k grid 1 block 1 {\n  st x, 1\n  psync\n}\n"
        "check crash exists (x == 0)\n"
        "check crash exists (x == 1)\n");
    (void)state;
    for (int m = LIT_STRICT; m <= LIT_BSCOPED; m++) {
        ChkReport *r = cu_run(p, m);
        assert_string_equal(cu_verdicts(r), "Ok Ok");
        assert_string_equal(cu_outcomes(r, LIT_CRASH), "x=0|x=1");
        chk_report_free(r);
    }
    lit_program_free(p);
}

/* Registers of the last launch in `final`, and the final-phase count:
   thread 1 reads x before or after thread 0's store. */
static void test_final_registers(void **state)
{
    LitProgram *p = cu_parse(
        "test mp\npm x = 0\n"
        "kernel k grid 1 block 2 {\n"
        "  thread 0 {\n    st x, 7\n  }\n"
        "  thread 1 {\n    ld r3, x\n  }\n}\n"
        "check final exists (1:r3 == 0)\n"
        "check final forall (1:r3 == 7)\n");
    ChkReport *r;
    (void)state;
    r = cu_run(p, LIT_EPOCH);
    assert_string_equal(cu_outcomes(r, LIT_FINAL), "1:r3=0|1:r3=7");
    assert_string_equal(cu_verdicts(r), "Ok No");
    assert_int_equal(r->results[1].positive, 1);
    assert_int_equal(r->results[1].negative, 1);
    chk_report_free(r);
    lit_program_free(p);
}

/* A recovery that adds one to a durable counter is correct after one crash
   and wrong when it can crash itself after its store persisted: it then
   runs again and adds one more. Depth 1: cnt == 1 always. Depth 2: 2 is
   reachable. */
static const char *counter =
    "test cnt\npm cnt = 0\npm done = 0\n"
    "kernel k grid 1 block 1 {\n  st done, 1\n}\n"
    "recover {\n  kernel fix grid 1 block 1 {\n"
    "    ld r0, cnt\n    add r0, r0, 1\n    st cnt, r0\n    psync\n  }\n}\n"
    "check recovered forall (cnt == 1)\n";

static void test_nested_crash_depth(void **state)
{
    LitProgram *p = cu_parse(counter);
    CuOpts d1 = {0, 1, 0, 0, 0}, d2 = {0, 2, 0, 0, 0}, d3 = {0, 3, 0, 0, 0};
    ChkReport *r;
    (void)state;
    r = cu_run_opts(p, LIT_EPOCH, &d1);
    assert_string_equal(cu_outcomes(r, LIT_RECOVERED), "cnt=1");
    assert_string_equal(cu_verdicts(r), "Ok");
    chk_report_free(r);
    r = cu_run_opts(p, LIT_EPOCH, &d2);
    assert_string_equal(cu_outcomes(r, LIT_RECOVERED), "cnt=1|cnt=2");
    assert_string_equal(cu_verdicts(r), "No");
    assert_int_equal(r->nviolations, 1);
    assert_int_equal(r->violations[0].depth, 2);
    chk_report_free(r);
    r = cu_run_opts(p, LIT_EPOCH, &d3);
    assert_string_equal(cu_outcomes(r, LIT_RECOVERED), "cnt=1|cnt=2|cnt=3");
    chk_report_free(r);
    lit_program_free(p);
}

/* The witness of the nested crash is the shortest: no main-program step
   (crash at the initial state), recovery up to its store (ld, add, st), a
   crash whose image includes that store, and a full recovery (4 steps). */
static void test_witness_is_shortest(void **state)
{
    LitProgram *p = cu_parse(counter);
    ChkReport *r;
    const char *w;
    (void)state;
    r = cu_run(p, LIT_SCOPED);
    assert_int_equal(r->nviolations, 1);
    w = r->violations[0].witness;
    assert_non_null(strstr(w, "crash 1 after step 0"));
    assert_non_null(strstr(w, "crash 2 after step 3: image includes #1 cnt = 1"));
    assert_non_null(strstr(w, "7. fix thread 0 line 12: psync"));
    assert_null(strstr(w, "8."));
    assert_non_null(strstr(w, "recovered: cnt=2"));
    assert_non_null(strstr(r->violations[0].witness_json,
                           "\"crashes\":[{\"after\":-1,"));
    chk_report_free(r);
    lit_program_free(p);
}

/* Runtime errors end one execution, are reported once with a witness, and
   do not hide the other executions. */
static void test_runtime_errors(void **state)
{
    LitProgram *p = cu_parse(
        "test err\npm a[2] = 0\npm x = 0\n"
        "kernel k grid 1 block 2 {\n"
        "  thread 0 {\n    ld r1, x\n    st a[r1], 1\n  }\n"
        "  thread 1 {\n    st x, 2\n  }\n}\n"
        "check noerror\n"
        "check final exists (a[0] == 1)\n");
    ChkReport *r;
    (void)state;
    r = cu_run(p, LIT_BEPOCH);
    assert_string_equal(cu_verdicts(r), "No Ok");
    assert_int_equal(r->nerrors, 1);
    assert_string_equal(r->errors[0], "bounds: index 2 out of bounds for a[2] "
                                      "at test.litmus:7 (k, thread 0)");
    assert_int_equal(r->results[0].positive, 1);
    assert_int_equal(r->nviolations, 2);
    assert_int_equal(r->violations[1].kind, CHK_V_ERROR);
    assert_int_equal(r->violations[1].cond_index, 0);
    assert_non_null(strstr(r->violations[1].witness, "error: index 2 out of "
                                                     "bounds for a[2]"));
    chk_report_free(r);
    lit_program_free(p);
}

static void test_arith_and_assert_errors(void **state)
{
    LitProgram *p = cu_parse(
        "test arith\npm x = 0\n"
        "kernel k grid 1 block 1 {\n"
        "  ld r1, x\n  div r2, 5, r1\n  assert r2 == 4\n}\n"
        "check noerror\n");
    ChkReport *r;
    (void)state;
    r = cu_run(p, LIT_STRICT);
    assert_int_equal(r->nerrors, 1);
    assert_string_equal(r->errors[0], "arith: division by zero (5, 0) at "
                                      "test.litmus:5 (k, thread 0)");
    chk_report_free(r);
    lit_program_free(p);
    p = cu_parse("test as\npm x = 0\n"
                 "kernel k grid 1 block 1 {\n  ld r1, x\n  assert r1 != 0\n}\n"
                 "check noerror expect strict=no\n");
    r = cu_run(p, LIT_STRICT);
    assert_string_equal(r->errors[0], "assert: assertion failed (0 != 0) at "
                                      "test.litmus:5 (k, thread 0)");
    assert_int_equal(r->results[0].verdict, 0);
    assert_int_equal(chk_result_passes(&r->results[0]), 1);
    chk_report_free(r);
    lit_program_free(p);
}

/* Threads of one CTA waiting at different barriers: divergence. */
static void test_barrier_divergence(void **state)
{
    LitProgram *p = cu_parse(
        "test div\npm x = 0\n"
        "kernel k grid 1 block 2 {\n"
        "  thread 0 {\n    bar.sync\n  }\n"
        "  thread 1 {\n    grid.sync\n  }\n}\n"
        "check noerror\n");
    ChkReport *r;
    (void)state;
    r = cu_run(p, LIT_SCOPED);
    assert_int_equal(r->nerrors, 1);
    assert_string_equal(r->errors[0],
                        "barrier-divergence: barrier divergence in CTA 0 of k: "
                        "thread 0 waits at bar.sync, thread 1 at grid.sync");
    chk_report_free(r);
    lit_program_free(p);
}

/* Barriers match by count: thread 0 passes two bar.syncs in a loop,
   thread 1 has two in straight-line code. An exited thread counts as
   arrived. No error. */
static void test_barriers_match_by_count(void **state)
{
    LitProgram *p = cu_parse(
        "test cnt2\npm x = 0\n"
        "kernel k grid 1 block 3 {\n"
        "  thread 0 {\n    mov r1, 0\n  L:\n    bar.sync\n    add r1, r1, 1\n"
        "    blt r1, 2, L\n    st x, r1\n  }\n"
        "  thread 1 {\n    bar.sync\n    bar.sync\n  }\n"
        "  thread 2 {\n    exit\n  }\n}\n"
        "check noerror\ncheck final forall (x == 2)\n");
    ChkReport *r;
    (void)state;
    r = cu_run(p, LIT_BSCOPED);
    assert_string_equal(cu_verdicts(r), "Ok Ok");
    assert_int_equal(r->nerrors, 0);
    chk_report_free(r);
    lit_program_free(p);
}

/* Checks src under epoch: one livelock error, or none and the verdict Ok. */
static void expect_livelock(const char *src, int livelock)
{
    LitProgram *p = cu_parse(src);
    ChkReport *r = cu_run(p, LIT_EPOCH);
    if (livelock) {
        assert_int_equal(r->nerrors, 1);
        assert_string_equal(r->errors[0], "livelock: a reachable state from "
                                          "which no execution can terminate");
    } else {
        assert_int_equal(r->nerrors, 0);
        assert_string_equal(cu_verdicts(r), "Ok");
    }
    chk_report_free(r);
    lit_program_free(p);
}

/* A spin on a flag nobody sets: livelock. A spin that another thread ends
   is fine. */
static void test_livelock(void **state)
{
    (void)state;
    expect_livelock(
        "test spin\npm f = 0\n"
        "kernel k grid 1 block 1 {\n  L:\n  ld r0, f\n  beq r0, 0, L\n}\n"
        "check noerror\n", 1);
    expect_livelock("test spin2\npm f = 0\n"
                    "kernel k grid 1 block 2 {\n"
                    "  thread 0 {\n  L:\n    ld r0, f\n    beq r0, 0, L\n  }\n"
                    "  thread 1 {\n    st f, 1\n  }\n}\n"
                    "check noerror\n", 0);
    /* a counter mod 4 never reaches 4: the cycle goes back four levels
       (no self loop, no state without a way on), next to a counted loop */
    expect_livelock("test wrap\npm f = 0\n"
                    "kernel k grid 1 block 2 {\n"
                    "  thread 0 {\n  L:\n    add r1, r1, 1\n"
                    "    rem r1, r1, 4\n    blt r1, 4, L\n  }\n"
                    "  thread 1 {\n  M:\n    add r1, r1, 1\n    st f, r1\n"
                    "    blt r1, 3, M\n  }\n}\n"
                    "check noerror\n", 1);
}

/* The one violation of src under model (reductions as `reduce`, naive or
   not): a livelock's error witness, with its text and JSON as given. */
static void expect_lasso(const char *src, int model, unsigned reduce,
                         int naive, const char *text, const char *cycle,
                         int nsteps)
{
    LitProgram *p = cu_parse(src);
    CuOpts co = {0};
    co.naive = naive;
    ChkReport *r = cu_run_reduce(p, model, &co, reduce);
    assert_int_equal(r->nviolations, 1);
    assert_int_equal(r->violations[0].kind, CHK_V_ERROR);
    assert_string_equal(r->violations[0].witness, text);
    const char *js = r->violations[0].witness_json;
    if (!strstr(js, cycle))
        fail_msg("no %s in %s", cycle, js);
    int n = 0;
    for (const char *q = js; (q = strstr(q, "{\"id\":")); q++)
        n++;
    assert_int_equal(n, nsteps);
    assert_non_null(strstr(js, "\"error\":\"livelock: a reachable state"));
    chk_report_free(r);
    lit_program_free(p);
}

/* A livelock's witness is the lasso: the path to a state from which no
   execution can end, then the cycle it is caught in (issue 27: it was an
   empty witness). The same with and without the reductions, in recovery
   too; a deadlock's witness ends in its error. */
static void test_livelock_lasso(void **state)
{
    (void)state;
    static const char spin[] =
        "test spin\npm x = 0\npm f = 0\n"
        "kernel k grid 1 block 1 {\n  st x, 1\nL:\n  ld r1, f\n"
        "  beq r1, 0, L\n}\ncheck noerror\n";
    static const char spin_text[] =
        "main program:\n"
        "  1. k thread 0 line 5: st x, 1  -- x = 1\n"
        "cycle (repeats forever):\n"
        "  2. k thread 0 line 7: ld r1, f  -- r1 = 0 (f)\n"
        "  3. k thread 0 line 8: beq r1, 0, L  -- taken (0 == 0)\n"
        "error: livelock: a reachable state from which no execution can"
        " terminate (steps 2 to 3 repeat forever)\n";
    /* naive: the store is pending (strict's buffer) */
    char naive_text[sizeof spin_text + 8];
    const char *nl = strchr(spin_text + 14, '\n');
    snprintf(naive_text, sizeof naive_text, "%.*s [#1]%s",
             (int)(nl - spin_text), spin_text, nl);
    for (int naive = 0; naive <= 1; naive++) {
        expect_lasso(spin, LIT_STRICT, CHK_R_ALL, naive,
                     naive ? naive_text : spin_text,
                     "\"cycle\":{\"from\":1,\"to\":2}", 3);
        expect_lasso(spin, LIT_STRICT, 0, naive,
                     naive ? naive_text : spin_text,
                     "\"cycle\":{\"from\":1,\"to\":2}", 3);
    }
    /* the counter mod 4: a cycle of twelve steps back to the start */
    expect_lasso("test wrap\npm f = 0\n"
                 "kernel k grid 1 block 1 {\n"
                 "L:\n  add r1, r1, 1\n  rem r1, r1, 4\n  blt r1, 4, L\n}\n"
                 "check noerror\n", LIT_EPOCH, CHK_R_ALL, 0,
                 "main program:\n"
                 "cycle (repeats forever):\n"
                 "  1. k thread 0 line 5: add r1, r1, 1  -- r1 = 1\n"
                 "  2. k thread 0 line 6: rem r1, r1, 4  -- r1 = 1\n"
                 "  3. k thread 0 line 7: blt r1, 4, L  -- taken (1 < 4)\n"
                 "  4. k thread 0 line 5: add r1, r1, 1  -- r1 = 2\n"
                 "  5. k thread 0 line 6: rem r1, r1, 4  -- r1 = 2\n"
                 "  6. k thread 0 line 7: blt r1, 4, L  -- taken (2 < 4)\n"
                 "  7. k thread 0 line 5: add r1, r1, 1  -- r1 = 3\n"
                 "  8. k thread 0 line 6: rem r1, r1, 4  -- r1 = 3\n"
                 "  9. k thread 0 line 7: blt r1, 4, L  -- taken (3 < 4)\n"
                 "  10. k thread 0 line 5: add r1, r1, 1  -- r1 = 4\n"
                 "  11. k thread 0 line 6: rem r1, r1, 4  -- r1 = 0\n"
                 "  12. k thread 0 line 7: blt r1, 4, L  -- taken (0 < 4)\n"
                 "error: livelock: a reachable state from which no execution"
                 " can terminate (steps 1 to 12 repeat forever)\n",
                 "\"cycle\":{\"from\":0,\"to\":11}", 12);
    /* in recovery: the crash that lost the flag, then the recovery's cycle */
    expect_lasso("test rspin\npm f = 0\n"
                 "kernel k grid 1 block 1 {\n  st f, 1\n}\n"
                 "recover {\n  kernel r grid 1 block 1 {\n"
                 "  L:\n    ld r1, f\n    beq r1, 0, L\n  }\n}\n"
                 "check noerror\n", LIT_STRICT, CHK_R_ALL, 0,
                 "main program:\n"
                 "crash 1 after step 0\n"
                 "  image: f=0\n"
                 "recovery 1:\n"
                 "cycle (repeats forever):\n"
                 "  1. r thread 0 line 9: ld r1, f  -- r1 = 0 (f)\n"
                 "  2. r thread 0 line 10: beq r1, 0, L  -- taken (0 == 0)\n"
                 "error: livelock: a reachable state from which no execution"
                 " can terminate in recovery (steps 1 to 2 repeat forever)\n",
                 "\"cycle\":{\"from\":0,\"to\":1}", 2);
    /* a state where nothing moves: its error ends the witness (it was
       left out) */
    LitProgram *p = cu_parse("test div\npm x = 0\nkernel k grid 1 block 2 {\n"
                             "  thread 0 {\n    bar.sync\n  }\n"
                             "  thread 1 {\n    grid.sync\n  }\n}\n"
                             "check noerror\n");
    ChkReport *r = cu_run(p, LIT_STRICT);
    assert_int_equal(r->nviolations, 1);
    assert_string_equal(r->violations[0].witness,
                        "main program:\n"
                        "  1. k thread 0 line 5: bar.sync\n"
                        "  2. k thread 1 line 8: grid.sync\n"
                        "error: barrier divergence in CTA 0 of k: thread 0"
                        " waits at bar.sync, thread 1 at grid.sync\n");
    assert_null(strstr(r->violations[0].witness_json, "cycle"));
    chk_report_free(r);
    lit_program_free(p);
}

/* Limits end the check as incomplete, with the reason (the explorer's own
   limits: no reduction), and the verdict Unknown unless an example was
   found before the limit. */
static void test_limits(void **state)
{
    LitProgram *p = cu_parse(
        "test lim\npm x[4] = 0\n"
        "kernel k grid 1 block 4 {\n  st x[%tid], 1\n  st x[%tid], 2\n}\n"
        "check crash exists (x[0] == 2)\n");
    CuOpts small = {0, 0, 0, 10, 0}, shallow = {0, 0, 0, 0, 3};
    ChkReport *r;
    (void)state;
    r = cu_run_reduce(p, LIT_EPOCH, &small, 0);
    assert_int_equal(r->status, CHK_INCOMPLETE);
    assert_string_equal(r->reason, "max-states (10) reached");
    assert_string_equal(cu_verdicts(r), "Unknown");
    chk_report_free(r);
    r = cu_run_reduce(p, LIT_EPOCH, &shallow, 0);
    assert_int_equal(r->status, CHK_INCOMPLETE);
    assert_string_equal(r->reason, "max-steps (3) reached");
    /* thread 0's two stores fit in 3 steps: the example is found */
    assert_string_equal(cu_verdicts(r), "Ok");
    chk_report_free(r);
    r = cu_run_reduce(p, LIT_EPOCH, NULL, 0);
    assert_int_equal(r->status, CHK_DONE);
    /* 4 threads, 3 pcs each, states merged whatever the interleaving */
    assert_int_equal(r->states, 81);
    chk_report_free(r);
    lit_program_free(p);
}

/* Too many pending stores in one state (70 stores to one word form a
   chain, so the images stay few): incomplete, not a crash. */
static void test_pending_limit(void **state)
{
    LitProgram *p = cu_parse(
        "test many\npm x = 0\n"
        "kernel k grid 1 block 1 {\n  mov r1, 0\n L:\n  st x, r1\n"
        "  add r1, r1, 1\n  blt r1, 70, L\n}\n"
        "check crash exists (x == 1)\n");
    ChkReport *r;
    (void)state;
    r = cu_run(p, LIT_EPOCH);
    assert_int_equal(r->status, CHK_INCOMPLETE);
    assert_string_equal(r->reason, "more than 64 pending persists in one state");
    /* the example x == 1 was found before the limit: an exists check it
       answers is Ok, incomplete or not */
    assert_string_equal(cu_verdicts(r), "Ok");
    chk_report_free(r);
    lit_program_free(p);
}

/* Same input, same report. */
static void test_deterministic(void **state)
{
    LitProgram *p = cu_parse(counter);
    ChkReport *a = cu_run(p, LIT_BEPOCH), *b = cu_run(p, LIT_BEPOCH);
    (void)state;
    assert_int_equal(a->states, b->states);
    assert_int_equal(a->transitions, b->transitions);
    assert_int_equal(a->crash_images, b->crash_images);
    assert_int_equal(a->recoveries, b->recoveries);
    assert_int_equal(a->noutcomes, b->noutcomes);
    for (int i = 0; i < a->noutcomes; i++) {
        assert_string_equal(a->outcomes[i].state, b->outcomes[i].state);
        assert_int_equal(a->outcomes[i].count, b->outcomes[i].count);
    }
    assert_int_equal(a->nviolations, b->nviolations);
    for (int i = 0; i < a->nviolations; i++) {
        assert_string_equal(a->violations[i].witness, b->violations[i].witness);
        assert_string_equal(a->violations[i].witness_json,
                            b->violations[i].witness_json);
    }
    chk_report_free(a);
    chk_report_free(b);
    lit_program_free(p);
}

/* Crash outcomes count crash points; a recovered outcome counts the main
   crash images it is reached from. */
static void test_counts(void **state)
{
    LitProgram *p = cu_parse(
        "test counts\npm x = 0\n"
        "kernel k grid 1 block 1 {\n  st x, 1\n}\n"
        "recover {\n  kernel fix grid 1 block 1 {\n    nop\n  }\n}\n"
        "check crash exists (x == 1)\n"
        "check recovered exists (x == 1)\n");
    CuOpts d1 = {0, 1, 0, 0, 0};
    ChkReport *r;
    (void)state;
    r = cu_run_opts(p, LIT_EPOCH, &d1);
    /* two main states: before the store (image 0) and after (0 or 1) */
    assert_int_equal(r->noutcomes, 4);
    assert_int_equal(r->outcomes[0].phase, LIT_CRASH);
    assert_string_equal(r->outcomes[0].state, "x=0");
    assert_int_equal(r->outcomes[0].count, 2);
    assert_string_equal(r->outcomes[1].state, "x=1");
    assert_int_equal(r->outcomes[1].count, 1);
    assert_int_equal(r->outcomes[2].phase, LIT_RECOVERED);
    assert_int_equal(r->outcomes[2].count, 1);
    assert_int_equal(r->outcomes[3].count, 1);
    assert_int_equal(r->crash_images, 2);
    assert_int_equal(r->recoveries, 2);
    chk_report_free(r);
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initial_and_final_crash_points),
        cmocka_unit_test(test_final_registers),
        cmocka_unit_test(test_nested_crash_depth),
        cmocka_unit_test(test_witness_is_shortest),
        cmocka_unit_test(test_runtime_errors),
        cmocka_unit_test(test_arith_and_assert_errors),
        cmocka_unit_test(test_barrier_divergence),
        cmocka_unit_test(test_barriers_match_by_count),
        cmocka_unit_test(test_livelock),
        cmocka_unit_test(test_livelock_lasso),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_pending_limit),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
