/*
 * timing — what one run of a gpmc program costs on the GPU memory hierarchy
 * (DESIGN.md section 4 "Timing", specs/timing.md).
 *
 * Promises: tm_run runs the main program of p once, deterministically, on a
 * discrete-event model of the hierarchy configured by p->config (SMs with
 * bounded CTA occupancy, crossbar, L2 partitions, memory controllers with
 * read and write queues, FR-FCFS scheduling and row buffers), under the
 * reference implementation of persistency model `model` (LIT_STRICT …
 * LIT_HW), and reports what it cost. Values, control flow, barriers and
 * launches come from the model layer (model.h): the timing layer is its
 * client and decides only when each warp issues and what each instruction
 * costs. Recovery is not timed. Same program, same costs, byte for byte.
 * Stall figures are warp-cycles summed over warps. nvm_writes and nvm_bytes
 * include end_writebacks: the PM lines still dirty in L2 when the program
 * ends, written back once so that models which flush and models which do
 * not are compared on the same data.
 */
#ifndef GPMC_TIMING_H
#define GPMC_TIMING_H

#include "model/model.h"

enum { TM_OK, TM_ERROR, TM_LIMIT };

typedef struct {
    int64_t cycles;                     /* core cycles to the last join */
    int64_t stall_fence;                /* sfence, membar, strict's fence */
    int64_t stall_pbar;                 /* pbar*, psync, collective waits */
    int64_t stall_bar;                  /* bar.sync, grid.sync */
    int64_t stall_mem;                  /* operands in flight, LSU busy */
    int64_t nvm_writes;                 /* NVM line writes (WPQ entries) */
    int64_t nvm_bytes;                  /* bytes those writes carried */
    int64_t l2_writebacks;              /* dirty L2 lines written back */
    int64_t wpq_peak;                   /* most entries in one WPQ */
    int64_t end_writebacks;             /* dirty PM lines at the end */
    int64_t instructions;               /* warp instructions issued */
    int status;                         /* TM_OK, TM_ERROR, TM_LIMIT */
    char error[160];                    /* runtime error or limit, or "" */
} TmCosts;

#define TM_NCOSTS 11
/* "cycles", "stall_fence", …, "instructions": the int64 fields above in
   order, as the results store's costs(metric, value) names them. */
extern const char *const tm_cost_names[TM_NCOSTS];
int64_t tm_cost_value(const TmCosts *c, int metric);

/* 0 with *out filled (a runtime error of the program, a launch the
   configuration cannot hold or the step bound end the run with out->status
   set, never a failure); nonzero when it cannot run, message in err:
   TM_EINPUT when the program is larger than the model layer holds (a state
   of more than 2^28 words: MDL_ONE) or the configuration makes an access take more
   than 2^32 core cycles (core_ghz = 1e9 with nvm_write_ns = 1e9: costs
   would overflow), input limits both; 1 when gpmc itself cannot (unknown
   model, out of memory). max_steps bounds the thread steps of the
   run (0: TM_MAX_STEPS plus TM_STEPS_PER_THREAD per thread of the
   program's kernels). */
#define TM_EINPUT 2
#define TM_MAX_STEPS 20000000
#define TM_STEPS_PER_THREAD 1000
int tm_run(const LitProgram *p, int model, int64_t max_steps, TmCosts *out,
           char *err, size_t errlen);
/* tm_run bounded in wall-clock time too (`gpmc time --timeout`): past
   timeout_s seconds (0: no bound; the clock is read every 1024 events)
   the run ends with out->status TM_LIMIT, error "timeout (Ss)", and the
   costs of the part it ran. */
int tm_run_timed(const LitProgram *p, int model, int64_t max_steps,
                 double timeout_s, TmCosts *out, char *err, size_t errlen);

#endif
