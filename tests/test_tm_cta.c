/*
 * test_tm_cta.c — CTA occupancy (timing/tm_cta.c): CTAs dispatched
 * in waves as SMs free up, what holds a CTA on its SM, and the launches
 * the configuration cannot hold. Cycle counts derived by hand (constants
 * in test_tm_run.c).
 */
#include "tests/check_timing.h"

/* One SM, two one-thread CTAs of three nops. With room for both, the SM
   issues both warps in cycles 0, 1, 2: 3 cycles. With cta_per_sm = 1 the
   second CTA starts when the first retires, at its last issue (2), and
   issues at 2, 3, 4: 5 cycles. With two-warp CTAs and threads_per_sm = 2
   the first CTA's two warps fill the SM's issue width in cycle 2, so the
   second CTA's warps issue at 3, 4, 5: 6 cycles. */
static void test_waves(void **state)
{
    const char *nops = "  nop\n  nop\n  nop\n}\n";
    char text[256];
    TmCosts c;
    (void)state;
    snprintf(text, sizeof text, "test w\nconfig sms = 1\n"
             "kernel k grid 2 block 1 {\n%s", nops);
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 3);
    assert_int_equal(c.instructions, 6);
    snprintf(text, sizeof text, "test w\nconfig sms = 1\n"
             "config cta_per_sm = 1\nkernel k grid 2 block 1 {\n%s", nops);
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 5);
    assert_int_equal(c.instructions, 6);
    snprintf(text, sizeof text, "test w\nconfig sms = 1\n"
             "config threads_per_sm = 2\n"
             "kernel k grid 2 block 2 warp 1 {\n%s", nops);
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 6);
    assert_int_equal(c.instructions, 12);
}

/* A CTA whose threads end at a bar.sync retires when it releases. One SM
   holding one CTA of two one-thread warps, nop then bar.sync: the warps
   issue the nops at 0 and the bar.sync at 1, whose release ends both
   threads; CTA 1 starts at 1, but the SM has issued two instructions in
   that cycle, so its warps issue at 2 and 3: 4 cycles. */
static void test_barrier_ends_cta(void **state)
{
    TmCosts c = cu_timed("test e\nconfig sms = 1\nconfig cta_per_sm = 1\n"
                         "kernel k grid 2 block 2 warp 1 {\n  nop\n  bar.sync\n"
                         "}\n", LIT_HW);
    (void)state;
    assert_int_equal(c.status, TM_OK);
    assert_int_equal(c.cycles, 4);
    assert_int_equal(c.instructions, 8);
}

/* A persist barrier holds its CTA on the SM. One SM holding one CTA; each
   CTA stores to its own line and ends with pbar.wg (scoped: the release
   writes the CTA's line back and waits until the WPQ accepts it). CTA 0:
   mul at 0, st at 1 (port 44..47, tag 47, L2 done 67, ack 109..111);
   pbar.wg at 2 releases at once and flushes line 0: LSU 2, port 47..49,
   tag 49, L2 done 69, the controller takes it at 87, ack 129..131. CTA 0
   retires at 131 and CTA 1 starts: mul at 131, st at 132 (line 1: port
   175..178, tag 178, L2 done 198, ack 240..242), pbar.wg at 133 flushes
   line 1 (LSU 133, port 178..180, tag 180, L2 done 200, accepted 218, ack
   260..262). 262 cycles; each warp waits at its barrier 128 cycles
   (3..131, 134..262). */
static void test_barrier_holds_cta(void **state)
{
    TmCosts c = cu_timed("test h\nconfig sms = 1\nconfig cta_per_sm = 1\n"
                         "pm x[32] = 0\nkernel k grid 2 block 1 {\n"
                         "  mul r0, %ctaid, 16\n  st x[r0], 1\n  pbar.wg\n}\n",
                         LIT_SCOPED);
    (void)state;
    assert_int_equal(c.status, TM_OK);
    assert_int_equal(c.cycles, 262);
    assert_int_equal(c.stall_pbar, 256);
    assert_int_equal(c.l2_writebacks, 2);
}

/* Launches the configuration cannot hold end the run with an error: a CTA
   larger than an SM, and a kernel whose CTAs must all be resident
   (grid.sync; pbar.kr where the model makes it collective) when they do
   not fit. */
static void test_occupancy_errors(void **state)
{
    const char *coop = "test g\nconfig sms = 1\nconfig cta_per_sm = 1\n"
                       "kernel k grid 2 block 1 {\n  %s\n}\n";
    char text[256];
    TmCosts c;
    (void)state;
    c = cu_timed("test big\nconfig threads_per_sm = 2\n"
                 "kernel k grid 1 block 4 {\n  nop\n}\n", LIT_HW);
    assert_int_equal(c.status, TM_ERROR);
    assert_string_equal(c.error, "occupancy: a CTA of k has 4 threads, more "
                        "than threads_per_sm = 2");
    snprintf(text, sizeof text, coop, "grid.sync");
    c = cu_timed(text, LIT_EPOCH);
    assert_int_equal(c.status, TM_ERROR);
    assert_string_equal(c.error, "occupancy: k uses grid.sync, so its 2 CTAs "
                        "must be resident at once, but at most 1 fit (1 per "
                        "SM on sms = 1)");
    snprintf(text, sizeof text, coop, "pbar.kr");
    c = cu_timed(text, LIT_SCOPED);
    assert_int_equal(c.status, TM_ERROR);
    assert_string_equal(c.error, "occupancy: k uses pbar.kr, so its 2 CTAs "
                        "must be resident at once, but at most 1 fit (1 per "
                        "SM on sms = 1)");
    c = cu_timed(text, LIT_EPOCH);
    assert_int_equal(c.status, TM_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waves),
        cmocka_unit_test(test_barrier_ends_cta),
        cmocka_unit_test(test_barrier_holds_cta),
        cmocka_unit_test(test_occupancy_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
