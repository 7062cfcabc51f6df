/*
 * check_timing.h — the timing tests' one way to time a litmus text: parse
 * it, run the timing layer under one model (no step limit), and hand back
 * the costs; tm_run failing is a test failure, a run that ends with a
 * status other than TM_OK is the caller's to check.
 */
#ifndef GPMC_TESTS_CHECK_TIMING_H
#define GPMC_TESTS_CHECK_TIMING_H

#include "tests/check_util.h"
#include "timing/timing.h"

static TmCosts cu_timed(const char *text, int model)
{
    LitProgram *p = cu_parse(text);
    TmCosts c;
    char err[256];
    assert_int_equal(tm_run(p, model, 0, &c, err, sizeof err), 0);
    lit_program_free(p);
    return c;
}

#endif
