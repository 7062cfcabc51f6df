/*
 * test_mdl_exec.c — launches (model/mdl_exec.c): the bounds of the state
 * encoding that mdl_new checks before it explores anything.
 */
#include "tests/check_util.h"
#include "model/model.h"

/* A program of n one-nop kernels, launched in order. */
static LitProgram *kernels(int n)
{
    BaseStr s = {0};
    LitProgram *p;
    base_str_printf(&s, "test many\npm x = 0\n");
    for (int i = 0; i < n; i++)
        base_str_printf(&s, "kernel k%d grid 1 block 1 {\n  nop\n}\n", i);
    base_str_printf(&s, "check final forall (x == 0)\n");
    assert_false(s.failed);
    p = cu_parse(s.s);
    base_str_free(&s);
    return p;
}

/* The state header numbers a part's launches in 16 bits (the number
   itself marks a finished part): 65535 launches fit, 65536 are refused
   with a message, where the count used to run into the part bit. The
   step then runs the 65535 kernels to the end. */
static void test_launch_limit(void **state)
{
    char err[256];
    LitProgram *p = kernels(65536);
    Model *m;
    (void)state;
    assert_null(mdl_new(p, LIT_STRICT, 0, err, sizeof err));
    assert_string_equal(err, "the program launches 65536 kernels: at most "
                             "65535 can be explored");
    lit_program_free(p);
    p = kernels(65535);
    m = mdl_new(p, LIT_STRICT, 0, err, sizeof err);
    assert_non_null(m);
    {
        MdlState s;
        int n = 0;
        s.cap = mdl_max_words(m);
        s.w = base_calloc(s.cap, sizeof *s.w);
        assert_non_null(s.w);
        mdl_init_main(m, &s);
        while (!mdl_terminal(m, &s)) {
            MdlError e;
            assert_int_equal(mdl_launch_index(m, &s), n);
            assert_int_equal(mdl_step(m, &s, 0, NULL, &e), 0);
            n++;
        }
        assert_int_equal(n, 65535);
        assert_int_equal(mdl_launch_index(m, &s), 65535);
        base_free(s.w);
    }
    mdl_free(m);
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
