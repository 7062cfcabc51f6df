/*
 * tm_cost.c — the metrics of a timed run (timing.h) by name, in the order
 * the results store's costs(metric, value) rows and `gpmc time` columns
 * list them.
 */
#include <stddef.h>

#include "timing/timing.h"

const char *const tm_cost_names[TM_NCOSTS] = {
    "cycles", "stall_fence", "stall_pbar", "stall_bar", "stall_mem",
    "nvm_writes", "nvm_bytes", "l2_writebacks", "wpq_peak",
    "end_writebacks", "instructions"
};

static const size_t cost_offsets[TM_NCOSTS] = {
    offsetof(TmCosts, cycles), offsetof(TmCosts, stall_fence),
    offsetof(TmCosts, stall_pbar), offsetof(TmCosts, stall_bar),
    offsetof(TmCosts, stall_mem), offsetof(TmCosts, nvm_writes),
    offsetof(TmCosts, nvm_bytes), offsetof(TmCosts, l2_writebacks),
    offsetof(TmCosts, wpq_peak), offsetof(TmCosts, end_writebacks),
    offsetof(TmCosts, instructions)
};

int64_t tm_cost_value(const TmCosts *c, int metric)
{
    if (metric < 0 || metric >= TM_NCOSTS)
        return 0;
    return *(const int64_t *)(const void *)((const char *)c +
                                            cost_offsets[metric]);
}
