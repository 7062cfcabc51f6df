/*
 * test_tm_run.c — the timing layer as a whole (timing/timing.h,
 * specs/timing.md): cycle counts derived by hand from the parameters, stall
 * attribution, NVM write counts, errors, monotonicity and determinism. The
 * controller's scheduling has its own tests (test_tm_mc.c), and so has CTA
 * occupancy (test_tm_cta.c).
 *
 * Constants with the default configuration (core 1.8 GHz, icnt 1.4 GHz,
 * mem 1.2 GHz, NVM 160/480 ns, DRAM 160/160 ns, 128-byte lines, 32-byte
 * bus, row hit 15 ns):
 *   crossbar traversal  ceil(32 * 1.8/1.4)      = 42
 *   port occupancy      ceil(flits * 1.8/1.4): 1 flit 2, 2 flits 3,
 *                       5 flits (a 128-byte line) 7, 9 flits (256 bytes) 12
 *   L2 tag port         1, L2 latency 20
 *   controller          front end 2 (1 mem cycle), latency 18 (12 mem
 *                       cycles), one command per 2 cycles
 *   bank                burst 6 (4 mem cycles), CAS 27, activate 288 - 27
 *                       - 6 = 255, dirty row write-back 864 (NVM), 288
 *                       (DRAM); L1 hit 20
 * A request issued at t takes the LSU at t and leaves at t + 1; it reaches
 * its partition port at +42, the L2 tag port when the port is done, L2 is
 * done 20 after the tag port; a write-through or writeback goes to the
 * controller at once and arrives in its queues 18 after the front end
 * takes it. A write to a closed row of an idle bank is in the row buffer
 * 255 + 27 + 6 = 288 later, and in NVM once the row is written back, 864
 * after that (at once when no other write waits for the row): 1152 after
 * it arrives. An acknowledgement reaches the SM port 42 later and
 * completes when the SM port (2 per control flit) is done.
 */
#include "tests/check_timing.h"
#include "timing/timing_int.h"

static const char *lone =
    "test lone\npm x = 0\nkernel k grid 1 block 1 {\n  st x, 1\n}\n";

/* A lone store under hw: LSU 0, leaves 1, partition port 43..46 (2 flits),
   tag port 46, L2 done 66 (allocated dirty), ack at the SM port 108..110.
   The join waits for it: 110 cycles. Nothing reaches NVM during the run;
   the dirty line is the one end writeback (128 bytes).
   Under strict the store is written through, in the SM's persist buffer
   (tm_pipe.c): L2 done 66, controller 66..68, in the WPQ at 84; with
   wt_ack = nvm it is acknowledged once in NVM: row 0 of bank 0 opens
   84..339, CAS to 366, burst to 372, the row written back 372..1236; ack
   1278..1280. The warp goes on (no fence stall: the buffer has room); the
   join waits for the write until 1280; one 8-byte NVM write. */
static void test_lone_store(void **state)
{
    TmCosts c;
    (void)state;
    c = cu_timed(lone, LIT_HW);
    assert_int_equal(c.status, TM_OK);
    assert_int_equal(c.cycles, 110);
    assert_int_equal(c.stall_fence + c.stall_pbar + c.stall_bar +
                     c.stall_mem, 0);
    assert_int_equal(c.nvm_writes, 1);
    assert_int_equal(c.nvm_bytes, 128);
    assert_int_equal(c.end_writebacks, 1);
    assert_int_equal(c.l2_writebacks, 0);
    assert_int_equal(c.wpq_peak, 0);
    assert_int_equal(c.instructions, 1);
    c = cu_timed(lone, LIT_STRICT);
    assert_int_equal(c.cycles, 1280);
    assert_int_equal(c.stall_fence, 0);
    assert_int_equal(c.nvm_writes, 1);
    assert_int_equal(c.nvm_bytes, 8);
    assert_int_equal(c.end_writebacks, 0);
    assert_int_equal(c.wpq_peak, 1);
}

/* st; clwb; sfence under hw. The store as above (ack 110). clwb at 1: LSU
   1, leaves 2, port arrival 44 but busy until 46: 46..48, tag port free at
   47: 48, L2 done 68, the line is dirty: written back, controller 68..70,
   accepted 86 (a writeback is acknowledged by the WPQ), ack arrives 128,
   SM port free (110): 128..130. sfence at 2 waits until 130: 130 - 3 = 127
   fence cycles. One writeback, one NVM line write (in NVM at 86 + 1152 =
   1238, after the run), nothing dirty at the end. Every model runs the
   program's own instructions the same way. */
static void test_store_clwb_sfence(void **state)
{
    const char *text = "test clwb\npm x = 0\nkernel k grid 1 block 1 {\n"
                       "  st x, 1\n  clwb x\n  sfence\n}\n";
    (void)state;
    for (int m = LIT_EPOCH; m <= LIT_HW; m++) {
        TmCosts c = cu_timed(text, m);
        assert_int_equal(c.cycles, 130);
        assert_int_equal(c.stall_fence, 127);
        assert_int_equal(c.l2_writebacks, 1);
        assert_int_equal(c.nvm_writes, 1);
        assert_int_equal(c.nvm_bytes, 128);
        assert_int_equal(c.end_writebacks, 0);
        assert_int_equal(c.wpq_peak, 1);
        assert_int_equal(c.instructions, 3);
    }
}

/* st.wt; sfence; pcommit; sfence with a volatile WPQ and wt_ack = wpq. The
   write-through: L2 done 66, controller 66..68, accepted 84 (in NVM at
   84 + 1152 = 1236), ack 126..128. The first sfence (at 1, the warp free
   at 2) waits until 128: 126 cycles. pcommit at 128 leaves at 129 toward
   all 8 controllers, each through partition c: port 171..173, tag 173, L2
   done 193, controller 193..195, there at 211. Controllers 1-7 have
   nothing queued and answer: acks reach the SM at 253 and take its port
   one after another, 253..267. Controller 0 answers when its write is in
   NVM, 1236: ack at 1278, port 1278..1280. The second sfence (at 129)
   waits 130..1280: 1150 cycles. Total 1280. With wt_ack = nvm the
   write-through itself is acknowledged at 1236 (port 1278..1280), and
   pcommit at 1280 finds every controller empty: acks at 1405, the last
   done at 1421; fences 2..1280 and 1282..1421. */
static void test_volatile_pcommit(void **state)
{
    const char *body = "pm x = 0\nkernel k grid 1 block 1 {\n"
                       "  st.wt x, 1\n  sfence\n  pcommit\n  sfence\n}\n";
    char text[256];
    TmCosts c;
    (void)state;
    snprintf(text, sizeof text, "test pc\nconfig wpq = volatile\n"
             "config wt_ack = wpq\n%s", body);
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 1280);
    assert_int_equal(c.stall_fence, 126 + 1150);
    assert_int_equal(c.nvm_writes, 1);
    assert_int_equal(c.nvm_bytes, 8);
    assert_int_equal(c.l2_writebacks, 0);
    assert_int_equal(c.instructions, 4);
    snprintf(text, sizeof text, "test pc\nconfig wpq = volatile\n%s", body);
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 1421);
    assert_int_equal(c.stall_fence, 1278 + 139);
}

/* 32 threads of one warp store 32 words. With 256-byte lines they fill one
   line: one request of 256 bytes (9 flits: port 43..55), tag 55, L2 done
   75, ack 117..119: 119 cycles, one dirty line at the end.
   Stored 32 lines apart instead (after a mul, ready next cycle), the warp
   sends 32 requests, one LSU slot each (1..32, leaving 2..33). Line i goes
   to partition i mod 16: partition p takes line p at 44+p (port to 47+p,
   L2 done 67+p) and line p+16 at 60+p (L2 done 83+p). The acks arrive at
   109..140, one per cycle, and the SM port serves one every 2 cycles:
   109 + 2 * 32 = 173. The warp is done, so the LSU backlog is not a
   stall. 32 dirty lines at the end. */
static void test_coalescing(void **state)
{
    TmCosts c = cu_timed("test co\nconfig line_bytes = 256\npm a[32] = 0\n"
                       "kernel k grid 1 block 32 {\n  st a[%tid], 1\n}\n",
                       LIT_HW);
    (void)state;
    assert_int_equal(c.cycles, 119);
    assert_int_equal(c.end_writebacks, 1);
    assert_int_equal(c.nvm_bytes, 256);
    assert_int_equal(c.instructions, 1);
    c = cu_timed("test un\nconfig line_bytes = 256\npm a[1024] = 0\n"
                 "kernel k grid 1 block 32 {\n  mul r0, %tid, 32\n"
                 "  st a[r0], 1\n}\n", LIT_HW);
    assert_int_equal(c.cycles, 173);
    assert_int_equal(c.end_writebacks, 32);
    assert_int_equal(c.nvm_bytes, 32 * 256);
    assert_int_equal(c.stall_mem, 0);
    assert_int_equal(c.instructions, 2);
}

/* Two one-thread warps of one CTA (one SM, which issues both at 0):
   thread 0 stores x, thread 1 stores y (lines 0 and 1), then pbar.wg.
   Stores: warp 0 LSU 0, ack 108..110; warp 1 LSU 1 (ready at 2: one
   memory stall cycle), partition 1, L2 done 67, ack 109, SM port free at
   110: 110..112.
   scoped: warp 0 arrives at 1, warp 1 at 2; the release flushes x (LSU 2,
   port 45 -> 46..48, tag 48, L2 done 68, accepted 86, ack 128..130) and y
   (LSU 3, port 46 -> 47..49, tag 49, done 69, accepted 87, ack 129, port
   130..132). Both leave at 132: (132 - 2) + (132 - 3) = 259 persist-barrier
   cycles. epoch: the same flushes, but each thread waits for its own only:
   warp 0 until 130, warp 1 until 132: 128 + 129 = 257.
   bscoped: the flushes go on in the background; the join waits for the
   stores only: 112 cycles, no persist-barrier stall. hw: each warp first
   waits for its store (110, 112), the release at 112 flushes x (LSU 112,
   accepted 195, ack 237..239) and y (LSU 113, accepted 196, ack 238, port
   239..241), then drains every WPQ (LSU 241, at the controllers 324:
   controllers 2-7 answer at once; x is in NVM at 195 + 1152 = 1347, y at
   1348; acks 1389..1391 and 1390 -> 1391..1393): 1393 cycles, (1393 - 2)
   + (1393 - 3) = 2781. strict: both stores written through into the
   persist buffer, each acknowledged once in NVM (wt_ack = nvm): x at 84 +
   1152 = 1236, ack 1278..1280; y (controller 1, there at 85) at 1237, ack
   1279 -> 1280..1282; neither warp waits (pbar.wg orders nothing the
   buffer does not): the join at 1282. */
static void test_collective_barrier(void **state)
{
    const char *text =
        "test coll\npm x = 0\npm y = 0\n"
        "kernel k grid 1 block 2 warp 1 {\n"
        "  thread 0 {\n    st x, 1\n    pbar.wg\n  }\n"
        "  thread 1 {\n    st y, 1\n    pbar.wg\n  }\n}\n";
    TmCosts c;
    (void)state;
    c = cu_timed(text, LIT_SCOPED);
    assert_int_equal(c.cycles, 132);
    assert_int_equal(c.stall_pbar, 259);
    assert_int_equal(c.stall_mem, 1);
    assert_int_equal(c.l2_writebacks, 2);
    c = cu_timed(text, LIT_EPOCH);
    assert_int_equal(c.cycles, 132);
    assert_int_equal(c.stall_pbar, 257);
    c = cu_timed(text, LIT_BSCOPED);
    assert_int_equal(c.cycles, 112);
    assert_int_equal(c.stall_pbar, 0);
    assert_int_equal(c.l2_writebacks, 2);
    assert_int_equal(c.nvm_writes, 2);
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 1393);
    assert_int_equal(c.stall_pbar, 2781);
    c = cu_timed(text, LIT_STRICT);
    assert_int_equal(c.cycles, 1282);
    assert_int_equal(c.stall_fence, 0);
    assert_int_equal(c.stall_pbar, 0);
}

/* st x; pbar; psync, one thread. bepoch: the store's ack is at 110; pbar
   at 1 starts x's writeback in the background (LSU 1, port 44 -> 46..48,
   tag 48, L2 done 68, accepted 86, ack 128, port 128..130); psync at 2
   has nothing of its own left but waits for that batch: 130 - 3 = 127.
   bscoped likewise. epoch: pbar waits for the writeback itself (until
   130: 128 cycles), psync then has nothing to do: 131 cycles. hw: pbar
   first waits for the store (110), writes x back (LSU 110, accepted 193,
   ack 235..237), drains (LSU 237, controllers at 320; x is in NVM at
   193 + 1152 = 1345, its ack 1387..1389); psync = pbar again: nothing to
   wait for or write back, a drain (LSU 1389, controllers at 1472, all
   empty, 8 acks at 1514, served 2 cycles each until 1530). Stall
   (1389 - 2) + (1530 - 1390) = 1527. */
static void test_psync_waits_for_background(void **state)
{
    const char *text = "test ps\npm x = 0\nkernel k grid 1 block 1 {\n"
                       "  st x, 1\n  pbar\n  psync\n}\n";
    TmCosts c;
    (void)state;
    c = cu_timed(text, LIT_BEPOCH);
    assert_int_equal(c.cycles, 130);
    assert_int_equal(c.stall_pbar, 127);
    c = cu_timed(text, LIT_BSCOPED);
    assert_int_equal(c.cycles, 130);
    assert_int_equal(c.stall_pbar, 127);
    c = cu_timed(text, LIT_EPOCH);
    assert_int_equal(c.cycles, 131);
    assert_int_equal(c.stall_pbar, 128);
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 1530);
    assert_int_equal(c.stall_pbar, 1527);
}

/* A DRAM load and its use. ld at 0: L1 miss, LSU 0, port 43..45, tag 45,
   L2 done 65: miss, fill from controller 0 (65..67, at 83), DRAM read
   83..371, the line (5 flits) at the SM 413..420: r0 ready at 420. The add
   waits from 1 to 420 (419 memory cycles) and issues at 420. The second
   load hits L1 (LSU 421, ready 441); its add waits 422..441. 442 cycles. */
static void test_load_use(void **state)
{
    TmCosts c = cu_timed("test ld\ndram d[2] = 3\nkernel k grid 1 block 1 {\n"
                       "  ld r0, d[0]\n  add r1, r0, 1\n"
                       "  ld r2, d[1]\n  add r3, r2, 1\n}\n", LIT_HW);
    (void)state;
    assert_int_equal(c.cycles, 442);
    assert_int_equal(c.stall_mem, 419 + 19);
    assert_int_equal(c.nvm_writes, 0);
}

/* A miss in a full L2 set waits for a way. One partition of 1 KB: one set
   of 8 ways. Eight one-thread warps load PM lines 0..7 (LSU 0..7, the
   partition port 43..45, 45..47, ..., tag and L2 done 65, 67, ..., 79):
   every way of the set is being filled, each from its own controller
   (line i at controller i 65+2i..67+2i, there at 83+2i, NVM read to
   371+2i). Warp 8 stores line 8 (LSU 8, port 61..64 for 2 flits, L2 done
   84): no way is free, so the store waits for the oldest fill (line 0,
   done 371), then evicts that clean line and allocates its own. At the SM
   port line 0's data comes first (413..420), then the store's ack
   (420..422), then lines 1..7 (7 cycles each, to 471). The warp's sfence
   (at 9, blocked from 10) waits until 422: 412 fence cycles. The stored
   line is dirty at the end: one 128-byte end writeback, nothing written
   during the run. (It used to go to NVM as an 8-byte write of its own,
   acknowledged at 126.) */
static void test_full_set_waits(void **state)
{
    char text[1024];
    size_t n;
    TmCosts c;
    (void)state;
    n = (size_t)snprintf(text, sizeof text,
                         "test full\nconfig l2_kb = 1\n"
                         "config l2_partitions = 1\npm d[144] = 0\n"
                         "kernel k grid 1 block 9 warp 1 {\n");
    for (int i = 0; i < 8; i++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "  thread %d {\n    ld r0, d[%d]\n  }\n",
                              i, 16 * i);
    snprintf(text + n, sizeof text - n,
             "  thread 8 {\n    st d[128], 1\n    sfence\n  }\n}\n");
    c = cu_timed(text, LIT_HW);
    assert_int_equal(c.cycles, 471);
    assert_int_equal(c.stall_fence, 412);
    assert_int_equal(c.nvm_writes, 1);
    assert_int_equal(c.nvm_bytes, 128);
    assert_int_equal(c.end_writebacks, 1);
    assert_int_equal(c.l2_writebacks, 0);
    assert_int_equal(c.wpq_peak, 0);
}

/* Two one-thread warps: thread 0 runs 10 nops then bar.sync, thread 1
   goes straight to bar.sync at 0 and is released when thread 0 arrives at
   10: it could issue at 1 and is woken at 11: 10 bar.sync cycles. */
static void test_bar_sync_stall(void **state)
{
    TmCosts c = cu_timed("test bar\nkernel k grid 1 block 2 warp 1 {\n"
                       "  thread 0 {\n    nop\n    nop\n    nop\n    nop\n"
                       "    nop\n    nop\n    nop\n    nop\n    nop\n    nop\n"
                       "    bar.sync\n  }\n"
                       "  thread 1 {\n    bar.sync\n  }\n}\n", LIT_SCOPED);
    (void)state;
    assert_int_equal(c.cycles, 11);
    assert_int_equal(c.stall_bar, 10);
    assert_int_equal(c.instructions, 12);
}

/* The step that ends a launch finishes every thread of it, though the
   state then describes the next launch. Two 32-thread warps store two
   lines each, at 0 (LSU 0, 1 and 2, 3: ports 43..50, 44..51, 45..52,
   46..53 for 5 flits each, tags 50..53, L2 done 70..73, acks at the SM
   112..120, 2 cycles each); warp 1's step ends the launch. The join waits
   for the acks, 120, and the next kernel's nop issues then: 121 cycles,
   and no warp is charged for waiting in between. */
static void test_launch_end(void **state)
{
    TmCosts c = cu_timed("test le\npm x[64] = 0\n"
                         "kernel a grid 1 block 64 {\n  st x[%tid], 1\n}\n"
                         "kernel b grid 1 block 1 {\n  nop\n}\n", LIT_HW);
    (void)state;
    assert_int_equal(c.cycles, 121);
    assert_int_equal(c.stall_bar + c.stall_mem + c.stall_pbar, 0);
    assert_int_equal(c.instructions, 3);
}

/* Errors end the run with a result, never a failure of tm_run. */
static void test_errors(void **state)
{
    TmCosts c;
    LitProgram *p;
    char err[256];
    (void)state;
    c = cu_timed("test err\npm x = 0\nkernel k grid 1 block 2 {\n  st x, 1\n"
                 "  ld r0, x\n  assert r0 == 2\n}\n", LIT_EPOCH);
    assert_int_equal(c.status, TM_ERROR);
    assert_string_equal(c.error, "assert: assertion failed (1 == 2) "
                                 "(thread 0, line 6)");
    /* pbar.wg is collective under scoped, not under strict's engine: the
       timing model itself finds the divergence. */
    c = cu_timed("test div\nkernel k grid 1 block 2 warp 1 {\n"
                 "  thread 0 {\n    pbar.wg\n  }\n"
                 "  thread 1 {\n    bar.sync\n  }\n}\n", LIT_SCOPED);
    assert_int_equal(c.status, TM_ERROR);
    assert_string_equal(c.error, "barrier-divergence: barrier divergence in "
                        "CTA 0 of k: thread 0 waits at pbar.wg, thread 1 at "
                        "bar.sync");
    c = cu_timed("test div\nkernel k grid 1 block 2 warp 1 {\n"
                 "  thread 0 {\n    pbar.wg\n  }\n"
                 "  thread 1 {\n    bar.sync\n  }\n}\n", LIT_EPOCH);
    assert_int_equal(c.status, TM_OK);
    c = cu_timed("test dl\nkernel k grid 1 block 2 {\n  thread 0 {\n"
                 "    bar.sync\n  }\n  thread 1 {\n    grid.sync\n  }\n}\n",
                 LIT_HW);
    assert_int_equal(c.status, TM_ERROR);
    assert_string_equal(c.error, "barrier-divergence: barrier divergence in "
                        "CTA 0 of k: thread 0 waits at bar.sync, thread 1 at "
                        "grid.sync");
    p = cu_parse(lone);
    assert_int_not_equal(tm_run(p, LIT_NMODELS, 0, &c, err, sizeof err), 0);
    assert_string_equal(err, "unknown model 6");
    lit_program_free(p);
}

/* Strict writes every store through its SM's in-order persist buffer:
   each extra store costs more cycles, but the round trips overlap (16
   stores to 16 lines take well under 4 round trips of 1280 cycles, where a
   stall per store took 16), until a store finds the buffer full: then
   the warp waits for an entry to persist (a fence stall). */
static void test_more_stores_more_cycles(void **state)
{
    int64_t last = 0;
    (void)state;
    for (int n = 1; n <= 128; n *= 2) {
        char text[256];
        TmCosts c;
        snprintf(text, sizeof text,
                 "test mono\nparam N = %d\npm a[16*N] = 0\n"
                 "kernel k grid 1 block 1 {\n  mov r0, 0\nL:\n"
                 "  st a[r0], 1\n  add r0, r0, 16\n  blt r0, 16*N, L\n}\n", n);
        c = cu_timed(text, LIT_STRICT);
        assert_int_equal(c.nvm_writes, n);
        assert_true(c.cycles > last);
        if (n == 16)
            assert_true(c.cycles < 4 * 1280);
        assert_int_equal(c.stall_fence > 0, n > TM_PB_ENTRIES);
        last = c.cycles;
        c = cu_timed(text, LIT_HW);
        assert_int_equal(c.end_writebacks, n);
    }
}

/* The same program twice: the same costs, byte for byte. */
static void test_deterministic(void **state)
{
    const char *text =
        "test det\npm x[64] = 0\npm flag = 0\ndram d[64] = 3\nshared s[4]\n"
        "kernel k0 grid 2 block 64 {\n  ld r1, d[%tid]\n  add r2, r1, 1\n"
        "  st x[%tid], r2\n  st s[0], r2\n  bar.sync\n  ld r3, s[0]\n"
        "  atom.add r4, flag, 1\n  pbar.wg\n  psync\n  grid.sync\n"
        "  clflush x[%tid]\n  l2wb\n  sfence\n}\n"
        "kernel k1 grid 1 block 1 {\n  ld r0, flag\n  assert r0 == 128\n"
        "  pcommit\n  sfence\n}\n";
    (void)state;
    for (int m = 0; m < LIT_NMODELS; m++) {
        TmCosts a = cu_timed(text, m), b = cu_timed(text, m);
        assert_int_equal(a.status, TM_OK);
        assert_memory_equal(&a, &b, sizeof a);
        assert_true(a.cycles > 0);
    }
}

/* A loop that never ends stops at the step bound with TM_LIMIT:
   the thread's 100th step is the last one allowed. */
static void test_step_limit(void **state)
{
    LitProgram *p = cu_parse("test spin\npm f = 0\nkernel k grid 1 block 1 {\n"
                             "L:\n  ld r0, f\n  beq r0, 0, L\n}\n");
    TmCosts c;
    char err[256];
    (void)state;
    assert_int_equal(tm_run(p, LIT_EPOCH, 100, &c, err, sizeof err), 0);
    assert_int_equal(c.status, TM_LIMIT);
    assert_string_equal(c.error, "limit: more than 100 thread steps (a loop "
                                 "that never ends?)");
    lit_program_free(p);
}

static void test_metric_names(void **state)
{
    TmCosts c;
    (void)state;
    memset(&c, 0, sizeof c);
    c.cycles = 1;
    c.nvm_writes = 6;
    c.instructions = 11;
    assert_string_equal(tm_cost_names[0], "cycles");
    assert_string_equal(tm_cost_names[5], "nvm_writes");
    assert_string_equal(tm_cost_names[TM_NCOSTS - 1], "instructions");
    assert_int_equal(tm_cost_value(&c, 0), 1);
    assert_int_equal(tm_cost_value(&c, 5), 6);
    assert_int_equal(tm_cost_value(&c, TM_NCOSTS - 1), 11);
    assert_int_equal(tm_cost_value(&c, TM_NCOSTS), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lone_store),
        cmocka_unit_test(test_store_clwb_sfence),
        cmocka_unit_test(test_volatile_pcommit),
        cmocka_unit_test(test_coalescing),
        cmocka_unit_test(test_collective_barrier),
        cmocka_unit_test(test_psync_waits_for_background),
        cmocka_unit_test(test_load_use),
        cmocka_unit_test(test_full_set_waits),
        cmocka_unit_test(test_bar_sync_stall),
        cmocka_unit_test(test_launch_end),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_more_stores_more_cycles),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_step_limit),
        cmocka_unit_test(test_metric_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
