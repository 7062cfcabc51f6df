/*
 * mdl_time_int.h — private to the timing model (model/mdl_time*.c).
 *
 * The timed run is a discrete-event simulation. One heap orders every
 * event by (time, sequence number), so equal times resolve in the order
 * events were posted and the run is deterministic. Three kinds of event:
 * a warp tries to issue (EV_WARP), a memory request reaches its next stage
 * (EV_REQ), a write-pending queue entry finishes its NVM write (EV_WPQ).
 * Every shared resource (an SM's load/store unit and input port, a
 * partition's input port and tag port, a controller's front end, an NVM or
 * DRAM bank) is a first-come first-served server: a request that arrives
 * at time a starts at max(a, free) and holds it for its occupancy. Events
 * are processed in time order, so arrival order is service order.
 *
 * Files: mdl_time.c (API, event loop, launches, errors), mdl_time_warp.c
 * (SIMT issue and what each instruction sends), mdl_time_pbar.c (the
 * persistency models' reference implementations: flush batches,
 * collective persist barriers, psync), mdl_time_mem.c (requests through
 * interconnect, L2, controllers and WPQs), mdl_time_cache.c (set-
 * associative tag arrays). Times are core cycles.
 */
#ifndef GPMC_MDL_TIME_INT_H
#define GPMC_MDL_TIME_INT_H

#include <setjmp.h>

#include "model/model_int.h"

typedef int64_t Tick;
#define TICK_NONE INT64_MAX

/* Parameters DESIGN's configuration keys do not name (specs/timing.md). */
enum {
    TM_SM_ISSUE = 2,        /* warp instructions one SM issues per cycle */
    TM_L1_LAT = 20,         /* core cycles: L1 hit, shared memory access */
    TM_L1_WAYS = 4,
    TM_L2_LAT = 20,         /* core cycles: L2 tag and data access */
    TM_L2_WAYS = 8,
    TM_ICNT_LAT = 32,       /* icnt cycles: one crossbar traversal */
    TM_FLIT = 32,           /* bytes of payload per flit */
    TM_MC_LAT = 12,         /* mem cycles: controller front end */
    TM_STARVE = 64          /* warp issues a ready thread may be passed */
};

enum { EV_WARP, EV_REQ, EV_WPQ };

typedef struct {
    Tick t;
    uint64_t seq;
    int32_t kind, id, gen;              /* gen: launch of an EV_WARP */
} TmEvent;

typedef struct {
    int32_t *v;
    int32_t n, cap;
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
    RQ_DRAIN,       /* wait for one controller's WPQ to drain */
    RQ_WB,          /* eviction writeback, nobody waits for it */
    RQ_FILL         /* L2 fill from memory */
};

/* Stages: where the request goes next. */
enum { S_PART, S_L2, S_L2DONE, S_MC, S_MCDONE, S_FILLED, S_SM, S_DONE };

enum {
    F_INVAL = 1,        /* clflush: drop the L2 and L1 copies */
    F_PERSIST = 2,      /* acknowledge once persistent, not once queued */
    F_THROUGH = 4,      /* atomic: also written through (strict) */
    F_WRITE = 8         /* counts in its warp's outstanding writes */
};

typedef struct {
    uint8_t kind, stage, space, flags;
    int8_t reg;                         /* register a load writes, or -1 */
    int32_t line;                       /* line in its space; drain: ctrl */
    int32_t sm;
    int32_t warp, batch;                /* told at completion, or -1 */
    int32_t bytes;                      /* payload toward memory */
    int32_t next;                       /* link: a chain, the free list */
    int32_t waiters;                    /* chain of requests waiting on it */
    int32_t way;                        /* fill: L2 line; load: L1 line */
    int64_t seq;                        /* WPQ write or drain target */
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

typedef struct {
    Tick lsu_free, port_free;
    Tick issue_t;                       /* cycle of the issues counted */
    int issued;
    TmCache l1;
} TmSm;

typedef struct {
    Tick port_free, tag_free;
    TmCache l2;
} TmPart;

typedef struct {
    int64_t seq;
    int32_t bytes, ack;                 /* ack: request told when written */
} TmEntry;

typedef struct {
    Tick fe_free, last_start;
    Tick *nvm_bank, *dram_bank;
    TmEntry *ring;                      /* WPQ, FIFO */
    int32_t head, count;
    int64_t seq_in, seq_done;           /* writes arrived, written */
    int32_t blk_head, blk_tail;         /* writes waiting for an entry */
    int32_t drn_head, drn_tail;         /* drains waiting */
} TmCtrl;

/* ---- persist actions -------------------------------------------------------- */

/* What a persist barrier or psync does under a model (mdl_time_pbar.c). */
enum {
    PA_FENCE = 1,       /* first wait for the warp's outstanding requests */
    PA_COLL = 2,        /* collective over the CTA or kernel */
    PA_FLUSH = 4,       /* write back the scope's lines */
    PA_OBS = 8,         /* … and the dirty lines it read (epoch, bepoch) */
    PA_BG = 16,         /* in the background: no stall */
    PA_WAITBG = 32,     /* wait for the background flushes ordered so far */
    PA_DRAIN = 64       /* then drain every WPQ (hw) */
};

enum { B_WARP, B_SCOPE, B_BG };

typedef struct {
    int32_t outstanding;
    uint8_t kind;                       /* B_*: whom completion tells */
    int32_t who;                        /* warp or scope */
} TmBatch;

enum {
    PB_FENCE, PB_ARRIVE, PB_FLUSH, PB_FLUSHWAIT, PB_DRAIN, PB_DRAINWAIT,
    PB_WAITBG, PB_END
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

enum { W_NONE, W_FENCE, W_PB, W_REG };
enum { C_NONE, C_FENCE, C_PBAR, C_BAR, C_MEM };

typedef struct {
    int32_t first, n;                   /* thread slots */
    int32_t sm, cta;
    Tick ready;                         /* earliest next issue */
    Tick sched;                         /* its pending EV_WARP, or NONE */
    uint8_t wait;                       /* W_* */
    uint8_t pb_stage, pb_op;
    int32_t pb_batch;
    int32_t wait_reg;
    int cause;                          /* C_*: open stall interval */
    Tick since;
    int64_t outstanding;                /* F_WRITE requests in flight */
    int64_t issued;
    int32_t reg_pending[32];
    Tick reg_ready[32];
} TmWarp;

/* A collective scope: a CTA (pbar.wg) or the kernel (pbar.kr). */
typedef struct {
    int32_t first, n;                   /* thread slots */
    int32_t ncoll, nfree;
    uint8_t op, busy, stage;
    int32_t batch;
} TmScope;

typedef struct Tm {
    const LitProgram *p;
    Model *m;
    MdlState s;
    int kind;                           /* the timed model */
    jmp_buf oom;                        /* out of memory: abandon the run */
    LitArena *arena, *larena;           /* the run's, the launch's */

    /* configuration in core cycles */
    Tick icnt_lat, mc_lat, mc_occ, nvm_r, nvm_w, dram_r, dram_w;
    double icnt_ratio;                  /* core cycles per icnt cycle */
    int32_t wpl, line_bytes, nsm, npart, nctrl, nbank, wpq_cap;
    int volatile_wpq;
    int32_t pm_lines;

    TmEvent *heap;
    int32_t nheap, capheap;
    uint64_t evseq;
    Tick now;

    TmReq *rq;
    int32_t nrq, caprq, rqfree;
    TmBatch *b;
    int32_t nb, capb;
    TmSm *sm;
    TmPart *part;
    TmCtrl *ctrl;

    /* the current launch */
    const MdlLaunch *L;
    const LitKernel *k;
    int32_t launch, gen;
    int32_t nthr, nwarp, ncta;
    TmThread *thr;
    TmWarp *w;
    TmScope *scope;                     /* ncta CTAs, then the kernel */
    int32_t *cta_bar;                   /* threads waiting at bar.sync */
    int32_t *grp;                       /* scratch: the issuing group */
    MdlAccess *acc;                     /* … and what each thread did */
    int32_t grid_wait;
    int ended;                          /* the model has left the launch */
    int64_t live;                       /* warp-owned requests in flight */
    int32_t blocked;                    /* warps in W_* != W_NONE */
    int32_t held;                       /* threads in a collective wait */
    int32_t busy_scopes;
    Tick last_issue;                    /* latest issue + 1 in the launch */
    int done;                           /* the main program has ended */

    TmVec psync;                        /* warps waiting for bg batches */
    int32_t *stamp;                     /* per PM line: dedupe mark */
    int32_t stampv;
    int32_t *lines;                     /* scratch */
    int32_t nlines, caplines;
    int64_t steps, max_steps;
    MdlCosts *out;
} Tm;

/* mdl_time.c */
void *tm_alloc(Tm *t, size_t n);        /* for the run; zeroed */
void tm_grow(Tm *t, void **p, int32_t *cap, int32_t need, size_t elem);
void tm_vec_push(Tm *t, TmVec *v, int32_t x);
void tm_post(Tm *t, Tick at, int kind, int32_t id);
void tm_error(Tm *t, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
Tick tm_icnt(const Tm *t, int32_t icnt_cycles);

/* mdl_time_warp.c */
void tm_warp_event(Tm *t, int32_t w);
void tm_wake(Tm *t, int32_t w, Tick at);
void tm_set_wait(Tm *t, int32_t w, int wait);
void tm_cause(Tm *t, TmWarp *w, int cause, Tick at);
void tm_warp_idle(Tm *t, TmWarp *w, int cause, Tick at);
void tm_warp_req_done(Tm *t, const TmReq *r);

/* mdl_time_pbar.c */
void tm_pb_issue(Tm *t, int32_t w, int op, int32_t n); /* group: t->grp */
int tm_pb_advance(Tm *t, int32_t w);
void tm_thr_update(Tm *t, int32_t slot);
void tm_batch_dec(Tm *t, int32_t b);
void tm_own_add(Tm *t, TmVec *v, int32_t line);

/* mdl_time_mem.c */
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
void tm_req_event(Tm *t, int32_t r);
void tm_wpq_event(Tm *t, int32_t c);
void tm_l1_inval(Tm *t, int32_t sm, int space, int32_t line);
void tm_l1_flush_all(Tm *t);
int tm_l2_dirty(Tm *t, int32_t pmline);
int64_t tm_l2_dirty_pm(Tm *t);

/* mdl_time_cache.c */
void tm_cache_init(Tm *t, TmCache *c, int64_t lines, int32_t ways);
int32_t tm_cache_find(const TmCache *c, int32_t set, int32_t tag);
int32_t tm_cache_victim(const TmCache *c, int32_t set);
void tm_cache_touch(TmCache *c, int32_t idx);

#endif
