/* Replays the fuzz seeds and every regression input the fuzzers found
   (tests/fuzz/seeds, tests/fuzz/regress: through fuzz_parse and
   fuzz_check; tests/fuzz/seeds-ptx, regress-ptx: through fuzz_ptx), so
   that `make test` and `make asan` keep each past crash fixed. A target
   aborts when its property fails (tests/fuzz/fuzz.h). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "tests/fuzz/fuzz.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        size_t n = fread(buf + *len, 1, cap - *len, f);
        if (!n)
            break;
        *len += n;
    }
    fclose(f);
    return buf;
}

/* The litmus targets (ptx: fuzz_ptx) on every file of dir; returns how
   many. */
static int replay(const char *dir, int ptx)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot read %s", dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *data = slurp(path, &len);
        if (ptx) {
            fuzz_ptx((const uint8_t *)data, len);
        } else {
            fuzz_parse((const uint8_t *)data, len);
            fuzz_check((const uint8_t *)data, len);
        }
        free(data);
        n++;
    }
    closedir(d);
    return n;
}

static void test_seeds(void **state)
{
    (void)state;
    assert_true(replay("tests/fuzz/seeds", 0) >= 20);
}

static void test_regressions(void **state)
{
    (void)state;
    assert_true(replay("tests/fuzz/regress", 0) >= 1);
}

static void test_ptx_seeds(void **state)
{
    (void)state;
    assert_true(replay("tests/fuzz/seeds-ptx", 1) >= 5);
}

static void test_ptx_regressions(void **state)
{
    (void)state;
    assert_true(replay("tests/fuzz/regress-ptx", 1) >= 1);
}

/* CPU seconds fuzz_check takes on src with GPMC_FUZZ_INPUT_S = budget
   (NULL: its default). */
static double check_cpu(const char *src, const char *budget)
{
    if (budget)
        setenv("GPMC_FUZZ_INPUT_S", budget, 1);
    else
        unsetenv("GPMC_FUZZ_INPUT_S");
    clock_t t0 = clock();
    fuzz_check((const uint8_t *)src, strlen(src));
    unsetenv("GPMC_FUZZ_INPUT_S");
    return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

/* The explorations of one input share a time budget (issue 27: twelve of
   up to 2 s each, with their witnesses and timed runs, passed libFuzzer's
   30 s per input on a loaded machine): with a budget of 40 ms the input
   is checked under fewer models, in far less time than with the default
   budget, under which every model is checked. */
static void test_input_budget(void **state)
{
    (void)state;
    static const char src[] =
        "test Heavy \"ten unordered stores; three recovery threads each read"
        " every word\"\n"
        "pm x[10] = 0\n"
        "kernel k grid 1 block 1 {\n"
        "  st x[0], 1; st x[1], 1; st x[2], 1; st x[3], 1; st x[4], 1\n"
        "  st x[5], 1; st x[6], 1; st x[7], 1; st x[8], 1; st x[9], 1\n"
        "}\n"
        "recover {\n"
        "  kernel r grid 1 block 3 {\n"
        "    ld r1, x[0]; ld r2, x[1]; ld r3, x[2]; ld r4, x[3]; ld r5, x[4]\n"
        "    ld r6, x[5]; ld r7, x[6]; ld r8, x[7]; ld r9, x[8]; ld r10, x[9]\n"
        "  }\n"
        "}\n"
        "check recovered forall (x[0] != 7)\n";
    double full = check_cpu(src, NULL), small = check_cpu(src, "0.04");
    if (!(small < full / 2))
        fail_msg("fuzz_check took %.3f s of CPU with a 40 ms budget, %.3f s"
                 " with the default", small, full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_regressions),
        cmocka_unit_test(test_input_budget),
        cmocka_unit_test(test_ptx_seeds),
        cmocka_unit_test(test_ptx_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
