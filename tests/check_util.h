/*
 * check_util.h — helpers for tests that run programs through the checker:
 * parse a litmus text, run one model, and read outcomes and verdicts back
 * as short strings that cmocka can compare exactly.
 */
#ifndef GPMC_TESTS_CHECK_UTIL_H
#define GPMC_TESTS_CHECK_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "checker/checker.h"

static LitProgram *cu_parse(const char *text)
{
    LitProgram *p = NULL;
    BaseDiag d;
    base_diag_init(&d);
    if (lit_parse_string("test.litmus", text, NULL, &p, &d)) {
        fprintf(stderr, "%s", d.text ? d.text : "parse failed\n");
        base_diag_free(&d);
        fail();
    }
    base_diag_free(&d);
    return p;
}

typedef struct {
    int naive, depth, list_images;
    int64_t max_states, max_steps;
} CuOpts;

/* Runs with the reductions `reduce` (CHK_R_*) of the default mode. */
static ChkReport *cu_run_reduce(const LitProgram *p, int model,
                                const CuOpts *co, unsigned reduce)
{
    ChkOptions o;
    ChkReport *r = NULL;
    char err[256];
    chk_options_default(&o);
    o.model = model;
    o.reduce = reduce;
    if (co) {
        o.naive = co->naive;
        if (co->depth)
            o.crash_depth = co->depth;
        o.list_images = co->list_images;
        if (co->max_states)
            o.max_states = co->max_states;
        if (co->max_steps)
            o.max_steps = co->max_steps;
    }
    assert_int_equal(chk_run(p, &o, &r, err, sizeof err), 0);
    return r;
}

static __attribute__((unused)) ChkReport *cu_run_opts(const LitProgram *p,
                                                      int model,
                                                      const CuOpts *co)
{
    return cu_run_reduce(p, model, co, CHK_R_ALL);
}

static __attribute__((unused)) ChkReport *cu_run(const LitProgram *p, int model)
{
    return cu_run_opts(p, model, NULL);
}

/* The helpers below return their text in one growable string each, valid
   until the helper's next call (long enough for cmocka to compare it); a
   string that ran out of memory fails the test rather than compare short. */
static __attribute__((unused)) BaseStr *cu_reset(BaseStr *s)
{
    base_str_clear(s);
    s->failed = 0;
    return s;
}

static __attribute__((unused)) const char *cu_text(const BaseStr *s)
{
    if (s->failed)
        fail_msg("out of memory in a test helper");
    return s->s ? s->s : "";
}

/* The outcomes of one phase, "state|state|…" in report order. */
static __attribute__((unused)) const char *cu_outcomes(const ChkReport *r, int phase)
{
    static BaseStr s;
    cu_reset(&s);
    for (int i = 0; i < r->noutcomes; i++)
        if (r->outcomes[i].phase == phase)
            base_str_printf(&s, "%s%s", s.len ? "|" : "", r->outcomes[i].state);
    return cu_text(&s);
}

/* A verdict as itself: "Ok", "No" or "Unknown" (an incomplete check). */
static __attribute__((unused)) const char *cu_verdict_name(int v)
{
    assert_true(v >= CHK_NO && v <= CHK_UNKNOWN);
    return chk_verdict_names[v];
}

/* Verdicts of every check, "Ok No Unknown …". */
static __attribute__((unused)) const char *cu_verdicts(const ChkReport *r)
{
    static BaseStr s;
    cu_reset(&s);
    for (int i = 0; i < r->nresults; i++)
        base_str_printf(&s, "%s%s", i ? " " : "",
                        cu_verdict_name(r->results[i].verdict));
    return cu_text(&s);
}

/* The verdict of check 0 under each abstract model, "strict=Ok …". */
static __attribute__((unused)) const char *cu_matrix(const char *text)
{
    static BaseStr s;
    LitProgram *p = cu_parse(text);
    cu_reset(&s);
    for (int m = LIT_STRICT; m <= LIT_BSCOPED; m++) {
        ChkReport *r = cu_run(p, m);
        base_str_printf(&s, "%s%s=%s", s.len ? " " : "", lit_model_names[m],
                        cu_verdict_name(r->results[0].verdict));
        chk_report_free(r);
    }
    lit_program_free(p);
    return cu_text(&s);
}

#endif
