/* Tests of litmus/lit_edit.c: the source edits `fix` and `tune` propose,
   each checked on the exact text it gives and on what the text parses to. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "litmus/litmus.h"

static const char *const src =
    "test E\n"
    "pm x = 0\n"
    "pm y = 0\n"
    "kernel k grid 1 block 2 {\n"
    "  st x, 1   // the data\n"
    "L: st y, 1\n"
    "  bne %tid, 0, L\n"
    "}\n"
    "kernel j grid 1 block 1 { st x, 2; pbar }\n";

static LitProgram *parse(const char *text)
{
    LitProgram *p = NULL;
    BaseDiag d;
    base_diag_init(&d);
    if (lit_parse_string("e.litmus", text, NULL, &p, &d))
        fail_msg("does not parse: %s\n%s", d.text ? d.text : "", text);
    base_diag_free(&d);
    return p;
}

/* The text with one edit applied; the edit's text freed. */
static char *applied(LitEdit *e, const char *text)
{
    size_t n = 0;
    char *out = lit_edit_apply(text, strlen(text), e, 1, &n);
    assert_non_null(out);
    assert_int_equal(strlen(out), n);
    lit_edit_free(e);
    return out;
}

static const LitInstr *instr(const LitProgram *p, int k, int i)
{
    return &p->kernels[k].bodies[0].code[i];
}

static void expect_ops(const LitProgram *p, int k, const int *ops, int n)
{
    const LitBody *b = &p->kernels[k].bodies[0];
    assert_int_equal(b->ninstr, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(b->code[i].op, ops[i]);
}

static void test_insert(void **state)
{
    (void)state;
    LitProgram *p = parse(src);
    const char *one[] = {"pbar.wg"}, *two[] = {"clwb x", "sfence"};
    LitEdit e;
    /* before `st y` (after its label): on L's line, inline */
    assert_int_equal(lit_edit_insert(src, strlen(src), instr(p, 0, 1)->pos,
                                     LIT_EDIT_BEFORE, one, 1, &e), 0);
    char *t = applied(&e, src);
    assert_non_null(strstr(t, "L: pbar.wg; st y, 1\n"));
    LitProgram *q = parse(t);
    /* the branch to L now runs the barrier */
    expect_ops(q, 0, (int[]){LIT_ST, LIT_PBAR_WG, LIT_ST, LIT_BNE}, 4);
    assert_int_equal(q->kernels[0].bodies[0].code[3].target, 1);
    lit_program_free(q);
    base_free(t);
    /* after `st x` (before the label): a line of its own, indented */
    assert_int_equal(lit_edit_insert(src, strlen(src), instr(p, 0, 0)->pos,
                                     LIT_EDIT_AFTER, two, 2, &e), 0);
    t = applied(&e, src);
    assert_non_null(strstr(t, "  st x, 1   // the data\n  clwb x\n"
                              "  sfence\nL: st y, 1\n"));
    q = parse(t);
    expect_ops(q, 0, (int[]){LIT_ST, LIT_CLWB, LIT_SFENCE, LIT_ST, LIT_BNE},
               5);
    assert_int_equal(q->kernels[0].bodies[0].code[4].target, 3);
    lit_program_free(q);
    base_free(t);
    /* before the first statement of its line: a new line before it */
    assert_int_equal(lit_edit_insert(src, strlen(src), instr(p, 0, 0)->pos,
                                     LIT_EDIT_BEFORE, one, 1, &e), 0);
    t = applied(&e, src);
    assert_non_null(strstr(t, "{\n  pbar.wg\n  st x, 1"));
    base_free(t);
    /* inline bodies: `OP; ` before, `; OP` after */
    assert_int_equal(lit_edit_insert(src, strlen(src), instr(p, 1, 1)->pos,
                                     LIT_EDIT_BEFORE, one, 1, &e), 0);
    t = applied(&e, src);
    assert_non_null(strstr(t, "{ st x, 2; pbar.wg; pbar }"));
    base_free(t);
    assert_int_equal(lit_edit_insert(src, strlen(src), instr(p, 1, 1)->pos,
                                     LIT_EDIT_AFTER, one, 1, &e), 0);
    t = applied(&e, src);
    assert_non_null(strstr(t, "{ st x, 2; pbar; pbar.wg }"));
    q = parse(t);
    expect_ops(q, 1, (int[]){LIT_ST, LIT_PBAR_WI, LIT_PBAR_WG}, 3);
    lit_program_free(q);
    base_free(t);
    /* a position outside the text */
    assert_int_equal(lit_edit_insert(src, strlen(src), (LitPos){99, 1},
                                     LIT_EDIT_BEFORE, one, 1, &e), -1);
    lit_program_free(p);
}

static void test_opcode_delete_text(void **state)
{
    (void)state;
    LitProgram *p = parse(src);
    LitEdit e;
    char buf[64];
    assert_int_equal(lit_edit_opcode(src, strlen(src), instr(p, 0, 0)->pos,
                                     "st.wt", &e), 0);
    char *t = applied(&e, src);
    assert_non_null(strstr(t, "  st.wt x, 1   // the data\n"));
    base_free(t);
    assert_int_equal(lit_edit_opcode(src, strlen(src), instr(p, 1, 1)->pos,
                                     "pbar.kr", &e), 0);
    t = applied(&e, src);
    assert_non_null(strstr(t, "{ st x, 2; pbar.kr }"));
    base_free(t);
    /* a line of its own goes with its comment */
    assert_int_equal(lit_edit_delete(src, strlen(src), instr(p, 0, 0)->pos,
                                     &e), 0);
    t = applied(&e, src);
    assert_non_null(strstr(t, "block 2 {\nL: st y, 1\n"));
    base_free(t);
    /* a labelled instruction: the label stays */
    assert_int_equal(lit_edit_delete(src, strlen(src), instr(p, 0, 1)->pos,
                                     &e), 0);
    t = applied(&e, src);
    assert_non_null(strstr(t, "\nL: \n  bne"));
    LitProgram *q = parse(t);
    expect_ops(q, 0, (int[]){LIT_ST, LIT_BNE}, 2);
    lit_program_free(q);
    base_free(t);
    /* inline: `op; ` before another, `; op` last */
    assert_int_equal(lit_edit_delete(src, strlen(src), instr(p, 1, 0)->pos,
                                     &e), 0);
    t = applied(&e, src);
    assert_non_null(strstr(t, "{ pbar }"));
    base_free(t);
    assert_int_equal(lit_edit_delete(src, strlen(src), instr(p, 1, 1)->pos,
                                     &e), 0);
    t = applied(&e, src);
    assert_non_null(strstr(t, "{ st x, 2 }"));
    base_free(t);
    assert_int_equal(lit_edit_text(src, strlen(src), instr(p, 0, 2)->pos, buf,
                                   sizeof buf), 0);
    assert_string_equal(buf, "bne %tid, 0, L");
    assert_int_equal(lit_edit_text(src, strlen(src), instr(p, 0, 0)->pos, buf,
                                   sizeof buf), 0);
    assert_string_equal(buf, "st x, 1");
    lit_program_free(p);
}

static void test_apply_order(void **state)
{
    (void)state;
    const char *t = "abcdef";
    LitEdit e[3] = {{4, 1, "E"}, {1, 0, "1"}, {1, 0, "2"}};
    size_t n;
    char *out = lit_edit_apply(t, strlen(t), e, 3, &n);
    assert_string_equal(out, "a12bcdEf");
    base_free(out);
    LitEdit bad[2] = {{1, 3, "x"}, {2, 0, "y"}};
    assert_null(lit_edit_apply(t, strlen(t), bad, 2, &n));
}

static void test_cuda(void **state)
{
    (void)state;
    const char *cu =
        "__global__ void k(unsigned *d, unsigned *f)\n"   /* 1 */
        "{\n"                                             /* 2 */
        "    d[threadIdx.x] = 1;\n"                       /* 3 */
        "    if (threadIdx.x == 0)\n"                     /* 4 */
        "        *f = 1;   // publish\n"                  /* 5 */
        "    gpmc_pbar_kr();\n"                           /* 6 */
        "    gpmc_sfence(); d[0] = 2;\n"                  /* 7 */
        "}\n";
    size_t n = strlen(cu);
    LitEdit e;
    assert_int_equal(lit_edit_cuda_insert(cu, n, 4, LIT_EDIT_BEFORE,
                                          "gpmc_pbar_wg();", &e), 0);
    char *t = applied(&e, cu);
    assert_non_null(strstr(t, "= 1;\n    gpmc_pbar_wg();\n    if ("));
    base_free(t);
    /* inside an if without braces: no statement boundary */
    assert_int_equal(lit_edit_cuda_insert(cu, n, 5, LIT_EDIT_BEFORE,
                                          "gpmc_pbar_wg();", &e), -1);
    assert_int_equal(lit_edit_cuda_insert(cu, n, 4, LIT_EDIT_AFTER,
                                          "gpmc_pbar_wg();", &e), -1);
    assert_int_equal(lit_edit_cuda_insert(cu, n, 5, LIT_EDIT_AFTER,
                                          "gpmc_psync();", &e), 0);
    t = applied(&e, cu);
    assert_non_null(strstr(t, "publish\n        gpmc_psync();\n"
                              "    gpmc_pbar"));
    base_free(t);
    assert_int_equal(lit_edit_cuda_call(cu, n, 6, "gpmc_pbar_kr",
                                        "gpmc_pbar_wg", &e), 0);
    t = applied(&e, cu);
    assert_non_null(strstr(t, "\n    gpmc_pbar_wg();\n"));
    base_free(t);
    /* removed: its line, or the call and its `;` */
    assert_int_equal(lit_edit_cuda_call(cu, n, 6, "gpmc_pbar_kr", NULL, &e),
                     0);
    t = applied(&e, cu);
    assert_non_null(strstr(t, "publish\n    gpmc_sfence(); d[0]"));
    base_free(t);
    assert_int_equal(lit_edit_cuda_call(cu, n, 7, "gpmc_sfence", NULL, &e),
                     0);
    t = applied(&e, cu);
    assert_non_null(strstr(t, "\n    d[0] = 2;\n}"));
    base_free(t);
    assert_int_equal(lit_edit_cuda_call(cu, n, 7, "__threadfence", NULL, &e),
                     -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert),
        cmocka_unit_test(test_opcode_delete_text),
        cmocka_unit_test(test_apply_order),
        cmocka_unit_test(test_cuda),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
