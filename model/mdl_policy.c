/*
 * mdl_policy.c — the persistency models as data (DESIGN section 4): one
 * MdlPolicy per model, read by instruction execution (mdl_exec.c: the ops
 * table; mdl_decode.c: which barriers are collective), by the models'
 * semantics (abs_model.c, abs_rules.c: the rules; model/hw/: the
 * hardware's rule table), by the reductions (what steps act on) and by the
 * timing layer (which reference implementation a barrier has). model.h
 * documents the fields.
 *
 * The rows are DESIGN's table, column by column:
 *
 *   model    store also depends on  pbar                  collective release       psync
 *   strict   all of P               -                     (not collective)         force P
 *   epoch    -                      force Own|Obs, Obs:=0 (not collective)         force Own|Obs
 *   bepoch   F                      F |= Own|Obs, Obs:=0  (not collective)         force Own|Obs|F
 *   scoped   -                      force Own             force the group's P      force Own
 *   bscoped  F                      F |= Own              every F |= group's P     force Own|F
 *   hw       (mdl_hwrules: the scope's lines written back, every WPQ drained; psync = pbar)
 *
 * `pipe` is how the reference hardware carries the persists a store forces:
 * strict's in-order persist buffers (timing/tm_pipe.c), none elsewhere
 * (their barriers force, the stores do not).
 *
 * hw's rules name the same sets as scoped's (Own, the group's), which is
 * what the timing layer's reference barrier flushes; its semantics come
 * from its ops table and the hardware's rule table.
 */
#include "model/model_int.h"

#define ABSTRACT .ops = &abs_ops, .hw = mdl_hwrules_none

static const MdlPolicy policies[LIT_NMODELS] = {
    [LIT_STRICT] = {
        .name = "strict", ABSTRACT, .store_deps = MDL_SET_ALL, .tracks = 0,
        .collective = 0,
        .pbar = {0, 0, 0}, .release = {0, 0, 0},
        .psync = {MDL_SET_ALL, 0, 0}, .pipe = MDL_PIPE_INORDER,
    },
    [LIT_EPOCH] = {
        .name = "epoch", ABSTRACT, .store_deps = 0, .tracks = MDL_SET_OBS,
        .collective = 0,
        .pbar = {MDL_SET_OWN | MDL_SET_OBS, 0, 1}, .release = {0, 0, 0},
        .psync = {MDL_SET_OWN | MDL_SET_OBS, 0, 1},
        .pipe = MDL_PIPE_NONE,
    },
    [LIT_BEPOCH] = {
        .name = "bepoch", ABSTRACT, .store_deps = MDL_SET_F,
        .tracks = MDL_SET_OBS | MDL_SET_F, .collective = 0,
        .pbar = {0, MDL_SET_OWN | MDL_SET_OBS, 1}, .release = {0, 0, 0},
        .psync = {MDL_SET_OWN | MDL_SET_OBS | MDL_SET_F, 0, 1},
        .pipe = MDL_PIPE_NONE,
    },
    [LIT_SCOPED] = {
        .name = "scoped", ABSTRACT, .store_deps = 0, .tracks = 0,
        .collective = 1,
        .pbar = {MDL_SET_OWN, 0, 0}, .release = {MDL_SET_GROUP, 0, 0},
        .psync = {MDL_SET_OWN, 0, 0},
        .pipe = MDL_PIPE_NONE,
    },
    [LIT_BSCOPED] = {
        .name = "bscoped", ABSTRACT, .store_deps = MDL_SET_F,
        .tracks = MDL_SET_F, .collective = 1,
        .pbar = {0, MDL_SET_OWN, 0}, .release = {0, MDL_SET_GROUP, 0},
        .psync = {MDL_SET_OWN | MDL_SET_F, 0, 0},
        .pipe = MDL_PIPE_NONE,
    },
    [LIT_HW] = {
        .name = "hw", .ops = &hw_ops, .hw = mdl_hwrules, .store_deps = 0,
        .tracks = 0, .collective = 1,
        .pbar = {MDL_SET_OWN, 0, 0}, .release = {MDL_SET_GROUP, 0, 0},
        .psync = {MDL_SET_OWN, 0, 0},
        .pipe = MDL_PIPE_NONE,
    },
};

const MdlPolicy *mdl_policy(int model)
{
    if (model < 0 || model >= LIT_NMODELS)
        return NULL;
    return &policies[model];
}

const MdlRule *mdl_policy_rule(const MdlPolicy *pol, int op)
{
    switch (op) {
    case LIT_PBAR_WI:
        return &pol->pbar;
    case LIT_PBAR_WG: case LIT_PBAR_KR:
        return pol->collective ? &pol->release : &pol->pbar;
    case LIT_PSYNC:
        return &pol->psync;
    default:
        return NULL;
    }
}
