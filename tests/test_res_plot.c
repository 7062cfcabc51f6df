/* results: the state-space-growth plot of `report html` (res_plot.c):
   which CSV it draws, and what it draws. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "results/results_int.h"
#include "tests/test_res_fixture.h"

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++)
        n++;
    return n;
}

static void test_draws_series(void **state)
{
    (void)state;
    BaseStr out = {0};
    /* columns in any order, others ignored; a row with a bad number or no
       states is skipped */
    assert_int_equal(res_growth_svg("seconds,states,series,size\n"
                                    "0.1,100,a<b,1\n"
                                    "0.2,10000,a<b,2\n"
                                    "0.3,x,a<b,3\n"
                                    "0.1,50,c,1\n"
                                    "0.1,0,c,2\n"
                                    "0.9,1000000,c,3\n", &out), 0);
    assert_false(out.failed);
    assert_int_equal(count(out.s, "<polyline"), 2);
    assert_int_equal(count(out.s, "<circle"), 4);
    assert_non_null(strstr(out.s, ">a&lt;b</text>"));
    /* y from 1e1 to 1e6, each power labelled */
    assert_non_null(strstr(out.s, ">1e1</text>"));
    assert_non_null(strstr(out.s, ">1e6</text>"));
    assert_null(strstr(out.s, ">1e7</text>"));
    /* the first series' points: x from 1 to 3, y log-scaled */
    assert_non_null(strstr(out.s, "points=\"70.0,"));
    base_str_free(&out);
}

static void test_refuses(void **state)
{
    (void)state;
    BaseStr out = {0};
    assert_int_equal(res_growth_svg("", &out), -1);
    assert_int_equal(res_growth_svg("series,size\nx,1\n", &out), -1);
    assert_int_equal(res_growth_svg("series,size,states\nx,1,0\n", &out), -1);
    assert_int_equal(out.len, 0);
    base_str_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draws_series),
        cmocka_unit_test(test_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
