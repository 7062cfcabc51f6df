/*
 * test_mdl_hwrule.c — the hardware's rule table (model/mdl_hwrule.c) and
 * the policy rows that point at it: every reader (the hw semantics, its
 * lazy events, the reductions, the timing layer) takes an opcode's effect
 * on the hierarchy from its row alone, so a row must agree with the
 * opcode's flags in lit_opinfo, and the fields a reader takes as
 * alternatives must not meet in one row. A new opcode (the PTX front end
 * adds some) that writes memory or is a persistency instruction without a
 * row, or with the wrong one, fails here.
 */
#include "tests/check_util.h"
#include "model/model_int.h"

/* A row writes exactly when its opcode writes memory; besides writes, a
   row is non-empty exactly for the persistency and hardware
   instructions; clwb/clflush (a flush of their word's line) request that
   line, fences fence, persist barriers and psync settle. */
static void test_rows_follow_opinfo(void **state)
{
    (void)state;
    for (int op = 0; op < LIT_NOPCODES; op++) {
        const MdlHwRule *r = &mdl_hwrules[op];
        unsigned f = lit_opflags(op);
        if (!!r->write != !!(f & LIT_OPF_WRITE) ||
            (!r->write && mdl_hwrule_acts(r) != !!(f & LIT_OPF_PERSIST)) ||
            (r->request == MDL_HW_RQ_LINE) != !!(f & LIT_OPF_FLUSH) ||
            !!r->fence != !!(f & LIT_OPF_FENCE) ||
            !!r->settle != !!(f & LIT_OPF_PBAR)) {
            print_error("row of %s\n", lit_opinfo[op].name);
            fail();
        }
    }
}

/* One effect per row: hw_hier_instr, next_needs, red_access_hier and the
   timing's issue take write, request, count, fence and settle as
   alternatives; inval qualifies a request. */
static void test_one_effect_per_row(void **state)
{
    (void)state;
    for (int op = 0; op < LIT_NOPCODES; op++) {
        const MdlHwRule *r = &mdl_hwrules[op];
        int n = !!r->write + !!r->request + !!r->count + !!r->fence +
                !!r->settle;
        if (n > 1 || (r->inval && !r->request) ||
            r->write > MDL_HW_WT || r->request > MDL_HW_RQ_DIRTY) {
            print_error("row of %s\n", lit_opinfo[op].name);
            fail();
        }
        assert_false(mdl_hwrule_acts(&mdl_hwrules_none[op]));
        assert_false(mdl_hwrules_none[op].inval);
    }
    assert_int_equal(mdl_hwrules[LIT_ST_WT].write, MDL_HW_WT);
    assert_int_equal(mdl_hwrules[LIT_ST].write, MDL_HW_WB);
    assert_int_equal(mdl_hwrules[LIT_L2WB].request, MDL_HW_RQ_DIRTY);
    assert_true(mdl_hwrules[LIT_CLFLUSH].inval);
    assert_false(mdl_hwrules[LIT_CLWB].inval);
    assert_true(mdl_hwrules[LIT_PCOMMIT].count);
}

/* Every model is one row: its semantics (an ops table with every hook)
   and its rule table. hw alone has the hardware's rules; its collective
   barriers release like scoped's. */
static void test_policy_rows(void **state)
{
    (void)state;
    assert_null(mdl_policy(-1));
    assert_null(mdl_policy(LIT_NMODELS));
    for (int k = 0; k < LIT_NMODELS; k++) {
        const MdlPolicy *pol = mdl_policy(k);
        const MdlOps *ops = pol->ops;
        assert_non_null(pol->name);
        assert_true(pol->hw == mdl_hwrules || pol->hw == mdl_hwrules_none);
        assert_true(ops->thread_words && ops->fixed_words && ops->setup &&
                    ops->init && ops->load && ops->store && ops->instr &&
                    ops->keeps && ops->release && ops->join &&
                    ops->images && ops->visible && ops->events &&
                    ops->event && ops->pending);
        assert_int_equal(pol->hw == mdl_hwrules, k == LIT_HW);
        assert_int_equal(ops == &hw_ops, k == LIT_HW);
    }
    assert_true(mdl_policy_collective(mdl_policy(LIT_HW), LIT_PBAR_WG));
    assert_true(mdl_policy_collective(mdl_policy(LIT_SCOPED), LIT_PBAR_KR));
    assert_false(mdl_policy_collective(mdl_policy(LIT_EPOCH), LIT_PBAR_WG));
    assert_false(mdl_policy_collective(mdl_policy(LIT_HW), LIT_PBAR_WI));
    assert_false(mdl_policy_collective(mdl_policy(LIT_HW), LIT_BAR_SYNC));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_follow_opinfo),
        cmocka_unit_test(test_one_effect_per_row),
        cmocka_unit_test(test_policy_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
