/*
 * timing_int.h — private to the timing layer (timing/tm_*.c).
 *
 * The timed run is a discrete-event simulation. One heap orders every
 * event by (time, sequence number), so equal times resolve in the order
 * events were posted and the run is deterministic. Three kinds of event: a
 * warp tries to issue (EV_WARP), a memory request reaches its next stage
 * (EV_REQ), a memory controller may issue a command (EV_MC). The SMs'
 * load/store units and input ports, the partitions' input and tag ports and
 * the controllers' front ends are first-come first-served servers: a
 * request that arrives at time a starts at max(a, free) and holds the
 * server for its occupancy. Behind its front end a controller keeps a read
 * queue and a write queue (the WPQ) per bank and schedules them FR-FCFS
 * with read priority and write-drain watermarks (tm_mc.c); banks keep an
 * open row each, and one data bus per controller carries every burst.
 *
 * Files: tm_run.c (tm_run, set-up, the event loop, launches and joins,
 * errors), tm_cta.c (CTA occupancy and dispatch in waves), tm_warp.c (SIMT
 * issue and what each instruction sends), tm_pbar.c (the persistency
 * models' reference implementations: flush batches, collective persist
 * barriers, psync), tm_mem.c (requests through crossbar and L2), tm_mc.c
 * (memory controllers: queues, scheduling, banks, row buffers), tm_cache.c
 * (set-associative tag arrays), tm_cost.c (the metric table). Times are
 * core cycles.
 */
#ifndef GPMC_TIMING_INT_H
#define GPMC_TIMING_INT_H

#include <assert.h>
#include <setjmp.h>

#include "timing/timing.h"

typedef int64_t Tick;
#define TICK_NONE INT64_MAX

/* Parameters the configuration keys do not name (specs/timing.md). */
enum {
    TM_SM_ISSUE = 2,        /* warp instructions one SM issues per cycle */
    TM_L1_LAT = 20,         /* core cycles: L1 hit, shared memory access */
    TM_L1_WAYS = 4,
    TM_L2_LAT = 20,         /* core cycles: L2 tag and data access */
    TM_L2_WAYS = 8,
    TM_ICNT_LAT = 32,       /* icnt cycles: one crossbar traversal */
    TM_FLIT = 32,           /* bytes of payload per flit */
    TM_MC_LAT = 12,         /* mem cycles: controller front end */
    TM_STARVE = 64,         /* warp issues a ready thread may be passed */
    TM_PB_ENTRIES = 256     /* an SM's in-order persist buffer (tm_pipe.c;
                               ours, measured: specs/timing.md) */
};

enum { EV_WARP, EV_REQ, EV_MC };

typedef struct {
    Tick t;
    uint64_t seq;
    int32_t kind, id, gen;              /* gen: launch of an EV_WARP */
} TmEvent;

typedef struct {
    int32_t *v;
    size_t n, cap;
} TmVec;

/* ---- memory requests ---------------------------------------------------- */

enum {
    RQ_LOAD,        /* a warp's line read after an L1 miss */
    RQ_MERGED,      /* a load waiting for another load's L1 fill */
    RQ_STORE,       /* st: write-back path, write-allocate at L2 */
    RQ_WT,          /* st.wt, and strict's written-through stores */
    RQ_ATOM,        /* atomic read-modify-write at L2 */
    RQ_FLUSH,       /* clwb, clflush, a barrier's flush of one line */
    RQ_L2WB,        /* l2wb at one partition */
    RQ_DRAIN,       /* wait for one controller's writes to be written */
    RQ_WB,          /* eviction writeback, nobody waits for it */
    RQ_FILL         /* L2 fill from memory */
};

/* Stages: where the request goes next. */
enum {
    S_PART, S_L2, S_L2DONE, S_MC, S_MCDONE, S_FILLED, S_WRITTEN, S_SM,
    S_DONE
};

enum {
    F_INVAL = 1,        /* clflush: drop the L2 and L1 copies */
    F_ACKNVM = 2,       /* acknowledge once written to NVM, not once queued */
    F_THROUGH = 4,      /* atomic: also written through (strict) */
    F_WRITE = 8,        /* counts in its warp's outstanding writes */
    F_PIPE = 16,        /* an entry of its SM's persist buffer (tm_pipe.c) */
    F_WAYWAIT = 32      /* in a fill's waiters for a way of its set, not data */
};

typedef struct {
    uint8_t kind, stage, space, flags;
    int32_t reg;                        /* register a load writes, or -1 */
    int32_t line;                       /* line in its space; drain: ctrl */
    int32_t sm;
    int32_t warp, batch;                /* told at completion, or -1 */
    int32_t bytes;                      /* payload toward memory */
    int32_t next;                       /* link: a queue, a chain, free */
    int32_t waiters;                    /* chain of requests waiting on it */
    int32_t way;                        /* fill: L2 line; load: L1 line */
    int32_t bank, row;                  /* at the controller */
    int32_t rkey;                       /* its (controller, bank, row) in
                                           its space (tm_mc.c) */
    int32_t prev, rnext;                /* queued at a bank: the bank's
                                           list back, its row's chain */
    int32_t wait;                       /* drain: writes it waits for */
    int64_t seq;                        /* at the controller: arrival */
    int64_t pbe;                        /* F_PIPE: its persist buffer entry */
} TmReq;

/* ---- caches --------------------------------------------------------------- */

typedef struct {
    int32_t tag;                        /* global line id, -1 invalid */
    int32_t fill;                       /* request filling it, or -1 */
    uint32_t lru;
    uint8_t dirty;
} TmLine;

typedef struct {
    int32_t sets, ways;                 /* ways 0: no cache */
    uint32_t clock;
    TmLine *l;
} TmCache;

/* ---- hierarchy -------------------------------------------------------------- */

/*
 * PERSIST PIPELINING (tm_pipe.c; specs/timing.md, "Persist pipelining"):
 * how strict persistency's reference hardware persists every PM store
 * without a round trip per store (MdlPolicy.pipe = MDL_PIPE_INORDER).
 *
 * Each SM has one persist buffer. A PM store (and atomic) of a model whose
 * stores persist as they issue enters its SM's buffer as one entry per
 * line the warp writes, and its write-through request leaves for the
 * hierarchy at once: entries are in flight together (pipelined), each
 * controller writes its own in arrival order. An entry is persisted when
 * its write is acknowledged (in NVM with a volatile WPQ or wt_ack = nvm,
 * accepted by a durable WPQ otherwise); the buffer retires entries in the
 * order they entered, so a later persist is never counted before an
 * earlier one of the SM: persist order follows the SM's issue order, which
 * is strict's order for the SM's threads. The warp goes on after its store
 * issues; a store that finds its SM's buffer holding TM_PB_ENTRIES or
 * more entries does not issue, and its warp waits (a fence stall) until
 * one retires (tm_warp.c, pipe_full). So the latency of a persist is
 * hidden by the other warps, as long as the buffer and the memory keep up; the memory's bandwidth is still paid in full. A fence
 * (sfence, membar) does not wait for buffered persists: the buffer already
 * keeps them in order. What forces a persist waits for the buffers: strict's
 * psync (force P) until every SM's buffer has retired every entry that
 * entered any buffer before it (a global entry number, pb_gseq), the
 * kernel's end (the join) until every request is done.
 *
 * Ours, not a document's: the buffer's size (TM_PB_ENTRIES, 256: eight
 * warp stores; specs/timing.md has the measurements), one buffer per SM,
 * and that the order between SMs is not enforced by the timing (the
 * semantics decide what a crash may see; the cost of cross-SM ordering
 * through observed values is not modelled).
 */
typedef struct {
    Tick lsu_free, port_free;
    Tick issue_t;                       /* cycle of the issues counted */
    int issued;
    int32_t ctas;                       /* resident CTAs */
    TmCache l1;
    /* The in-order persist buffer (tm_pipe.c): entries pb_head ..
       pb_tail - 1, entry e at index e - pb_base of the arrays */
    int64_t pb_base, pb_head, pb_tail;
    size_t pb_cap, pb_capg;             /* of pb_done, pb_gseq */
    uint8_t *pb_done;                   /* per entry: persisted */
    int64_t *pb_gseq;                   /* per entry: its global number */
    TmVec pb_full;                      /* warps waiting for an entry */
} TmSm;

typedef struct {
    Tick port_free, tag_free;
    TmCache l2;
} TmPart;

/* One bank of a controller: its open row, the writes buffered in it (not
   yet written to the array), and the requests queued for it, reads and
   writes apart, each list in arrival order. */
typedef struct {
    int32_t row;                        /* open row, -1 none */
    int32_t open_key;                   /* its rkey, -1 none */
    int32_t wb_head;                    /* writes in the row buffer */
    Tick free;                          /* when it takes a command */
    int32_t rd_head, rd_tail, wr_head, wr_tail;
} TmBank;

typedef struct {
    Tick fe_free;                       /* front end */
    Tick cmd_free, bus_free;            /* command bus, data bus */
    Tick sched;                         /* its pending EV_MC, or NONE */
    TmBank *bank;                       /* nbank NVM banks, nbank DRAM */
    int32_t nread;                      /* reads queued */
    int32_t nwrite;                     /* WPQ entries (queued or writing) */
    int32_t wqueued;                    /* … not yet issued to a bank */
    int64_t arrivals;                   /* requests that reached it */
    int64_t wr_in, ndone;               /* writes arrived, written */
    int32_t blk_head, blk_tail;         /* writes waiting for an entry */
    int32_t drn_head, drn_tail;         /* drains waiting */
    uint8_t draining;                   /* write-drain mode */
} TmCtrl;

/* ---- persist actions -------------------------------------------------------- */

/* What a persist barrier or psync does under a model (tm_pbar.c). */
enum {
    PA_FENCE = 1,       /* first wait for the warp's outstanding requests */
    PA_COLL = 2,        /* collective over the CTA or kernel */
    PA_FLUSH = 4,       /* write back the scope's lines */
    PA_OBS = 8,         /* … and the dirty lines it read (epoch, bepoch) */
    PA_BG = 16,         /* in the background: no stall */
    PA_WAITBG = 32,     /* wait for the background flushes ordered so far */
    PA_DRAIN = 64,      /* then drain every WPQ (hw) */
    PA_PIPE = 128       /* wait until every persist buffer has persisted
                           what it held at issue (strict's psync) */
};

enum { B_WARP, B_SCOPE, B_BG };

typedef struct {
    int32_t outstanding;
    uint8_t kind;                       /* B_*: whom completion tells */
    int32_t who;                        /* warp or scope */
} TmBatch;

enum {
    PB_FENCE, PB_ARRIVE, PB_FLUSH, PB_FLUSHWAIT, PB_DRAIN, PB_DRAINWAIT,
    PB_WAITBG, PB_PIPEWAIT, PB_END
};

/* ---- threads, warps, scopes ------------------------------------------------ */

typedef struct {
    int32_t warp;
    uint8_t done, isfree;               /* isfree: counts as arrived */
    uint8_t mwait;                      /* 1 bar.sync, 2 grid.sync */
    uint8_t coll;                       /* LIT_PBAR_WG/KR it waits at, or 0 */
    uint8_t inpb;                       /* inside a persist action */
    int64_t last_issue;                 /* its warp's issue count then */
    TmVec own;                          /* PM lines stored since its barrier */
    TmVec obs;                          /* PM lines read since (epoch) */
    TmVec bg;                           /* background batches ordering it */
} TmThread;

enum { W_NONE, W_FENCE, W_PB, W_REG, W_PIPE };
enum { C_NONE, C_FENCE, C_PBAR, C_BAR, C_MEM };

typedef struct {
    int32_t first, n;                   /* thread slots */
    int32_t sm, cta;                    /* sm: -1 until its CTA is resident */
    Tick ready;                         /* earliest next issue */
    Tick sched;                         /* its pending EV_WARP, or NONE */
    uint8_t wait;                       /* W_* */
    uint8_t pb_stage, pb_op;
    int32_t pb_batch;
    int64_t pb_target;                  /* PB_PIPEWAIT: global entry number
                                           every buffer must pass */
    int32_t wait_reg;
    int cause;                          /* C_*: open stall interval */
    Tick since;
    int64_t outstanding;                /* F_WRITE requests in flight */
    int64_t issued;
    int32_t *reg_pending;               /* per register of the kernel */
    Tick *reg_ready;
} TmWarp;

/* A collective scope: a CTA (pbar.wg) or the kernel (pbar.kr). A CTA's
   scope also tells when the CTA retires: every thread free. */
typedef struct {
    int32_t first, n;                   /* thread slots */
    int32_t ncoll, nfree;
    uint8_t op, busy, stage;
    uint8_t retired;                    /* CTA: left its SM */
    int32_t batch;
    int32_t sm;                         /* CTA: its SM, -1 until resident */
    int32_t warp0, nwarps;              /* CTA: its warps */
} TmScope;

typedef struct Tm {
    const LitProgram *p;
    Model *m;
    MdlState s;
    int kind;                           /* the timed model */
    const MdlPolicy *pol;               /* … its rules (mdl_policy) */
    const MdlHwRule *hw;                /* the hierarchy's, what hardware
                                           instructions cost in every model
                                           (mdl_hw_hierarchy) */
    jmp_buf oom;                        /* out of memory: abandon the run */
    BaseArena *arena, *larena;           /* the run's, the launch's */

    /* configuration in core cycles */
    Tick icnt_lat, mc_lat, mc_occ;
    Tick burst, cas;                    /* one line on the data bus, CAS */
    Tick act[2], close[2];              /* [space]: row activate, dirty
                                           row write-back (PM 0, DRAM 1) */
    double icnt_ratio;                  /* core cycles per icnt cycle */
    int32_t line_bytes, nsm, npart, nctrl, nbank, wpq_cap;
    int32_t wpq_high, wpq_low, row_lines;
    int32_t cta_per_sm, threads_per_sm;
    int volatile_wpq, wt_ack_nvm;
    int32_t pm_lines;
    int pcie;                           /* pm_path = pcie: PM accesses
                                           cross the PCIe link (tm_mem.c) */
    Tick pcie_lat;                      /* a PM access's round trip */
    double pcie_cyc_byte;               /* the link's cycles per byte */
    Tick pcie_free;                     /* when the link is free */

    TmEvent *heap;
    size_t nheap, capheap;
    uint64_t evseq;
    Tick now;

    TmReq *rq;
    size_t nrq, caprq;
    int32_t rqfree;
    TmBatch *b;
    size_t nb, capb;
    TmSm *sm;
    TmPart *part;
    TmCtrl *ctrl;
    int32_t nkeys[2];                   /* rkeys per space (PM, DRAM) */
    int32_t *row_head[2][2];            /* [class][space]: per rkey, the
                                           oldest queued request, -1 */
    int32_t *row_tail[2][2];

    /* the current launch */
    MdlLaunchView L;
    const LitKernel *k;
    int32_t launch, gen;
    int32_t nthr, nwarp, ncta;
    int32_t cta_cap;                    /* resident CTAs per SM */
    int32_t next_cta;                   /* first CTA not dispatched yet */
    TmThread *thr;
    TmWarp *w;
    TmScope *scope;                     /* ncta CTAs, then the kernel */
    int32_t *cta_bar;                   /* threads waiting at bar.sync */
    int32_t *grp;                       /* scratch: the issuing group */
    MdlInstr *dec;                      /* … each thread's instruction,
                                           decoded before its step */
    int32_t grid_wait;
    int ended;                          /* the model has left the launch */
    int64_t live;                       /* warp-owned requests in flight */
    int32_t blocked;                    /* warps in W_* != W_NONE */
    int32_t held;                       /* threads in a collective wait */
    int32_t busy_scopes;
    Tick last_issue;                    /* latest issue + 1 in the launch */
    int done;                           /* the main program has ended */

    TmVec psync;                        /* warps waiting for bg batches */
    TmVec pipewait;                     /* warps in PB_PIPEWAIT */
    int64_t pb_gseq;                    /* persist buffer entries so far */
    int32_t *stamp;                     /* per PM line: dedupe mark */
    int32_t stampv;
    int32_t *lines;                     /* scratch */
    size_t caplines;
    int64_t steps, max_steps;
    double timeout_s, deadline;         /* tm_run_timed; 0: none */
    uint32_t polls;                     /* events since the clock was read */
    TmCosts *out;
} Tm;

/* Grows arr (size_t capacity cap) to hold need elements, or abandons the
   run (out of memory). */
#define TM_GROW(t, arr, cap, need)                                          \
    do {                                                                    \
        if (BASE_GROW(arr, cap, need))                                       \
            longjmp((t)->oom, 1);                                           \
    } while (0)

/* tm_run.c */
void *tm_alloc(Tm *t, size_t n);        /* for the run; zeroed */
void *tm_lalloc(Tm *t, size_t n);       /* for the launch; zeroed */
void tm_vec_push(Tm *t, TmVec *v, int32_t x);
void tm_post(Tm *t, Tick at, int kind, int32_t id);
void tm_error(Tm *t, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
Tick tm_icnt(const Tm *t, int32_t icnt_cycles);

/* tm_cta.c */
int tm_cta_launch(Tm *t, Tick at);      /* 0, or the run ended (error) */
void tm_cta_free(Tm *t);                /* the launch's per-thread vectors */
void tm_cta_check(Tm *t, int32_t cta);  /* retires the CTA once free */

/* tm_warp.c */
void tm_warp_event(Tm *t, int32_t w);
void tm_wake(Tm *t, int32_t w, Tick at);
void tm_set_wait(Tm *t, int32_t w, int wait);
void tm_cause(Tm *t, TmWarp *w, int cause, Tick at);
void tm_warp_idle(Tm *t, TmWarp *w, int cause, Tick at);
void tm_warp_req_done(Tm *t, const TmReq *r);

/* tm_pbar.c */
void tm_pb_issue(Tm *t, int32_t w, int op, int32_t n); /* group: t->grp */
int tm_pb_advance(Tm *t, int32_t w);
int tm_pb_collective(const Tm *t, int op); /* pbar.wg/kr collective here */
void tm_thr_update(Tm *t, int32_t slot);
void tm_batch_dec(Tm *t, int32_t b);
void tm_own_add(Tm *t, TmVec *v, int32_t line);

/* tm_pipe.c */
void tm_pipe_push(Tm *t, int32_t sm, int32_t r);
void tm_pipe_done(Tm *t, const TmReq *r);
int tm_pipe_full(const Tm *t, int32_t sm);
int tm_pipe_passed(const Tm *t, int64_t target); /* every buffer */
void tm_pipe_free(Tm *t);

/* tm_mem.c */
void tm_mem_init(Tm *t);
/* Reserves a slot of SM sm's load/store unit; returns its cycle. */
Tick tm_lsu(Tm *t, int32_t sm);
/* A request from SM sm, whose LSU slot is at `start`, counted in the
   books of warp and batch (either may be -1). */
int32_t tm_mem_send(Tm *t, int kind, int space, int32_t line, int32_t sm,
                    int32_t warp, int32_t batch, int reg, unsigned flags,
                    int32_t bytes, Tick start);
/* A warp's load of one line: the cycle its register is ready on an L1
   hit, else TICK_NONE (a request is on its way and will tell the warp). */
Tick tm_mem_load(Tm *t, int space, int32_t line, int32_t sm, int32_t warp,
                 int reg, Tick start);
int32_t tm_req_new(Tm *t, int kind, int space, int32_t line, int32_t sm);
void tm_req_free(Tm *t, int32_t i);
void tm_stage_at(Tm *t, int32_t i, int stage, Tick at);
void tm_respond(Tm *t, int32_t i);      /* back across the crossbar */
void tm_req_event(Tm *t, int32_t r);
void tm_l1_inval(Tm *t, int32_t sm, int space, int32_t line);
void tm_l1_flush_all(Tm *t);
int tm_l2_dirty(Tm *t, int32_t pmline);
int64_t tm_l2_dirty_pm(Tm *t);

/* tm_mc.c */
void tm_mc_init(Tm *t);
void tm_mc_arrive(Tm *t, int32_t r);    /* past the front end */
void tm_mc_written(Tm *t, int32_t r);   /* a write's burst is over */
void tm_mc_event(Tm *t, int32_t c);

/* tm_cache.c */
void tm_cache_init(Tm *t, TmCache *c, int64_t lines, int32_t ways);
int32_t tm_cache_find(const TmCache *c, int32_t set, int32_t tag);
int32_t tm_cache_victim(const TmCache *c, int32_t set);
void tm_cache_touch(TmCache *c, int32_t idx);

#endif
