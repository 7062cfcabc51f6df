/*
 * mdl_hwrule.c — what each instruction does to the GPU memory hierarchy
 * (DESIGN section 4, "hw"; model.h documents the fields, specs/hw.md the
 * rules in full). One row per opcode; every reader (the hw semantics and
 * lazy events, the reductions, the timing layer) takes its rules from
 * here. tests/test_hw.c checks the rows against lit_opinfo: a row writes
 * exactly when the opcode writes memory, and is otherwise non-empty
 * exactly for the persistency and hardware instructions.
 *
 *   opcode            write  request  inval  count  fence  settle
 *   st, atomics       WB
 *   st.wt             WT
 *   clwb              -      LINE
 *   clflush           -      LINE     yes
 *   l2wb              -      DIRTY
 *   pcommit                                  yes
 *   sfence, membar.*                                yes
 *   pbar*, psync                                           yes
 */
#include "model/model.h"

#define WB {.write = MDL_HW_WB}

const MdlHwRule mdl_hwrules[LIT_NOPCODES] = {
    [LIT_ST] = WB,
    [LIT_ST_WT] = {.write = MDL_HW_WT},
    [LIT_ATOM_ADD] = WB, [LIT_ATOM_EXCH] = WB, [LIT_ATOM_CAS] = WB,
    [LIT_ATOM_AND] = WB, [LIT_ATOM_OR] = WB, [LIT_ATOM_XOR] = WB,
    [LIT_ATOM_MIN] = WB, [LIT_ATOM_MAX] = WB, [LIT_ATOM_INC] = WB,
    [LIT_ATOM_DEC] = WB,
    [LIT_CLWB] = {.request = MDL_HW_RQ_LINE},
    [LIT_CLFLUSH] = {.request = MDL_HW_RQ_LINE, .inval = 1},
    [LIT_L2WB] = {.request = MDL_HW_RQ_DIRTY},
    [LIT_PCOMMIT] = {.count = 1},
    [LIT_SFENCE] = {.fence = 1},
    [LIT_MEMBAR_CTA] = {.fence = 1},
    [LIT_MEMBAR_SYS] = {.fence = 1},
    [LIT_PBAR_WI] = {.settle = 1},
    [LIT_PBAR_WG] = {.settle = 1},
    [LIT_PBAR_KR] = {.settle = 1},
    [LIT_PSYNC] = {.settle = 1},
};

const MdlHwRule mdl_hwrules_none[LIT_NOPCODES];
