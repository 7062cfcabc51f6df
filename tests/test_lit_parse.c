/* Tests of lit_parse, lit_instr and lit_cond: every grammar rule, read
   right and wrong, with the IR it gives and the exact syntax errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "litmus/litmus.h"
#include "tests/test_lit_common.h"

/* ---- test, param, config ----------------------------------------------- */

static void test_test_statement(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("// leading comment\n\n"
                             "test SB+pbar+sync \"doc with \\\"q\\\" and \\\\\"");
    assert_string_equal(p->name, "SB+pbar+sync");
    assert_string_equal(p->doc, "doc with \"q\" and \\");
    assert_string_equal(p->path, "t.litmus");
    lit_program_free(p);
    p = parse_ok("test a/b.c[1]");
    assert_string_equal(p->name, "a/b.c[1]");
    assert_null(p->doc);
    lit_program_free(p);

    assert_error("test\n", "t.litmus:1:5: error: expected a test name, found "
                           "end of line");
    assert_error("test x y", "t.litmus:1:8: error: expected end of statement, "
                             "found 'y'");
    assert_error("test x\ntest y",
                 "t.litmus:2:1: error: duplicate 'test' statement");
    assert_error("pm x\ntest y",
                 "t.litmus:1:1: error: a test must start with 'test NAME'");
    assert_error("", "t.litmus:1:1: error: a test must start with 'test NAME'");
    assert_error("// nothing\n",
                 "t.litmus:1:1: error: a test must start with 'test NAME'");
    /* found by fuzzing: a lexical error where the name should be was not
       reported, and the file parsed with no name; a control byte ended up
       in the name or the description, which printing cannot keep */
    assert_error("test /* x", "t.litmus:1:6: error: unterminated comment");
    BaseDiag d;
    LitProgram *q = NULL;
    base_diag_init(&d);
    assert_int_equal(lit_parse_bytes("t.litmus", "test\0=W+wtt", 11, NULL, &q,
                                     &d), 1);
    assert_null(q);
    assert_string_equal(d.text, "t.litmus:1:5: error: invalid character "
                                "'\\x00'\n");
    base_diag_free(&d);
    assert_error("test ab\001c",
                 "t.litmus:1:8: error: invalid character '\\x01'");
    assert_error("test a \"x\001y\"",
                 "t.litmus:1:10: error: invalid character in string '\\x01'");
    p = parse_ok("test a \"tab\there\"");
    assert_string_equal(p->doc, "tab\there");
    lit_program_free(p);
}

static void test_param_statement(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\nparam N = 2\nparam M = N + 1; param "
                             "Z = -1");
    assert_int_equal(p->nparams, 3);
    assert_string_equal(p->params[0].name, "N");
    assert_int_equal(p->params[1].value, 3);
    assert_int_equal(p->params[2].value, -1);
    assert_int_equal(p->params[0].overridden, 0);
    assert_int_equal(p->params[1].pos.line, 3);
    assert_int_equal(p->params[1].pos.col, 7);
    lit_program_free(p);
    assert_error("test t\nparam = 1", "t.litmus:2:7: error: expected a param "
                                      "name, found '='");
    assert_error("test t\nparam N 1",
                 "t.litmus:2:9: error: expected '=', found '1'");
    assert_error("test t\nparam N =",
                 "t.litmus:2:10: error: expected a constant expression, "
                 "found end of file");
    assert_error("test t\nparam r3 = 1",
                 "t.litmus:2:7: error: 'r3' is a register name");
    assert_error("test t\nparam a.b = 1",
                 "t.litmus:2:7: error: invalid name 'a.b'");
}

static void test_config_statement(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\nconfig wpq = volatile\n"
                             "config core_ghz = 2.25\nconfig sms = 0x10\n"
                             "config line_bytes = 64");
    assert_true(p->config.val[LIT_CFG_WPQ] == 1);
    assert_true(p->config.val[LIT_CFG_CORE_GHZ] == 2.25);
    assert_true(p->config.val[LIT_CFG_SMS] == 16);
    assert_true(p->config.val[LIT_CFG_LINE_BYTES] == 64);
    assert_int_equal(p->config.set,
                     (1u << LIT_CFG_WPQ) | (1u << LIT_CFG_CORE_GHZ) |
                         (1u << LIT_CFG_SMS) | (1u << LIT_CFG_LINE_BYTES));
    assert_true(p->config.val[LIT_CFG_NVM_WRITE_NS] == 480);
    assert_int_equal(p->line_bytes, 64);
    lit_program_free(p);
    assert_error("test t\nconfig = 1",
                 "t.litmus:2:8: error: expected a config key, found '='");
    assert_error("test t\nconfig sms 1",
                 "t.litmus:2:12: error: expected '=', found '1'");
    assert_error("test t\nconfig sms = (1)",
                 "t.litmus:2:14: error: expected a config value, found '('");
    assert_error("test t\nconfig sms = 1 2",
                 "t.litmus:2:16: error: expected end of statement, found '2'");
}

/* ---- declarations ------------------------------------------------------ */

static void test_declarations(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\nparam N = 3\n"
                             "pm x\npm y = 5\npm a[N] = 7\n"
                             "pm b[4] = {1, -2,\n  3,\n  N}\n"
                             "dram d[2]\nshared s[N - 1] = 9\n"
                             "pm one[1] = {4}\npm p = 1 line 2\n"
                             "dram q[2] line 1\n");
    assert_int_equal(p->nlocs, 9);
    const LitLoc *l = p->locs;
    assert_string_equal(l[0].name, "x");
    assert_int_equal(l[0].space, LIT_PM);
    assert_int_equal(l[0].is_array, 0);
    assert_int_equal(l[0].size, 1);
    assert_int_equal(l[0].init[0], 0);
    assert_int_equal(l[0].pin, -1);
    assert_int_equal(l[0].pos.line, 3);
    assert_int_equal(l[0].pos.col, 4);
    assert_int_equal(l[1].init[0], 5);
    assert_int_equal(l[2].is_array, 1);
    assert_int_equal(l[2].size, 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(l[2].init[i], 7);
    assert_int_equal(l[3].size, 4);
    assert_int_equal(l[3].init[0], 1);
    assert_int_equal(l[3].init[1], -2);
    assert_int_equal(l[3].init[2], 3);
    assert_int_equal(l[3].init[3], 3);
    assert_int_equal(l[4].space, LIT_DRAM);
    assert_int_equal(l[4].init[1], 0);
    assert_int_equal(l[5].space, LIT_SHARED);
    assert_int_equal(l[5].size, 2);
    assert_int_equal(l[5].init[1], 9);
    assert_int_equal(l[6].is_array, 1);
    assert_int_equal(l[6].size, 1);
    assert_int_equal(l[6].init[0], 4);
    assert_int_equal(l[7].pin, 2);
    assert_int_equal(l[8].pin, 1);
    lit_program_free(p);

    assert_error("test t\npm", "t.litmus:2:3: error: expected a location "
                               "name, found end of file");
    assert_error("test t\npm 5", "t.litmus:2:4: error: expected a location "
                                 "name, found '5'");
    assert_error("test t\npm a[2",
                 "t.litmus:2:7: error: expected ']', found end of file");
    assert_error("test t\npm a[2] = {1, 2",
                 "t.litmus:2:16: error: expected ',' or '}', found end of "
                 "file");
    assert_error("test t\npm a = ",
                 "t.litmus:2:8: error: expected a constant expression, found "
                 "end of file");
    assert_error("test t\npm a = 1 line",
                 "t.litmus:2:14: error: expected a constant expression, "
                 "found end of file");
    assert_error("test t\npm a = 1 lines 2",
                 "t.litmus:2:10: error: expected end of statement, found "
                 "'lines'");
    assert_error("test t\npm r0", "t.litmus:2:4: error: 'r0' is a register "
                                  "name");
}

/* ---- kernels and bodies ------------------------------------------------ */

static void test_kernel_spmd(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm a[64]\n"
                             "kernel k grid 2 block 3 warp 2 {\n"
                             "  st a[%gtid], 1\n"
                             "}\n"
                             "kernel e grid 1 block 1 { }\n"
                             "kernel one grid 1 block 2 { ld r5, a; st a[1], r5 }\n");
    assert_int_equal(p->nkernels, 3);
    const LitKernel *k = &p->kernels[0];
    assert_string_equal(k->name, "k");
    assert_int_equal(k->grid, 2);
    assert_int_equal(k->block, 3);
    assert_int_equal(k->warp, 2);
    assert_int_equal(k->warp_set, 1);
    assert_int_equal(k->spmd, 1);
    assert_int_equal(k->recovery, 0);
    assert_int_equal(k->nbodies, 1);
    assert_int_equal(k->bodies[0].gtid, -1);
    assert_int_equal(k->bodies[0].ninstr, 1);
    for (int g = 0; g < 6; g++)
        assert_int_equal(k->body_of[g], 0);
    assert_int_equal(regs_mask(k), 0);
    assert_int_equal(k->pos.line, 3);
    assert_int_equal(k->pos.col, 8);
    k = &p->kernels[1];
    assert_int_equal(k->warp, 32);
    assert_int_equal(k->warp_set, 0);
    assert_int_equal(k->spmd, 1);
    assert_int_equal(k->nbodies, 1);
    assert_int_equal(k->bodies[0].ninstr, 0);
    k = &p->kernels[2];
    assert_int_equal(k->bodies[0].ninstr, 2);
    assert_int_equal(regs_mask(k), 1u << 5);
    assert_int_equal(p->nmain, 3);
    assert_int_equal(p->main_seq[0], 0);
    assert_int_equal(p->main_seq[2], 2);
    lit_program_free(p);
}

static void test_kernel_threads(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm x\n"
                             "kernel k grid 2 block 2 {\n"
                             "  thread 3 {\n    st x, 1\n    ld r1, x\n  }\n"
                             "  thread 0 { ld r2, x }\n"
                             "  thread 1 {\n  }\n"
                             "}\n");
    const LitKernel *k = &p->kernels[0];
    assert_int_equal(k->spmd, 0);
    assert_int_equal(k->nbodies, 3);
    assert_int_equal(k->bodies[0].gtid, 3);
    assert_int_equal(k->bodies[0].ninstr, 2);
    assert_int_equal(k->bodies[0].pos.line, 4);
    assert_int_equal(k->bodies[0].pos.col, 3);
    assert_int_equal(k->bodies[1].gtid, 0);
    assert_int_equal(k->bodies[2].gtid, 1);
    assert_int_equal(k->bodies[2].ninstr, 0);
    assert_int_equal(k->body_of[0], 1);
    assert_int_equal(k->body_of[1], 2);
    assert_int_equal(k->body_of[2], -1);
    assert_int_equal(k->body_of[3], 0);
    assert_int_equal(regs_mask(k), (1u << 1) | (1u << 2));
    lit_program_free(p);
}

static void test_kernel_errors(void **state)
{
    (void)state;
    assert_error("test t\nkernel k block 1 { }",
                 "t.litmus:2:10: error: expected 'grid', found 'block'");
    assert_error("test t\nkernel k grid 1 { }",
                 "t.litmus:2:17: error: expected 'block', found '{'");
    assert_error("test t\nkernel k grid 1 block 1\n{ }",
                 "t.litmus:2:24: error: expected '{', found end of line");
    assert_error("test t\nkernel k grid 1 block 1 warp { }",
                 "t.litmus:2:30: error: expected a constant expression, "
                 "found '{'");
    assert_error("test t\nkernel k grid 1 block 1 {\n nop\n",
                 "t.litmus:4:1: error: missing '}' for the '{' at 2:25");
    assert_error("test t\nkernel k grid 1 block 1 { nop } nop",
                 "t.litmus:2:33: error: expected end of statement, found "
                 "'nop'");
    assert_error("test t\nkernel k grid 1 block 1 {\n thread 0 { nop\n}",
                 "t.litmus:4:2: error: missing '}' for the '{' at 2:25");
    assert_error("test t\nkernel k grid 1 block 1 {\n thread 0 {\n"
                 "  thread 0 { nop }\n }\n}",
                 "t.litmus:4:3: error: 'thread' bodies cannot be nested");
    assert_error("test t\nkernel k grid 1 block 1 {\n thread { }\n}",
                 "t.litmus:3:9: error: expected a constant expression, "
                 "found '{'");
    assert_error("test t\nkernel k grid 1 block 1 {\n 5\n}",
                 "t.litmus:3:2: error: expected an instruction, found '5'");
    assert_error("test t\nkernel k grid 1 block 1 {\n L: 5\n}",
                 "t.litmus:3:5: error: expected an instruction, found '5'");
    assert_error("test t\n}", "t.litmus:2:1: error: unmatched '}'");
}

static void test_labels(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\nkernel k grid 1 block 1 {\n"
                             "top:\n"
                             "  mov r0, 0\n"
                             "loop: add r0, r0, 1\n"
                             "  blt r0, 3, loop\n"
                             "  beq r0, 3, end\n"
                             "  bra top\n"
                             "end:\n"
                             "after:\n"
                             "}\n");
    const LitBody *b = &p->kernels[0].bodies[0];
    assert_int_equal(b->ninstr, 5);
    assert_int_equal(b->nlabels, 4);
    assert_string_equal(b->labels[0].name, "top");
    assert_int_equal(b->labels[0].index, 0);
    assert_string_equal(b->labels[1].name, "loop");
    assert_int_equal(b->labels[1].index, 1);
    assert_string_equal(b->labels[2].name, "end");
    assert_int_equal(b->labels[2].index, 5);
    assert_int_equal(b->labels[3].index, 5);
    assert_int_equal(b->code[2].op, LIT_BLT);
    assert_int_equal(b->code[2].target, 1);
    assert_int_equal(b->code[3].target, 5);
    assert_int_equal(b->code[4].op, LIT_BRA);
    assert_int_equal(b->code[4].target, 0);
    lit_program_free(p);
    assert_error("test t\nkernel k grid 1 block 1 {\n bra 5\n}",
                 "t.litmus:3:6: error: expected a label, found '5'");
    assert_error("test t\nkernel k grid 1 block 1 {\n a.b: nop\n}",
                 "t.litmus:3:2: error: invalid label name 'a.b'");
}

/* ---- instructions ------------------------------------------------------ */

static const LitInstr *code_of(const LitProgram *p)
{
    return p->kernels[0].bodies[0].code;
}

static void test_all_instructions(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "ld r1, x", "st x, 2", "st.wt a[1], r1", "atom.add r2, x, 1",
        "atom.exch r3, a[r1], %tid", "atom.cas r4, x, 0, 5", "mov r5, -7",
        "add r6, r5, 1", "sub r6, r5, 1", "mul r6, r5, 1", "div r6, r5, 1",
        "rem r6, r5, 1", "and r6, r5, 1", "or r6, r5, 1", "xor r6, r5, 1",
        "shl r6, r5, 1", "shr r6, r5, 1", "min r6, r5, 1", "max r6, 9, r5",
        "L: bra L", "beq r1, 0, L", "bne r1, 0, L", "blt r1, 0, L",
        "ble r1, 0, L", "bgt r1, 0, L", "bge %laneid, r31, L", "exit",
        "assert r1 <= 4", "clwb x", "clflush a[%warpid + 1]", "l2wb",
        "pcommit", "sfence", "membar.gl", "membar.cta", "membar.sys", "pbar",
        "pbar.wi", "pbar.wg", "pbar.kr", "psync", "bar.sync", "grid.sync",
        "nop",
    };
    static const uint8_t ops[] = {
        LIT_LD, LIT_ST, LIT_ST_WT, LIT_ATOM_ADD, LIT_ATOM_EXCH, LIT_ATOM_CAS,
        LIT_MOV, LIT_ADD, LIT_SUB, LIT_MUL, LIT_DIV, LIT_REM, LIT_AND,
        LIT_OR, LIT_XOR, LIT_SHL, LIT_SHR, LIT_MIN, LIT_MAX, LIT_BRA,
        LIT_BEQ, LIT_BNE, LIT_BLT, LIT_BLE, LIT_BGT, LIT_BGE, LIT_EXIT,
        LIT_ASSERT, LIT_CLWB, LIT_CLFLUSH, LIT_L2WB, LIT_PCOMMIT,
        LIT_SFENCE, LIT_SFENCE, LIT_MEMBAR_CTA, LIT_MEMBAR_SYS,
        LIT_PBAR_WI, LIT_PBAR_WI, LIT_PBAR_WG, LIT_PBAR_KR, LIT_PSYNC,
        LIT_BAR_SYNC, LIT_GRID_SYNC, LIT_NOP,
    };
    int n = (int)(sizeof ops / sizeof ops[0]);
    assert_int_equal(n, (int)(sizeof lines / sizeof lines[0]));
    char src[2048] = "test t\npm x\npm a[4]\nkernel k grid 1 block 1 {\n";
    for (int i = 0; i < n; i++) {
        strcat(src, "  ");
        strcat(src, lines[i]);
        strcat(src, "\n");
    }
    strcat(src, "}\n");
    LitProgram *p = parse_ok(src);
    const LitInstr *c = code_of(p);
    assert_int_equal(p->kernels[0].bodies[0].ninstr, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(c[i].op, ops[i]);
        assert_int_equal(c[i].pos.line, 5 + i);
        assert_int_equal(c[i].pos.col, i == 19 ? 6 : 3);
    }
    /* ld r1, x */
    assert_int_equal(c[0].rd, 1);
    assert_int_equal(c[0].m.loc, 0);
    assert_int_equal(c[0].m.base.kind, LIT_OPD_NONE);
    assert_int_equal(c[0].m.off, 0);
    /* st x, 2 */
    assert_int_equal(c[1].a.kind, LIT_OPD_IMM);
    assert_int_equal(c[1].a.imm, 2);
    /* st.wt a[1], r1 */
    assert_int_equal(c[2].m.loc, 1);
    assert_int_equal(c[2].m.off, 1);
    assert_int_equal(c[2].a.kind, LIT_OPD_REG);
    assert_int_equal(c[2].a.reg, 1);
    /* atom.exch r3, a[r1], %tid */
    assert_int_equal(c[4].rd, 3);
    assert_int_equal(c[4].m.base.kind, LIT_OPD_REG);
    assert_int_equal(c[4].m.base.reg, 1);
    assert_int_equal(c[4].a.kind, LIT_OPD_SREG);
    assert_int_equal(c[4].a.reg, LIT_SR_TID);
    /* atom.cas r4, x, 0, 5 */
    assert_int_equal(c[5].a.imm, 0);
    assert_int_equal(c[5].b.imm, 5);
    assert_int_equal(c[5].b.kind, LIT_OPD_IMM);
    /* mov r5, -7 */
    assert_int_equal(c[6].a.imm, -7);
    assert_int_equal(c[6].b.kind, LIT_OPD_NONE);
    /* max r6, 9, r5 */
    assert_int_equal(c[18].a.imm, 9);
    assert_int_equal(c[18].b.reg, 5);
    /* bge %laneid, r31, L */
    assert_int_equal(c[25].a.kind, LIT_OPD_SREG);
    assert_int_equal(c[25].a.reg, LIT_SR_LANEID);
    assert_int_equal(c[25].b.reg, 31);
    assert_int_equal(c[25].target, 19);
    /* assert r1 <= 4 */
    assert_int_equal(c[27].cmp, LIT_CMP_LE);
    assert_int_equal(c[27].b.imm, 4);
    /* clflush a[%warpid + 1] */
    assert_int_equal(c[29].m.base.kind, LIT_OPD_SREG);
    assert_int_equal(c[29].m.base.reg, LIT_SR_WARPID);
    assert_int_equal(c[29].m.off, 1);
    assert_int_equal(regs_mask(&p->kernels[0]),
                     (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) |
                         (1u << 5) | (1u << 6) | (1u << 31));
    lit_program_free(p);
}

static void test_operands(void **state)
{
    (void)state;
    LitProgram *p = parse_ok(
        "test t\nparam K = 2\npm a[8]\n"
        "kernel k grid 1 block 1 {\n"
        "  st a, 1\n  st a[K + 1], 1\n  st a[r0], 1\n  st a[r0 + K], 1\n"
        "  st a[r0-1], 1\n  st a[ %ctaid - K * 2 ], 1\n"
        "  mov r1, %ntid\n  mov r1, %nctaid\n  mov r1, %gtid\n"
        "  assert r1 != (K + 1) * 2\n"
        "}\n");
    const LitInstr *c = code_of(p);
    assert_int_equal(c[0].m.base.kind, LIT_OPD_NONE);
    assert_int_equal(c[0].m.off, 0);
    assert_int_equal(c[1].m.base.kind, LIT_OPD_NONE);
    assert_int_equal(c[1].m.off, 3);
    assert_int_equal(c[2].m.base.kind, LIT_OPD_REG);
    assert_int_equal(c[2].m.off, 0);
    assert_int_equal(c[3].m.off, 2);
    assert_int_equal(c[4].m.off, -1);
    assert_int_equal(c[5].m.base.kind, LIT_OPD_SREG);
    assert_int_equal(c[5].m.base.reg, LIT_SR_CTAID);
    assert_int_equal(c[5].m.off, -4);
    assert_int_equal(c[6].a.reg, LIT_SR_NTID);
    assert_int_equal(c[7].a.reg, LIT_SR_NCTAID);
    assert_int_equal(c[8].a.reg, LIT_SR_GTID);
    assert_int_equal(c[9].cmp, LIT_CMP_NE);
    assert_int_equal(c[9].b.imm, 6);
    lit_program_free(p);
}

static void test_operand_errors(void **state)
{
    (void)state;
    const char *k = "test t\npm x\nkernel k grid 1 block 1 {\n";
    char src[256];
#define OPERR(body, msg)                                                     \
    do {                                                                     \
        snprintf(src, sizeof src, "%s%s\n}", k, body);                       \
        assert_string_equal(parse_fail(src), msg "\n");                      \
    } while (0)
    OPERR(" st x", "t.litmus:4:6: error: too few operands for 'st' "
                   "(expected 'st M, S')");
    OPERR(" st", "t.litmus:4:4: error: too few operands for 'st' (expected "
                 "'st M, S')");
    OPERR(" st x, 1, 2", "t.litmus:4:9: error: too many operands for 'st' "
                         "(expected 'st M, S')");
    OPERR(" nop 1", "t.litmus:4:6: error: too many operands for 'nop' "
                    "(expected 'nop')");
    OPERR(" atom.cas r0, x, 1", "t.litmus:4:19: error: too few operands for "
                                "'atom.cas' (expected 'atom.cas rD, M, C, "
                                "S')");
    OPERR(" ld 5, x", "t.litmus:4:5: error: expected a register, found '5'");
    OPERR(" ld r0, 5", "t.litmus:4:9: error: expected a memory operand, "
                       "found '5'");
    OPERR(" ld r0, r1", "t.litmus:4:9: error: expected a memory operand, "
                        "found 'r1'");
    OPERR(" ld r0 x", "t.litmus:4:8: error: expected ',', found 'x'");
    OPERR(" st x[r0 * 2], 1", "t.litmus:4:10: error: expected ']', found "
                              "'*'");
    OPERR(" st x[1 + r0], 1", "t.litmus:4:11: error: register 'r0' not "
                              "allowed in a constant expression");
    OPERR(" assert r0, 1", "t.litmus:4:11: error: expected a comparison "
                           "(== != < <= > >=), found ','");
    OPERR(" mov r0, %", "t.litmus:4:11: error: expected a special register "
                        "name after '%', found end of line");
    OPERR(" frob r0", "t.litmus:4:2: error: unknown instruction 'frob'");
    OPERR(" st.wb x, 1", "t.litmus:4:2: error: unknown instruction 'st.wb' "
          "(did you mean st.wt?)");
#undef OPERR
}

/* ---- recover ----------------------------------------------------------- */

static void test_recover(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm x\n"
                             "kernel m0 grid 1 block 1 { st x, 1 }\n"
                             "recover {\n"
                             "  kernel f grid 1 block 2 { ld r0, x }\n"
                             "  run m0\n"
                             "  kernel g grid 1 block 1 {\n    nop\n  }\n"
                             "  run f; run f\n"
                             "}\n"
                             "kernel m1 grid 1 block 1 { nop }\n");
    assert_int_equal(p->nkernels, 4);
    assert_string_equal(p->kernels[0].name, "m0");
    assert_string_equal(p->kernels[1].name, "m1");
    assert_string_equal(p->kernels[2].name, "f");
    assert_string_equal(p->kernels[3].name, "g");
    assert_int_equal(p->kernels[2].recovery, 1);
    assert_int_equal(p->kernels[3].recovery, 1);
    assert_int_equal(p->kernels[1].recovery, 0);
    assert_int_equal(p->nmain, 2);
    assert_int_equal(p->main_seq[1], 1);
    assert_int_equal(p->has_recover, 1);
    assert_int_equal(p->nrecover, 5);
    int want[] = {2, 0, 3, 2, 2};
    for (int i = 0; i < 5; i++)
        assert_int_equal(p->recover_seq[i], want[i]);
    lit_program_free(p);

    p = parse_ok("test t\nrecover { }\n");
    assert_int_equal(p->has_recover, 1);
    assert_int_equal(p->nrecover, 0);
    lit_program_free(p);
    p = parse_ok("test t\n");
    assert_int_equal(p->has_recover, 0);
    lit_program_free(p);

    assert_error("test t\nrecover {\n  st x, 1\n}",
                 "t.litmus:3:3: error: expected 'kernel' or 'run', found "
                 "'st'");
    assert_error("test t\nrecover {\n  run\n}",
                 "t.litmus:3:6: error: expected a kernel name, found end of "
                 "line");
    assert_error("test t\nrecover\n{ }",
                 "t.litmus:2:8: error: expected '{', found end of line");
    assert_error("test t\nrecover { }\nrecover { }",
                 "t.litmus:3:1: error: duplicate 'recover' block (first at "
                 "2:1)");
}

/* ---- checks and conditions --------------------------------------------- */

static void test_checks(void **state)
{
    (void)state;
    LitProgram *p = parse_ok(
        "test t\npm x\npm y\n"
        "kernel k grid 1 block 2 { ld r0, x }\n"
        "recover { }\n"
        "check crash ~exists (y == 1 && x == 0) expect strict=ok hw=no\n"
        "check final forall (\n  1:r0 == 0\n)\n"
        "  expect epoch=no\n"
        "\n"
        "  // comment line\n"
        "expect bepoch=ok scoped=ok\n"
        "check recovered exists (x == 1); check noerror\n"
        "check noerror expect hw=no\n");
    assert_int_equal(p->nchecks, 5);
    const LitCheck *c = p->checks;
    assert_int_equal(c[0].phase, LIT_CRASH);
    assert_int_equal(c[0].quant, LIT_NOT_EXISTS);
    assert_string_equal(c[0].text, "~exists (y == 1 && x == 0)");
    int8_t e0[LIT_NMODELS] = {1, -1, -1, -1, -1, 0};
    assert_memory_equal(c[0].expect, e0, sizeof e0);
    assert_int_equal(c[0].pos.line, 6);
    assert_int_equal(c[0].pos.col, 1);
    assert_int_equal(c[1].phase, LIT_FINAL);
    assert_int_equal(c[1].quant, LIT_FORALL);
    assert_string_equal(c[1].text, "forall (1:r0 == 0)");
    int8_t e1[LIT_NMODELS] = {-1, 0, 1, 1, -1, -1};
    assert_memory_equal(c[1].expect, e1, sizeof e1);
    assert_int_equal(c[2].phase, LIT_RECOVERED);
    assert_int_equal(c[2].quant, LIT_EXISTS);
    assert_int_equal(c[3].phase, LIT_NOERROR);
    assert_null(c[3].cond);
    assert_string_equal(c[3].text, "noerror");
    int8_t none[LIT_NMODELS] = {-1, -1, -1, -1, -1, -1};
    assert_memory_equal(c[3].expect, none, sizeof none);
    assert_int_equal(c[4].expect[LIT_HW], 0);
    lit_program_free(p);

    assert_error("test t\ncheck later forall (1 == 1)",
                 "t.litmus:2:7: error: expected a phase (final, crash, "
                 "recovered or noerror), found 'later'");
    assert_error("test t\ncheck final all (1 == 1)",
                 "t.litmus:2:13: error: expected a quantifier (exists, "
                 "~exists or forall), found 'all'");
    assert_error("test t\ncheck final ~forall (1 == 1)",
                 "t.litmus:2:14: error: expected 'exists' after '~', found "
                 "'forall'");
    assert_error("test t\ncheck final forall 1 == 1",
                 "t.litmus:2:20: error: expected '(', found '1'");
    assert_error("test t\ncheck final forall (1 == 1",
                 "t.litmus:2:27: error: expected ')', found end of file");
    assert_error("test t\ncheck final forall (1 == 1) x",
                 "t.litmus:2:29: error: expected end of statement, found 'x'");
    assert_error("test t\ncheck final forall (1 == 1) expect",
                 "t.litmus:2:35: error: expected MODEL=ok|no, found end of "
                 "file");
    assert_error("test t\ncheck final forall (1 == 1) expect hw",
                 "t.litmus:2:38: error: expected '=', found end of file");
    assert_error("test t\ncheck final forall (1 == 1) expect hw=1",
                 "t.litmus:2:39: error: expected 'ok' or 'no', found '1'");
    assert_error("test t\ncheck noerror (1 == 1)",
                 "t.litmus:2:15: error: expected end of statement, found '('");
    assert_error("test t\nexpect hw=ok",
                 "t.litmus:2:1: error: 'expect' must follow a 'check'");
    assert_error("test t\ncheck final forall (1 == 1); expect hw=ok",
                 "t.litmus:2:30: error: 'expect' must follow a 'check'");
    assert_error("test t\nfoo bar",
                 "t.litmus:2:1: error: unknown statement 'foo'");
    assert_error("test t\n5", "t.litmus:2:1: error: expected a statement, "
                              "found '5'");
}

/* The canonical text shows the tree: parentheses only where needed. */
static const char *cond_text(const char *cond)
{
    static char text[512];
    char src[512];
    snprintf(src, sizeof src,
             "test t\nparam N = 3\npm x\npm y\npm a[2]\n"
             "kernel k grid 1 block 4 { nop }\n"
             "check final exists (%s)\n", cond);
    LitProgram *p = parse_ok(src);
    snprintf(text, sizeof text, "%s", p->checks[0].text);
    lit_format_cond(p, p->checks[0].cond, text + 256, 256);
    /* lit_format_cond gives the text inside "exists (...)" */
    char inner[300];
    snprintf(inner, sizeof inner, "exists (%s)", text + 256);
    assert_string_equal(inner, text);
    lit_program_free(p);
    return text + 256;
}

static void test_condition_precedence(void **state)
{
    (void)state;
    assert_string_equal(cond_text("x == 1 || y == 1 && x == 0"),
                        "x == 1 || y == 1 && x == 0");
    assert_string_equal(cond_text("(x == 1 || y == 1) && x == 0"),
                        "(x == 1 || y == 1) && x == 0");
    assert_string_equal(cond_text("x == 1 -> y == 1 -> x == 2"),
                        "x == 1 -> y == 1 -> x == 2");
    assert_string_equal(cond_text("(x == 1 -> y == 1) -> x == 2"),
                        "(x == 1 -> y == 1) -> x == 2");
    assert_string_equal(cond_text("x == 1 || y == 1 -> x == 2 && y == 0"),
                        "x == 1 || y == 1 -> x == 2 && y == 0");
    assert_string_equal(cond_text("!x == 1 && !!(y != 2)"),
                        "!(x == 1) && !!(y != 2)");
    assert_string_equal(cond_text("!(x == 1 && y == 1)"),
                        "!(x == 1 && y == 1)");
    assert_string_equal(cond_text("x + y * 2 == 7 - x - y"),
                        "x + y * 2 == 7 - x - y");
    assert_string_equal(cond_text("(x + y) * 2 == 7 - (x - y)"),
                        "(x + y) * 2 == 7 - (x - y)");
    assert_string_equal(cond_text("-x == -(y + 1) * -2"),
                        "-x == -(y + 1) * -2");
    assert_string_equal(cond_text("x >= N * 2 + 1 - -1"), "x >= 8");
    assert_string_equal(cond_text("x < 1 || x <= 1 || x > 1 || x != 1"),
                        "x < 1 || x <= 1 || x > 1 || x != 1");
    assert_string_equal(cond_text("a[1] == a[0] && 3:r31 == N"),
                        "a[1] == a[0] && 3:r31 == 3");
    assert_string_equal(cond_text("a == {1, -2} || a != {N, 0}"),
                        "a == {1, -2} || a != {3, 0}");
    assert_string_equal(cond_text("x == -0x8000000000000000"),
                        "x == 0x8000000000000000");
    assert_string_equal(cond_text("(\n x == 1\n &&\n y == 2)"),
                        "x == 1 && y == 2");
}

static void test_condition_tree(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm x\npm a[2]\n"
                             "kernel k grid 1 block 2 { nop }\n"
                             "check final forall (x + 1 == a[1] -> "
                             "a == {1, 2} || !(1:r3 < 0))\n");
    const LitCond *c = p->checks[0].cond;
    assert_int_equal(c->kind, LIT_C_IMP);
    assert_int_equal(c->l->kind, LIT_C_EQ);
    assert_int_equal(c->l->l->kind, LIT_C_ADD);
    assert_int_equal(c->l->l->l->kind, LIT_C_LOC);
    assert_int_equal(c->l->l->l->loc, 0);
    assert_int_equal(c->l->l->l->index, 0);
    assert_int_equal(c->l->l->r->kind, LIT_C_INT);
    assert_int_equal(c->l->l->r->val, 1);
    assert_int_equal(c->l->r->kind, LIT_C_LOC);
    assert_int_equal(c->l->r->loc, 1);
    assert_int_equal(c->l->r->index, 1);
    assert_int_equal(c->r->kind, LIT_C_OR);
    assert_int_equal(c->r->l->kind, LIT_C_ARREQ);
    assert_int_equal(c->r->l->loc, 1);
    assert_int_equal(c->r->l->n, 2);
    assert_int_equal(c->r->l->vals[1], 2);
    assert_int_equal(c->r->r->kind, LIT_C_NOT);
    assert_int_equal(c->r->r->l->kind, LIT_C_LT);
    assert_int_equal(c->r->r->l->l->kind, LIT_C_REG);
    assert_int_equal(c->r->r->l->l->gtid, 1);
    assert_int_equal(c->r->r->l->l->reg, 3);
    assert_int_equal(c->r->r->l->l->pos.line, 5);
    assert_int_equal(c->r->r->l->l->pos.col, 55);
    lit_program_free(p);
}

static void test_condition_syntax_errors(void **state)
{
    (void)state;
    const char *pre = "test t\npm x\npm a[2]\n"
                      "kernel k grid 1 block 2 { nop }\ncheck final exists ";
    char src[256];
#define CERR(cond, msg)                                                      \
    do {                                                                     \
        snprintf(src, sizeof src, "%s%s", pre, cond);                        \
        assert_string_equal(parse_fail(src), msg "\n");                      \
    } while (0)
    CERR("()", "t.litmus:5:21: error: expected a term, found ')'");
    CERR("(x ==)", "t.litmus:5:25: error: expected a term, found ')'");
    CERR("(x == 1 &&)", "t.litmus:5:30: error: expected a term, found ')'");
    CERR("(x == 1 == 2)", "t.litmus:5:28: error: expected ')', found '=='");
    CERR("(x / 2 == 1)", "t.litmus:5:23: error: expected ')', found '/'");
    CERR("(1:x == 1)", "t.litmus:5:23: error: expected a register after ':', "
                       "found 'x'");
    CERR("(a == {1, 2)", "t.litmus:5:31: error: expected ',' or '}', found "
                         "')'");
    CERR("(a[1 == 1)", "t.litmus:5:25: error: expected ']', found '=='");
    CERR("(x)", "t.litmus:5:21: error: expected a condition, found a value");
    CERR("(x + 1)", "t.litmus:5:21: error: expected a condition, found a "
                    "value");
    CERR("(x == 1 && 2)", "t.litmus:5:31: error: expected a condition, found "
                          "a value");
    CERR("(!x)", "t.litmus:5:22: error: expected a condition, found a value");
    CERR("((x == 1) + 1 == 2)", "t.litmus:5:22: error: expected a value, "
                                "found a condition");
    CERR("(x + 1 == {1})", "t.litmus:5:30: error: '{...}' must follow a bare "
                           "array name");
#undef CERR
}

/* Statements end at newlines or ';'; newlines inside () and [] are
   blank; comments anywhere. */
static void test_layout_of_text(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t /* c */ \"d\" // c\n"
                             "pm x; pm y /* multi\n line */ pm z\n"
                             "pm a[\n2\n] = {\n1,\n2}\n"
                             "kernel k grid 1 block 1 { st a[\n1], 1; nop\n"
                             "  nop }\n");
    assert_int_equal(p->nlocs, 4);
    assert_string_equal(p->locs[2].name, "z");
    assert_int_equal(p->locs[3].init[1], 2);
    assert_int_equal(p->kernels[0].bodies[0].ninstr, 3);
    assert_int_equal(p->kernels[0].bodies[0].code[1].pos.line, 10);
    assert_int_equal(p->kernels[0].bodies[0].code[1].pos.col, 8);
    lit_program_free(p);
}

/* Every error of a file in one pass: recovery at the next statement, in
   blocks too, and nothing reported twice. */
static void test_many_syntax_errors(void **state)
{
    (void)state;
    assert_string_equal(
        parse_fail("test t\n"
                   "pm x = \n"
                   "pm y\n"
                   "kernel k grid 1 block 1 {\n"
                   "  st x,\n"
                   "  ld r0, y\n"
                   "  bogus\n"
                   "}\n"
                   "kernel j grid block 1 {\n"
                   "  also bogus\n"
                   "}\n"
                   "check final exists (x ==)\n"
                   "check final exists (y == 1) expect hw=\n"
                   "check final exists (y == 1)\n"),
        "t.litmus:2:8: error: expected a constant expression, found end of "
        "line\n"
        "t.litmus:5:8: error: expected a constant expression, found end of "
        "line\n"
        "t.litmus:7:3: error: unknown instruction 'bogus' (a label is "
        "written 'bogus:')\n"
        "t.litmus:9:15: error: undefined param 'block'\n"
        "t.litmus:12:25: error: expected a term, found ')'\n"
        "t.litmus:13:39: error: expected 'ok' or 'no', found end of line\n");
}

/* ---- depth limits ------------------------------------------------------ */

#define HDR "test t\npm x\nkernel k grid 1 block 1 { nop }\n"
#define DEEP "t.litmus:4:%d: error: condition nested too deeply (more than " \
             "256 levels)\n"

/* The pieces of a deep condition: PRE, OPEN n times, UNIT (n times
   joined by SEP when SEP is set, else once), CLOSE n times, POST. */
typedef struct {
    const char *pre, *open, *unit, *sep, *close, *post;
} Deep;

static char *deep_cond(const Deep *d, int n)
{
    char *head = repeat(HDR "check final exists (", d->pre, "", 1, "");
    char *opens = repeat(head, d->open, "", n, "");
    char *tail = repeat("", d->close, "", n, "");
    char *post = repeat(tail, d->post, "", 1, ")\n");
    char *src = repeat(opens, d->unit, d->sep, *d->sep ? n : 1, post);
    free(head);
    free(opens);
    free(tail);
    free(post);
    return src;
}

/* At the limit the condition parses, prints and reads back; one more
   level is one error at column COL; the hostile size (one of the review's
   crashes) one error at HCOL, and no stack overflow. Nesting is bounded
   on the way down (the 257th open construct), heights on the way up. */
static void limit(const Deep *d, int ok_n, int col, int hostile_n, int hcol)
{
    char want[128];
    char *src = deep_cond(d, ok_n);
    LitProgram *p = parse_ok(src);
    assert_roundtrip(p);
    lit_program_free(p);
    free(src);
    src = deep_cond(d, ok_n + 1);
    snprintf(want, sizeof want, DEEP, col);
    assert_string_equal(parse_fail(src), want);
    free(src);
    src = deep_cond(d, hostile_n);
    snprintf(want, sizeof want, DEEP, hcol);
    assert_string_equal(parse_fail(src), want);
    free(src);
}

static void test_condition_depth(void **state)
{
    (void)state;
    /* the 257th '(' (the check's own parentheses do not count) */
    limit(&(Deep){"", "(", "x == 1", "", ")", ""}, 256, 20 + 257, 18000,
          20 + 257);
    /* 254 '!' over x == 1 make a tree 256 high; with 255 the outermost
       '!' is too high */
    limit(&(Deep){"", "!", "(x == 1)", "", "", ""}, 254, 21, 75000, 20 + 257);
    /* a left-deep chain: the k-th operator's node is k + 2 high (k + 1
       over leaves) */
    limit(&(Deep){"", "", "x == 1", " && ", "", ""}, 255, 27 + 254 * 10 + 1,
          200000, 27 + 254 * 10 + 1);
    limit(&(Deep){"", "", "x == 1", " || ", "", ""}, 255, 27 + 254 * 10 + 1,
          200000, 27 + 254 * 10 + 1);
    limit(&(Deep){"", "", "x", " + ", "", " == 1"}, 255, 22 + 255 * 4 + 1,
          200000, 22 + 255 * 4 + 1);
    limit(&(Deep){"", "", "x", " * ", "", " == 1"}, 255, 22 + 255 * 4 + 1,
          200000, 22 + 255 * 4 + 1);
    /* unary minus over a location does not fold: NEG nodes; with 255 of
       them the comparison is too high */
    limit(&(Deep){"x == ", "-", "x", "", "", ""}, 254, 23, 200000, 25 + 257);
}

/* '->' is right-associative: its recursion is bounded as it descends
   (the 257th '->'), the height of the tree as it returns (the first). */
static void test_implication_depth(void **state)
{
    (void)state;
    char want[128];
    const Deep imp = {"", "", "x == 1", " -> ", "", ""};
    char *src = deep_cond(&imp, 255);
    LitProgram *p = parse_ok(src);
    assert_roundtrip(p);
    lit_program_free(p);
    free(src);
    src = deep_cond(&imp, 256);
    snprintf(want, sizeof want, DEEP, 28);
    assert_string_equal(parse_fail(src), want);
    free(src);
    src = deep_cond(&imp, 200000);
    snprintf(want, sizeof want, DEEP, 28 + 256 * 10);
    assert_string_equal(parse_fail(src), want);
    free(src);
}

/* A condition too deep ends its statement only: the next one is read. */
static void test_depth_error_recovers(void **state)
{
    (void)state;
    char *src = deep_cond(&(Deep){"", "", "x == 1", " && ", "", ""}, 300);
    char *two = repeat(src, "check final exists (x ==)\n", "", 1, "");
    assert_string_equal(parse_fail(two),
                        "t.litmus:4:2568: error: condition nested too deeply "
                        "(more than 256 levels)\n"
                        "t.litmus:5:25: error: expected a term, found ')'\n");
    free(two);
    free(src);
}

/* ---- what a newcomer trips on (issue 27) ----------------------------- */

/* The diagnostics of src with source excerpts (BaseDiag.excerpt), from
   lit_parse_bytes (len bytes). */
static char *excerpt_of(const char *src, size_t len)
{
    BaseDiag d;
    LitProgram *p = NULL;
    base_diag_init(&d);
    d.excerpt = 1;
    assert_int_not_equal(lit_parse_bytes("t.litmus", src, len, NULL, &p, &d),
                         0);
    assert_false(d.failed);
    char *text = strdup(d.text);
    base_diag_free(&d);
    return text;
}

/* Under each error the line it names and a caret under its column, as gcc
   prints them; the error line itself is unchanged; a tab stays a tab; a
   CR of a CRLF line is left out; a long line is shown around the column. */
static void test_excerpts(void **state)
{
    (void)state;
    const char *src = "test t\r\npm x = 0\r\nkernel k grid 1 block 1 {\r\n"
                      "\tst x,\t1 & 2\r\n}\r\n";
    char *d = excerpt_of(src, strlen(src));
    assert_string_equal(d, "t.litmus:4:10: error: invalid character '&'\n"
                           "    4 | \tst x,\t1 & 2\n"
                           "      | \t     \t  ^\n");
    free(d);
    /* An error at the end of the file points just past its last line; a
       whole-file error has no excerpt. */
    src = "test t\nkernel k grid 1 block 1 {";
    d = excerpt_of(src, strlen(src));
    assert_string_equal(d, "t.litmus:2:26: error: missing '}' for the '{' at "
                           "2:25\n"
                           "    2 | kernel k grid 1 block 1 {\n"
                           "      |                          ^\n");
    free(d);
    /* 300 columns: the 100 around the error, the cut ends marked. */
    char *line = repeat("test t\npm x = 0", " ", "", 150, "&");
    char *long_src = repeat(line, "", "", 1, "                                "
                            "                                            "
                            "                                            "
                            "         // end\n");
    d = excerpt_of(long_src, strlen(long_src));
    const char *nl = strchr(d, '\n');
    assert_non_null(nl);
    assert_int_equal(strncmp(d, "t.litmus:2:159: error: invalid character "
                             "'&'\n", (size_t)(nl - d + 1)), 0);
    const char *l2 = nl + 1, *l3 = strchr(l2, '\n') + 1;
    assert_int_equal(strncmp(l2, "    2 | ...", 11), 0);
    assert_int_equal(strcspn(l2, "\n"), 8 + 3 + 100 + 3);
    /* The caret sits under the '&' of the excerpt. */
    assert_int_equal(strchr(l3, '^') - l3, strchr(l2, '&') - l2);
    assert_int_equal(l2[strcspn(l2, "\n") - 1], '.');
    free(d);
    free(long_src);
    free(line);
    /* A UTF-8 character before the error takes one column of the caret
       line; a control byte shows as '?'. */
    src = "test t\nparam N = \xc3\xa9 \x01\n";
    d = excerpt_of(src, strlen(src));
    assert_string_equal(d, "t.litmus:2:11: error: invalid character "
                           "'\xc3\xa9'\n"
                           "    2 | param N = \xc3\xa9 ?\n"
                           "      |           ^\n"
                           "t.litmus:2:14: error: invalid character "
                           "'\\x01'\n"
                           "    2 | param N = \xc3\xa9 ?\n"
                           "      |             ^\n");
    free(d);
}

/* Near misses: another language's fence, a typo of an instruction or a
   keyword, a comment in '#', a label without its colon. */
static void test_suggestions(void **state)
{
    (void)state;
    assert_string_equal(
        parse_fail("test t\n"
                   "# not a comment: 'kernel' here is no statement\n"
                   "parm N = 2\n"
                   "confg wpq = durable\n"
                   "config wqp = durable\n"
                   "pm data = 0\n"
                   "pm flag = 0\n"
                   "kernel k grid 1 block 1 {\n"
                   "  fence\n"
                   "  fance\n"
                   "  __syncthreads\n"
                   "  store data, 1\n"
                   "  ld r0, dtaa\n"
                   "  mov r1, %tdi\n"
                   "  bra lop\n"
                   "  lop2:\n"
                   "}\n"
                   "kernel kk1 grid 1 block 1 { nop }\n"
                   "recover {\n"
                   "  run kk0\n"
                   "}\n"
                   "chekc final forall (flag == 1)\n"
                   "check final forall (falg == 1)\n"),
        "t.litmus:2:1: error: invalid character '#' (comments are // ... and "
        "/* ... */)\n"
        "t.litmus:3:1: error: unknown statement 'parm' (did you mean "
        "param?)\n"
        "t.litmus:4:1: error: unknown statement 'confg' (did you mean "
        "config?)\n"
        "t.litmus:5:8: error: unknown config key 'wqp' (did you mean wpq?)\n"
        "t.litmus:9:3: error: unknown instruction 'fence' (did you mean "
        "sfence, membar.gl, membar.cta or membar.sys?)\n"
        "t.litmus:10:3: error: unknown instruction 'fance' (did you mean "
        "sfence?)\n"
        "t.litmus:11:3: error: unknown instruction '__syncthreads' (did you "
        "mean bar.sync?)\n"
        "t.litmus:12:3: error: unknown instruction 'store' (did you mean "
        "st?)\n"
        "t.litmus:13:10: error: undefined location 'dtaa' (did you mean "
        "data?)\n"
        "t.litmus:14:11: error: unknown special register '%tdi' (did you "
        "mean %tid?)\n"
        "t.litmus:15:7: error: undefined label 'lop' (did you mean lop2?)\n"
        "t.litmus:20:7: error: unknown kernel 'kk0' (did you mean kk1?)\n"
        "t.litmus:22:1: error: unknown statement 'chekc' (did you mean "
        "check?)\n"
        "t.litmus:23:21: error: undefined name 'falg' (did you mean "
        "flag?)\n");
    /* A word alone on its line, like no instruction, is taken as the label
       it was meant to be: the branch to it is no second error. */
    assert_error("test t\npm x = 0\nkernel k grid 1 block 1 {\n"
                 "  loop\n  st x, 1\n  bra loop\n}\n",
                 "t.litmus:4:3: error: unknown instruction 'loop' (a label is "
                 "written 'loop:')");
}

/* One mistake, one error: the names of a declaration that failed are not
   reported again where they are used (in instructions, conditions and
   constant expressions). */
static void test_no_cascade(void **state)
{
    (void)state;
    assert_error("test t\n"
                 "pm data = 0, log = 0\n"
                 "param N = 2, M = 3\n"
                 "pm a[M] = 0\n"
                 "kernel k grid 1 block 1 {\n"
                 "  st data, 1\n  st log, 1\n  ld r0, log\n  ld r1, data\n"
                 "  st log, 2\n  ld r2, log\n  st log, r2\n"
                 "}\n"
                 "check final forall (log == 2 && data == 1)\n"
                 "check final forall (0:r0 == log)\n",
                 "t.litmus:2:12: error: expected end of statement, found ',' "
                 "(one location per declaration)\n"
                 "t.litmus:3:12: error: expected end of statement, found ',' "
                 "(one param per declaration)");
}

/* Literals are read modulo 2^64 everywhere (DESIGN section 2), conditions
   too; a thread number no kernel can have is reported as written. */
static void test_literals_and_threads(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm x = -9223372036854775808\n"
                             "kernel k grid 1 block 1 {\n"
                             "  st x, 18446744073709551615\n}\n"
                             "check final forall (x == -9223372036854775808"
                             " || x == 18446744073709551615)\n");
    assert_true(p->locs[0].init[0] == INT64_MIN);
    assert_true(p->kernels[0].bodies[0].code[0].a.imm == -1);
    const LitCond *c = p->checks[0].cond;
    assert_int_equal(c->kind, LIT_C_OR);
    assert_true(c->l->r->val == INT64_MIN);
    assert_true(c->r->r->val == -1);
    lit_program_free(p);
    assert_error("test t\npm x = 0\nkernel k grid 1 block 2 { st x, 1 }\n"
                 "check final forall (4294967296:r1 == 0)\n",
                 "t.litmus:4:21: error: thread 4294967296 does not exist: a "
                 "kernel has at most 4194304 threads");
    assert_error("test t\npm x = 0\nkernel k grid 1 block 2 { st x, 1 }\n"
                 "check final forall (0xffffffffffffffff:r1 == 0)\n",
                 "t.litmus:4:21: error: thread 0xffffffffffffffff does not "
                 "exist: a kernel has at most 4194304 threads");
    assert_error("test t\npm x = 0\nkernel k grid 1 block 2 { st x, 1 }\n"
                 "check final forall (2:r1 == 0)\n",
                 "t.litmus:4:21: error: thread 2 does not exist: kernel 'k', "
                 "the last launch, has 2 threads");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_test_statement),
        cmocka_unit_test(test_param_statement),
        cmocka_unit_test(test_config_statement),
        cmocka_unit_test(test_declarations),
        cmocka_unit_test(test_kernel_spmd),
        cmocka_unit_test(test_kernel_threads),
        cmocka_unit_test(test_kernel_errors),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_all_instructions),
        cmocka_unit_test(test_operands),
        cmocka_unit_test(test_operand_errors),
        cmocka_unit_test(test_recover),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_condition_precedence),
        cmocka_unit_test(test_condition_tree),
        cmocka_unit_test(test_condition_syntax_errors),
        cmocka_unit_test(test_layout_of_text),
        cmocka_unit_test(test_many_syntax_errors),
        cmocka_unit_test(test_condition_depth),
        cmocka_unit_test(test_implication_depth),
        cmocka_unit_test(test_depth_error_recovers),
        cmocka_unit_test(test_excerpts),
        cmocka_unit_test(test_suggestions),
        cmocka_unit_test(test_no_cascade),
        cmocka_unit_test(test_literals_and_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
