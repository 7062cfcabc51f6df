/* fuzz_check: the whole pipeline with small limits, and the default
   explorer against --naive on the other state store (fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checker/checker.h"
#include "harness/harness.h"
#include "litmus/litmus.h"
#include "model/model.h"
#include "tests/fuzz/fuzz.h"
#include "tests/project.h"

/* Programs past these are skipped: the point is many small runs. */
enum { MAX_THREADS = 16, MAX_WORDS = 512, MAX_INSTRS = 256, MAX_CHECKS = 8 };

/* The explorations of one input share this many seconds of wall-clock time
   (GPMC_FUZZ_INPUT_S overrides it; each is bounded to CHECK_S too): twelve
   explorations of CHECK_S each, their witnesses and timed runs could pass
   libFuzzer's per-input timeout on a loaded machine (make fuzz sets it
   to FUZZ_TIMEOUT, well above this). Once spent, the models left are not
   checked: a timeout proves nothing, and only finished explorations are
   compared. */
#define INPUT_S 10.0
#define CHECK_S 2.0

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double input_budget(void)
{
    const char *e = getenv("GPMC_FUZZ_INPUT_S");
    double s = e ? strtod(e, NULL) : 0;
    return s > 0 ? s : INPUT_S;
}

static _Noreturn void broken(const LitProgram *p, int model, const char *what,
                             const char *detail)
{
    fprintf(stderr, "fuzz_check: %s under %s: %s\n", what,
            lit_model_names[model], detail ? detail : "");
    lit_print(stderr, p);
    abort();
}

static int small(const LitProgram *p)
{
    int64_t threads = 0, instrs = 0;
    for (int32_t k = 0; k < p->nkernels; k++) {
        threads += (int64_t)p->kernels[k].grid * p->kernels[k].block;
        for (int32_t b = 0; b < p->kernels[k].nbodies; b++)
            instrs += p->kernels[k].bodies[b].ninstr;
    }
    return threads <= MAX_THREADS && instrs <= MAX_INSTRS &&
           (int64_t)p->pm_words + p->dram_words + p->shared_words <=
               MAX_WORDS &&
           p->nchecks <= MAX_CHECKS;
}

static ChkReport *check(const LitProgram *p, int model, int naive,
                        double timeout_s)
{
    ChkOptions o;
    chk_options_default(&o);
    o.model = model;
    o.naive = naive;
    o.crash_depth = 2;
    o.max_states = 2000;
    o.max_steps = 200;
    o.timeout_s = timeout_s;
    o.list_images = 1;
    o.threads = 1;
    o.max_memory_kb = 512 * 1024;
    /* --naive on the store the default mode's auto does not take (the tree
       under the abstract models, flat under hw): agreeing, the two runs
       also compare the stores */
    if (naive)
        o.state = model == LIT_HW ? CHK_STATE_FLAT : CHK_STATE_TREE;
    ChkReport *r = NULL;
    char err[256];
    if (chk_run(p, &o, &r, err, sizeof err))
        broken(p, model, naive ? "chk_run --naive failed" : "chk_run failed",
               err);
    return r;
}

/* Both explorations finished: they must agree. */
/* Both explorations finished: they must agree, the naive crash images
   projected as the default mode projects them. */
static void agree(const LitProgram *p, int model, const ChkReport *a,
                  const ChkReport *n)
{
    char **img = NULL;
    int nimg = project_images(p, model, n, &img);
    if (nimg < 0)
        broken(p, model, "projecting the naive images failed", NULL);
    if (a->nimages != nimg)
        broken(p, model, "crash-image counts differ from --naive", NULL);
    for (int i = 0; i < a->nimages; i++)
        if (strcmp(a->images[i], img[i]))
            broken(p, model, "crash images differ from --naive",
                   a->images[i]);
    for (int i = 0; i < nimg; i++)
        base_free(img[i]);
    base_free(img);
    for (int i = 0; i < a->nresults; i++)
        if (a->results[i].verdict != n->results[i].verdict)
            broken(p, model, "verdicts differ from --naive",
                   a->results[i].cond);
    if (a->noutcomes != n->noutcomes)
        broken(p, model, "outcome counts differ from --naive", NULL);
    for (int i = 0; i < a->noutcomes; i++)
        if (a->outcomes[i].phase != n->outcomes[i].phase ||
            strcmp(a->outcomes[i].state, n->outcomes[i].state))
            broken(p, model, "outcomes differ from --naive",
                   a->outcomes[i].state);
}

int fuzz_check(const uint8_t *data, size_t size)
{
    BaseDiag d;
    LitProgram *p = NULL;
    base_diag_init(&d);
    int rc = lit_parse_bytes("f.litmus", (const char *)data, size, NULL, &p,
                             &d);
    base_diag_free(&d);
    if (!rc)
        fuzz_check_program(p);
    lit_program_free(p);
    return 0;
}

void fuzz_check_program(const LitProgram *p)
{
    if (!small(p))
        return;
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        abort();
    double end = now() + input_budget();
    for (int model = 0; model < LIT_NMODELS; model++) {
        double left = (end - now()) / 2;
        if (left <= 0)
            break;
        if (left > CHECK_S)
            left = CHECK_S;
        ChkReport *a = check(p, model, 0, left), *n = check(p, model, 1, left);
        if (a->nresults != p->nchecks || n->nresults != p->nchecks)
            broken(p, model, "a result is missing", NULL);
        if (a->status == CHK_DONE && n->status == CHK_DONE)
            agree(p, model, a, n);
        TmCosts costs;
        char err[256];
        if (tm_run(p, model, 20000, &costs, err, sizeof err))
            broken(p, model, "tm_run failed", err);
        h_print_report(sink, p, a, &costs, NULL);
        h_print_json(sink, p, n, NULL, NULL);
        chk_report_free(a);
        chk_report_free(n);
    }
    fclose(sink);
}
