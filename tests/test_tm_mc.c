/*
 * test_tm_mc.c — the memory controller (model/timing/tm_mc.c): row-buffer
 * hits and misses, first-ready reordering, read priority, write-drain
 * watermarks, WPQ back-pressure and wt_ack. Cycle counts derived by hand.
 *
 * Every program runs one thread under hw with controllers = 1 and
 * nvm_banks = 1, so all its lines share one controller and one bank; with
 * 128-byte lines and 2048-byte rows, lines 0-15 are row 0 and line 16 is
 * row 1. Constants (test_tm_run.c gives their derivation): crossbar 42,
 * port 2 cycles per control flit (3 for 2 flits, 7 for a line), L2 20,
 * controller front end 2, latency 18, command bus 2; activate 255, CAS 27,
 * burst 6, dirty row write-back 864.
 * A write-through issued at LSU cycle s to partition p (line p) reaches
 * the controller's front end at s + 1 + 42 + 3 + 20 = s + 66 (when ports
 * and tag ports are free) and its queues 18 after the front end takes it.
 */
#include "tests/check_util.h"
#include "model/timing/timing.h"

static TmCosts timed(const char *text, int model)
{
    LitProgram *p = cu_parse(text);
    TmCosts c;
    char err[256];
    assert_int_equal(tm_run(p, model, 0, &c, err, sizeof err), 0);
    lit_program_free(p);
    return c;
}

#define ONE_BANK "config controllers = 1\nconfig nvm_banks = 1\n"

/* First ready: x (line 0, row 0), z (line 16, row 1), y (line 1, row 0).
   x: in the queue at 84, the bank idle: row 0 opens, CAS and burst: in
   NVM at 84 + 255 + 27 + 6 = 372, the bank free for the next command at
   84 + 255 + 6 = 345; the data bus busy to 372.
   z: LSU 1, partition 0's port 46..49 (after x), tag 49, L2 done 69,
   front end 69..71, queued at 87. y: LSU 2, partition 1, port 45..48,
   tag 48, L2 done 68, front end 71..73, queued at 89.
   At 345 both wait; y hits the open row and goes first though younger:
   CAS from 345, the burst waits for the bus until 372, in NVM at 378.
   z at 351 (command bus 347, bank 351): row 0 is dirty, so it is written
   back (864) and row 1 activated (255): CAS at 1470, data 1497..1503.
   wt_ack = nvm acknowledges each when written: x at 414..416, y 420..422,
   z 1545..1547. The sfence (at 3, the warp free at 4) waits until 1547.
   In arrival order (FCFS) y would have found row 1 open and paid another
   write-back and activation. */
static void test_row_hit_first(void **state)
{
    TmCosts c = timed("test row\n" ONE_BANK "pm a[272] = 0\n"
                      "kernel k grid 1 block 1 {\n"
                      "  st.wt a[0], 1\n  st.wt a[256], 1\n  st.wt a[16], 1\n"
                      "  sfence\n}\n", LIT_HW);
    (void)state;
    assert_int_equal(c.status, TM_OK);
    assert_int_equal(c.cycles, 1547);
    assert_int_equal(c.stall_fence, 1547 - 4);
    assert_int_equal(c.nvm_writes, 3);
    assert_int_equal(c.nvm_bytes, 24);
    assert_int_equal(c.wpq_peak, 3);
}

/* Read priority: x (row 0) goes at 84 and keeps the bank to 345; z (line
   16, row 1) is queued at 87; the load of line 32 (row 2) misses L1 (LSU
   2, port 49..51, tag 51, L2 done 71: a miss) and its fill is queued at
   89 (front end 71..73). At 345 the read goes first though the write is
   older: row 0 is dirty, written back (864), row 2 activated (255): CAS
   1464, data 1491..1497; the line reaches the SM at 1539 and takes its
   port 7 cycles: r0 ready at 1546. Then z at 1470: row 2 is clean, only
   the activation: CAS 1725, in NVM at 1758, ack 1800..1802. The sfence
   (at 3, free at 4) waits for x and z: until 1802; the add issues at
   1802: 1803 cycles. */
static void test_read_priority(void **state)
{
    TmCosts c = timed("test rd\n" ONE_BANK "pm a[528] = 0\n"
                      "kernel k grid 1 block 1 {\n"
                      "  st.wt a[0], 1\n  st.wt a[256], 1\n  ld r0, a[512]\n"
                      "  sfence\n  add r1, r0, 1\n}\n", LIT_HW);
    (void)state;
    assert_int_equal(c.cycles, 1803);
    assert_int_equal(c.stall_fence, 1802 - 4);
    assert_int_equal(c.stall_mem, 0);
    assert_int_equal(c.nvm_writes, 2);
}

/* Write drain. Three write-throughs to lines 0, 1, 2 (row 0, partitions 0,
   1, 2) and a load of line 3, then a use of the load and an sfence. x goes
   at 84 (bank free at 345, in NVM at 372, ack 414..416); y is queued at
   86, z at 88 (front ends 68..70, 70..72), the fill of line 3 at 90 (LSU
   3, port 46..48, tag 48, L2 done 68, front end 72..74).
   wpq_high = 2, wpq_low = 1: z's arrival makes two writes queued, so the
   controller drains, and at 345 y goes before the read (CAS 345, the bus
   at 372, in NVM 378, ack 420..422). One write is left queued, at the low
   watermark: draining stops and the read goes at 351 (command bus 347,
   bank 351): data 378..384, at the SM 426..433: r0 ready at 433. z at
   357: data 384..390, ack at 432, the port free at 433: 433..435. The add
   waits for r0 from 4 to 433 (429 memory cycles), the sfence issues at
   434 and z's ack comes at 435: no fence stall. 435 cycles.
   With the default watermarks (40, 20) two queued writes do not drain:
   the read goes at 345 (data 372..378, r0 at 420..427), y at 351 (ack
   427..429), z at 357 (ack 432..434). The add waits 4..427 (423), the
   sfence issues at 428 and waits 429..434 (5): 434 cycles. */
static void test_write_drain_watermarks(void **state)
{
    const char *body = "pm a[64] = 0\nkernel k grid 1 block 1 {\n"
                       "  st.wt a[0], 1\n  st.wt a[16], 1\n  st.wt a[32], 1\n"
                       "  ld r0, a[48]\n  add r1, r0, 1\n  sfence\n}\n";
    char text[512];
    TmCosts c;
    (void)state;
    snprintf(text, sizeof text, "test wm\n" ONE_BANK "config wpq_high = 2\n"
             "config wpq_low = 1\n%s", body);
    c = timed(text, LIT_HW);
    assert_int_equal(c.cycles, 435);
    assert_int_equal(c.stall_mem, 429);
    assert_int_equal(c.stall_fence, 0);
    snprintf(text, sizeof text, "test wm\n" ONE_BANK "%s", body);
    c = timed(text, LIT_HW);
    assert_int_equal(c.cycles, 434);
    assert_int_equal(c.stall_mem, 423);
    assert_int_equal(c.stall_fence, 5);
}

/* wpq_entries = 1, wt_ack = wpq: two write-throughs to lines 0 and 1. x:
   accepted at 84 (acknowledged then: 126..128), in NVM at 372. y: L2 done
   67, front end 68..70, there at 88: the WPQ is full, y waits
   (back-pressure) until x is written at 372, is accepted and acknowledged
   then (414..416) and written on the open row: CAS 372, burst 399..405.
   The sfence at 2 (free at 3) waits until 416. */
static void test_wpq_backpressure(void **state)
{
    TmCosts c = timed("test bp\n" ONE_BANK "config wpq_entries = 1\n"
                      "config wt_ack = wpq\npm x = 0\npm y = 0\n"
                      "kernel k grid 1 block 1 {\n"
                      "  st.wt x, 1\n  st.wt y, 2\n  sfence\n}\n", LIT_HW);
    (void)state;
    assert_int_equal(c.cycles, 416);
    assert_int_equal(c.stall_fence, 416 - 3);
    assert_int_equal(c.wpq_peak, 1);
    assert_int_equal(c.nvm_writes, 2);
    assert_int_equal(c.nvm_bytes, 16);
}

/* wt_ack decides when a write-through counts as done, in every model's
   timing: st.wt x; sfence takes 416 cycles with wt_ack = nvm (in NVM at
   372) and 128 with wt_ack = wpq (accepted at 84), the WPQ durable or
   not. (Under strict the store is fenced itself and the sfence issues
   after it, one cycle more; with a volatile WPQ strict's reference waits
   for NVM whatever wt_ack says.) */
static void test_wt_ack(void **state)
{
    static const char *const cfg[4] = {
        "", "config wt_ack = wpq\n", "config wpq = volatile\n",
        "config wpq = volatile\nconfig wt_ack = wpq\n"
    };
    static const int64_t want[4] = {416, 128, 416, 128};
    (void)state;
    for (int i = 0; i < 4; i++) {
        char text[256];
        snprintf(text, sizeof text, "test ack\n%spm x = 0\n"
                 "kernel k grid 1 block 1 {\n  st.wt x, 1\n  sfence\n}\n",
                 cfg[i]);
        for (int m = LIT_EPOCH; m < LIT_NMODELS; m++)
            assert_int_equal(timed(text, m).cycles, want[i]);
        assert_int_equal(timed(text, LIT_STRICT).cycles,
                         (i == 3 ? 416 : want[i]) + 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_hit_first),
        cmocka_unit_test(test_read_priority),
        cmocka_unit_test(test_write_drain_watermarks),
        cmocka_unit_test(test_wpq_backpressure),
        cmocka_unit_test(test_wt_ack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
