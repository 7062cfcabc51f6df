/*
 * test_abs.c — the abstract persistency models, row by row of the
 * DESIGN section 4 table, through their crash images. Each expected
 * outcome list and verdict is derived in the comment above it.
 */
#include "tests/check_util.h"
#include "model/model.h"

/* One thread stores x then y with nothing between. strict persists in
   visibility order (y depends on x): the image x=0, y=1 is impossible.
   Every other model lets the two stores persist in either order. */
static const char *two_stores =
    "test two\npm x = 0\npm y = 0\n"
    "kernel k grid 1 block 1 {\n  st x, 1\n  st y, 1\n}\n"
    "check crash exists (x == 0 && y == 1)\n";

static void test_strict_orders_everything(void **state)
{
    LitProgram *p = cu_parse(two_stores);
    ChkReport *r;
    (void)state;
    r = cu_run(p, LIT_STRICT);
    assert_string_equal(cu_outcomes(r, LIT_CRASH),
                        "x=0; y=0|x=1; y=0|x=1; y=1");
    assert_string_equal(cu_verdicts(r), "No");
    chk_report_free(r);
    for (int m = LIT_EPOCH; m <= LIT_BSCOPED; m++) {
        r = cu_run(p, m);
        assert_string_equal(cu_outcomes(r, LIT_CRASH),
                            "x=0; y=0|x=0; y=1|x=1; y=0|x=1; y=1");
        assert_string_equal(cu_verdicts(r), "Ok");
        chk_report_free(r);
    }
    lit_program_free(p);
}

/* A barrier between a thread's two stores orders them in every model. */
static void test_pbar_orders_own_stores(void **state)
{
    (void)state;
    assert_string_equal(
        cu_matrix("test one\npm x = 0\npm y = 0\n"
                  "kernel k grid 1 block 1 {\n  st x, 1\n  pbar\n  st y, 1\n}\n"
                  "check crash ~exists (x == 0 && y == 1)\n"),
        "strict=Ok epoch=Ok bepoch=Ok scoped=Ok bscoped=Ok");
}

/* DESIGN's example: thread 0 stores x, persists with pbar, then bar.sync;
   thread 1 stores y after the barrier. A stalling barrier (epoch, scoped)
   has x persisted before thread 1 can store; a buffered one (bepoch,
   bscoped) only orders thread 0's own later stores, so y may persist
   first. strict orders y after x. */
static const char *sb =
    "test SB+pbar+sync\npm x = 0\npm y = 0\n"
    "kernel k0 grid 1 block 2 {\n"
    "  thread 0 {\n    st x, 1\n    pbar\n    bar.sync\n  }\n"
    "  thread 1 {\n    bar.sync\n    st y, 1\n    ld r0, x\n  }\n}\n"
    "check crash ~exists (y == 1 && x == 0)\n"
    "check final forall (1:r0 == 1)\n";

static void test_stalling_vs_buffered(void **state)
{
    (void)state;
    assert_string_equal(cu_matrix(sb), "strict=Ok epoch=Ok bepoch=No "
                                       "scoped=Ok bscoped=No");
}

/* Thread 1 reads x from thread 0's pending store, then pbar, then stores
   what it read into y. epoch forces Own ∪ Obs (x included); bepoch adds
   Obs to its frontier, so y depends on x; the scoped models order only the
   thread's own stores: y = 1 with x = 0 is possible. strict: y after x. */
static void test_observation(void **state)
{
    (void)state;
    assert_string_equal(
        cu_matrix("test obs\npm x = 0\npm y = 0\n"
                  "kernel k grid 1 block 2 {\n"
                  "  thread 0 {\n    st x, 1\n  }\n"
                  "  thread 1 {\n    ld r0, x\n    pbar\n    st y, r0\n  }\n}\n"
                  "check crash ~exists (y == 1 && x == 0)\n"),
        "strict=Ok epoch=Ok bepoch=Ok scoped=No bscoped=No");
}

/* Children a (thread 0) and b (thread 1), then the parent p by thread 0
   after pbar.wg. Only the scoped models make pbar.wg collective: thread 0
   waits for thread 1, and the release forces (scoped) or orders (bscoped)
   both children before p. Elsewhere pbar.wg is thread-local and thread 0
   may store p before thread 1 has stored b at all. */
static void test_cta_scope(void **state)
{
    (void)state;
    assert_string_equal(
        cu_matrix("test cta\npm a = 0\npm b = 0\npm p = 0\n"
                  "kernel k grid 1 block 2 {\n"
                  "  thread 0 {\n    st a, 1\n    pbar.wg\n    st p, 1\n  }\n"
                  "  thread 1 {\n    st b, 1\n    pbar.wg\n  }\n}\n"
                  "check crash ~exists (p == 1 && b == 0)\n"),
        "strict=No epoch=No bepoch=No scoped=Ok bscoped=Ok");
}

/* The same across two CTAs: pbar.wg only synchronises each (one-thread)
   CTA, pbar.kr the whole kernel. */
static const char *kernel_scope =
    "test kr\npm a = 0\npm b = 0\npm p = 0\n"
    "kernel k grid 2 block 1 {\n"
    "  thread 0 {\n    st a, 1\n    pbar.SCOPE\n    st p, 1\n  }\n"
    "  thread 1 {\n    st b, 1\n    pbar.SCOPE\n  }\n}\n"
    "check crash ~exists (p == 1 && b == 0)\n";

/* kernel_scope with SCOPE replaced, in a string valid until the next
   call. */
static const char *with_scope(const char *scope)
{
    static BaseStr out;
    const char *s = kernel_scope, *at;
    cu_reset(&out);
    while ((at = strstr(s, "SCOPE"))) {
        base_str_putn(&out, s, (size_t)(at - s));
        base_str_printf(&out, "%s", scope);
        s = at + 5;
    }
    base_str_printf(&out, "%s", s);
    return cu_text(&out);
}

static void test_kernel_scope(void **state)
{
    (void)state;
    assert_string_equal(cu_matrix(with_scope("kr")),
                        "strict=No epoch=No bepoch=No scoped=Ok bscoped=Ok");
    assert_string_equal(cu_matrix(with_scope("wg")),
                        "strict=No epoch=No bepoch=No scoped=No bscoped=No");
}

/* Strong persist atomicity: thread 1 overwrites thread 0's x after the
   barrier, then pbar, then y. Forcing x=2 forces the older x=1 first, so
   no image shows y=1 with x going back to 1 (or 0). Images of x before
   the pbar: 0, 1, 2. */
static const char *spa =
    "test spa\npm x = 0\npm y = 0\n"
    "kernel k grid 1 block 2 {\n"
    "  thread 0 {\n    st x, 1\n    bar.sync\n  }\n"
    "  thread 1 {\n    bar.sync\n    st x, 2\n    pbar\n    st y, 1\n  }\n}\n"
    "check crash ~exists (y == 1 && x != 2)\n";

static void test_strong_persist_atomicity(void **state)
{
    LitProgram *p = cu_parse(spa);
    (void)state;
    for (int m = LIT_STRICT; m <= LIT_BSCOPED; m++) {
        ChkReport *r = cu_run(p, m);
        assert_string_equal(cu_outcomes(r, LIT_CRASH),
                            "x=0; y=0|x=1; y=0|x=2; y=0|x=2; y=1");
        assert_string_equal(cu_verdicts(r), "Ok");
        chk_report_free(r);
    }
    lit_program_free(p);
}

/* psync makes x durable before the barrier in every model, even the
   buffered ones (compare test_stalling_vs_buffered). */
static void test_psync_durability(void **state)
{
    (void)state;
    assert_string_equal(
        cu_matrix("test psync\npm x = 0\npm y = 0\n"
                  "kernel k0 grid 1 block 2 {\n"
                  "  thread 0 {\n    st x, 1\n    psync\n    bar.sync\n  }\n"
                  "  thread 1 {\n    bar.sync\n    st y, 1\n  }\n}\n"
                  "check crash ~exists (y == 1 && x == 0)\n"),
        "strict=Ok epoch=Ok bepoch=Ok scoped=Ok bscoped=Ok");
}

/* bepoch's psync forces the frontier. Thread 1 reads x, publishes what it
   saw through dram, and passes pbar, psync and bar.sync; thread 2 then
   stores the flag f = what thread 1 saw. bepoch: x is observed, pbar puts
   it in F, psync makes F durable, so f = 1 implies x = 1 in every image.
   bscoped: reads do not enter F, psync forces nothing: No. epoch forces
   the observation at pbar already; scoped does not. */
static void test_psync_forces_frontier(void **state)
{
    (void)state;
    assert_string_equal(
        cu_matrix("test psync-f\npm x = 0\npm f = 0\ndram seen = 0\n"
                  "kernel k grid 1 block 3 {\n"
                  "  thread 0 {\n    st x, 1\n  }\n"
                  "  thread 1 {\n    ld r0, x\n    st seen, r0\n    pbar\n"
                  "    psync\n    bar.sync\n  }\n"
                  "  thread 2 {\n    bar.sync\n    ld r1, seen\n    st f, r1\n"
                  "  }\n}\n"
                  "check crash ~exists (f == 1 && x == 0)\n"),
        "strict=Ok epoch=Ok bepoch=Ok scoped=No bscoped=No");
}

/* Kernel boundaries order nothing (except under strict). */
static void test_kernel_boundary(void **state)
{
    (void)state;
    assert_string_equal(
        cu_matrix("test kb\npm x = 0\npm y = 0\n"
                  "kernel k0 grid 1 block 1 {\n  st x, 1\n}\n"
                  "kernel k1 grid 1 block 1 {\n  st y, 1\n}\n"
                  "check crash exists (x == 0 && y == 1)\n"),
        "strict=No epoch=Ok bepoch=Ok scoped=Ok bscoped=Ok");
}

/* Every model's naive mode (explicit persist steps; under hw every
   eviction, completion and drain a step) gives the same outcomes, verdicts
   and crash images as its default mode on these programs (images over
   every word: no projection). */
static void test_naive_agrees(void **state)
{
    const char *progs[] = {two_stores, sb, spa, with_scope("kr")};
    CuOpts naive = {1, 0, 1, 0, 0}, dflt = {0, 0, 1, 0, 0};
    (void)state;
    for (size_t i = 0; i < sizeof progs / sizeof *progs; i++) {
        LitProgram *p = cu_parse(progs[i]);
        for (int m = LIT_STRICT; m < LIT_NMODELS; m++) {
            ChkReport *a = cu_run_reduce(p, m, &dflt,
                                         CHK_R_ALL & ~CHK_R_SLICE);
            ChkReport *b = cu_run_opts(p, m, &naive);
            char *va;
            assert_int_equal(a->status, CHK_DONE);
            assert_int_equal(b->status, CHK_DONE);
            va = strdup(cu_outcomes(a, LIT_CRASH));
            assert_non_null(va);
            assert_string_equal(va, cu_outcomes(b, LIT_CRASH));
            free(va);
            assert_int_equal(a->nimages, b->nimages);
            for (int k = 0; k < a->nimages; k++)
                assert_string_equal(a->images[k], b->images[k]);
            va = strdup(cu_verdicts(a));
            assert_non_null(va);
            assert_string_equal(va, cu_verdicts(b));
            free(va);
            chk_report_free(a);
            chk_report_free(b);
        }
        lit_program_free(p);
    }
}

/* ---- D-closed subsets, through the model API on one state ------------- */

typedef struct {
    char buf[512];
    size_t n;
    int calls;
} Seen;

static int collect_image(void *ctx, const int64_t *pm, uint64_t included)
{
    Seen *sn = ctx;
    /* a, b and c are words 0, 1 and 2 (each on a line of its own) */
    sn->n += (size_t)snprintf(sn->buf + sn->n, sizeof sn->buf - sn->n,
                              "%s%lld%lld%lld:%llu", sn->calls ? " " : "",
                              (long long)pm[0], (long long)pm[1],
                              (long long)pm[2], (unsigned long long)included);
    sn->calls++;
    return 0;
}

/* Runs thread 0 of a one-thread program to its end, then enumerates the
   crash images of the final state. */
static const char *images_after(const char *text, int model, int *calls)
{
    static Seen sn;
    LitProgram *p = cu_parse(text);
    char err[256];
    Model *m = mdl_new(p, model, 0, err, sizeof err);
    MdlState s;
    MdlError e;
    assert_non_null(m);
    s.cap = mdl_max_words(m);
    s.len = 0;
    s.w = calloc(s.cap, sizeof *s.w);
    mdl_init_main(m, &s);
    while (!mdl_terminal(m, &s))
        assert_int_equal(mdl_step(m, &s, 0, NULL, &e), 0);
    memset(&sn, 0, sizeof sn);
    mdl_images(m, &s, collect_image, &sn);
    *calls = sn.calls;
    free(s.w);
    mdl_free(m);
    lit_program_free(p);
    return sn.buf;
}

/* bepoch, one thread: a=1, b=1, pbar, c=1, a=2. Pending slots, sorted by
   word then age: 0 a=1 {}, 1 a=2 {a=1, b} (strong persist atomicity and
   the frontier), 2 b=1 {}, 3 c=1 {a=1, b}. The D-closed subsets, decided
   in the topological order a=1, b, a=2, c, each slot left out first:
   {} 000, {b} 010, {a1} 100, {a1,b} 110, {a1,b,c} 111, {a1,b,a2} 210,
   {a1,b,a2,c} 211 — seven, and no other (b=0 with c=1, a=2 without b). */
static void test_closed_subsets(void **state)
{
    int calls;
    (void)state;
    assert_string_equal(
        images_after("test ideals\npm a = 0\npm b = 0\npm c = 0\n"
                     "kernel k grid 1 block 1 {\n  st a, 1\n  st b, 1\n"
                     "  pbar\n  st c, 1\n  st a, 2\n}\n", LIT_BEPOCH, &calls),
        "000:0 010:4 100:1 110:5 111:13 210:7 211:15");
    assert_int_equal(calls, 7);
}

/* A store of the value already beneath it changes no image: it is taken
   whenever it may be, so two images take two calls, not four. */
static void test_silent_store_pruned(void **state)
{
    int calls;
    (void)state;
    assert_string_equal(
        images_after("test silent\npm a = 0\npm b = 0\npm c = 0\n"
                     "kernel k grid 1 block 1 {\n  st a, 0\n  st b, 1\n}\n",
                     LIT_EPOCH, &calls),
        "000:1 010:3");
    assert_int_equal(calls, 2);
}

/* ---- the policy table and the decoder ---------------------------------- */

/* The rows of DESIGN section 4's table, as data. */
static void test_policy_table(void **state)
{
    const MdlPolicy *p;
    (void)state;
    p = mdl_policy(LIT_STRICT);
    assert_int_equal(p->store_deps, MDL_SET_ALL);
    assert_int_equal(p->pbar.force | p->pbar.order, 0);
    assert_int_equal(p->psync.force, MDL_SET_ALL);
    assert_false(p->collective);
    p = mdl_policy(LIT_EPOCH);
    assert_int_equal(p->pbar.force, MDL_SET_OWN | MDL_SET_OBS);
    assert_true(p->pbar.clear_obs);
    assert_int_equal(p->psync.force, MDL_SET_OWN | MDL_SET_OBS);
    p = mdl_policy(LIT_BEPOCH);
    assert_int_equal(p->store_deps, MDL_SET_F);
    assert_int_equal(p->pbar.force, 0);
    assert_int_equal(p->pbar.order, MDL_SET_OWN | MDL_SET_OBS);
    assert_int_equal(p->psync.force, MDL_SET_OWN | MDL_SET_OBS | MDL_SET_F);
    p = mdl_policy(LIT_SCOPED);
    assert_true(p->collective);
    assert_int_equal(p->pbar.force, MDL_SET_OWN);
    assert_int_equal(p->release.force, MDL_SET_GROUP);
    p = mdl_policy(LIT_BSCOPED);
    assert_true(p->collective);
    assert_int_equal(p->pbar.order, MDL_SET_OWN);
    assert_int_equal(p->release.order, MDL_SET_GROUP);
    assert_int_equal(p->psync.force, MDL_SET_OWN | MDL_SET_F);
    p = mdl_policy(LIT_HW);
    assert_true(p->collective && p->hw == mdl_hwrules);
    assert_null(mdl_policy(LIT_NMODELS));
    assert_ptr_equal(mdl_policy_rule(mdl_policy(LIT_EPOCH), LIT_PBAR_WG),
                     &mdl_policy(LIT_EPOCH)->pbar);
    assert_ptr_equal(mdl_policy_rule(mdl_policy(LIT_SCOPED), LIT_PBAR_KR),
                     &mdl_policy(LIT_SCOPED)->release);
    assert_null(mdl_policy_rule(mdl_policy(LIT_SCOPED), LIT_CLWB));
}

/* What each slot's next instruction does, read off the initial state. */
static void test_decode(void **state)
{
    LitProgram *p = cu_parse(
        "test dec\npm a[2] = 0\ndram d = 0\n"
        "kernel k grid 1 block 4 {\n"
        "  thread 0 {\n    st a[%tid], 7\n  }\n"
        "  thread 1 {\n    ld r0, a[%tid + 1]\n  }\n"
        "  thread 2 {\n  L:\n    beq r0, 0, L\n  }\n"
        "  thread 3 {\n    pbar.wg\n    st d, 1\n  }\n}\n");
    char err[256];
    MdlInstr d;
    MdlState s;
    (void)state;
    for (int model = LIT_EPOCH; model <= LIT_SCOPED; model += 2) {
        Model *m = mdl_new(p, model, 0, err, sizeof err);
        assert_non_null(m);
        s.cap = mdl_max_words(m);
        s.w = calloc(s.cap, sizeof *s.w);
        mdl_init_main(m, &s);
        assert_int_equal(mdl_decode(m, &s, 0, &d), 0);
        assert_int_equal(d.op, LIT_ST);
        assert_int_equal(d.space, LIT_PM);
        assert_int_equal(d.word, 0);
        assert_int_equal(d.a, 7);
        assert_int_equal(d.flags, MDL_I_WRITE | MDL_I_ENDS);
        assert_int_equal(mdl_decode(m, &s, 1, &d), 0);
        assert_int_equal(d.flags, MDL_I_READ | MDL_I_BOUNDS | MDL_I_ENDS);
        assert_int_equal(d.index, 2);
        assert_int_equal(d.word, -1);
        assert_int_equal(mdl_decode(m, &s, 2, &d), 0);
        assert_int_equal(d.next, 0);
        assert_int_equal(d.flags, MDL_I_BACK);
        assert_int_equal(mdl_decode(m, &s, 3, &d), 0);
        /* pbar.wg is collective under scoped only */
        assert_int_equal(d.flags, model == LIT_SCOPED
                                      ? MDL_I_PERSIST | MDL_I_WAITS
                                      : MDL_I_PERSIST);
        assert_int_equal(d.next, model == LIT_SCOPED ? 0 : 1);
        assert_int_equal(mdl_decode(m, &s, 4, &d), -1);
        free(s.w);
        mdl_free(m);
    }
    lit_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strict_orders_everything),
        cmocka_unit_test(test_pbar_orders_own_stores),
        cmocka_unit_test(test_stalling_vs_buffered),
        cmocka_unit_test(test_observation),
        cmocka_unit_test(test_cta_scope),
        cmocka_unit_test(test_kernel_scope),
        cmocka_unit_test(test_strong_persist_atomicity),
        cmocka_unit_test(test_psync_durability),
        cmocka_unit_test(test_psync_forces_frontier),
        cmocka_unit_test(test_kernel_boundary),
        cmocka_unit_test(test_naive_agrees),
        cmocka_unit_test(test_closed_subsets),
        cmocka_unit_test(test_silent_store_pruned),
        cmocka_unit_test(test_policy_table),
        cmocka_unit_test(test_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
