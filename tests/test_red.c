/*
 * test_red.c — the reductions of the default mode (model/red_por.c,
 * red_access.c, red_slice.c; specs/checker.md, "Reductions").
 *
 *  - On generated programs (tests/red_gen.h: 2-4 threads, shared and
 *    private words, loops, barriers, recovery), under every model, the
 *    default mode with each reduction alone and with all of them gives the
 *    outcomes, verdicts, errors and (projected) crash images of --naive.
 *  - The classes the partial-order reduction relies on hold on every step
 *    of every reachable state of those programs: a step classed as growing
 *    keeps every crash image of the state before it, a shrinking one adds
 *    none, an invisible one changes none.
 *  - Hand-written cases: footprints stop at barriers, counted loops are not
 *    sticky, fused steps are replayed one by one in witnesses, and the
 *    projection keeps exactly the words checks and recovery can see.
 * GPMC_RED_SEEDS=N (from GPMC_RED_FIRST, default 1) runs N seeds at size
 * GPMC_RED_SIZE (default 1) instead of the default 150 + 40.
 */
#include "tests/check_util.h"
#include "tests/red_gen.h"
#include "model/reduce/red_int.h"

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v ? atoi(v) : dflt;
}

/* Same outcomes, verdicts, errors and images (images of a projecting run
   against the naive ones projected by the same model). */
static int same(const LitProgram *p, int model, const ChkReport *a,
                const ChkReport *b, int sliced, char *why, size_t len)
{
    Model *m = NULL;
    char err[256];
    int ok = 1, k = 0;
    if (a->status != CHK_DONE || b->status != CHK_DONE) {
        snprintf(why, len, "incomplete: %s / naive: %s",
                 a->reason ? a->reason : "done",
                 b->reason ? b->reason : "done");
        return 0;
    }
    if (a->noutcomes != b->noutcomes || a->nresults != b->nresults ||
        a->nerrors != b->nerrors) {
        snprintf(why, len, "%d outcomes, %d errors; naive %d, %d",
                 a->noutcomes, a->nerrors, b->noutcomes, b->nerrors);
        return 0;
    }
    for (int i = 0; i < a->noutcomes; i++)
        if (a->outcomes[i].phase != b->outcomes[i].phase ||
            strcmp(a->outcomes[i].state, b->outcomes[i].state)) {
            snprintf(why, len, "outcome %s, naive %s", a->outcomes[i].state,
                     b->outcomes[i].state);
            return 0;
        }
    for (int i = 0; i < a->nresults; i++)
        if (a->results[i].verdict != b->results[i].verdict ||
            a->results[i].positive != b->results[i].positive ||
            a->results[i].negative != b->results[i].negative) {
            snprintf(why, len, "check %d differs", i);
            return 0;
        }
    for (int i = 0; i < a->nerrors; i++)
        if (strcmp(a->errors[i], b->errors[i])) {
            snprintf(why, len, "error %s, naive %s", a->errors[i],
                     b->errors[i]);
            return 0;
        }
    if (sliced) {
        m = mdl_new(p, model, MDL_SLICE, err, sizeof err);
        assert_non_null(m);
    }
    /* every naive image, projected, is an image of a; and a has no other */
    for (int i = 0; i < b->nimages && ok; i++) {
        char proj[2048];
        size_t n = 0;
        const char *t = b->images[i];
        int found = 0;
        for (int32_t w = 0; *t; w++) {
            long long v = strtoll(t, (char **)&t, 10);
            if (m && !mdl_observed(m, w))
                v = 0;                  /* generated PM starts at 0 */
            n += (size_t)snprintf(proj + n, sizeof proj - n, "%s%lld",
                                  w ? " " : "", v);
            while (*t == ' ')
                t++;
        }
        for (int j = 0; j < a->nimages && !found; j++)
            found = !strcmp(a->images[j], proj);
        if (!found) {
            snprintf(why, len, "naive image %s missing", proj);
            ok = 0;
        }
        k += found;
    }
    if (ok && !sliced && a->nimages != b->nimages) {
        snprintf(why, len, "%d images, naive %d", a->nimages, b->nimages);
        ok = 0;
    }
    (void)k;
    mdl_free(m);
    return ok;
}

static const unsigned reductions[] = {
    CHK_R_ALL, CHK_R_FUSE, CHK_R_POR, CHK_R_SLICE
};

/* Seeds [first, first+n) at the given size, every model. */
static void run_seeds(int first, int n, int size)
{
    static char text[16384];
    int skipped = 0, runs = 0;
    int64_t states[2] = {0, 0};
    for (int seed = first; seed < first + n; seed++) {
        LitProgram *p;
        rg_program((uint64_t)seed, size, text, sizeof text);
        p = cu_parse(text);
        for (int m = 0; m < LIT_NMODELS; m++) {
            CuOpts naive = {1, 0, 1, 200000, 0}, dflt = {0, 0, 1, 0, 0};
            ChkReport *b = cu_run_opts(p, m, &naive);
            if (b->status != CHK_DONE) {
                skipped++;
                chk_report_free(b);
                continue;
            }
            for (size_t r = 0; r < sizeof reductions / sizeof *reductions;
                 r++) {
                ChkReport *a = cu_run_reduce(p, m, &dflt, reductions[r]);
                char why[2600];
                if (!same(p, m, a, b, (reductions[r] & CHK_R_SLICE) != 0, why,
                          sizeof why)) {
                    print_error("seed %d size %d, %s, reductions %u: %s\n%s",
                                seed, size, lit_model_names[m], reductions[r],
                                why, text);
                    fail();
                }
                if (reductions[r] == CHK_R_ALL) {
                    states[0] += a->states;
                    states[1] += b->states;
                }
                runs++;
                chk_report_free(a);
            }
            chk_report_free(b);
        }
        lit_program_free(p);
    }
    print_message("%d programs of size %d, %d runs agree with naive (%d "
                  "too large for naive); %lld states, naive %lld\n", n, size,
                  runs, skipped, (long long)states[0], (long long)states[1]);
    assert_true(skipped * 20 <= n * LIT_NMODELS);
}

static void test_random_programs_agree(void **state)
{
    (void)state;
    if (getenv("GPMC_RED_SEEDS"))
        run_seeds(env_int("GPMC_RED_FIRST", 1), env_int("GPMC_RED_SEEDS", 0),
                  env_int("GPMC_RED_SIZE", 1));
    else {
        run_seeds(1, 150, 1);
        run_seeds(1001, 40, 2);
    }
}

/* ---- classes, state by state ------------------------------------------- */

typedef struct {
    int64_t *v;                         /* images, pmw words each */
    size_t cap;
    int n, pmw;
} Imgs;

static int on_img(void *ctx, const int64_t *pm, uint64_t inc)
{
    Imgs *im = ctx;
    (void)inc;
    assert_int_equal(BASE_GROW(im->v, im->cap, ((size_t)im->n + 1) *
                                              (size_t)im->pmw), 0);
    memcpy(im->v + (size_t)im->n * (size_t)im->pmw, pm,
           (size_t)im->pmw * sizeof *pm);
    im->n++;
    return 0;
}

/* Whether every image of a is one of b. */
static int subset(const Imgs *a, const Imgs *b)
{
    for (int i = 0; i < a->n; i++) {
        int found = 0;
        for (int j = 0; j < b->n && !found; j++)
            found = !memcmp(a->v + (size_t)i * (size_t)a->pmw,
                            b->v + (size_t)j * (size_t)b->pmw,
                            (size_t)a->pmw * sizeof *a->v);
        if (!found)
            return 0;
    }
    return 1;
}

typedef struct {
    uint64_t **w;
    uint32_t *len;
    size_t cap, lcap;
    int n;
} Queue;

static void q_push(Queue *q, const MdlState *s)
{
    for (int i = 0; i < q->n; i++)
        if (q->len[i] == s->len && !memcmp(q->w[i], s->w, s->len * 8))
            return;
    assert_int_equal(BASE_GROW(q->w, q->cap, (size_t)q->n + 1), 0);
    assert_int_equal(BASE_GROW(q->len, q->lcap, (size_t)q->n + 1), 0);
    q->w[q->n] = base_malloc((s->len + 1) * 8);
    assert_non_null(q->w[q->n]);
    memcpy(q->w[q->n], s->w, s->len * 8);
    q->len[q->n++] = s->len;
}

static int on_succ(void *ctx, uint32_t step, const MdlState *s)
{
    (void)step;
    q_push(ctx, s);
    return 0;
}

static void on_err(void *ctx, uint32_t step, const MdlError *e)
{
    (void)ctx;
    (void)step;
    (void)e;
}

/* Walks every reachable state of one program under one model (mode: the
   projection or not), checking the class of every thread step. Returns
   the number of steps checked. */
static int64_t walk_classes(const LitProgram *p, int model, unsigned mode,
                            int seed, const char *text)
{
    char err[256];
    Model *m = mdl_new(p, model, mode, err, sizeof err);
    Queue q = {0};
    MdlState s, t;
    int64_t checked = 0;
    assert_non_null(m);
    s.cap = t.cap = mdl_max_words(m);
    s.len = t.len = 0;
    s.w = base_calloc(s.cap, 8);
    t.w = base_calloc(t.cap, 8);
    assert_true(s.w && t.w);
    mdl_init_main(m, &s);
    q_push(&q, &s);
    for (int k = 0; k < q.n && k < 3000; k++) {
        Imgs before = {0}, after = {0};
        int nthreads = 0;
        memcpy(s.w, q.w[k], q.len[k] * 8);
        memset(s.w + q.len[k], 0, (s.cap - q.len[k]) * 8);
        s.len = q.len[k];
        before.pmw = after.pmw = p->pm_words;
        mdl_images(m, &s, on_img, &before);
        for (int i = 0; i < 64; i++) {
            MdlInstr d;
            int cl;
            if (mdl_decode(m, &s, i, &d))
                continue;
            nthreads++;
            cl = red_por_class(m, &s, i, &t);
            if (cl < 0 || cl == CL_VISIBLE)
                continue;
            after.n = 0;
            mdl_images(m, &t, on_img, &after);
            if ((cl != CL_SHRINK && !subset(&before, &after)) ||
                (cl != CL_GROW && !subset(&after, &before))) {
                print_error("seed %d, %s: thread slot %d line %d, class %d: "
                            "images not kept\n%s", seed,
                            lit_model_names[model], i, (int)d.line, cl, text);
                fail();
            }
            checked++;
        }
        base_free(before.v);
        base_free(after.v);
        mdl_successors(m, &s, on_succ, on_err, &q);
        (void)nthreads;
    }
    for (int i = 0; i < q.n; i++)
        base_free(q.w[i]);
    base_free(q.w);
    base_free(q.len);
    base_free(s.w);
    base_free(t.w);
    mdl_free(m);
    return checked;
}

static void test_classes_hold(void **state)
{
    static char text[16384];
    int64_t checked = 0;
    int n = env_int("GPMC_RED_WALK", 120);
    (void)state;
    for (int seed = 1; seed <= n; seed++) {
        LitProgram *p;
        rg_program((uint64_t)seed, 1, text, sizeof text);
        p = cu_parse(text);
        for (int m = 0; m < LIT_NMODELS; m++) {
            checked += walk_classes(p, m, 0, seed, text);
            checked += walk_classes(p, m, MDL_SLICE, seed, text);
        }
        lit_program_free(p);
    }
    print_message("%d programs: the class of %lld steps holds\n", n,
                  (long long)checked);
    assert_true(checked > 1000);
}

/* ---- hand-written cases ------------------------------------------------- */

/* A counted loop is not sticky; a spin is. */
static void test_sticky_jumps(void **state)
{
    LitProgram *p = cu_parse(
        "test loops\npm x[2] = 0\n"
        "kernel k grid 1 block 2 {\n"
        "  thread 0 {\n  L:\n    st x[0], r1\n    add r1, r1, 1\n"
        "    blt r1, 3, L\n  }\n"
        "  thread 1 {\n  S:\n    ld r0, x[0]\n    beq r0, 0, S\n  }\n}\n");
    char err[256];
    Model *m = mdl_new(p, LIT_EPOCH, MDL_POR, err, sizeof err);
    MdlState s;
    (void)state;
    assert_non_null(m);
    s.cap = mdl_max_words(m);
    s.len = 0;
    s.w = base_calloc(s.cap, 8);
    assert_non_null(s.w);
    mdl_init_main(m, &s);
    assert_false(red_access_sticky(m, mdl_launch_of(m, &s), 0, 2));
    assert_true(red_access_sticky(m, mdl_launch_of(m, &s), 1, 1));
    base_free(s.w);
    mdl_free(m);
    lit_program_free(p);
}

/* Thread 1 stores y only after the barrier, so thread 0's footprint seen
   from thread 1 stops at bar.sync; from another CTA it goes on. */
static void test_footprints_stop_at_barriers(void **state)
{
    LitProgram *p = cu_parse(
        "test foot\npm x = 0\npm y = 0\n"
        "kernel k grid 1 block 2 {\n"
        "  thread 0 {\n    st x, 1\n    bar.sync\n    st y, 1\n  }\n"
        "  thread 1 {\n    bar.sync\n  }\n}\n");
    char err[256];
    Model *m = mdl_new(p, LIT_EPOCH, MDL_POR, err, sizeof err);
    MdlState s;
    const MdlFoot *f;
    const MdlLaunch *L;
    (void)state;
    assert_non_null(m);
    s.cap = mdl_max_words(m);
    s.len = 0;
    s.w = base_calloc(s.cap, 8);
    assert_non_null(s.w);
    mdl_init_main(m, &s);
    L = mdl_launch_of(m, &s);
    f = red_access_foot(m, L, 0, 0, 0);
    assert_non_null(f);
    assert_true(red_access_has(f->w, f->nw, 0));       /* x: word 0 */
    assert_false(red_access_has(f->w, f->nw, 1));      /* y: word 1 */
    assert_true(f->flags & FP_WAIT_CTA);
    f = red_access_foot(m, L, 0, 0, 1);
    assert_true(red_access_has(f->w, f->nw, 1));
    base_free(s.w);
    mdl_free(m);
    lit_program_free(p);
}

static LitProgram *parse_file(const char *path)
{
    LitProgram *p = NULL;
    BaseDiag d;
    base_diag_init(&d);
    if (lit_parse_file(path, NULL, &p, &d)) {
        print_error("%s", d.text);
        fail();
    }
    base_diag_free(&d);
    return p;
}

/* The footprint of slot j of the first launch of p's main program, from
   pc 0, under epoch in mode (the caller frees *m and s->w). */
static const MdlFoot *first_foot(LitProgram *p, unsigned mode, int j,
                                 Model **m, MdlState *s)
{
    char err[256];
    *m = mdl_new(p, LIT_EPOCH, mode, err, sizeof err);
    assert_non_null(*m);
    s->cap = mdl_max_words(*m);
    s->len = 0;
    s->w = base_calloc(s->cap, 8);
    assert_non_null(s->w);
    mdl_init_main(*m, s);
    return red_access_foot(*m, mdl_launch_of(*m, s), j, 0, 0);
}

/* PATHS: a grid-stride copy loop whose byte offset is a counter of its
   own stores to exactly the thread's elements: cp[0] and cp[2] for thread
   0, cp[1] for thread 1 (PM words 0-2). The flow-insensitive value sets
   lose the counter: any word of cp. */
static void test_paths_follow_loops(void **state)
{
    LitProgram *p = parse_file("tests/data/naive/provenance-loop.litmus");
    static const int words[2][3] = {{1, 0, 1}, {0, 1, 0}};
    (void)state;
    for (int j = 0; j < 2; j++) {
        Model *m;
        MdlState s;
        const MdlFoot *f = first_foot(p, MDL_POR | MDL_CONFINE, j, &m, &s);
        assert_non_null(f);
        for (uint32_t w = 0; w < 3; w++)
            assert_int_equal(red_access_has(f->w, f->nw, w), words[j][w]);
        base_free(s.w);
        mdl_free(m);
    }
    lit_program_free(p);
}

/* PROVENANCE: a store through a + 4 * idx[tid], idx loaded, may touch any
   word of any space, or with MDL_CONFINE only a's (PM words 0-1; b is 2-3);
   the check bears the assumption out and keeps its reduced state count. */
static void test_provenance_confines(void **state)
{
    LitProgram *p = parse_file("tests/data/naive/provenance-stays.litmus");
    Model *m;
    MdlState s;
    const MdlFoot *f = first_foot(p, MDL_POR, 0, &m, &s);
    ChkReport *r;
    (void)state;
    assert_true(red_access_has(f->w, f->nw, 0));
    assert_true(red_access_has(f->w, f->nw, 2));
    base_free(s.w);
    mdl_free(m);
    f = first_foot(p, MDL_POR | MDL_CONFINE, 0, &m, &s);
    assert_true(red_access_has(f->w, f->nw, 0));
    assert_true(red_access_has(f->w, f->nw, 1));
    assert_false(red_access_has(f->w, f->nw, 2));
    assert_false(red_access_has(f->w, f->nw, 3));
    base_free(s.w);
    mdl_free(m);
    r = cu_run(p, LIT_EPOCH);
    assert_int_equal(r->status, CHK_DONE);
    assert_null(strstr(r->notes, "checked again"));
    assert_int_equal(r->states, 17);
    chk_report_free(r);
    lit_program_free(p);
}

/* PROVENANCE broken: thread 0's store through a + 4 * idx[0] lands on b[0],
   where thread 1 stores too. Trusting the assumption (a run that did not
   check it) explores one order of the two stores only, and `final exists
   (b[0] == 2)` would be No under epoch; the store is seen to leave a, the
   check runs again without the assumption and every verdict is --naive's
   (Ok). */
static void test_provenance_fallback(void **state)
{
    LitProgram *p = parse_file("tests/data/naive/provenance-leaves.litmus");
    CuOpts naive = {1, 0, 0, 0, 0};
    (void)state;
    for (int model = LIT_STRICT; model <= LIT_HW; model++) {
        ChkReport *r = cu_run(p, model), *n = cu_run_opts(p, model, &naive);
        assert_int_equal(r->status, CHK_DONE);
        assert_non_null(strstr(r->notes, "an access left the location its "
                                         "address derives from: checked "
                                         "again"));
        assert_int_equal(r->nresults, 4);
        assert_int_equal(n->nresults, 4);
        for (int k = 0; k < 4; k++) {
            assert_int_equal(r->results[k].verdict, CHK_OK);
            assert_int_equal(n->results[k].verdict, CHK_OK);
        }
        assert_null(strstr(n->notes, "checked again"));
        chk_report_free(r);
        chk_report_free(n);
    }
    lit_program_free(p);
}

/* The projection: crash conditions and recovery reads are observed, other
   words are not. */
static void test_projection_words(void **state)
{
    LitProgram *p = cu_parse(
        "test proj\npm a = 0\npm b = 0\npm c[2] = 0\npm d = 0\n"
        "kernel k grid 1 block 1 {\n  st a, 1\n  st b, 1\n  st d, 1\n}\n"
        "recover {\n  kernel r grid 1 block 1 {\n    ld r1, a\n"
        "    ld r0, c[r1]\n  }\n}\n"
        "check crash forall (a == 0 || a == 1)\n"
        "check recovered forall (d >= 0)\n");
    char err[256];
    Model *m;
    (void)state;
    for (int model = LIT_STRICT; model <= LIT_HW; model++) {
        m = mdl_new(p, model, MDL_SLICE, err, sizeof err);
        assert_non_null(m);
        assert_true(mdl_observed(m, 0));               /* a */
        assert_false(mdl_observed(m, 1));              /* b */
        assert_true(mdl_observed(m, 2));               /* c[0], c[1] */
        assert_true(mdl_observed(m, 3));
        assert_true(mdl_observed(m, 4));               /* d */
        mdl_free(m);
    }
    lit_program_free(p);
}

/* hw keeps the hierarchy state of a line with an observed word (durable
   WPQ), or of every line of a controller with one (volatile): a, b share
   line 0, c is alone on line 1, d alone on line 2. */
static void test_projection_lines(void **state)
{
    static const char *const wpq[2] = {"durable", "volatile"};
    char text[512], err[256];
    (void)state;
    for (int v = 0; v < 2; v++)
        for (int ctl = 1; ctl <= 2; ctl++) {
            LitProgram *p;
            Model *m;
            snprintf(text, sizeof text,
                     "test lines\nconfig wpq = %s\nconfig controllers = %d\n"
                     "pm a = 0 line 0\npm b = 0 line 0\npm c = 0 line 1\n"
                     "pm d = 0 line 2\n"
                     "kernel k grid 1 block 1 {\n  st b, 1\n  st c, 1\n"
                     "  st d, 1\n}\ncheck crash forall (a == 0)\n",
                     wpq[v], ctl);
            p = cu_parse(text);
            m = mdl_new(p, LIT_HW, MDL_SLICE, err, sizeof err);
            assert_non_null(m);
            assert_true(mdl_observed(m, 0));            /* a */
            assert_false(mdl_observed(m, 1));           /* b, same line */
            assert_true(mdl_kept(m, 0));
            /* line 2 shares controller 0 with line 0 when there are two */
            assert_int_equal(mdl_kept(m, 1), v && ctl == 1);
            assert_int_equal(mdl_kept(m, 2), v != 0);
            mdl_free(m);
            lit_program_free(p);
        }
}

/* A witness lists every instruction of a fused transition. */
static void test_witness_lists_fused_steps(void **state)
{
    LitProgram *p = cu_parse(
        "test fused\npm x = 0\npm y = 0\n"
        "kernel k grid 1 block 1 {\n  st x, 1\n  mov r0, 5\n  add r0, r0, 1\n"
        "  st y, r0\n}\n"
        "check crash ~exists (y == 6 && x == 1)\n");
    ChkReport *a, *b;
    (void)state;
    a = cu_run_reduce(p, LIT_EPOCH, NULL, CHK_R_ALL);
    b = cu_run_reduce(p, LIT_EPOCH, NULL, 0);
    assert_int_equal(a->nviolations, 1);
    assert_non_null(strstr(a->violations[0].witness, "3. k thread 0 line 7: "
                                                     "add r0, r0, 1"));
    assert_non_null(strstr(a->violations[0].witness, "4. k thread 0 line 8: "
                                                     "st y, r0"));
    assert_true(a->states < b->states);
    chk_report_free(a);
    chk_report_free(b);
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sticky_jumps),
        cmocka_unit_test(test_footprints_stop_at_barriers),
        cmocka_unit_test(test_paths_follow_loops),
        cmocka_unit_test(test_provenance_confines),
        cmocka_unit_test(test_provenance_fallback),
        cmocka_unit_test(test_projection_words),
        cmocka_unit_test(test_projection_lines),
        cmocka_unit_test(test_witness_lists_fused_steps),
        cmocka_unit_test(test_classes_hold),
        cmocka_unit_test(test_random_programs_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
