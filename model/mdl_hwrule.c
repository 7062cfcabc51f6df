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

/* pm_path = pcie (DESIGN section 7, GPM's platform: PM in host memory
 * over PCIe, DDIO off). Every store or atomic to PM is a write-through of
 * its word, and the hw model keeps one FIFO per word (hw_model.c: a word
 * is its own line), so requests to one word complete in order and others
 * in any order; a completed one is persistent. Only membar.sys (GPM's
 * gpm_persist, __threadfence_system) waits for them; membar.cta and
 * membar.gl complete none. Lines never become dirty, so write-back
 * requests find nothing to do.
 *
 *   opcode            write  request  inval  count  fence  settle
 *   st, st.wt, atom   WT
 *   clwb, clflush     -      LINE     (clflush: yes)
 *   l2wb              -      DIRTY
 *   membar.sys                                      yes
 *   pbar*, psync                                           yes
 */
#define WT {.write = MDL_HW_WT}

const MdlHwRule mdl_hwrules_pcie[LIT_NOPCODES] = {
    [LIT_ST] = WT, [LIT_ST_WT] = WT,
    [LIT_ATOM_ADD] = WT, [LIT_ATOM_EXCH] = WT, [LIT_ATOM_CAS] = WT,
    [LIT_ATOM_AND] = WT, [LIT_ATOM_OR] = WT, [LIT_ATOM_XOR] = WT,
    [LIT_ATOM_MIN] = WT, [LIT_ATOM_MAX] = WT, [LIT_ATOM_INC] = WT,
    [LIT_ATOM_DEC] = WT,
    [LIT_CLWB] = {.request = MDL_HW_RQ_LINE},
    [LIT_CLFLUSH] = {.request = MDL_HW_RQ_LINE, .inval = 1},
    [LIT_L2WB] = {.request = MDL_HW_RQ_DIRTY},
    [LIT_MEMBAR_SYS] = {.fence = 1},
    [LIT_PBAR_WI] = {.settle = 1},
    [LIT_PBAR_WG] = {.settle = 1},
    [LIT_PBAR_KR] = {.settle = 1},
    [LIT_PSYNC] = {.settle = 1},
};

const MdlHwRule mdl_hwrules_none[LIT_NOPCODES];

const MdlHwRule *mdl_hw_hierarchy(const LitConfig *c)
{
    return c->val[LIT_CFG_PM_PATH] != 0 ? mdl_hwrules_pcie : mdl_hwrules;
}

const MdlHwRule *mdl_hw_rules(const MdlPolicy *pol, const LitConfig *c)
{
    return pol->hw == mdl_hwrules ? mdl_hw_hierarchy(c) : pol->hw;
}
