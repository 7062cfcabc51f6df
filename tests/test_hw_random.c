/*
 * test_hw_random.c — the hw model's default mode against its literal
 * semantics: on generated programs (tests/hw_gen.h) and on every test of
 * litmus/suite/hw and tests/data/hw, the default and --naive runs must
 * both finish and give the same distinct main-program crash images,
 * outcomes, verdicts (with their positive and negative counts) and runtime
 * errors; the corpus files must also meet their `expect hw=`. Recovery
 * and nested crashes are covered by the programs with a recover block.
 * By default 1000 programs of size 1 and 200 of size 2 (twice as many
 * instructions; the few too large for the naive explorer are counted and
 * skipped, at most one in twenty). For longer runs GPMC_HW_SEEDS=N runs N
 * seeds from GPMC_HW_FIRST (default 1) at size GPMC_HW_SIZE (default 1),
 * and GPMC_HW_WALK=N walks N of them state by state. The first 300
 * programs also run under the five abstract models against their naive
 * mode.
 */
#include <dirent.h>

#include "tests/check_util.h"
#include "tests/hw_gen.h"
#include "model/model.h"

static int same(const ChkReport *a, const ChkReport *b, char *why,
                size_t len)
{
    if (a->status != CHK_DONE || b->status != CHK_DONE) {
        snprintf(why, len, "incomplete: %s / naive: %s",
                 a->reason ? a->reason : "done",
                 b->reason ? b->reason : "done");
        return 0;
    }
    if (a->nimages != b->nimages) {
        snprintf(why, len, "%d crash images, naive %d", a->nimages,
                 b->nimages);
        return 0;
    }
    for (int i = 0; i < a->nimages; i++)
        if (strcmp(a->images[i], b->images[i])) {
            snprintf(why, len, "image %d: %s, naive %s", i, a->images[i],
                     b->images[i]);
            return 0;
        }
    if (a->noutcomes != b->noutcomes) {
        snprintf(why, len, "%d outcomes, naive %d", a->noutcomes,
                 b->noutcomes);
        return 0;
    }
    for (int i = 0; i < a->noutcomes; i++)
        if (a->outcomes[i].phase != b->outcomes[i].phase ||
            strcmp(a->outcomes[i].state, b->outcomes[i].state)) {
            snprintf(why, len, "outcome %d: %s, naive %s", i,
                     a->outcomes[i].state, b->outcomes[i].state);
            return 0;
        }
    for (int i = 0; i < a->nresults; i++)
        if (a->results[i].verdict != b->results[i].verdict ||
            a->results[i].positive != b->results[i].positive ||
            a->results[i].negative != b->results[i].negative) {
            snprintf(why, len, "check %d: %s %lld/%lld, naive %s %lld/%lld",
                     i, a->results[i].verdict ? "Ok" : "No",
                     (long long)a->results[i].positive,
                     (long long)a->results[i].negative,
                     b->results[i].verdict ? "Ok" : "No",
                     (long long)b->results[i].positive,
                     (long long)b->results[i].negative);
            return 0;
        }
    if (a->nerrors != b->nerrors) {
        snprintf(why, len, "%d errors, naive %d", a->nerrors, b->nerrors);
        return 0;
    }
    for (int i = 0; i < a->nerrors; i++)
        if (strcmp(a->errors[i], b->errors[i])) {
            snprintf(why, len, "error %s, naive %s", a->errors[i],
                     b->errors[i]);
            return 0;
        }
    return 1;
}

/* Seeds [first, first+n) at the given size. */
static void run_seeds(int first, int n, int size)
{
    static char text[8192];
    int volatile_wpq = 0, images = 0, skipped = 0;
    int64_t states[2] = {0, 0};
    for (int seed = first; seed < first + n; seed++) {
        CuOpts dflt = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
        LitProgram *p;
        ChkReport *a, *b;
        char why[512];
        hg_program((uint64_t)seed, size, text, sizeof text);
        p = cu_parse(text);
        a = cu_run_opts(p, LIT_HW, &dflt);
        b = cu_run_opts(p, LIT_HW, &naive);
        if (size > 1 && b->status != CHK_DONE) {
            skipped++;              /* a larger program than naive can do */
        } else if (!same(a, b, why, sizeof why)) {
            print_error("seed %d size %d: %s\n%s", seed, size, why, text);
            fail();
        }
        volatile_wpq += p->config.val[LIT_CFG_WPQ] != 0;
        images += a->nimages;
        states[0] += a->states;
        states[1] += b->states;
        chk_report_free(a);
        chk_report_free(b);
        lit_program_free(p);
    }
    print_message("%d programs of size %d (%d with a volatile WPQ, %d too "
                  "large for naive) agree: %d crash images; %lld states, "
                  "naive %lld\n", n, size, volatile_wpq, skipped, images,
                  (long long)states[0], (long long)states[1]);
    assert_true(skipped * 20 <= n);
}

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v ? atoi(v) : dflt;
}

static void test_random_programs_agree(void **state)
{
    (void)state;
    if (getenv("GPMC_HW_SEEDS"))
        run_seeds(env_int("GPMC_HW_FIRST", 1), env_int("GPMC_HW_SEEDS", 0),
                  env_int("GPMC_HW_SIZE", 1));
    else
        run_seeds(1, 1000, 1);
}

static void test_random_larger_programs_agree(void **state)
{
    (void)state;
    if (!getenv("GPMC_HW_SEEDS"))
        run_seeds(1, 200, 2);
}

/* The same programs under the abstract models (hardware instructions are
   no-ops there, st.wt is st): default mode (every reduction) against
   naive. */
static void test_abstract_models_agree(void **state)
{
    static char text[8192];
    int runs = 0;
    (void)state;
    for (int seed = 1; seed <= 300; seed++) {
        LitProgram *p;
        hg_program((uint64_t)seed, 1, text, sizeof text);
        p = cu_parse(text);
        for (int m = LIT_STRICT; m <= LIT_BSCOPED; m++) {
            CuOpts dflt = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
            ChkReport *a = cu_run_opts(p, m, &dflt);
            ChkReport *b = cu_run_opts(p, m, &naive);
            char why[512];
            if (!same(a, b, why, sizeof why)) {
                print_error("seed %d, %s: %s\n%s", seed, lit_model_names[m],
                            why, text);
                fail();
            }
            runs++;
            chk_report_free(a);
            chk_report_free(b);
        }
        lit_program_free(p);
    }
    print_message("%d runs under the abstract models agree\n", runs);
}

/* ---- state by state -------------------------------------------------

   A stronger check than equal unions: walk the default mode's executions
   (every thread step and join event, depth first) and keep, next to each
   default state D, the set N of naive states the same thread steps reach
   with any hardware events between them. Then the crash images of D must
   be exactly the NVM contents of N, and every naive state in D's launch
   must look the same to the program as D. */

typedef struct {
    uint64_t **w;
    uint32_t *len;
    uint64_t *hash;
    int n, cap;
} NSet;

typedef struct {
    Model *md, *mn;
    uint32_t cap, pmw;
    MdlState a, b;                      /* scratch */
    int64_t visits, limit;
    NSet *acc;                          /* event successor collection */
    struct Succ *succ;
    int64_t *imgs;                      /* image collection */
    int nimgs, capimgs;
    const char *text;
    int seed;
} Walk;

static void nset_free(NSet *ns)
{
    for (int i = 0; i < ns->n; i++)
        free(ns->w[i]);
    free(ns->w);
    free(ns->len);
    free(ns->hash);
    memset(ns, 0, sizeof *ns);
}

static int nset_add(NSet *ns, const MdlState *s)
{
    for (int i = 0; i < ns->n; i++)
        if (ns->hash[i] == s->hash && ns->len[i] == s->len &&
            !memcmp(ns->w[i], s->w, s->len * sizeof *s->w))
            return 0;
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? 2 * ns->cap : 16;
        ns->w = realloc(ns->w, (size_t)ns->cap * sizeof *ns->w);
        ns->len = realloc(ns->len, (size_t)ns->cap * sizeof *ns->len);
        ns->hash = realloc(ns->hash, (size_t)ns->cap * sizeof *ns->hash);
    }
    ns->w[ns->n] = malloc((s->len + 1) * sizeof *s->w);
    memcpy(ns->w[ns->n], s->w, s->len * sizeof *s->w);
    ns->len[ns->n] = s->len;
    ns->hash[ns->n] = s->hash;
    ns->n++;
    return 1;
}

static void nset_load(const Walk *k, const NSet *ns, int i, MdlState *out)
{
    memcpy(out->w, ns->w[i], ns->len[i] * sizeof *out->w);
    memset(out->w + ns->len[i], 0, (k->cap - ns->len[i]) * sizeof *out->w);
    out->len = ns->len[i];
    out->hash = ns->hash[i];
}

static void on_event(void *ctx, uint32_t step, const MdlState *s)
{
    Walk *k = ctx;
    if (step & MDL_STEP_EVENT)
        nset_add(k->acc, s);
}

/* Every successor of a default state with its step (not deduplicated:
   two steps to one state may stand for different naive states). */
typedef struct Succ {
    int n;
    uint32_t step[256];
    uint64_t *w[256];
    uint32_t len[256];
} Succ;

static void on_any(void *ctx, uint32_t step, const MdlState *s)
{
    Succ *q = ((Walk *)ctx)->succ;
    assert_true(q->n < 256);
    q->step[q->n] = step;
    q->len[q->n] = s->len;
    q->w[q->n] = malloc((s->len + 1) * sizeof *s->w);
    memcpy(q->w[q->n], s->w, s->len * sizeof *s->w);
    q->n++;
}

static void on_error(void *ctx, uint32_t step, const MdlError *e)
{
    (void)ctx;
    (void)step;
    (void)e;
}

/* Adds every state hardware events reach from ns. */
static void closure(Walk *k, NSet *ns)
{
    NSet *save = k->acc;
    k->acc = ns;
    for (int i = 0; i < ns->n; i++) {
        nset_load(k, ns, i, &k->a);
        mdl_successors(k->mn, &k->a, on_event, on_error, k);
    }
    k->acc = save;
}

static int on_image(void *ctx, const int64_t *pm, uint64_t included)
{
    Walk *k = ctx;
    (void)included;
    if (k->nimgs == k->capimgs) {
        k->capimgs = k->capimgs ? 2 * k->capimgs : 64;
        k->imgs = realloc(k->imgs, (size_t)k->capimgs * k->pmw *
                                   sizeof *k->imgs);
    }
    memcpy(k->imgs + (size_t)k->nimgs * k->pmw, pm, k->pmw * sizeof *pm);
    k->nimgs++;
    return 0;
}

static size_t cmp_pmw;

static int cmp_img(const void *a, const void *b)
{
    return memcmp(a, b, cmp_pmw * sizeof(int64_t));
}

/* Sorted distinct images collected since `from`; returns how many. */
static int distinct(Walk *k, int from)
{
    int64_t *base = k->imgs + (size_t)from * k->pmw;
    int n = k->nimgs - from, m = 0;
    cmp_pmw = k->pmw;
    qsort(base, (size_t)n, k->pmw * sizeof *base, cmp_img);
    for (int i = 0; i < n; i++)
        if (!m || memcmp(base + (size_t)(m - 1) * k->pmw,
                         base + (size_t)i * k->pmw, k->pmw * sizeof *base)) {
            memmove(base + (size_t)m * k->pmw, base + (size_t)i * k->pmw,
                    k->pmw * sizeof *base);
            m++;
        }
    k->nimgs = from + m;
    return m;
}

static void agree(Walk *k, const MdlState *d, const NSet *ns)
{
    uint64_t *od = malloc((k->cap + k->pmw + 1) * sizeof *od);
    uint64_t *on = malloc((k->cap + k->pmw + 1) * sizeof *on);
    int same_launch = 0, nd, nn;
    uint32_t ld, ln;
    k->nimgs = 0;
    mdl_images(k->md, d, on_image, k);
    nd = distinct(k, 0);
    for (int i = 0; i < ns->n; i++) {
        nset_load(k, ns, i, &k->a);
        mdl_images(k->mn, &k->a, on_image, k);
    }
    nn = distinct(k, nd);
    if (nd != nn || memcmp(k->imgs, k->imgs + (size_t)nd * k->pmw,
                           (size_t)nd * k->pmw * sizeof *k->imgs)) {
        print_error("seed %d: a default state has %d crash images, the %d "
                    "naive states it stands for %d\n%s", k->seed, nd, ns->n,
                    nn, k->text);
        fail();
    }
    ld = mdl_observable(k->md, d, od);
    for (int i = 0; i < ns->n; i++) {
        nset_load(k, ns, i, &k->a);
        if (mdl_launch_index(k->mn, &k->a) != mdl_launch_index(k->md, d) ||
            mdl_terminal(k->mn, &k->a) != mdl_terminal(k->md, d))
            continue;
        same_launch++;
        ln = mdl_observable(k->mn, &k->a, on);
        if (ln != ld || memcmp(od, on, ld * sizeof *od)) {
            print_error("seed %d: a naive state looks different\n%s",
                        k->seed, k->text);
            fail();
        }
    }
    if (!same_launch) {
        print_error("seed %d: no naive state in the default state's launch"
                    "\n%s", k->seed, k->text);
        fail();
    }
    free(od);
    free(on);
}

/* Default state d (its words) with the naive states ns it stands for. */
static void walk(Walk *k, const uint64_t *dw, uint32_t dlen, NSet *ns)
{
    Succ *q = malloc(sizeof *q);
    MdlState d;
    if (++k->visits > k->limit) {
        free(q);
        return;
    }
    q->n = 0;
    d.cap = k->cap;
    d.w = calloc(k->cap, sizeof *d.w);
    memcpy(d.w, dw, dlen * sizeof *dw);
    d.len = dlen;
    mdl_state_rehash(&d);
    agree(k, &d, ns);
    k->succ = q;
    mdl_successors(k->md, &d, on_any, on_error, k);
    for (int j = 0; j < q->n; j++) {
        NSet next = {0};
        if (q->step[j] & MDL_STEP_EVENT) {
            /* the join event: the naive states past the join */
            uint64_t *o = malloc((k->cap + k->pmw + 1) * sizeof *o);
            uint64_t *on = malloc((k->cap + k->pmw + 1) * sizeof *on);
            uint32_t lo;
            memcpy(k->b.w, q->w[j], q->len[j] * sizeof *k->b.w);
            memset(k->b.w + q->len[j], 0,
                   (k->cap - q->len[j]) * sizeof *k->b.w);
            k->b.len = q->len[j];
            mdl_state_rehash(&k->b);
            lo = mdl_observable(k->md, &k->b, o);
            for (int i = 0; i < ns->n; i++) {
                nset_load(k, ns, i, &k->a);
                if (mdl_launch_index(k->mn, &k->a) ==
                        mdl_launch_index(k->md, &k->b) &&
                    mdl_terminal(k->mn, &k->a) == mdl_terminal(k->md, &k->b) &&
                    mdl_observable(k->mn, &k->a, on) == lo &&
                    !memcmp(o, on, lo * sizeof *o))
                    nset_add(&next, &k->a);
            }
            free(o);
            free(on);
        } else {
            for (int i = 0; i < ns->n; i++) {
                MdlError e;
                nset_load(k, ns, i, &k->a);
                if (!mdl_step(k->mn, &k->a, q->step[j], NULL, &e))
                    nset_add(&next, &k->a);
            }
            closure(k, &next);
        }
        walk(k, q->w[j], q->len[j], &next);
        nset_free(&next);
    }
    for (int j = 0; j < q->n; j++)
        free(q->w[j]);
    free(q);
    free(d.w);
}

/* Walks seeds [first, first+n); programs with more than `limit` default
   paths' states are cut there. */
static void walk_seeds(int first, int n, int size, int64_t limit)
{
    static char text[8192];
    int64_t visits = 0;
    for (int seed = first; seed < first + n; seed++) {
        LitProgram *p;
        Walk k;
        NSet start = {0};
        char err[256];
        hg_program((uint64_t)seed, size, text, sizeof text);
        p = cu_parse(text);
        memset(&k, 0, sizeof k);
        k.md = mdl_new(p, LIT_HW, 0, err, sizeof err);
        k.mn = mdl_new(p, LIT_HW, 1, err, sizeof err);
        assert_non_null(k.md);
        assert_non_null(k.mn);
        k.cap = mdl_max_words(k.md) > mdl_max_words(k.mn)
                    ? mdl_max_words(k.md) : mdl_max_words(k.mn);
        k.pmw = (uint32_t)p->pm_words;
        k.a.cap = k.b.cap = k.cap;
        k.a.w = calloc(k.cap, sizeof *k.a.w);
        k.b.w = calloc(k.cap, sizeof *k.b.w);
        k.limit = limit;
        k.text = text;
        k.seed = seed;
        mdl_init_main(k.mn, &k.a);
        nset_add(&start, &k.a);
        closure(&k, &start);
        mdl_init_main(k.md, &k.b);
        {
            uint64_t *w0 = malloc(k.b.len * sizeof *w0);
            memcpy(w0, k.b.w, k.b.len * sizeof *w0);
            walk(&k, w0, k.b.len, &start);
            free(w0);
        }
        visits += k.visits;
        nset_free(&start);
        free(k.a.w);
        free(k.b.w);
        free(k.imgs);
        mdl_free(k.md);
        mdl_free(k.mn);
        lit_program_free(p);
    }
    print_message("%d programs of size %d: %lld default states along every "
                  "path have exactly the images of their naive states\n", n,
                  size, (long long)visits);
}

static void test_states_agree(void **state)
{
    (void)state;
    if (getenv("GPMC_HW_WALK"))
        walk_seeds(env_int("GPMC_HW_FIRST", 1), env_int("GPMC_HW_WALK", 0),
                   env_int("GPMC_HW_SIZE", 1), 200000);
    else if (!getenv("GPMC_HW_SEEDS"))
        walk_seeds(1, 300, 1, 20000);
}

/* Every .litmus file of dir with an `expect hw=`: both modes agree and
   every check passes. Returns the number of files checked. */
static int corpus(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    int n = 0, checked = 0;
    assert_non_null(d);
    while ((e = readdir(d))) {
        size_t k = strlen(e->d_name);
        if (k > 7 && !strcmp(e->d_name + k - 7, ".litmus")) {
            names = realloc(names, (size_t)(n + 1) * sizeof *names);
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        char path[1024], why[512];
        CuOpts dflt = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
        LitProgram *p = NULL;
        LitDiag dg;
        ChkReport *a, *b;
        int expects = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        lit_diag_init(&dg);
        if (lit_parse_file(path, NULL, &p, &dg)) {
            print_error("%s", dg.text);
            fail();
        }
        lit_diag_free(&dg);
        for (int c = 0; c < p->nchecks; c++)
            expects |= p->checks[c].expect[LIT_HW] >= 0;
        if (expects) {
            a = cu_run_opts(p, LIT_HW, &dflt);
            b = cu_run_opts(p, LIT_HW, &naive);
            if (!same(a, b, why, sizeof why)) {
                print_error("%s: %s\n", path, why);
                fail();
            }
            for (int c = 0; c < a->nresults; c++)
                if (!chk_result_passes(&a->results[c])) {
                    print_error("%s: check %d fails under hw\n", path, c);
                    fail();
                }
            chk_report_free(a);
            chk_report_free(b);
            checked++;
        }
        lit_program_free(p);
        free(names[i]);
    }
    free(names);
    return checked;
}

static void test_corpus_agrees(void **state)
{
    int n = corpus("litmus/suite/hw") + corpus("tests/data/hw");
    (void)state;
    assert_true(n >= 30);
    print_message("%d corpus tests agree and pass under hw\n", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_programs_agree),
        cmocka_unit_test(test_random_larger_programs_agree),
        cmocka_unit_test(test_abstract_models_agree),
        cmocka_unit_test(test_states_agree),
        cmocka_unit_test(test_corpus_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
