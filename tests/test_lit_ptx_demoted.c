/* A __shared__ array declared inside a kernel: clang (14) demotes it into
   the entry's body ("// demoted variable"), where it is the same per-CTA
   array as one declared at file scope. lit_ptx.c reads it as a shared
   location of the test; it used to be an error ("'.shared' variables
   inside a function"), which rejected the usual way CUDA declares shared
   memory (litmus/suite/cuda/lin-fig8.cu). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "tests/test_lit_common.h"

static char dir[] = "/tmp/gpmc-ptx-demoted-XXXXXX";

static const char ptx[] =
    ".version 3.2\n"
    ".target sm_35\n"
    ".address_size 64\n"
    ".visible .entry _Z1kPi(\n"
    "\t.param .u64 _Z1kPi_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .b32 \t%r<4>;\n"
    "\t.reg .b64 \t%rd<6>;\n"
    "\t// demoted variable\n"
    "\t.shared .align 4 .b8 _ZZ1kPiE3acc[8];\n"
    "\tld.param.u64 \t%rd1, [_Z1kPi_param_0];\n"
    "\tmov.u32 \t%r1, %tid.x;\n"
    "\tmul.wide.u32 \t%rd2, %r1, 4;\n"
    "\tmov.u64 \t%rd3, _ZZ1kPiE3acc;\n"
    "\tadd.s64 \t%rd4, %rd3, %rd2;\n"
    "\tst.shared.u32 \t[%rd4], %r1;\n"
    "\tbar.sync \t0;\n"
    "\tld.shared.u32 \t%r2, [_ZZ1kPiE3acc+4];\n"
    "\tadd.s64 \t%rd5, %rd1, %rd2;\n"
    "\tst.u32 \t[%rd5], %r2;\n"
    "\tret;\n"
    "}\n";

static int setup(void **state)
{
    (void)state;
    char path[128];
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/k.ptx", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(ptx, f);
    return fclose(f);
}

static int teardown(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/k.ptx", dir);
    unlink(path);
    return rmdir(dir);
}

static LitProgram *parse_in_dir(const char *src)
{
    char path[128];
    BaseDiag d;
    LitProgram *p = NULL;
    snprintf(path, sizeof path, "%s/t.litmus", dir);
    base_diag_init(&d);
    int rc = lit_parse_string(path, src, NULL, &p, &d);
    if (rc)
        fprintf(stderr, "unexpected errors:\n%s", d.text ? d.text : "");
    assert_int_equal(rc, 0);
    base_diag_free(&d);
    return p;
}

/* The demoted array becomes one shared location of 2 u32 elements, named
   by its PTX symbol, and both the register address and the symbol+offset
   address of the body reach it. */
static void test_demoted_shared_is_a_location(void **state)
{
    (void)state;
    LitProgram *p = parse_in_dir("test T\n"
                                 "pm u32 out[2] = 0\n"
                                 "kernel k grid 1 block 2 from \"k.ptx\" "
                                 "_Z1kPi(out)\n"
                                 "check final forall (out == {1, 1})\n");
    assert_int_equal(p->nlocs, 2);
    assert_string_equal(p->locs[1].name, "_ZZ1kPiE3acc");
    assert_int_equal(p->locs[1].space, LIT_SHARED);
    assert_int_equal(p->locs[1].elem, 4);
    assert_int_equal(p->locs[1].size, 2);
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demoted_shared_is_a_location),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
