/*
 * test_hw_random.c — the hw model's default mode against its literal
 * semantics on generated programs (tests/hw_gen.h): for every seed, the
 * default and --naive runs must both finish and give the same distinct
 * main-program crash images, outcomes, verdicts (with their positive and
 * negative counts) and runtime errors. Recovery and nested crashes are
 * covered by the programs with a recover block. For longer runs,
 * GPMC_HW_SEEDS=N runs N seeds from GPMC_HW_FIRST (default 1), and
 * GPMC_HW_SIZE=K makes the programs K times longer (those too large for
 * the naive explorer are then counted and skipped).
 */
#include "tests/check_util.h"
#include "tests/hw_gen.h"

#define SEEDS 300

static int same(const ChkReport *a, const ChkReport *b, char *why,
                size_t len)
{
    if (a->status != CHK_DONE || b->status != CHK_DONE) {
        snprintf(why, len, "incomplete: %s / naive: %s",
                 a->reason ? a->reason : "done",
                 b->reason ? b->reason : "done");
        return 0;
    }
    if (a->nimages != b->nimages) {
        snprintf(why, len, "%d crash images, naive %d", a->nimages,
                 b->nimages);
        return 0;
    }
    for (int i = 0; i < a->nimages; i++)
        if (strcmp(a->images[i], b->images[i])) {
            snprintf(why, len, "image %d: %s, naive %s", i, a->images[i],
                     b->images[i]);
            return 0;
        }
    if (a->noutcomes != b->noutcomes) {
        snprintf(why, len, "%d outcomes, naive %d", a->noutcomes,
                 b->noutcomes);
        return 0;
    }
    for (int i = 0; i < a->noutcomes; i++)
        if (a->outcomes[i].phase != b->outcomes[i].phase ||
            strcmp(a->outcomes[i].state, b->outcomes[i].state)) {
            snprintf(why, len, "outcome %d: %s, naive %s", i,
                     a->outcomes[i].state, b->outcomes[i].state);
            return 0;
        }
    for (int i = 0; i < a->nresults; i++)
        if (a->results[i].verdict != b->results[i].verdict ||
            a->results[i].positive != b->results[i].positive ||
            a->results[i].negative != b->results[i].negative) {
            snprintf(why, len, "check %d: %s %lld/%lld, naive %s %lld/%lld",
                     i, a->results[i].verdict ? "Ok" : "No",
                     (long long)a->results[i].positive,
                     (long long)a->results[i].negative,
                     b->results[i].verdict ? "Ok" : "No",
                     (long long)b->results[i].positive,
                     (long long)b->results[i].negative);
            return 0;
        }
    if (a->nerrors != b->nerrors) {
        snprintf(why, len, "%d errors, naive %d", a->nerrors, b->nerrors);
        return 0;
    }
    for (int i = 0; i < a->nerrors; i++)
        if (strcmp(a->errors[i], b->errors[i])) {
            snprintf(why, len, "error %s, naive %s", a->errors[i],
                     b->errors[i]);
            return 0;
        }
    return 1;
}

static void test_random_programs_agree(void **state)
{
    static char text[8192];
    const char *env = getenv("GPMC_HW_SEEDS"), *sz = getenv("GPMC_HW_SIZE");
    const char *fs = getenv("GPMC_HW_FIRST");
    int seeds = env ? atoi(env) : SEEDS, size = sz ? atoi(sz) : 1;
    int first = fs ? atoi(fs) : 1;
    int volatile_wpq = 0, images = 0, skipped = 0;
    int64_t states[2] = {0, 0};
    (void)state;
    for (int seed = first; seed < first + seeds; seed++) {
        CuOpts dflt = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
        LitProgram *p;
        ChkReport *a, *b;
        char why[512];
        hg_program((uint64_t)seed, size, text, sizeof text);
        p = cu_parse(text);
        a = cu_run_opts(p, LIT_HW, &dflt);
        b = cu_run_opts(p, LIT_HW, &naive);
        if (size > 1 && b->status != CHK_DONE) {
            skipped++;              /* a larger program than naive can do */
        } else if (!same(a, b, why, sizeof why)) {
            print_error("seed %d: %s\n%s", seed, why, text);
            fail();
        }
        volatile_wpq += p->config.val[LIT_CFG_WPQ] != 0;
        images += a->nimages;
        states[0] += a->states;
        states[1] += b->states;
        chk_report_free(a);
        chk_report_free(b);
        lit_program_free(p);
    }
    print_message("%d programs (%d with a volatile WPQ, %d too large for "
                  "naive) agree: %d crash images; %lld states, naive %lld\n",
                  seeds, volatile_wpq, skipped, images, (long long)states[0],
                  (long long)states[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_programs_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
