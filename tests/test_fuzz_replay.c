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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_regressions),
        cmocka_unit_test(test_ptx_seeds),
        cmocka_unit_test(test_ptx_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
