/*
 * test_tm_mc.c — the memory controller (timing/tm_mc.c): row-buffer
 * hits and misses, first-ready reordering, read priority, write-drain
 * watermarks, WPQ back-pressure and wt_ack. Cycle counts derived by hand.
 *
 * Every program runs one thread under hw with controllers = 1 and
 * nvm_banks = 1, so all its lines share one controller and one bank; with
 * 128-byte lines and 2048-byte rows, lines 0-15 are row 0 and line 16 is
 * row 1. Constants (test_tm_run.c gives their derivation): crossbar 42,
 * port 2 cycles per control flit (3 for 2 flits, 7 for a line), L2 20,
 * controller front end 2, latency 18, command bus 2; activate 255, CAS 27,
 * burst 6, row write-back 864.
 * A write-through issued at LSU cycle s to partition p (line p) reaches
 * the controller's front end at s + 1 + 42 + 3 + 20 = s + 66 (when ports
 * and tag ports are free) and its queues 18 after the front end takes it.
 */
#include "tests/check_timing.h"

#define ONE_BANK "config controllers = 1\nconfig nvm_banks = 1\n"

/* First ready: x (line 0, row 0), z (line 16, row 1), y (line 1, row 0).
   x: in the queue at 84, the bank idle: row 0 opens, CAS and burst: in
   the row buffer at 84 + 255 + 27 + 6 = 372. No other write waits for row
   0 yet, so the row is written back at once, 372..1236: x is in NVM at
   1236, and the bank busy until then.
   z: LSU 1, partition 0's port 46..49 (after x), tag 49, L2 done 69,
   front end 69..71, queued at 87. y: LSU 2, partition 1, port 45..48,
   tag 48, L2 done 68, front end 71..73, queued at 89.
   At 1236 both wait; y hits the open row and goes first though younger:
   CAS from 1236, burst 1263..1269, written back 1269..2133. Then z: row
   1 is activated (255), CAS 2388, burst 2415..2421, written back
   2421..3285. wt_ack = nvm acknowledges each once in NVM: x at 1278..1280,
   y 2175..2177, z 3327..3329. The sfence (at 3, the warp free at 4) waits
   until 3329. In arrival order (FCFS) z would go first and y would have to
   activate row 0 again: 255 cycles more. */
static void test_row_hit_first(void **state)
{
    TmCosts c = cu_timed("test row\n" ONE_BANK "pm a[272] = 0\n"
                         "kernel k grid 1 block 1 {\n"
                         "  st.wt a[0], 1\n  st.wt a[256], 1\n"
                         "  st.wt a[16], 1\n  sfence\n}\n", LIT_HW);
    (void)state;
    assert_int_equal(c.status, TM_OK);
    assert_int_equal(c.cycles, 3329);
    assert_int_equal(c.stall_fence, 3329 - 4);
    assert_int_equal(c.nvm_writes, 3);
    assert_int_equal(c.nvm_bytes, 24);
    assert_int_equal(c.wpq_peak, 3);
}

/* Read priority: x (row 0) goes at 84 and keeps the bank to 1236 (burst
   366..372, written back); z (line 16, row 1) is queued at 87; the load of
   line 32 (row 2) misses L1 (LSU 2, port 49..51, tag 51, L2 done 71: a
   miss) and its fill is queued at 89 (front end 71..73). At 1236 the read
   goes first though the write is older: row 2 is activated (255): CAS
   1491, data 1518..1524; the line reaches the SM at 1566 and takes its
   port 7 cycles: r0 ready at 1573. Then z at 1497 (the bank free a burst
   after the read's CAS): row 1 activated, CAS 1752, burst 1779..1785,
   written back 1785..2649, ack 2691..2693. The sfence (at 3, free at 4)
   waits for x and z: until 2693; the add issues at 2693: 2694 cycles. */
static void test_read_priority(void **state)
{
    TmCosts c = cu_timed("test rd\n" ONE_BANK "pm a[528] = 0\n"
                         "kernel k grid 1 block 1 {\n"
                         "  st.wt a[0], 1\n  st.wt a[256], 1\n  ld r0, a[512]\n"
                         "  sfence\n  add r1, r0, 1\n}\n", LIT_HW);
    (void)state;
    assert_int_equal(c.cycles, 2694);
    assert_int_equal(c.stall_fence, 2693 - 4);
    assert_int_equal(c.stall_mem, 0);
    assert_int_equal(c.nvm_writes, 2);
}

/* Write drain. Three write-throughs to lines 0, 1, 2 (row 0, partitions 0,
   1, 2) and a load of line 3, then a use of the load and an sfence. x goes
   at 84 (burst 366..372; nothing else waits for row 0, so it is written
   back 372..1236, ack 1278..1280); y is queued at 86, z at 88 (front ends
   68..70, 70..72), the fill of line 3 at 90 (LSU 3, port 46..48, tag 48,
   L2 done 68, front end 72..74).
   wpq_high = 2, wpq_low = 1: z's arrival makes two writes queued, so the
   controller drains, and at 1236 y goes before the read (CAS 1236, burst
   1263..1269; z waits for the same row, so no write-back yet). One write
   is left queued, at the low watermark: draining stops and the read goes
   at 1242 (command bus 1238, bank 1242), a row hit: data 1269..1275, at
   the SM 1317..1324: r0 ready at 1324. z at 1248: burst 1275..1281, the
   last write for row 0: y and z are written back 1281..2145, acks
   2187..2189 and 2189..2191. The add waits for r0 from 4 to 1324 (1320
   memory cycles), the sfence issues at 1325 and waits 1326..2191 (865).
   With the default watermarks (40, 20) two queued writes do not drain:
   the read goes at 1236 (data 1263..1269, r0 at 1311..1318), y at 1242,
   z at 1248, written back together as before. The add waits 4..1318
   (1314), the sfence issues at 1319 and waits 1320..2191 (871). */
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
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 2191);
    assert_int_equal(c.stall_mem, 1320);
    assert_int_equal(c.stall_fence, 865);
    snprintf(text, sizeof text, "test wm\n" ONE_BANK "%s", body);
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 2191);
    assert_int_equal(c.stall_mem, 1314);
    assert_int_equal(c.stall_fence, 871);
}

/* wpq_entries = 1, wt_ack = wpq: two write-throughs to lines 0 and 1. x:
   accepted at 84 (acknowledged then: 126..128), in NVM at 1236. y: L2
   done 67, front end 68..70, there at 88: the WPQ is full, y waits
   (back-pressure) until x is in NVM at 1236, is accepted and acknowledged
   then (1278..1280) and written on the open row (burst 1263..1269, in NVM
   at 2133, after the run). The sfence at 2 (free at 3) waits until 1280. */
static void test_wpq_backpressure(void **state)
{
    TmCosts c = cu_timed("test bp\n" ONE_BANK "config wpq_entries = 1\n"
                         "config wt_ack = wpq\npm x = 0\npm y = 0\n"
                         "kernel k grid 1 block 1 {\n"
                         "  st.wt x, 1\n  st.wt y, 2\n  sfence\n}\n", LIT_HW);
    (void)state;
    assert_int_equal(c.cycles, 1280);
    assert_int_equal(c.stall_fence, 1280 - 3);
    assert_int_equal(c.wpq_peak, 1);
    assert_int_equal(c.nvm_writes, 2);
    assert_int_equal(c.nvm_bytes, 16);
}

/* wt_ack decides when a write-through counts as done, in every model's
   timing: st.wt x; sfence takes 1280 cycles with wt_ack = nvm (in NVM at
   1236) and 128 with wt_ack = wpq (accepted at 84), the WPQ durable or
   not. (Under strict the store goes into its SM's persist buffer and the
   sfence does not wait for it, the join does: the same cycles; with a
   volatile WPQ strict's reference waits for NVM whatever wt_ack says.) */
static void test_wt_ack(void **state)
{
    static const char *const cfg[4] = {
        "", "config wt_ack = wpq\n", "config wpq = volatile\n",
        "config wpq = volatile\nconfig wt_ack = wpq\n"
    };
    static const int64_t want[4] = {1280, 128, 1280, 128};
    (void)state;
    for (int i = 0; i < 4; i++) {
        char text[256];
        snprintf(text, sizeof text, "test ack\n%spm x = 0\n"
                 "kernel k grid 1 block 1 {\n  st.wt x, 1\n  sfence\n}\n",
                 cfg[i]);
        for (int m = LIT_EPOCH; m < LIT_NMODELS; m++)
            assert_int_equal(cu_timed(text, m).cycles, want[i]);
        assert_int_equal(cu_timed(text, LIT_STRICT).cycles,
                         i == 3 ? 1280 : want[i]);
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
