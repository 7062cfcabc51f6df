/* Tests of lit_print, lit_format_instr, lit_format_cond and
   lit_program_equal, and the round trip of every bundled litmus file. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "litmus/litmus.h"
#include "tests/test_lit_common.h"

static const char design_canonical[] =
    "test SB+pbar+sync \"a stalling barrier orders across threads through "
    "bar.sync; a buffered one does not\"\n"
    "\n"
    "param N = 2\n"
    "\n"
    "config wpq = durable\n"
    "\n"
    "pm x = 0\n"
    "pm y = 0\n"
    "pm out[2] = 0\n"
    "pm log[4] = {1, 2, 3, 4}\n"
    "dram in[2] = 7\n"
    "shared tile[4] = 0\n"
    "pm a = 0 line 3\n"
    "\n"
    "kernel k0 grid 1 block 2 {\n"
    "    thread 0 {\n"
    "        st x, 1\n"
    "        pbar\n"
    "        bar.sync\n"
    "    }\n"
    "    thread 1 {\n"
    "        bar.sync\n"
    "        st y, 1\n"
    "        ld r0, x\n"
    "    }\n"
    "}\n"
    "\n"
    "recover {\n"
    "    kernel fix grid 1 block 1 {\n"
    "        ld r1, y\n"
    "        beq r1, 0, done\n"
    "        st out[0], 5\n"
    "        st out[1], 6\n"
    "        clwb out[0]\n"
    "        sfence\n"
    "    done:\n"
    "    }\n"
    "    run k0\n"
    "}\n"
    "\n"
    "check crash ~exists (y == 1 && x == 0) expect strict=ok epoch=ok "
    "bepoch=no scoped=ok bscoped=no hw=ok\n"
    "check final forall (1:r0 == 1)\n"
    "check recovered forall (out == {0, 0} || out == {5, 6})\n";

static LitProgram *parse_path(const char *path, const LitOptions *opt)
{
    BaseDiag d;
    base_diag_init(&d);
    LitProgram *p = NULL;
    int rc = lit_parse_file(path, opt, &p, &d);
    if (rc)
        fprintf(stderr, "%s", d.text ? d.text : "");
    assert_int_equal(rc, 0);
    base_diag_free(&d);
    return p;
}

static void test_design_canonical(void **state)
{
    (void)state;
    LitProgram *p = parse_path("tests/data/lit/design_example.litmus", NULL);
    char *text = print_str(p);
    assert_string_equal(text, design_canonical);
    free(text);
    assert_roundtrip(p);
    lit_program_free(p);
}

/* The canonical form keeps -D values (not the expressions); re-reading it
   gives the same program apart from the overridden marks. */
static void test_defines_print(void **state)
{
    (void)state;
    LitDefine defs[] = {{"N", 3}};
    LitConfigSet cs[] = {{"nvm_write_ns", "512.5"}};
    LitOptions opt = {1, defs, 1, cs};
    LitProgram *p = parse_opt("test t\nparam N = 2\nparam M = N * 2\n"
                              "config wpq = durable\npm out[N]\n"
                              "dram in[M] = 7\n", &opt);
    char *text = print_str(p);
    assert_string_equal(text, "test t\n\nparam N = 3\nparam M = 6\n\n"
                              "config wpq = durable\n"
                              "config nvm_write_ns = 512.5\n\n"
                              "pm out[3] = 0\ndram in[6] = 7\n");
    free(text);
    assert_roundtrip(p);
    lit_program_free(p);
}

static const char *instr_text(const char *body, int i)
{
    static char buf[128];
    char src[512];
    snprintf(src, sizeof src, "test t\nparam K = 2\npm x\npm a[4]\n"
             "kernel k grid 1 block 1 {\n%s\n}", body);
    LitProgram *p = parse_ok(src);
    const LitBody *b = &p->kernels[0].bodies[0];
    lit_format_instr(p, b, &b->code[i], buf, sizeof buf);
    lit_program_free(p);
    return buf;
}

static void test_format_instr(void **state)
{
    (void)state;
    assert_string_equal(instr_text("st x[r1 + 2], 1", 0), "st x[r1 + 2], 1");
    assert_string_equal(instr_text("st x[r1 - -2], 1", 0), "st x[r1 + 2], 1");
    assert_string_equal(instr_text("ld r0, a[r1-K*3]", 0), "ld r0, a[r1 - 6]");
    assert_string_equal(instr_text("ld r0, a[%tid + 0]", 0),
                        "ld r0, a[%tid]");
    assert_string_equal(instr_text("ld r0, a", 0), "ld r0, a[0]");
    assert_string_equal(instr_text("ld r0, x[0]", 0), "ld r0, x");
    assert_string_equal(instr_text("ld r0, x[K]", 0), "ld r0, x[2]");
    assert_string_equal(instr_text("st.wt a[-1], %nctaid", 0),
                        "st.wt a[-1], %nctaid");
    assert_string_equal(instr_text("atom.cas r1, x, 0, K", 0),
                        "atom.cas r1, x, 0, 2");
    assert_string_equal(instr_text("atom.add r1, x, -K", 0),
                        "atom.add r1, x, -2");
    assert_string_equal(instr_text("atom.exch r1, a[r2+1], r3", 0),
                        "atom.exch r1, a[r2 + 1], r3");
    assert_string_equal(instr_text("mov r1, 0x8000000000000000", 0),
                        "mov r1, 0x8000000000000000");
    assert_string_equal(instr_text("shr r1, r2, 63", 0), "shr r1, r2, 63");
    assert_string_equal(instr_text("L: beq r1, 0, L", 0), "beq r1, 0, L");
    assert_string_equal(instr_text("bra E\nE:", 0), "bra E");
    assert_string_equal(instr_text("assert r0 >= -1", 0), "assert r0 >= -1");
    assert_string_equal(instr_text("membar.gl", 0), "sfence");
    assert_string_equal(instr_text("pbar.wi", 0), "pbar");
    assert_string_equal(instr_text("clflush a[3]", 0), "clflush a[3]");
    assert_string_equal(instr_text("grid.sync", 0), "grid.sync");
    /* a short buffer truncates */
    char small[6];
    LitProgram *p = parse_ok("test t\npm x\nkernel k grid 1 block 1 {\n"
                             "st x, 12345\n}");
    const LitBody *b = &p->kernels[0].bodies[0];
    lit_format_instr(p, b, &b->code[0], small, sizeof small);
    assert_string_equal(small, "st x,");
    lit_program_free(p);
}

static void test_format_cond(void **state)
{
    (void)state;
    LitProgram *p = parse_ok("test t\npm x\npm a[2]\n"
                             "kernel k grid 1 block 1 { nop }\n"
                             "check final exists (x == 1 -> (a[1] == 2 || "
                             "0:r4 < x * (x + 1)))\n");
    char buf[128];
    lit_format_cond(p, p->checks[0].cond, buf, sizeof buf);
    assert_string_equal(buf, "x == 1 -> a[1] == 2 || 0:r4 < x * (x + 1)");
    assert_string_equal(p->checks[0].text,
                        "exists (x == 1 -> a[1] == 2 || 0:r4 < x * (x + 1))");
    lit_program_free(p);
}

/* Programs built to exercise the printer's corners. */
static void test_roundtrip_corners(void **state)
{
    (void)state;
    static const char *const srcs[] = {
        "test t\n",
        "test t \"\"\n",
        "test t \"q\\\"uote \\\\ back\"\npm x = -0x8000000000000000\n"
        "check final exists (x == -9223372036854775807 - 1)\n",
        "test t\npm a[3] = {5, 5, 6}\npm b[3] = {5, 5, 5}\n",
        "test t\nconfig icnt_ghz = 0.1\nconfig nvm_read_ns = 33.3333\n"
        "config l2_kb = 4096\nconfig wpq = volatile\n",
        "test t\nkernel k grid 1 block 1 {\nA:\nB: nop\nC:\nD:\n}\n",
        "test t\nkernel k grid 3 block 1 warp 7 {\n thread 2 { }\n"
        " thread 0 { L: bra L }\n}\n",
        "test t\nkernel k grid 1 block 1 { }\nrecover {\n run k\n"
        " kernel r grid 1 block 1 { }\n run r\n run k\n}\n",
        "test t\npm x\ncheck noerror expect hw=no\n"
        "check crash forall (-(x * 2) != --x - 1) expect bscoped=ok\n",
    };
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        LitProgram *p = parse_ok(srcs[i]);
        assert_roundtrip(p);
        lit_program_free(p);
    }
}

/* Equality ignores positions, comments, spelling and the path, and sees
   every difference in the program. */
static void test_equality(void **state)
{
    (void)state;
    static const char base[] =
        "test t \"d\"\nparam N = 2\nconfig sms = 4\npm x = 1\npm a[N]\n"
        "kernel k grid 1 block 2 {\n thread 1 {\n  L: st a[r1 + 1], 2\n"
        "  bra L\n }\n}\nrecover { run k }\n"
        "check final exists (x == 1 && 1:r1 == 0) expect hw=ok\n";
    LitProgram *p = parse_ok(base);
    LitProgram *q = parse_ok("// other text, same program\n"
                             "test t \"d\"\nparam N = 1 + 1; config sms = 4\n"
                             "pm x = 1; pm a[2] = 0\n"
                             "kernel k grid 1 block 2 { thread 1 { L:\n"
                             "st a[r1 - -1], 2; bra L } }\n"
                             "recover {\nrun k\n}\n"
                             "check final exists ((x == 1) && (1:r1 == 0))\n"
                             "expect hw=ok\n");
    assert_true(lit_program_equal(p, q));
    lit_program_free(q);
    static const char *const variants[][2] = {
        {"test t \"d\"", "test u \"d\""},
        {"test t \"d\"", "test t"},
        {"param N = 2", "param N = 2\nparam M = 0"},
        {"config sms = 4", "config sms = 5"},
        {"config sms = 4", "config sms = 20"},
        {"pm x = 1", "pm x = 2"},
        {"pm x = 1", "dram x = 1"},
        {"pm x = 1", "pm x = 1 line 0"},
        {"pm a[N]", "pm a[N + 1]"},
        {"grid 1 block 2", "grid 2 block 1"},
        {"block 2 {", "block 2 warp 32 {"},
        {"L: st a[r1 + 1], 2", "L: st a[r1 + 2], 2"},
        {"L: st a[r1 + 1], 2", "L: st a[r2 + 1], 2"},
        {"L: st a[r1 + 1], 2", "L: st.wt a[r1 + 1], 2"},
        {"L: st a[r1 + 1], 2", "M: st a[r1 + 1], 2\n  L:"},
        {"thread 1", "thread 0"},
        {"recover { run k }", "recover { }"},
        {"recover { run k }", ""},
        {"expect hw=ok", "expect hw=no"},
        {"expect hw=ok", ""},
        {"exists (x == 1 &&", "forall (x == 1 &&"},
        {"x == 1 &&", "x == 2 &&"},
        {"x == 1 &&", "x != 1 &&"},
        {"1:r1 == 0", "1:r2 == 0"},
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        char src[1024];
        const char *hit = strstr(base, variants[i][0]);
        assert_non_null(hit);
        snprintf(src, sizeof src, "%.*s%s%s", (int)(hit - base), base,
                 variants[i][1], hit + strlen(variants[i][0]));
        q = parse_ok(src);
        if (lit_program_equal(p, q))
            fail_msg("variant %zu equal:\n%s", i, src);
        assert_false(lit_program_equal(q, p));
        lit_program_free(q);
    }
    lit_program_free(p);
}

/* ---- every bundled file ------------------------------------------------ */

/* Round-trips every .litmus file under dir: the printed program reads
   back equal, and printing is a fixed point. Returns how many; a
   directory that cannot be read fails the test. */
static int roundtrip_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot read %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        assert_int_equal(stat(path, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            n += roundtrip_dir(path);
            continue;
        }
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 7, ".litmus"))
            continue;
        LitProgram *p = parse_path(path, NULL);
        char *text = print_str(p);
        LitProgram *q = parse_ok(text);
        if (!lit_program_equal(p, q))
            fail_msg("%s: the printed program differs:\n%s", path, text);
        char *again = print_str(q);
        if (strcmp(text, again))
            fail_msg("%s: printing is not a fixed point:\n%s\n---\n%s", path,
                     text, again);
        free(again);
        free(text);
        lit_program_free(q);
        lit_program_free(p);
        n++;
    }
    closedir(d);
    return n;
}

static void test_corpus_roundtrip(void **state)
{
    (void)state;
    assert_int_equal(roundtrip_dir("tests/data/lit"), 5);
    /* every family of the bundled corpus has files, and all round-trip */
    static const char *const families[] = {"hw", "models", "perf", "seeds"};
    for (size_t i = 0; i < sizeof families / sizeof *families; i++) {
        char dir[64];
        snprintf(dir, sizeof dir, "litmus/suite/%s", families[i]);
        if (roundtrip_dir(dir) == 0)
            fail_msg("no .litmus file in %s", dir);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_design_canonical),
        cmocka_unit_test(test_defines_print),
        cmocka_unit_test(test_format_instr),
        cmocka_unit_test(test_format_cond),
        cmocka_unit_test(test_roundtrip_corners),
        cmocka_unit_test(test_equality),
        cmocka_unit_test(test_corpus_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
