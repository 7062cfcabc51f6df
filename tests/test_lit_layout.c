/* Tests of lit_layout: byte offsets, word numbers, cache lines, space
   sizes, pins and their overlaps, typed elements (DESIGN sections 2 and 7,
   Layout). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "litmus/litmus.h"
#include "tests/test_lit_common.h"

/* Location i is name, at byte offset 8 * at8 (the word address of DESIGN
   section 2's u64 layout), starting on line `line`. */
static void at(const LitProgram *p, int i, const char *name, int64_t at8,
               int line)
{
    assert_string_equal(p->locs[i].name, name);
    assert_int_equal(p->locs[i].byte, 8 * at8);
    assert_int_equal(p->locs[i].line, line);
}

/* The DESIGN section 2 example: 16 words a line; `a` is pinned to line 3,
   so every unpinned pm declaration starts on a fresh line from line 4. */
static void test_design_example(void **state)
{
    (void)state;
    BaseDiag d;
    base_diag_init(&d);
    LitProgram *p = NULL;
    int rc = lit_parse_file("tests/data/lit/design_example.litmus", NULL, &p,
                            &d);
    if (rc)
        fprintf(stderr, "%s", d.text);
    assert_int_equal(rc, 0);
    base_diag_free(&d);
    assert_string_equal(p->name, "SB+pbar+sync");
    assert_int_equal(p->line_bytes, 128);
    assert_int_equal(p->nlocs, 7);
    at(p, 0, "x", 64, 4);
    at(p, 1, "y", 80, 5);
    at(p, 2, "out", 96, 6);
    at(p, 3, "log", 112, 7);
    at(p, 4, "in", 0, 0);
    at(p, 5, "tile", 0, 0);
    at(p, 6, "a", 48, 3);
    assert_int_equal(p->locs[6].pin, 3);
    assert_int_equal(p->locs[0].pin, -1);
    assert_int_equal(p->pm_lines, 8);
    assert_int_equal(p->dram_lines, 1);
    assert_int_equal(p->shared_words, 4);
    assert_int_equal(p->locs[3].init[3], 4);
    assert_int_equal(p->locs[4].init[1], 7);
    assert_int_equal(p->nkernels, 2);
    assert_int_equal(p->nrecover, 2);
    assert_int_equal(p->recover_seq[0], 1);
    assert_int_equal(p->recover_seq[1], 0);
    assert_int_equal(p->kernels[1].bodies[0].ninstr, 6);
    assert_int_equal(p->kernels[1].bodies[0].code[1].target, 6);
    assert_int_equal(p->nchecks, 3);
    assert_string_equal(p->checks[2].text,
                        "forall (out == {0, 0} || out == {5, 6})");
    assert_roundtrip(p);
    lit_program_free(p);
}

/* The second worked example of specs/litmus.md: 8 words a line. */
static void test_spec_example(void **state)
{
    (void)state;
    BaseDiag d;
    base_diag_init(&d);
    LitProgram *p = NULL;
    assert_int_equal(lit_parse_file("tests/data/lit/layout_pins.litmus", NULL,
                                    &p, &d), 0);
    base_diag_free(&d);
    assert_int_equal(p->line_bytes, 64);
    at(p, 0, "log", 16, 2);
    at(p, 1, "head", 28, 3);
    at(p, 2, "tail", 40, 5);
    at(p, 3, "data", 48, 6);
    at(p, 4, "flag", 56, 7);
    at(p, 5, "scratch", 8, 1);
    at(p, 6, "tmp", 24, 3);
    at(p, 7, "buf", 0, 0);
    at(p, 8, "cnt", 3, 0);
    assert_int_equal(p->pm_lines, 8);
    assert_int_equal(p->dram_lines, 4);
    assert_int_equal(p->shared_words, 4);
    lit_program_free(p);
    assert_error("test t\nconfig line_bytes = 64\npm log[12] line 2\n"
                 "pm head line 2\npm q line 3",
                 "t.litmus:5:6: error: pinned 'q' (line 3) overlaps 'log' "
                 "(lines 2..3)");
}

static void test_unpinned(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm a\npm b[16]\npm c[17]\npm d\n"
                             "dram e[3]\ndram f\n");
    at(p, 0, "a", 0, 0);
    at(p, 1, "b", 16, 1);
    at(p, 2, "c", 32, 2);               /* two lines: 2 and 3 */
    at(p, 3, "d", 64, 4);
    at(p, 4, "e", 0, 0);
    at(p, 5, "f", 16, 1);
    assert_int_equal(p->pm_lines, 5);
    assert_int_equal(p->dram_lines, 2);
    assert_int_equal(p->pm_words, 1 + 16 + 17 + 1);
    assert_int_equal(p->dram_words, 4);
    assert_int_equal(p->shared_words, 0);
    lit_program_free(p);
    p = parse_ok("test t\n");
    assert_int_equal(p->pm_words, 0);
    assert_int_equal(p->dram_words, 0);
    assert_int_equal(p->line_bytes, 128);
    lit_program_free(p);
}

static void test_pinned_packing(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm u\npm a = 0 line 2\n"
                             "pm b[3] line 2\npm c line 5\npm v\n"
                             "pm w[14] line 2\n");
    at(p, 0, "u", 96, 6);               /* after line 5, the last pinned */
    at(p, 1, "a", 32, 2);
    at(p, 2, "b", 33, 2);
    at(p, 3, "c", 80, 5);
    at(p, 4, "v", 112, 7);
    at(p, 5, "w", 36, 2);               /* packs on line 2, spills to 3 */
    assert_int_equal(p->pm_lines, 8);
    lit_program_free(p);
    /* only pinned declarations: the space ends with the last pinned line */
    p = parse_ok("test t\npm a line 5\ndram d line 0");
    at(p, 0, "a", 80, 5);
    at(p, 1, "d", 0, 0);
    assert_int_equal(p->pm_lines, 6);
    assert_int_equal(p->dram_lines, 1);
    lit_program_free(p);
}

/* Many pinned declarations (the layout sorts them rather than comparing
   every pair): packing per line, and the first earlier declaration an
   overlapping one meets is the one named. */
static void test_many_pinned(void **state)
{
    (void)state;
    BaseStr s = {0};
    base_str_printf(&s, "test t\n");
    for (int i = 0; i < 20000; i++)
        base_str_printf(&s, "pm a%d line %d\npm b%d line 1\n", i, 2000 + 2 * i,
                       i);
    LitProgram *p = parse_ok(s.s);
    at(p, 2 * 19999, "a19999", 16 * 41998, 41998);
    at(p, 2 * 7 + 1, "b7", 16 + 7, 1);
    at(p, 2 * 19999 + 1, "b19999", 16 + 19999, 1250);
    lit_program_free(p);
    base_str_printf(&s, "pm z[40] line 2007\npm y[2] line 1000\n");
    assert_string_equal(parse_fail(s.s),
                        "t.litmus:40002:10: error: pinned 'z' (lines "
                        "2007..2009) overlaps 'a4' (line 2008)\n"
                        "t.litmus:40003:9: error: pinned 'y' (line 1000) "
                        "overlaps 'b15984' (line 1000)\n");
    base_str_free(&s);
}

static void test_overlap(void **state)
{
    (void)state;
    assert_error("test t\npm big[20] line 1\npm q line 2",
                 "t.litmus:3:6: error: pinned 'q' (line 2) overlaps 'big' "
                 "(lines 1..2)");
    assert_error("test t\npm q line 2\npm big[20] line 1",
                 "t.litmus:3:12: error: pinned 'big' (lines 1..2) overlaps "
                 "'q' (line 2)");
    assert_error("test t\npm a[10] line 0\npm b[10] line 0\npm c line 1",
                 "t.litmus:4:6: error: pinned 'c' (line 1) overlaps 'b' "
                 "(lines 0..1)");
    assert_error("test t\ndram a[40] line 0\ndram b line 2",
                 "t.litmus:3:8: error: pinned 'b' (line 2) overlaps 'a' "
                 "(lines 0..2)");
    /* pm and dram are separate spaces; adjacent lines do not overlap */
    LitProgram *p = parse_ok("test t\npm a[16] line 0\ndram b line 0\n"
                             "pm c line 1");
    at(p, 2, "c", 16, 1);
    lit_program_free(p);
}

static void test_line_bytes(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm a\npm b[9]\npm c\n"
                             "config line_bytes = 64\nshared s[3]\n"
                             "shared t[9]\nshared u\n");
    assert_int_equal(p->line_bytes, 64);
    at(p, 0, "a", 0, 0);
    at(p, 1, "b", 8, 1);
    at(p, 2, "c", 24, 3);
    at(p, 3, "s", 0, 0);
    at(p, 4, "t", 3, 0);
    at(p, 5, "u", 12, 1);
    assert_int_equal(p->pm_lines, 4);
    assert_int_equal(p->shared_words, 13);
    lit_program_free(p);

    LitConfigSet cs[] = {{"line_bytes", "8"}};
    LitOptions opt = {0, NULL, 1, cs};
    p = parse_opt("test t\nconfig line_bytes = 4096\npm a[3]\npm b line 7",
                  &opt);
    assert_int_equal(p->line_bytes, 8);
    at(p, 0, "a", 8, 8);
    at(p, 1, "b", 7, 7);
    assert_int_equal(p->pm_lines, 11);
    assert_int_equal(p->locs[1].addr, 0);   /* words in byte order */
    assert_int_equal(p->locs[0].addr, 1);
    lit_program_free(p);
}

static void test_space_limit(void **state)
{
    (void)state;
    assert_error("test t\npm a line 16777216",
                 "t.litmus:2:6: error: 'a' does not fit: the pm space holds "
                 "at most 2147483648 bytes");
    LitProgram *p = parse_ok("test t\npm a line 16777215");
    at(p, 0, "a", 268435440, 16777215);
    assert_int_equal(p->locs[0].addr, 0);
    lit_program_free(p);
    assert_error("test t\ndram a[16777216] line 16777200\ndram b",
                 "t.litmus:2:18: error: 'a' does not fit: the dram space "
                 "holds at most 2147483648 bytes");
}

/* Typed elements (DESIGN section 7): an element of uN takes N/8 bytes,
   aligned; a line holds line_bytes of them; words are the elements in byte
   order; initial values keep the low N bits. */
static void test_typed(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\nconfig line_bytes = 16\n"
                             "pm u32 a[5] = -1\npm u8 b[3] line 0\n"
                             "pm u16 c = 70000 line 0\npm d\n"
                             "shared u8 s[3]\nshared u32 t\n");
    assert_int_equal(p->locs[0].elem, 4);
    assert_int_equal(p->locs[0].byte, 16);  /* fresh line after line 0 */
    assert_int_equal(p->locs[0].line, 1);
    assert_int_equal(p->locs[0].init[4], 4294967295);
    assert_int_equal(p->locs[1].byte, 0);
    assert_int_equal(p->locs[2].byte, 4);   /* aligned to 2 after b */
    assert_int_equal(p->locs[2].init[0], 70000 - 65536);
    assert_int_equal(p->locs[3].byte, 48);  /* a takes lines 1 and 2 */
    assert_int_equal(p->locs[3].line, 3);
    /* words: b[0..2] c a[0..4] d */
    assert_int_equal(p->locs[1].addr, 0);
    assert_int_equal(p->locs[2].addr, 3);
    assert_int_equal(p->locs[0].addr, 4);
    assert_int_equal(p->locs[3].addr, 9);
    assert_int_equal(p->pm_words, 10);
    assert_int_equal(p->pm_lines, 4);
    static const int32_t lines[10] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 3};
    for (int w = 0; w < 10; w++)
        assert_int_equal(lit_line(p, LIT_PM, w), lines[w]);
    assert_int_equal(p->locs[5].byte, 4);   /* shared: s[3], then t at 4 */
    assert_int_equal(p->shared_bytes, 8);
    assert_roundtrip(p);
    lit_program_free(p);
    /* a type word followed by no name is the name */
    p = parse_ok("test t\npm u32 = 3\npm u8\n");
    assert_string_equal(p->locs[0].name, "u32");
    assert_int_equal(p->locs[0].elem, 8);
    assert_string_equal(p->locs[1].name, "u8");
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_design_example),
        cmocka_unit_test(test_spec_example),
        cmocka_unit_test(test_unpinned),
        cmocka_unit_test(test_pinned_packing),
        cmocka_unit_test(test_many_pinned),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_line_bytes),
        cmocka_unit_test(test_space_limit),
        cmocka_unit_test(test_typed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
