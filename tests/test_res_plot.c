/* results: the plots of `report html` (res_plot.c): which CSV the
   state-space-growth plot draws, and what it draws; the cost charts' scale
   and axis; and how a config is told apart from the most common one
   (res_config.c). */
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

/* One scale per chart: from 0 to the least 1, 2 or 5 times a power of ten
   that is at least the largest bar; the axis labelled 0, half, whole. */
static void test_chart_scale(void **state)
{
    (void)state;
    BaseStr out = {0};
    ResBar bars[] = {{"strict", 30}, {"e<p", 120}, {"hw", -1}};
    res_chart_bars(&out, "cycles", "core cycles", "cycles", bars, 3);
    assert_false(out.failed);
    assert_int_equal(count(out.s, "<rect class=\"cycles\""), 2);
    /* 200 is the scale: 220 pixels for 200 */
    assert_non_null(strstr(out.s, "width=\"33.0\""));
    assert_non_null(strstr(out.s, "width=\"132.0\""));
    assert_non_null(strstr(out.s, ">e&lt;p</text>"));
    assert_non_null(strstr(out.s, ">unknown</text>"));
    assert_non_null(strstr(out.s, "class=\"tick\" x=\"64\" y=\"83\""
                                  " text-anchor=\"middle\">0</text>"));
    assert_non_null(strstr(out.s, "middle\">100</text>"));
    assert_non_null(strstr(out.s, "middle\">200</text>"));
    assert_non_null(strstr(out.s, "class=\"axis\" x=\"174\" y=\"96\""
                                  " text-anchor=\"middle\">core cycles"
                                  "</text>"));
    base_str_free(&out);
    /* large values in full, not 2e+06; a scale of 5 has its half 2.5 */
    ResBar big[] = {{"a", 1500000}};
    res_chart_bars(&out, "t", "x", "writes", big, 1);
    assert_non_null(strstr(out.s, "middle\">2000000</text>"));
    assert_non_null(strstr(out.s, "middle\">1000000</text>"));
    base_str_free(&out);
    ResBar small[] = {{"a", 3}};
    res_chart_bars(&out, "t", "x", "writes", small, 1);
    assert_non_null(strstr(out.s, "middle\">2.5</text>"));
    assert_non_null(strstr(out.s, "middle\">5</text>"));
    base_str_free(&out);
    /* an empty chart, or one of zeros, still has a scale */
    ResBar zero[] = {{"a", 0}};
    res_chart_bars(&out, "t", "x", "writes", zero, 1);
    assert_non_null(strstr(out.s, "width=\"0.0\""));
    assert_non_null(strstr(out.s, "middle\">1</text>"));
    base_str_free(&out);
}

static void diff(const char *ref, const char *config, const char *want)
{
    BaseStr out = {0};
    res_config_diff(ref, config, &out);
    assert_false(out.failed);
    assert_string_equal(out.len ? out.s : "", want);
    base_str_free(&out);
}

static void test_config_diff(void **state)
{
    (void)state;
    diff("a=1;b=2;c=3", "a=1;b=2;c=3", "");
    diff("a=1;b=2;c=3", "a=1;b=5;d=4", "b=5;-c;d=4");
    /* a key that is a prefix of another is another key */
    diff("a=1;ab=2", "ab=2;b=1", "-a;b=1");
    diff("a=1", "a=1;ab=2", "ab=2");
    diff("", "x=1;y=2", "x=1;y=2");
    diff("x=1;y=2", "", "-x;-y");
    char id[9];
    res_config_id("a=1", id);
    assert_int_equal(strlen(id), 8);
    /* sha256("a=1") */
    assert_string_equal(id, "c22fea5d");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draws_series),
        cmocka_unit_test(test_refuses),
        cmocka_unit_test(test_chart_scale),
        cmocka_unit_test(test_config_diff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
