/* Tests of the semantic checks: one passing and one failing input per
   check, exact messages and positions, -D and --config, and several errors
   of one file reported together without cascades. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "litmus/litmus.h"
#include "tests/test_lit_common.h"

#define K1 "kernel k grid 1 block 1 {\n"

static void test_undefined_names(void **state)
{
    (void)state;
    lit_program_free(parse_ok("test t\npm x\n" K1 " ld r0, x\n}"));
    assert_error("test t\n" K1 " ld r0, x\n}",
                 "t.litmus:3:9: error: undefined location 'x'");
    assert_error("test t\n" K1 " st x, 1\n}\npm x",
                 "t.litmus:3:5: error: undefined location 'x'");
    assert_error("test t\nparam N = 1\n" K1 " st N, 1\n}",
                 "t.litmus:4:5: error: 'N' is a param, not a location");
    assert_error("test t\npm a[2]\n" K1 " st.wt a[r0], N\n}",
                 "t.litmus:4:15: error: undefined param 'N'");
    assert_error("test t\n" K1 " bra out\n}",
                 "t.litmus:3:6: error: undefined label 'out'");
    assert_error("test t\n" K1 " L: nop\n}\nkernel j grid 1 block 1 {\n"
                 " bra L\n}",
                 "t.litmus:6:6: error: undefined label 'L'");
    assert_error("test t\npm x\ncheck final exists (y == 1)",
                 "t.litmus:3:21: error: undefined name 'y'");
    assert_error("test t\npm x\ncheck final exists (r0 == 1)",
                 "t.litmus:3:21: error: a register in a condition is written "
                 "G:r0 (thread G)");
    assert_error("test t\nrecover {\n run k\n}\n" K1 "}",
                 "t.litmus:3:6: error: unknown kernel 'k'");
}

static void test_duplicate_names(void **state)
{
    (void)state;
    assert_error("test t\nparam A = 1\nparam A = 2",
                 "t.litmus:3:7: error: duplicate name 'A' (first declared at "
                 "2:7)");
    assert_error("test t\npm x\ndram x[2]",
                 "t.litmus:3:6: error: duplicate name 'x' (first declared at "
                 "2:4)");
    assert_error("test t\nparam x = 1\nshared x",
                 "t.litmus:3:8: error: duplicate name 'x' (first declared at "
                 "2:7)");
    assert_error("test t\npm x\nparam x = 1",
                 "t.litmus:3:7: error: duplicate name 'x' (first declared at "
                 "2:4)");
    assert_error("test t\n" K1 "}\nrecover {\n kernel k grid 1 block 1 { }\n}",
                 "t.litmus:5:9: error: duplicate kernel 'k' (first defined at "
                 "2:8)");
    assert_error("test t\n" K1 "}\n" K1 "}",
                 "t.litmus:4:8: error: duplicate kernel 'k' (first defined at "
                 "2:8)");
    assert_error("test t\n" K1 "L: nop\n L:\n}",
                 "t.litmus:4:2: error: duplicate label 'L' (first at 3:1)");
    /* labels are per body; kernel names and location names do not meet */
    LitProgram *p = parse_ok("test t\npm k\nkernel k grid 1 block 2 {\n"
                             " thread 0 { L: nop }\n thread 1 { L: bra L }\n"
                             "}\nkernel L grid 1 block 1 { k: nop }");
    assert_int_equal(p->kernels[0].bodies[1].code[0].target, 0);
    lit_program_free(p);
    /* the duplicate's own errors are still found, its name reported once */
    assert_string_equal(parse_fail("test t\npm x\npm x[0]\n"
                                   K1 " ld r0, x\n}"),
                        "t.litmus:3:4: error: duplicate name 'x' (first "
                        "declared at 2:4)\n"
                        "t.litmus:3:6: error: size of 'x' must be positive, "
                        "got 0\n");
}

static void test_registers(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm a[2]\n" K1
                             " mov r31, r0\n ld r12, a[r31]\n}");
    assert_int_equal(regs_mask(&p->kernels[0]),
                     (1u << 31) | 1u | (1u << 12));
    lit_program_free(p);
    assert_error("test t\n" K1 " mov r32, 1\n}",
                 "t.litmus:3:6: error: register 'r32' out of range (r0..r31)");
    assert_error("test t\n" K1 " add r1, r1, r99\n}",
                 "t.litmus:3:14: error: register 'r99' out of range "
                 "(r0..r31)");
    assert_error("test t\npm a[2]\n" K1 " st a[r40 + 1], 1\n}",
                 "t.litmus:4:7: error: register 'r40' out of range "
                 "(r0..r31)");
    assert_error("test t\n" K1 "}\ncheck final exists (0:r32 == 0)",
                 "t.litmus:4:23: error: register 'r32' out of range "
                 "(r0..r31)");
    assert_error("test t\n" K1 " mov %tid, 1\n}",
                 "t.litmus:3:6: error: cannot write special register '%tid'");
    assert_error("test t\npm x\n" K1 " ld %laneid, x\n}",
                 "t.litmus:4:5: error: cannot write special register "
                 "'%laneid'");
    assert_error("test t\n" K1 " mov r0, %lane\n}",
                 "t.litmus:3:10: error: unknown special register '%lane'");
}

static void test_condition_memory(void **state)
{
    (void)state;
    const char *decls = "test t\npm p\ndram d\nshared s\n" K1 "}\n"
                        "recover { }\n";
    char src[512];
#define COND(phase, c) \
    (snprintf(src, sizeof src, "%scheck %s exists (%s)", decls, phase, c), src)
    lit_program_free(parse_ok(COND("crash", "p == 1")));
    lit_program_free(parse_ok(COND("final", "p == d")));
    lit_program_free(parse_ok(COND("recovered", "d == 1")));
    assert_error(COND("crash", "p == d"),
                 "t.litmus:8:26: error: crash conditions may name only pm "
                 "locations; 'd' is dram");
    assert_error(COND("final", "s == 0"),
                 "t.litmus:8:21: error: conditions may not name shared "
                 "location 's'");
    assert_error(COND("crash", "s == 0"),
                 "t.litmus:8:21: error: conditions may not name shared "
                 "location 's'");
    assert_error(COND("recovered", "1 == s"),
                 "t.litmus:8:30: error: conditions may not name shared "
                 "location 's'");
#undef COND
}

static void test_register_terms(void **state)
{
    (void)state;
    const char *prog = "test t\n"
                       "kernel big grid 4 block 4 { nop }\n"
                       "kernel last grid 2 block 2 { nop }\n"
                       "recover { kernel r grid 8 block 8 { nop } }\n";
    char src[512];
#define CHECK(c) (snprintf(src, sizeof src, "%s%s", prog, c), src)
    LitProgram *p = parse_ok(CHECK("check final forall (3:r31 == 0 && "
                                   "0:r0 == 0)"));
    lit_program_free(p);
    assert_error(CHECK("check final forall (4:r0 == 0)"),
                 "t.litmus:5:21: error: thread 4 does not exist: kernel "
                 "'last', the last launch, has 4 threads");
    assert_error(CHECK("check crash forall (0:r0 == 0)"),
                 "t.litmus:5:21: error: register terms are allowed only in "
                 "'final' conditions");
    assert_error(CHECK("check recovered exists (0:r0 == 0)"),
                 "t.litmus:5:25: error: register terms are allowed only in "
                 "'final' conditions");
#undef CHECK
    assert_error("test t\ncheck final forall (0:r0 == 0)",
                 "t.litmus:2:21: error: '0:r0' names a thread, but the main "
                 "program launches no kernel");
    /* a check before the kernels is judged against the whole file */
    lit_program_free(parse_ok("test t\ncheck final forall (5:r0 == 0)\n"
                              "kernel k grid 2 block 3 { nop }"));
}

static void test_threads(void **state)
{
    (void)state;
    assert_error("test t\nkernel k grid 2 block 2 {\n thread 4 { nop }\n}",
                 "t.litmus:3:9: error: thread 4 does not exist: kernel 'k' "
                 "has 4 threads");
    assert_error("test t\nkernel k grid 2 block 2 {\n thread -1 { nop }\n}",
                 "t.litmus:3:9: error: thread -1 does not exist: kernel 'k' "
                 "has 4 threads");
    assert_error("test t\nkernel k grid 2 block 2 {\n thread 1 { nop }\n"
                 " thread 2 - 1 { }\n}",
                 "t.litmus:4:9: error: thread 1 listed twice in kernel 'k'");
    assert_error("test t\nkernel k grid 1 block 2 {\n nop\n thread 0 { }\n"
                 " thread 1 { }\n}",
                 "t.litmus:4:2: error: kernel 'k' mixes 'thread' bodies with "
                 "SPMD instructions");
    assert_error("test t\nkernel k grid 1 block 2 {\n thread 0 { }\n L:\n"
                 " nop\n}",
                 "t.litmus:4:2: error: kernel 'k' mixes 'thread' bodies with "
                 "SPMD instructions");
    /* a kernel whose size is wrong says nothing about its threads */
    assert_error("test t\nkernel k grid 0 block 2 {\n thread 7 { }\n}",
                 "t.litmus:2:15: error: grid must be positive, got 0");
}

static void test_sizes_and_limits(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm a[16777216]\n"
                             "kernel k grid 1024 block 1024 warp 1 { }");
    assert_int_equal(p->locs[0].size, 1 << 24);
    assert_int_equal(p->kernels[0].grid * p->kernels[0].block, 1 << 20);
    lit_program_free(p);
    assert_error("test t\npm a[0]",
                 "t.litmus:2:6: error: size of 'a' must be positive, got 0");
    assert_error("test t\ndram a[-3]",
                 "t.litmus:2:8: error: size of 'a' must be positive, got -3");
    assert_error("test t\npm a[67108865]",
                 "t.litmus:2:6: error: size of 'a' is 67108865; at most "
                 "67108864 is allowed");
    assert_error("test t\nkernel k grid 0 block 1 { }",
                 "t.litmus:2:15: error: grid must be positive, got 0");
    assert_error("test t\nkernel k grid 1 block -1 { }",
                 "t.litmus:2:23: error: block must be positive, got -1");
    assert_error("test t\nkernel k grid 1 block 1 warp 0 { }",
                 "t.litmus:2:30: error: warp must be positive, got 0");
    assert_error("test t\nkernel k grid 4096 block 1025 { }",
                 "t.litmus:2:10: error: kernel 'k' has 4198400 threads; at "
                 "most 4194304 are allowed");
    assert_error("test t\nkernel k grid 5000000 block 1 { }",
                 "t.litmus:2:15: error: grid is 5000000; at most 4194304 is "
                 "allowed");
    assert_error("test t\npm a = 0 line -1",
                 "t.litmus:2:15: error: line must be >= 0, got -1");
}

/* What bounds the memory a file can make the front end use: instructions
   per body, threads of all kernels together, errors reported. */
static void test_resource_limits(void **state)
{
    (void)state;
    char *src = repeat("test t\nkernel k grid 1 block 1 {\n", "nop", "\n",
                       (1 << 20) + 2, "\n}\n");
    assert_string_equal(parse_fail(src),
                        "t.litmus:1048579:1: error: too many instructions: a "
                        "body holds at most 1048576\n");
    free(src);
    src = repeat("test t\n", "kernel k grid 1024 block 1024 { }", "\n", 17,
                 "\n");
    /* every kernel is named k: the duplicates are reported too */
    const char *d = parse_fail(src);
    assert_non_null(strstr(d, "t.litmus:18:10: error: kernel 'k' brings the "
                              "file to 17825792 threads; at most 16777216 are "
                              "allowed in all kernels together\n"));
    assert_null(strstr(d, "t.litmus:17:10: error: kernel 'k' brings"));
    free(src);
    src = repeat("test t\n", "bogus", "\n", 1500, "\n");
    d = parse_fail(src);
    int lines = 0;
    for (const char *c = d; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1001);
    assert_non_null(strstr(d, "t.litmus:1001:1: error: unknown statement "
                              "'bogus'\nt.litmus: error: too many errors; "
                              "stopped after 1000\n"));
    free(src);
}

/* Out-of-range indices in instructions are runtime errors, not parse
   errors (DESIGN section 2). */
static void test_instruction_index_not_checked(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm a[2]\npm x\n" K1
                             " st a[2], 1\n st a[-1], 1\n st x[3], 1\n"
                             " ld r0, a[r1 + 100]\n}");
    const LitInstr *c = p->kernels[0].bodies[0].code;
    assert_int_equal(c[0].m.off, 2);
    assert_int_equal(c[1].m.off, -1);
    assert_int_equal(c[2].m.loc, 1);
    assert_int_equal(c[2].m.off, 3);
    assert_int_equal(c[3].m.off, 100);
    lit_program_free(p);
}

static void test_condition_arrays(void **state)
{
    (void)state;
    const char *decls = "test t\nparam N = 2\npm x\npm a[N]\n" K1 "}\n";
    char src[512];
#define COND(c) \
    (snprintf(src, sizeof src, "%scheck final exists (%s)", decls, c), src)
    lit_program_free(parse_ok(COND("a == {1, 2} && a[N - 1] == x && x[0] == "
                                   "0 && a != {N, N}")));
    assert_error(COND("a == 1"),
                 "t.litmus:7:21: error: array 'a' used as a scalar (write "
                 "a[K] or a == {...})");
    assert_error(COND("x + a > 1"),
                 "t.litmus:7:25: error: array 'a' used as a scalar (write "
                 "a[K] or a == {...})");
    assert_error(COND("a"),
                 "t.litmus:7:21: error: array 'a' used as a scalar (write "
                 "a[K] or a == {...})");
    assert_error(COND("a[2] == 0"),
                 "t.litmus:7:21: error: index 2 out of range for 'a' (size "
                 "2)");
    assert_error(COND("a[-1] == 0"),
                 "t.litmus:7:21: error: index -1 out of range for 'a' (size "
                 "2)");
    assert_error(COND("x[1] == 0"),
                 "t.litmus:7:21: error: index 1 out of range for 'x' (size "
                 "1)");
    assert_error(COND("a == {1, 2, 3}"),
                 "t.litmus:7:26: error: 'a' has 2 elements, list has 3");
    assert_error(COND("a != {1}"),
                 "t.litmus:7:26: error: 'a' has 2 elements, list has 1");
    assert_error(COND("x == {1}"),
                 "t.litmus:7:21: error: 'x' is not an array");
    assert_error(COND("a[0] == {1, 2}"),
                 "t.litmus:7:29: error: '{...}' must follow a bare array "
                 "name");
    assert_error(COND("N[0] == 1"),
                 "t.litmus:7:21: error: 'N' is a param, not a location");
#undef COND
    /* a declaration with a bad size says nothing more */
    assert_error("test t\npm b[0]\ncheck final exists (b == 1 && b)",
                 "t.litmus:2:6: error: size of 'b' must be positive, got 0");
}

static void test_expect(void **state)
{
    (void)state;
    const char *pre = "test t\npm x\ncheck final exists (x == 0) ";
    char src[256];
#define EXP(e) (snprintf(src, sizeof src, "%s%s", pre, e), src)
    LitProgram *p = parse_ok(EXP("expect strict=ok epoch=no bepoch=ok "
                                 "scoped=no bscoped=ok hw=no"));
    int8_t want[LIT_NMODELS] = {1, 0, 1, 0, 1, 0};
    assert_memory_equal(p->checks[0].expect, want, sizeof want);
    lit_program_free(p);
    assert_error(EXP("expect tso=ok"),
                 "t.litmus:3:36: error: unknown model 'tso' (expected strict, "
                 "epoch, bepoch, scoped, bscoped or hw)");
    assert_error(EXP("expect hw=yes"),
                 "t.litmus:3:39: error: expected 'ok' or 'no' for model 'hw', "
                 "found 'yes'");
    assert_error(EXP("expect hw=Ok"),
                 "t.litmus:3:39: error: expected 'ok' or 'no' for model 'hw', "
                 "found 'Ok'");
    assert_error(EXP("expect hw=ok hw=ok"),
                 "t.litmus:3:42: error: duplicate expect for model 'hw'");
    assert_error(EXP("expect hw=ok\nexpect epoch=no hw=no"),
                 "t.litmus:4:17: error: duplicate expect for model 'hw'");
#undef EXP
}

static void test_config_values(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\nconfig line_bytes = 8\n"
                             "config wpq_entries = 1048576\n"
                             "config nvm_write_ns = 0.5\n"
                             "config mem_ghz = 1000000000\n");
    assert_true(p->config.val[LIT_CFG_LINE_BYTES] == 8);
    assert_true(p->config.val[LIT_CFG_WPQ_ENTRIES] == 1048576);
    assert_true(p->config.val[LIT_CFG_NVM_WRITE_NS] == 0.5);
    lit_program_free(p);
    assert_error("test t\nconfig l3_kb = 1",
                 "t.litmus:2:8: error: unknown config key 'l3_kb' (did "
                 "you mean l1_kb?)");
    assert_error("test t\nconfig wpq = 1",
                 "t.litmus:2:14: error: wpq must be durable or volatile, got "
                 "'1'");
    assert_error("test t\nconfig line_bytes = 100",
                 "t.litmus:2:21: error: line_bytes must be a power of two "
                 "from 8 to 4096, got '100'");
    assert_error("test t\nconfig line_bytes = 4",
                 "t.litmus:2:21: error: line_bytes must be a power of two "
                 "from 8 to 4096, got '4'");
    assert_error("test t\nconfig line_bytes = 8192",
                 "t.litmus:2:21: error: line_bytes must be a power of two "
                 "from 8 to 4096, got '8192'");
    assert_error("test t\nconfig sms = 0",
                 "t.litmus:2:14: error: sms must be an integer from 1 to "
                 "1048576, got '0'");
    assert_error("test t\nconfig sms = 2.5",
                 "t.litmus:2:14: error: sms must be an integer from 1 to "
                 "1048576, got '2.5'");
    assert_error("test t\nconfig controllers = -1",
                 "t.litmus:2:22: error: controllers must be an integer from "
                 "1 to 1048576, got '-1'");
    assert_error("test t\nconfig nvm_banks = fast",
                 "t.litmus:2:20: error: nvm_banks must be an integer from 1 "
                 "to 1048576, got 'fast'");
    assert_error("test t\nconfig core_ghz = 0",
                 "t.litmus:2:19: error: core_ghz must be a number > 0 and <= "
                 "1e+09, got '0'");
    assert_error("test t\nconfig dram_read_ns = -1.5",
                 "t.litmus:2:23: error: dram_read_ns must be a number > 0 "
                 "and <= 1e+09, got '-1.5'");
    assert_error("test t\nconfig sms = 4\nconfig sms = 8",
                 "t.litmus:3:8: error: duplicate config 'sms' (first set at "
                 "2:8)");
}

static void test_config_api(void **state)
{
    (void)state;
    LitConfig c;
    char msg[128], buf[64];
    lit_config_defaults(&c);
    assert_int_equal(c.set, 0);
    static const double defaults[LIT_NCONFIG] = {
        0, 0, 128, 20, 1.8, 24, 2048, 16, 8, 1.2, 1.4, 160, 480, 160, 160,
        16, 64, 0, 2048, 15, 32, 54, 32, 32, 2048, 0, 1000, 12,
    };
    for (int k = 0; k < LIT_NCONFIG; k++) {
        assert_true(c.val[k] == defaults[k]);
        assert_int_equal(lit_config_key(lit_config_name(k)), k);
    }
    assert_int_equal(lit_config_key("nope"), -1);
    assert_null(lit_config_name(LIT_NCONFIG));
    lit_config_format(&c, LIT_CFG_WPQ, buf, sizeof buf);
    assert_string_equal(buf, "durable");
    lit_config_format(&c, LIT_CFG_PM_PATH, buf, sizeof buf);
    assert_string_equal(buf, "l2");
    assert_int_equal(lit_config_set(&c, LIT_CFG_PRESET, "gpm", msg,
                                    sizeof msg), 0);
    lit_config_format(&c, LIT_CFG_PM_PATH, buf, sizeof buf);
    assert_string_equal(buf, "pcie");
    lit_config_defaults(&c);
    lit_config_format(&c, LIT_CFG_CORE_GHZ, buf, sizeof buf);
    assert_string_equal(buf, "1.8");
    lit_config_format(&c, LIT_CFG_L2_KB, buf, sizeof buf);
    assert_string_equal(buf, "2048");
    assert_int_equal(lit_config_set(&c, LIT_CFG_WPQ, "volatile", msg,
                                    sizeof msg), 0);
    assert_int_equal(c.set, 1u << LIT_CFG_WPQ);
    lit_config_format(&c, LIT_CFG_WPQ, buf, sizeof buf);
    assert_string_equal(buf, "volatile");
    assert_int_equal(lit_config_set(&c, LIT_CFG_MEM_GHZ, "0.000125", msg,
                                    sizeof msg), 0);
    lit_config_format(&c, LIT_CFG_MEM_GHZ, buf, sizeof buf);
    assert_string_equal(buf, "0.000125");
    assert_int_not_equal(lit_config_set(&c, LIT_CFG_MEM_GHZ, "inf", msg,
                                        sizeof msg), 0);
    assert_string_equal(msg, "mem_ghz must be a number > 0 and <= 1e+09, "
                             "got 'inf'");
    assert_int_not_equal(lit_config_set(&c, LIT_CFG_SMS, "", msg,
                                        sizeof msg), 0);
    assert_int_not_equal(lit_config_set(&c, LIT_CFG_SMS, "4 ", msg,
                                        sizeof msg), 0);
    assert_true(c.val[LIT_CFG_SMS] == 20);
}

/* A preset sets every other key to its machine's value and prints as
   itself; later keys override it; in a file it must come first. */
static void test_config_preset(void **state)
{
    (void)state;
    LitConfig c;
    char msg[128], buf[64];
    lit_config_defaults(&c);
    assert_int_equal(lit_config_set(&c, LIT_CFG_SMS, "4", msg, sizeof msg),
                     0);
    assert_int_equal(lit_config_set(&c, LIT_CFG_PRESET, "gpm", msg,
                                    sizeof msg), 0);
    assert_int_equal(c.set, 1u << LIT_CFG_PRESET);
    assert_true(c.val[LIT_CFG_SMS] != 4);
    assert_true(c.val[LIT_CFG_CONTROLLERS] == 8);   /* GPM Table 3: 8 DIMMs */
    lit_config_format(&c, LIT_CFG_PRESET, buf, sizeof buf);
    assert_string_equal(buf, "gpm");
    /* Gope et al. Table 2: 4 CUs at 1 GHz, 64 B lines, NVRAM 75 / 250 ns,
       DRAM 25 ns */
    assert_int_equal(lit_config_set(&c, LIT_CFG_PRESET, "gope", msg,
                                    sizeof msg), 0);
    assert_true(c.val[LIT_CFG_SMS] == 4 && c.val[LIT_CFG_CORE_GHZ] == 1 &&
                c.val[LIT_CFG_LINE_BYTES] == 64 &&
                c.val[LIT_CFG_NVM_READ_NS] == 75 &&
                c.val[LIT_CFG_NVM_WRITE_NS] == 250 &&
                c.val[LIT_CFG_DRAM_READ_NS] == 25 &&
                c.val[LIT_CFG_DRAM_WRITE_NS] == 25);
    assert_int_equal(lit_config_set(&c, LIT_CFG_PRESET, "lin", msg,
                                    sizeof msg), 0);
    assert_true(c.val[LIT_CFG_SMS] == 20);
    assert_int_not_equal(lit_config_set(&c, LIT_CFG_PRESET, "fermi", msg,
                                        sizeof msg), 0);
    assert_string_equal(msg, "preset must be lin, gope or gpm, got 'fermi'");
    LitProgram *p = parse_ok("test t\nconfig preset = gope\n"
                             "config sms = 3\n");
    assert_true(p->config.val[LIT_CFG_SMS] == 3);
    assert_true(p->config.val[LIT_CFG_PRESET] == 1);
    assert_int_equal(p->config.set,
                     (1u << LIT_CFG_PRESET) | (1u << LIT_CFG_SMS));
    lit_program_free(p);
    assert_error("test t\nconfig sms = 3\nconfig preset = gope",
                 "t.litmus:3:8: error: config preset must come before the "
                 "other config keys ('sms' set at 2:8)");
}

static void test_recovered_needs_recover(void **state)
{
    (void)state;
    lit_program_free(parse_ok("test t\npm x\ncheck recovered forall (x == 0)"
                              "\nrecover { }"));
    assert_error("test t\npm x\ncheck recovered forall (x == 0)",
                 "t.litmus:3:7: error: 'check recovered' needs a 'recover' "
                 "block");
}

static void test_initializers(void **state)
{
    (void)state;
    assert_error("test t\npm x = {1}",
                 "t.litmus:2:8: error: initializer list for scalar 'x'");
    assert_error("test t\npm a[3] = {1, 2}",
                 "t.litmus:2:11: error: 'a' has 3 elements, initializer has "
                 "2");
    assert_error("test t\nshared a[1] = {1, 2}",
                 "t.litmus:2:15: error: 'a' has 1 elements, initializer has "
                 "2");
    assert_error("test t\nshared a[4] line 1",
                 "t.litmus:2:13: error: shared 'a' cannot be pinned to a "
                 "line");
}

static void test_defines(void **state)
{
    (void)state;
    LitDefine defs[] = {{"N", 64}, {"M", -1}};
    LitOptions opt = {2, defs, 0, NULL};
    LitProgram *p = parse_opt("test t\nparam N = 2\nparam M = 5\n"
                              "param S = N * 2\npm a[N]", &opt);
    assert_int_equal(p->params[0].value, 64);
    assert_int_equal(p->params[0].overridden, 1);
    assert_int_equal(p->params[1].value, -1);
    assert_int_equal(p->params[1].overridden, 1);
    assert_int_equal(p->params[2].value, 128);
    assert_int_equal(p->params[2].overridden, 0);
    assert_int_equal(p->locs[0].size, 64);
    lit_program_free(p);

    LitDefine twice[] = {{"N", 3}, {"N", 4}};
    LitOptions o2 = {2, twice, 0, NULL};
    p = parse_opt("test t\nparam N = 2", &o2);
    assert_int_equal(p->params[0].value, 4);
    lit_program_free(p);

    LitDefine bad[] = {{"Q", 1}, {"N", 0}};
    LitOptions o3 = {2, bad, 0, NULL};
    assert_string_equal(parse_fail_opt("test t\nparam N = 2\npm a[N]\n"
                                       "pm b[0]", &o3),
                        "t.litmus: error: -D Q: no param named 'Q'\n"
                        "t.litmus:3:6: error: size of 'a' must be positive, "
                        "got 0\n"
                        "t.litmus:4:6: error: size of 'b' must be positive, "
                        "got 0\n");
}

static void test_cli_config(void **state)
{
    (void)state;
    LitConfigSet cs[] = {{"line_bytes", "64"}, {"wpq", "volatile"}};
    LitOptions opt = {0, NULL, 2, cs};
    LitProgram *p = parse_opt("test t\nconfig line_bytes = 256\npm x\npm y",
                              &opt);
    assert_true(p->config.val[LIT_CFG_LINE_BYTES] == 64);
    assert_true(p->config.val[LIT_CFG_WPQ] == 1);
    assert_int_equal(p->config.set,
                     (1u << LIT_CFG_LINE_BYTES) | (1u << LIT_CFG_WPQ));
    assert_int_equal(p->line_bytes, 64);
    assert_int_equal(p->locs[1].byte, 64);
    lit_program_free(p);

    LitConfigSet bad[] = {{"l9", "1"}, {"sms", "0"}};
    LitOptions o2 = {0, NULL, 2, bad};
    assert_string_equal(parse_fail_opt("test t\n", &o2),
                        "t.litmus: error: --config l9=1: unknown config key "
                        "'l9'\n"
                        "t.litmus: error: --config sms=0: sms must be an "
                        "integer from 1 to 1048576, got '0'\n");
}

/* A statement that fails still declares what it names, so its uses say
   nothing more; a stray '}' at top level is part of the bad statement. */
static void test_no_cascade(void **state)
{
    (void)state;
    assert_error("test t\nparam N =} 3\npm a[N]\n"
                 "check final forall (a[N] == 1)",
                 "t.litmus:2:10: error: expected a constant expression, "
                 "found '}'");
    assert_error("test t\nparam N = N + 1",
                 "t.litmus:2:11: error: undefined param 'N'");
    assert_error("test t\npm a[2] = {1, }\ncheck final forall (a[1] == 1)",
                 "t.litmus:2:15: error: expected a constant expression, "
                 "found '}'");
    assert_error("test t\nkernel k grid 1 block 1 warp {\n nop\n}\n"
                 "recover { run k }",
                 "t.litmus:2:30: error: expected a constant expression, "
                 "found '{'");
    assert_error("test t\npm x\ncheck final forall (x == {5,=6}) expect hw=ok",
                 "t.litmus:3:29: error: expected a constant expression, "
                 "found '='");
}

/* All errors of a file in one pass, sorted by position; nothing caused by
   an earlier error is reported. */
static void test_many_errors(void **state)
{
    (void)state;
    assert_string_equal(
        parse_fail("test t\n"
                   "param N = 1 / 0\n"              /* poison N */
                   "pm a[N]\n"
                   "pm x = 0 line 0\n"
                   "pm y[20] = 0 line 0\n"
                   "pm z = 0 line 1\n"              /* overlaps y */
                   "kernel k grid N block 2 {\n"    /* silent: N is bad */
                   "  thread 9 { nop }\n"
                   "}\n"
                   "kernel j grid 1 block 2 {\n"
                   "  thread 0 {\n"
                   "    ld r0, q\n"
                   "    mov r40, 1\n"
                   "    bra nowhere\n"
                   "  }\n"
                   "}\n"
                   "recover { run k; run j; run w }\n"
                   "check final forall (2:r0 == 0 && a == {1})\n"
                   "check crash forall (x == 1) expect hw=ok hw=no\n"),
        "t.litmus:2:13: error: division by zero in constant expression\n"
        "t.litmus:6:10: error: pinned 'z' (line 1) overlaps 'y' (lines "
        "0..1)\n"
        "t.litmus:12:12: error: undefined location 'q'\n"
        "t.litmus:13:9: error: register 'r40' out of range (r0..r31)\n"
        "t.litmus:14:9: error: undefined label 'nowhere'\n"
        "t.litmus:17:29: error: unknown kernel 'w'\n"
        "t.litmus:18:21: error: thread 2 does not exist: kernel 'j', the "
        "last launch, has 2 threads\n"
        "t.litmus:19:42: error: duplicate expect for model 'hw'\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_undefined_names),
        cmocka_unit_test(test_duplicate_names),
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_condition_memory),
        cmocka_unit_test(test_register_terms),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_sizes_and_limits),
        cmocka_unit_test(test_resource_limits),
        cmocka_unit_test(test_instruction_index_not_checked),
        cmocka_unit_test(test_condition_arrays),
        cmocka_unit_test(test_expect),
        cmocka_unit_test(test_config_values),
        cmocka_unit_test(test_config_api),
        cmocka_unit_test(test_config_preset),
        cmocka_unit_test(test_recovered_needs_recover),
        cmocka_unit_test(test_initializers),
        cmocka_unit_test(test_defines),
        cmocka_unit_test(test_cli_config),
        cmocka_unit_test(test_no_cascade),
        cmocka_unit_test(test_many_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
