/*
 * test_chk_short.c — witnesses and step limits mean the same in every mode
 * (checker/chk_short.c, specs/checker.md "Witnesses", issue 28):
 *  - a reducing run's witness has as many program steps and crashes as
 *    --no-reduce's: issue 28's example, a final outcome the reduced BFS
 *    reached the long way, and generated programs
 *    (tests/red_gen.h) under every model and every set of reductions;
 *  - where --naive has no model events to add (no PM: dram and shared
 *    words only), its witnesses have that length too;
 *  - --max-steps counts program steps: a loop is cut at the same bound
 *    in default, --no-reduce and --naive.
 */
#include "tests/check_util.h"
#include "tests/red_gen.h"

/* The program steps of a witness: its JSON's steps. */
static int steps_of(const ChkViolation *v)
{
    int n = 0;
    for (const char *s = v->witness_json; (s = strstr(s, "{\"id\":")); s++)
        n++;
    return n;
}

static ChkReport *run(const LitProgram *p, int model, int naive,
                      unsigned reduce, int64_t max_steps)
{
    CuOpts co = {naive, 0, 0, 0, max_steps};
    return cu_run_reduce(p, model, &co, reduce);
}

/* issue 28: T0 takes three register steps before its store, T1 stores
   first. The reduced graph ran T0's invisible steps first (the ample set)
   and T1's after its store (fusion): 7 steps; the crash needs one. */
static void test_issue_example(void **state)
{
    LitProgram *p = cu_parse(
        "test Ex\npm x = 0\npm y = 0\n"
        "kernel k grid 1 block 2 {\n"
        "  thread 0 {\n    add r1, r1, 1\n    add r1, r1, 1\n"
        "    add r1, r1, 1\n    st y, 1\n  }\n"
        "  thread 1 {\n    st x, 1\n    add r1, r1, 1\n"
        "    add r1, r1, 1\n    add r1, r1, 1\n  }\n}\n"
        "check crash ~exists (x == 1)\n");
    static const struct {
        int naive;
        unsigned reduce;
        int steps;
    } want[] = {
        {0, CHK_R_ALL, 1}, {0, CHK_R_FUSE, 1}, {0, CHK_R_POR, 1},
        {0, CHK_R_SLICE, 1}, {0, 0, 1},
        {1, 0, 2},                      /* the store, then its persist */
    };
    (void)state;
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        ChkReport *r = run(p, LIT_EPOCH, want[k].naive, want[k].reduce, 0);
        assert_int_equal(r->status, CHK_DONE);
        assert_int_equal(r->nviolations, 1);
        assert_int_equal(steps_of(&r->violations[0]), want[k].steps);
        assert_int_equal(r->violations[0].depth, 1);
        assert_non_null(strstr(r->violations[0].witness,
                               "1. k thread 1 line 12: st x, 1"));
        assert_string_equal(r->notes, "");
        chk_report_free(r);
    }
    lit_program_free(p);
}

/* A final outcome reached in 4 steps (thread 1 first, thread 0 skips its
   register steps) or in 10 (thread 0 first). The reduced BFS, by
   transitions, took the longer way: thread 0's six register steps are one
   fused transition. The search by weight (chk_nearest.c, or the search
   without reductions under hw's projection) finds 4, as every mode does:
   a terminal state needs no persist under --naive. */
static void test_final_by_weight(void **state)
{
    LitProgram *p = cu_parse(
        "test Fin\ndram f = 0\npm x = 0\n"
        "kernel k grid 1 block 2 {\n"
        "  thread 0 {\n    ld r0, f\n    bne r0, 0, short\n"
        "    add r1, r1, 1\n    add r1, r1, 1\n    add r1, r1, 1\n"
        "    add r1, r1, 1\n    add r1, r1, 1\n    add r1, r1, 1\n"
        "  short:\n    st x, 1\n  }\n"
        "  thread 1 {\n    st f, 1\n  }\n}\n"
        "check final exists (x == 1)\n");
    static const struct {
        int naive;
        unsigned reduce;
    } mode[] = {{0, CHK_R_ALL}, {0, CHK_R_FUSE}, {0, CHK_R_FUSE | CHK_R_POR},
                {0, 0}, {1, 0}};
    (void)state;
    for (int m = 0; m < LIT_NMODELS; m++)
        for (size_t k = 0; k < sizeof mode / sizeof *mode; k++) {
            ChkReport *r = run(p, m, mode[k].naive, mode[k].reduce, 0);
            assert_int_equal(r->nviolations, 1);
            assert_int_equal(steps_of(&r->violations[0]), 4);
            assert_non_null(strstr(r->violations[0].witness,
                                   "1. k thread 1 line 18: st f, 1"));
            assert_non_null(strstr(r->violations[0].witness,
                                   "4. k thread 0 line 15: st x, 1"));
            chk_report_free(r);
        }
    lit_program_free(p);
}

/* Every violation of a and b: the same check, steps and crashes. */
static int same_lengths(const ChkReport *a, const ChkReport *b, char *why,
                        size_t len)
{
    if (a->status != CHK_DONE || b->status != CHK_DONE) {
        snprintf(why, len, "incomplete");
        return 0;
    }
    if (a->nviolations != b->nviolations) {
        snprintf(why, len, "%d violations, %d", a->nviolations,
                 b->nviolations);
        return 0;
    }
    for (int i = 0; i < a->nviolations; i++) {
        const ChkViolation *x = &a->violations[i], *y = &b->violations[i];
        if (x->cond_index != y->cond_index || x->kind != y->kind ||
            steps_of(x) != steps_of(y) || x->depth != y->depth) {
            snprintf(why, len, "check %d: %d steps, %d crashes; %d, %d:\n%s\n"
                     "against\n%s", x->cond_index, steps_of(x), x->depth,
                     steps_of(y), y->depth, x->witness, y->witness);
            return 0;
        }
    }
    return 1;
}

static const unsigned reductions[] = {
    CHK_R_ALL, CHK_R_FUSE, CHK_R_POR, CHK_R_SLICE
};

/* Generated programs (crash, recovered, final and noerror checks, 2-4
   threads, loops, barriers, recovery) under every model: each set of
   reductions gives --no-reduce's witness lengths. */
static void test_random_lengths(void **state)
{
    static char text[16384];
    int witnesses = 0, programs = 0, notes = 0;
    (void)state;
    for (int seed = 1; seed <= 40; seed++) {
        LitProgram *p;
        int any = 0;
        rg_program((uint64_t)seed, 1, text, sizeof text);
        p = cu_parse(text);
        for (int m = 0; m < LIT_NMODELS; m++) {
            ChkReport *b = run(p, m, 0, 0, 0);
            for (size_t r = 0; r < sizeof reductions / sizeof *reductions;
                 r++) {
                ChkReport *a = run(p, m, 0, reductions[r], 0);
                char why[8192];
                if (!same_lengths(a, b, why, sizeof why)) {
                    print_error("seed %d, %s, reductions %u: %s\n%s", seed,
                                lit_model_names[m], reductions[r], why, text);
                    fail();
                }
                notes += strstr(a->notes, "witnesses") != NULL;
                witnesses += a->nviolations;
                any |= a->nviolations > 0;
                chk_report_free(a);
            }
            chk_report_free(b);
        }
        programs += any;
        lit_program_free(p);
    }
    print_message("%d programs with witnesses, %d witnesses as long as "
                  "--no-reduce's\n", programs, witnesses);
    assert_int_equal(programs, 39);
    assert_int_equal(witnesses, 1548);
    assert_int_equal(notes, 0);
}

/* Programs without PM (dram and shared words): --naive has no model event
   to add, so its witnesses are as long too. Threads load, store, branch
   and fail assertions. */
static void dram_program(uint64_t seed, char *buf, size_t len)
{
    HwGen g;
    int nthreads;
    memset(&g, 0, sizeof g);
    g.s = seed * 0x9E3779B97F4A7C15ull + 1;
    g.buf = buf;
    g.len = len;
    buf[0] = 0;
    nthreads = 2 + hg_pick(&g, 2);
    hg_put(&g, "test D%llu\ndram d[3] = 0\nshared s\n",
           (unsigned long long)seed);
    hg_put(&g, "kernel k grid 1 block %d {\n", nthreads);
    for (int t = 0; t < nthreads; t++) {
        int n = 2 + hg_pick(&g, 5);
        hg_put(&g, "  thread %d {\n", t);
        for (int i = 0; i < n; i++) {
            int k = hg_pick(&g, 10);
            if (k < 3)
                hg_put(&g, "    st d[%d], %d\n", hg_pick(&g, 3),
                       1 + hg_pick(&g, 2));
            else if (k < 6)
                hg_put(&g, "    ld r0, d[%d]\n", hg_pick(&g, 3));
            else if (k < 8)
                hg_put(&g, "    add r1, r1, r0\n");
            else if (k < 9)
                hg_put(&g, "    st s, r1\n");
            else
                hg_put(&g, "    assert r0 != %d\n", 1 + hg_pick(&g, 2));
        }
        hg_put(&g, "  }\n");
    }
    hg_put(&g, "}\ncheck final exists (d[0] == 2 && d[1] != 1)\n"
               "check noerror\n");
}

static void test_naive_lengths(void **state)
{
    static char text[4096];
    int witnesses = 0;
    (void)state;
    for (int seed = 1; seed <= 16; seed++) {
        LitProgram *p;
        dram_program((uint64_t)seed, text, sizeof text);
        p = cu_parse(text);
        for (int m = 0; m < LIT_NMODELS; m++) {
            ChkReport *a = run(p, m, 0, CHK_R_ALL, 0);
            ChkReport *b = run(p, m, 1, 0, 0);
            char why[8192];
            if (!same_lengths(a, b, why, sizeof why)) {
                print_error("seed %d, %s: %s\n%s", seed, lit_model_names[m],
                            why, text);
                fail();
            }
            witnesses += a->nviolations;
            chk_report_free(a);
            chk_report_free(b);
        }
        lit_program_free(p);
    }
    print_message("%d witnesses as long as --naive's\n", witnesses);
    assert_int_equal(witnesses, 42);
}

/* A loop of 100 iterations of two instructions, then a store: 201 steps
   to the end in every mode (fusion runs each iteration as one transition,
   which --max-steps used to count as one step). */
static void test_max_steps_loop(void **state)
{
    LitProgram *p = cu_parse(
        "test Loop\ndram x = 0\n"
        "kernel k grid 1 block 1 {\nL: add r1, r1, 1\n  blt r1, 100, L\n"
        "  st x, r1\n}\ncheck final forall (x == 100)\n");
    static const struct {
        int naive;
        unsigned reduce;
    } mode[] = {{0, CHK_R_ALL}, {0, 0}, {1, 0}};
    (void)state;
    for (int m = 0; m < LIT_NMODELS; m++)
        for (size_t k = 0; k < sizeof mode / sizeof *mode; k++) {
            ChkReport *a = run(p, m, mode[k].naive, mode[k].reduce, 200);
            ChkReport *b = run(p, m, mode[k].naive, mode[k].reduce, 201);
            assert_int_equal(a->status, CHK_INCOMPLETE);
            assert_string_equal(a->reason, "max-steps (200) reached");
            assert_int_equal(a->results[0].verdict, CHK_UNKNOWN);
            assert_int_equal(b->status, CHK_DONE);
            assert_int_equal(b->results[0].verdict, CHK_OK);
            chk_report_free(a);
            chk_report_free(b);
        }
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue_example),
        cmocka_unit_test(test_final_by_weight),
        cmocka_unit_test(test_max_steps_loop),
        cmocka_unit_test(test_naive_lengths),
        cmocka_unit_test(test_random_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
