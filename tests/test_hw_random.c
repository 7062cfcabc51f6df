/*
 * test_hw_random.c — the hw model's default mode against its literal
 * semantics: on generated programs (tests/hw_gen.h) and on every test of
 * litmus/suite/hw and tests/data/hw, the default and --naive runs must
 * both finish and give the same distinct main-program crash images,
 * outcomes, verdicts (with their positive and negative counts) and runtime
 * errors, and the default mode must store no more states than --naive;
 * the corpus files must also meet their `expect hw=`. Recovery and nested
 * crashes are covered by the programs with a recover block. The same holds
 * on the scaled P01 families of issue 15, and state by state every default
 * state is a naive state whose images are the NVM its events reach.
 * By default 1000 programs of size 1 and 200 of size 2 (twice as many
 * instructions; the few too large for the naive explorer are counted and
 * skipped, at most one in twenty). For longer runs GPMC_HW_SEEDS=N runs N
 * seeds from GPMC_HW_FIRST (default 1) at size GPMC_HW_SIZE (default 1)
 * instead of the first 1000, and GPMC_HW_WALK=N walks N of them state by
 * state instead of the first 300; every other test runs as by default,
 * whatever is set. The first 300 programs also run under the five
 * abstract models against their naive mode (GPMC_ABS_SEEDS, GPMC_ABS_FIRST
 * and GPMC_ABS_SIZE choose others).
 */
#include <dirent.h>

#include "tests/check_util.h"
#include "tests/hw_gen.h"
#include "tests/project.h"
#include "model/model.h"

/* The crash images of a (default mode, projected on the words a check
   observes) are those of b (--naive) projected the same way. */
static int same_images(const LitProgram *p, int model, const ChkReport *a,
                       const ChkReport *b, char *why, size_t len)
{
    char **img = NULL;
    int n = project_images(p, model, b, &img), ok = n == a->nimages;
    assert_true(n >= 0);
    if (!ok)
        snprintf(why, len, "%d crash images, naive %d", a->nimages, n);
    for (int i = 0; ok && i < n; i++)
        if (strcmp(a->images[i], img[i])) {
            snprintf(why, len, "image %d: %s, naive %s", i, a->images[i],
                     img[i]);
            ok = 0;
        }
    for (int i = 0; i < n; i++)
        base_free(img[i]);
    base_free(img);
    return ok;
}

static int same(const LitProgram *p, int model, const ChkReport *a,
                const ChkReport *b, char *why, size_t len)
{
    if (a->status != CHK_DONE || b->status != CHK_DONE) {
        snprintf(why, len, "incomplete: %s / naive: %s",
                 a->reason ? a->reason : "done",
                 b->reason ? b->reason : "done");
        return 0;
    }
    if (!same_images(p, model, a, b, why, len))
        return 0;
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
                     i, cu_verdict_name(a->results[i].verdict),
                     (long long)a->results[i].positive,
                     (long long)a->results[i].negative,
                     cu_verdict_name(b->results[i].verdict),
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

/* Seeds [first, first+n) at the given size; partial: conditions that
   name only some words (hw_gen.h), so that the projection applies. */
static void run_seeds(int first, int n, int size, int partial)
{
    static char text[8192];
    int volatile_wpq = 0, images = 0, skipped = 0;
    int64_t states[2] = {0, 0};
    assert_true(n > 0);
    for (int seed = first; seed < first + n; seed++) {
        CuOpts dflt = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
        LitProgram *p;
        ChkReport *a, *b;
        char why[512];
        hg_program_ex((uint64_t)seed, size, partial, text, sizeof text);
        p = cu_parse(text);
        a = cu_run_opts(p, LIT_HW, &dflt);
        b = cu_run_opts(p, LIT_HW, &naive);
        if (size > 1 && b->status != CHK_DONE) {
            skipped++;              /* a larger program than naive can do */
        } else if (!same(p, LIT_HW, a, b, why, sizeof why)) {
            print_error("seed %d size %d: %s\n%s", seed, size, why, text);
            fail();
        } else if (a->states > b->states) {
            print_error("seed %d size %d: %lld states, naive %lld\n%s", seed,
                        size, (long long)a->states, (long long)b->states,
                        text);
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
    print_message("%d programs of size %d%s (%d with a volatile WPQ, %d too "
                  "large for naive) agree: %d crash images; %lld states, "
                  "naive %lld\n", n, size, partial ? ", projected" : "",
                  volatile_wpq, skipped, images, (long long)states[0],
                  (long long)states[1]);
    assert_true(skipped * 20 <= n);
}

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v ? atoi(v) : dflt;
}

/* GPMC_HW_SEEDS chooses the seeds of this test only; the tests below run
   their own whatever is set, so that an offline run tests no less. */
static void test_random_programs_agree(void **state)
{
    (void)state;
    if (getenv("GPMC_HW_SEEDS"))
        run_seeds(env_int("GPMC_HW_FIRST", 1), env_int("GPMC_HW_SEEDS", 0),
                  env_int("GPMC_HW_SIZE", 1), env_int("GPMC_HW_PARTIAL", 0));
    else
        run_seeds(1, 1000, 1, 0);
}

static void test_random_larger_programs_agree(void **state)
{
    (void)state;
    run_seeds(1, 200, 2, 0);
}

/* The same generator with conditions that name only some words: the
   default mode projects, and its images are the naive ones projected. */
static void test_projected_programs_agree(void **state)
{
    (void)state;
    run_seeds(1, 600, 1, 1);
    run_seeds(1, 100, 2, 1);
}

/* The same programs under the abstract models (hardware instructions are
   no-ops there, st.wt is st): default mode (every reduction) against
   naive. GPMC_ABS_SEEDS=N runs N seeds from GPMC_ABS_FIRST (default 1) at
   size GPMC_ABS_SIZE (default 1) instead of the first 300. */
static void test_abstract_models_agree(void **state)
{
    static char text[8192];
    int runs = 0, skipped = 0, first = env_int("GPMC_ABS_FIRST", 1);
    int n = env_int("GPMC_ABS_SEEDS", 300), size = env_int("GPMC_ABS_SIZE", 1);
    (void)state;
    for (int seed = first; seed < first + n; seed++) {
        LitProgram *p;
        hg_program((uint64_t)seed, size, text, sizeof text);
        p = cu_parse(text);
        for (int m = LIT_STRICT; m <= LIT_BSCOPED; m++) {
            CuOpts dflt = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
            ChkReport *a = cu_run_opts(p, m, &dflt);
            ChkReport *b = cu_run_opts(p, m, &naive);
            char why[512];
            if (size > 1 && b->status != CHK_DONE) {
                skipped++;          /* a larger program than naive can do */
            } else if (!same(p, m, a, b, why, sizeof why)) {
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
    print_message("%d runs under the abstract models agree (%d too large "
                  "for naive)\n", runs, skipped);
    assert_true(runs > 0);
    assert_true(skipped * 20 <= runs);
}

/* ---- state by state -------------------------------------------------

   Two checks of what each default state is, on every state the default
   mode reaches: it is a state --naive reaches too (the two modes share the
   encoding, so this is why the default mode never stores more states), and
   its crash images are exactly the NVM of the naive states its hardware
   events alone reach (hw_closure.c against a literal search). */

typedef struct {
    uint64_t **w;
    uint32_t *len;
    size_t n, cap, lcap;
    int32_t *slot;                      /* open addressing: index + 1 */
    size_t nslot;
} VSet;

static uint64_t vhash(const uint64_t *w, uint32_t len)
{
    uint64_t x = len;
    for (uint32_t i = 0; i < len; i++)
        x = (x ^ w[i]) * 0x100000001B3ull;
    return x ^ (x >> 29);
}

static int vset_find(const VSet *v, const uint64_t *w, uint32_t len)
{
    size_t i = vhash(w, len) & (v->nslot - 1);
    for (; v->slot[i]; i = (i + 1) & (v->nslot - 1)) {
        int32_t k = v->slot[i] - 1;
        if (v->len[k] == len && !memcmp(v->w[k], w, len * sizeof *w))
            return k;
    }
    return -1;
}

static void vset_rehash(VSet *v, size_t nslot)
{
    base_free(v->slot);
    v->nslot = nslot;
    v->slot = base_calloc(nslot, sizeof *v->slot);
    assert_non_null(v->slot);
    for (size_t k = 0; k < v->n; k++) {
        size_t i = vhash(v->w[k], v->len[k]) & (nslot - 1);
        while (v->slot[i])
            i = (i + 1) & (nslot - 1);
        v->slot[i] = (int32_t)k + 1;
    }
}

/* Adds s; returns 1 when it is new. */
static int vset_add(VSet *v, const MdlState *s)
{
    if (!v->nslot)
        vset_rehash(v, 64);
    if (vset_find(v, s->w, s->len) >= 0)
        return 0;
    assert_int_equal(BASE_GROW(v->w, v->cap, v->n + 1), 0);
    assert_int_equal(BASE_GROW(v->len, v->lcap, v->n + 1), 0);
    v->w[v->n] = base_malloc((s->len + 1) * sizeof *s->w);
    assert_non_null(v->w[v->n]);
    memcpy(v->w[v->n], s->w, s->len * sizeof *s->w);
    v->len[v->n] = s->len;
    v->n++;
    if (2 * v->n > v->nslot)
        vset_rehash(v, 2 * v->nslot);
    else {
        size_t i = vhash(s->w, s->len) & (v->nslot - 1);
        while (v->slot[i])
            i = (i + 1) & (v->nslot - 1);
        v->slot[i] = (int32_t)v->n;
    }
    return 1;
}

static void vset_free(VSet *v)
{
    for (size_t k = 0; k < v->n; k++)
        base_free(v->w[k]);
    base_free(v->w);
    base_free(v->len);
    base_free(v->slot);
    memset(v, 0, sizeof *v);
}

typedef struct {
    Model *m;
    uint32_t cap, pmw;
    MdlState a;                         /* scratch */
    VSet *into;
    int events_only;
    int64_t *imgs;                      /* image collection */
    size_t nimgs, capimgs;
} Walk;

static void walk_load(Walk *k, const VSet *v, size_t i)
{
    memcpy(k->a.w, v->w[i], v->len[i] * sizeof *k->a.w);
    memset(k->a.w + v->len[i], 0, (k->cap - v->len[i]) * sizeof *k->a.w);
    k->a.len = v->len[i];
}

static int on_succ(void *ctx, uint32_t step, const MdlState *s)
{
    Walk *k = ctx;
    if (!k->events_only || (step & MDL_STEP_EVENT))
        vset_add(k->into, s);
    return 0;
}

static void on_error(void *ctx, uint32_t step, const MdlError *e)
{
    (void)ctx;
    (void)step;
    (void)e;
}

/* Closes v under the successors of model m (events only, if asked),
   stopping at `limit` states; returns 0 when it stopped. */
static int explore(Walk *k, Model *m, VSet *v, int events_only, size_t limit)
{
    k->into = v;
    k->events_only = events_only;
    for (size_t i = 0; i < v->n; i++) {
        if (v->n > limit)
            return 0;
        walk_load(k, v, i);
        mdl_successors(m, &k->a, on_succ, on_error, k);
    }
    return 1;
}

static int on_image(void *ctx, const int64_t *pm, uint64_t included)
{
    Walk *k = ctx;
    (void)included;
    assert_int_equal(BASE_GROW(k->imgs, k->capimgs,
                              (k->nimgs + 1) * k->pmw), 0);
    memcpy(k->imgs + k->nimgs * k->pmw, pm, k->pmw * sizeof *pm);
    k->nimgs++;
    return 0;
}

static size_t cmp_pmw;

static int cmp_img(const void *a, const void *b)
{
    return memcmp(a, b, cmp_pmw * sizeof(int64_t));
}

/* Sorts the images collected since `from` and drops repeats; returns how
   many are left. */
static size_t distinct(Walk *k, size_t from)
{
    int64_t *base = k->imgs + from * k->pmw;
    size_t n = k->nimgs - from, m = 0;
    cmp_pmw = k->pmw;
    qsort(base, n, k->pmw * sizeof *base, cmp_img);
    for (size_t i = 0; i < n; i++)
        if (!m || memcmp(base + (m - 1) * k->pmw, base + i * k->pmw,
                         k->pmw * sizeof *base)) {
            memmove(base + m * k->pmw, base + i * k->pmw,
                    k->pmw * sizeof *base);
            m++;
        }
    k->nimgs = from + m;
    return m;
}

/* The seeds [first, first+n): programs whose naive space exceeds `limit`
   states are skipped. Returns the default states checked. */
static int64_t walk_seeds(int first, int n, int size, size_t limit)
{
    static char text[8192];
    int64_t checked = 0;
    for (int seed = first; seed < first + n; seed++) {
        LitProgram *p;
        Model *md, *mn;
        Walk k;
        VSet dflt = {0}, naive = {0};
        char err[256];
        hg_program((uint64_t)seed, size, text, sizeof text);
        p = cu_parse(text);
        md = mdl_new(p, LIT_HW, 0, err, sizeof err);
        mn = mdl_new(p, LIT_HW, 1, err, sizeof err);
        assert_non_null(md);
        assert_non_null(mn);
        memset(&k, 0, sizeof k);
        k.cap = mdl_max_words(md);
        assert_int_equal(k.cap, mdl_max_words(mn));
        k.pmw = (uint32_t)p->pm_words;
        k.a.cap = k.cap;
        k.a.w = base_calloc(k.cap, sizeof *k.a.w);
        assert_non_null(k.a.w);
        mdl_init_main(mn, &k.a);
        vset_add(&naive, &k.a);
        vset_add(&dflt, &k.a);
        if (explore(&k, mn, &naive, 0, limit)) {
            explore(&k, md, &dflt, 0, limit);
            for (size_t i = 0; i < dflt.n; i++) {
                VSet clo = {0};
                size_t nd, nn;
                if (vset_find(&naive, dflt.w[i], dflt.len[i]) < 0) {
                    print_error("seed %d: a default state --naive does not "
                                "reach\n%s", seed, text);
                    fail();
                }
                k.nimgs = 0;
                walk_load(&k, &dflt, i);
                mdl_images(md, &k.a, on_image, &k);
                nd = distinct(&k, 0);
                vset_add(&clo, &k.a);
                explore(&k, mn, &clo, 1, SIZE_MAX);
                for (size_t j = 0; j < clo.n; j++) {
                    walk_load(&k, &clo, j);
                    mdl_images(mn, &k.a, on_image, &k);
                }
                nn = distinct(&k, nd);
                if (nd != nn || memcmp(k.imgs, k.imgs + nd * k.pmw,
                                       nd * k.pmw * sizeof *k.imgs)) {
                    print_error("seed %d: a default state has %zu crash "
                                "images, the NVM its events reach %zu\n%s",
                                seed, nd, nn, text);
                    fail();
                }
                vset_free(&clo);
            }
            checked += (int64_t)dflt.n;
        }
        vset_free(&dflt);
        vset_free(&naive);
        base_free(k.a.w);
        base_free(k.imgs);
        mdl_free(md);
        mdl_free(mn);
        lit_program_free(p);
    }
    return checked;
}

static void test_states_agree(void **state)
{
    int64_t n;
    (void)state;
    if (getenv("GPMC_HW_WALK"))
        n = walk_seeds(env_int("GPMC_HW_FIRST", 1), env_int("GPMC_HW_WALK", 0),
                       env_int("GPMC_HW_SIZE", 1), 2000000);
    else
        n = walk_seeds(1, 300, 1, 20000);
    print_message("%lld default states are naive states whose images are "
                  "the NVM their events reach\n", (long long)n);
    assert_true(n > 0);
}

/* ---- scaled families ------------------------------------------------

   The shape of issue 15's P01: T threads of S PM stores each (st or
   st.wt), a pbar after every second one, on one array (16 words to a
   line: threads share lines) or on one line per word, with a durable or a
   volatile WPQ. Both modes agree and the default mode stores no more
   states than --naive. */

static void family(int t, int n, int array, int vol, int wt, char *buf,
                   size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "test P01-%dx%d\nconfig wpq = %s\n",
                                t, n, vol ? "volatile" : "durable");
    if (array)
        k += (size_t)snprintf(buf + k, len - k, "pm w[%d] = 0\n", t * n);
    for (int i = 0; !array && i < t * n; i++)
        k += (size_t)snprintf(buf + k, len - k, "pm w%d = 0\n", i);
    k += (size_t)snprintf(buf + k, len - k, "kernel k grid 1 block %d {\n", t);
    for (int i = 0; i < t; i++) {
        k += (size_t)snprintf(buf + k, len - k, "  thread %d {\n", i);
        for (int j = 0; j < n; j++) {
            k += (size_t)snprintf(buf + k, len - k, array ? "    %s w[%d], 1\n"
                                  : "    %s w%d, 1\n", wt ? "st.wt" : "st",
                                  i * n + j);
            if (j % 2)
                k += (size_t)snprintf(buf + k, len - k, "    pbar\n");
        }
        k += (size_t)snprintf(buf + k, len - k, "  }\n");
    }
    snprintf(buf + k, len - k, "}\ncheck crash ~exists (%s == 1 && %s == 0)\n",
             array ? "w[1]" : "w1", array ? "w[0]" : "w0");
}

/* Runs p under hw in both modes, which must agree, the default mode
   storing no more states than --naive; adds both counts to states. */
static void bounded(const LitProgram *p, const char *what, int64_t *states)
{
    CuOpts dflt = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
    ChkReport *a = cu_run_opts(p, LIT_HW, &dflt);
    ChkReport *b = cu_run_opts(p, LIT_HW, &naive);
    char why[512];
    if (!same(p, LIT_HW, a, b, why, sizeof why) || a->states > b->states) {
        print_error("%s: %s; %lld states, naive %lld\n", what, why,
                    (long long)a->states, (long long)b->states);
        fail();
    }
    states[0] += a->states;
    states[1] += b->states;
    chk_report_free(a);
    chk_report_free(b);
}

static void test_families_bounded(void **state)
{
    static char text[8192];
    int64_t states[2] = {0, 0};
    int runs = 0;
    (void)state;
    for (int t = 1; t <= 4; t++)
        for (int n = 2; n <= (t < 4 ? 6 : 4); n += 2)
            for (int v = 0; v < 8; v++) {
                LitProgram *p;
                if (t == 4 && (v & 6))
                    continue;           /* volatile or st.wt at 4 threads:
                                           too large for naive */
                family(t, n, v & 1, (v >> 1) & 1, (v >> 2) & 1, text,
                       sizeof text);
                p = cu_parse(text);
                bounded(p, text, states);
                runs++;
                lit_program_free(p);
            }
    print_message("%d family members: %lld states, naive %lld\n", runs,
                  (long long)states[0], (long long)states[1]);
}

/* The suite's scaled families, P01 (T threads, each storing to a line of
   its own; the checks name three words) and Lin-CtaUndo (one CTA of TPB
   threads storing to shared log and data lines, a recovery that reads
   every word), with either WPQ, at every size --naive finishes here: both
   modes agree and the default mode stores no more states. */
static void test_suite_families_bounded(void **state)
{
    static const struct {
        const char *path, *param;
        int max[2];                     /* largest size: durable, volatile */
    } fam[] = {
        {"litmus/suite/scale/P01.litmus", "T", {4, 3}},
        {"litmus/suite/seeds/lin-cta-undo.litmus", "TPB", {4, 3}},
    };
    int64_t states[2] = {0, 0};
    int runs = 0;
    (void)state;
    for (size_t f = 0; f < sizeof fam / sizeof *fam; f++)
        for (int vol = 0; vol < 2; vol++)
            for (int n = 1; n <= fam[f].max[vol]; n++) {
                LitDefine d = {fam[f].param, n};
                LitConfigSet c = {"wpq", "volatile"};
                LitOptions o = {1, &d, vol, &c};
                LitProgram *p = NULL;
                BaseDiag dg;
                char what[256];
                base_diag_init(&dg);
                assert_int_equal(lit_parse_file(fam[f].path, &o, &p, &dg), 0);
                base_diag_free(&dg);
                snprintf(what, sizeof what, "%s %s=%d%s", fam[f].path,
                         fam[f].param, n, vol ? " wpq=volatile" : "");
                bounded(p, what, states);
                runs++;
                lit_program_free(p);
            }
    print_message("%d sizes of P01 and Lin-CtaUndo: %lld states, naive "
                  "%lld\n", runs, (long long)states[0], (long long)states[1]);
}

/* Every .litmus file of dir with an `expect hw=`: both modes agree and
   every check passes. Returns the number of files checked. */
static int corpus(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t cap = 0;
    int n = 0, checked = 0;
    assert_non_null(d);
    while ((e = readdir(d))) {
        size_t k = strlen(e->d_name);
        if (k > 7 && !strcmp(e->d_name + k - 7, ".litmus")) {
            assert_int_equal(BASE_GROW(names, cap, (size_t)n + 1), 0);
            names[n] = base_malloc(k + 1);
            assert_non_null(names[n]);
            memcpy(names[n++], e->d_name, k + 1);
        }
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        char path[1024], why[512];
        CuOpts dflt = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
        LitProgram *p = NULL;
        BaseDiag dg;
        ChkReport *a, *b;
        int expects = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        base_diag_init(&dg);
        if (lit_parse_file(path, NULL, &p, &dg)) {
            print_error("%s", dg.text);
            fail();
        }
        base_diag_free(&dg);
        for (int c = 0; c < p->nchecks; c++)
            expects |= p->checks[c].expect[LIT_HW] >= 0;
        if (expects) {
            a = cu_run_opts(p, LIT_HW, &dflt);
            b = cu_run_opts(p, LIT_HW, &naive);
            if (!same(p, LIT_HW, a, b, why, sizeof why)) {
                print_error("%s: %s\n", path, why);
                fail();
            }
            assert_true(a->states <= b->states);
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
        base_free(names[i]);
    }
    base_free(names);
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
        cmocka_unit_test(test_projected_programs_agree),
        cmocka_unit_test(test_families_bounded),
        cmocka_unit_test(test_suite_families_bounded),
        cmocka_unit_test(test_corpus_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
