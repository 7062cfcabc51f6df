/* Tests of harness/h_diff.c: unified diffs as diff -u writes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "harness/harness.h"

static void expect_diff(const char *a, const char *b, const char *want)
{
    BaseStr out = {0};
    assert_int_equal(h_diff(&out, "a", "b", a, strlen(a), b, strlen(b)), 0);
    assert_string_equal(out.s ? out.s : "", want);
    base_str_free(&out);
}

static void test_equal(void **state)
{
    (void)state;
    expect_diff("x\ny\n", "x\ny\n", "");
    expect_diff("", "", "");
}

static void test_hunks(void **state)
{
    (void)state;
    /* one insertion: three lines of context each side */
    expect_diff("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nX\n5\n6\n7\n8\n",
                "--- a\n+++ b\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+X\n 5\n 6\n"
                " 7\n");
    /* a replacement: the old line first */
    expect_diff("a\nb\nc\n", "a\nB\nc\n",
                "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    /* changes at most six kept lines apart share a hunk; more do not */
    expect_diff("1\n2\n3\n4\n5\n6\n7\n8\n", "X\n2\n3\n4\n5\n6\n7\nY\n",
                "--- a\n+++ b\n@@ -1,8 +1,8 @@\n-1\n+X\n 2\n 3\n 4\n 5\n"
                " 6\n 7\n-8\n+Y\n");
    expect_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "X\n2\n3\n4\n5\n6\n7\n8\nY\n",
                "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n"
                "@@ -6,4 +6,4 @@\n 6\n 7\n 8\n-9\n+Y\n");
    /* an empty side, and a last line without a newline */
    expect_diff("", "a\n", "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n");
    expect_diff("a\nb", "a\nc",
                "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n"
                "\\ No newline at end of file\n+c\n"
                "\\ No newline at end of file\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal),
        cmocka_unit_test(test_hunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
