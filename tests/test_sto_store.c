/*
 * test_sto_store.c — the state stores (sto_store.c, sto_flat.c,
 * sto_tree.c), each test run on both: every vector has one name however it
 * is reached. A vector put as the successor of any decoded state gets the
 * id it gets from scratch; decoding gives it back; lengths that change the
 * tree's class, zero tails, words at the edges of the inline and big-atom
 * ranges and of the flat records' one- and two-half words all take part.
 * Renumbering and resetting keep every other vector's name.
 */
#include "tests/check_util.h"

#include "checker/checker_int.h"

#define MAXW 80                         /* size classes 1 to 7 */
#define NVEC 600

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A word as states hold them: mostly zero or small, some at the edges of
   the stores' ranges (the tree's inline pairs below 2^15 and atoms below
   2^31; the flat records' numbers, twice the word's low half, below 8, 64
   and 2^14, and words with a high half). */
static uint64_t word(void)
{
    static const uint64_t edge[] = {3, 4, 31, 32, 8191, 8192, 0x7FFF, 0x8000,
                                    0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                                    1ull << 32, (1ull << 32) | 3, ~0ull};
    uint64_t r = next() % 100;
    if (r < 45)
        return 0;
    if (r < 75)
        return 1 + next() % 3;
    if (r < 85)
        return edge[next() % (sizeof edge / sizeof *edge)];
    if (r < 92)
        return next() % 0x10000;
    return next();
}

typedef struct {
    uint64_t w[MAXW];
    uint32_t len;
} Vec;

static void random_vec(Vec *v)
{
    memset(v, 0, sizeof *v);
    v->len = 1 + (uint32_t)(next() % MAXW);
    for (uint32_t i = 0; i < v->len; i++)
        v->w[i] = word();
}

/* A successor-like change of v: a few words, sometimes the length. */
static void mutate(Vec *v)
{
    int k = 1 + (int)(next() % 3);
    if (next() % 4 == 0) {
        uint32_t len = 1 + (uint32_t)(next() % MAXW);
        for (uint32_t i = len; i < v->len; i++)
            v->w[i] = 0;
        v->len = len;
    }
    while (k--)
        v->w[next() % v->len] = word();
}

static MdlState as_state(Vec *v)
{
    MdlState s;
    s.w = v->w;
    s.len = v->len;
    s.cap = MAXW;
    return s;
}

static int same(const Vec *a, const Vec *b)
{
    return a->len == b->len && !memcmp(a->w, b->w, sizeof a->w);
}

typedef struct {
    BaseBudget mem;
    StoGate gate;
    StoStore st;
    StoCursor scratch, walk;
    Vec *known;                         /* by id */
    uint32_t n;
} Fix;

static void fix_init(Fix *f, void **state)
{
    base_budget_init(&f->mem, 0);
    sto_gate_init(&f->gate, 1);
    assert_int_equal(sto_store_init(&f->st, MAXW, &f->mem, &f->gate,
                                    *(int *)*state),
                     0);
    assert_int_equal(sto_cursor_init(&f->scratch, &f->st), 0);
    assert_int_equal(sto_cursor_init(&f->walk, &f->st), 0);
    f->known = calloc(4 * NVEC, sizeof *f->known);
    assert_non_null(f->known);
    f->n = 0;
}

static void fix_free(Fix *f)
{
    sto_cursor_free(&f->scratch);
    sto_cursor_free(&f->walk);
    sto_store_free(&f->st);
    sto_gate_free(&f->gate);
    free(f->known);
}

/* The id v must have: a new one when no earlier vector equals it. */
static uint32_t expect_id(Fix *f, const Vec *v, int *fresh)
{
    for (uint32_t i = 0; i < f->n; i++)
        if (same(&f->known[i], v)) {
            *fresh = 0;
            return i;
        }
    *fresh = 1;
    f->known[f->n] = *v;
    return f->n++;
}

/* Puts v from scratch, checking the answer against the list. */
static void put_scratch(Fix *f, Vec *v)
{
    MdlState s = as_state(v);
    uint32_t id, want;
    int fresh;
    want = expect_id(f, v, &fresh);
    assert_int_equal(sto_store_put(&f->st, &f->scratch, NULL, &s, &id), fresh);
    assert_int_equal(id, want);
}

static void test_one_name_per_vector(void **state)
{
    Fix f;
    Vec cur, v;
    uint64_t buf[MAXW] = {0};           /* zero past len, as MdlState */
    MdlState out = {buf, 0, MAXW};
    fix_init(&f, state);
    for (int i = 0; i < NVEC; i++) {
        random_vec(&v);
        put_scratch(&f, &v);
    }
    /* walks: decode a stored state, put a changed copy as its successor,
       then the same vector from scratch */
    for (int i = 0; i < 3 * NVEC; i++) {
        uint32_t from = (uint32_t)(next() % f.n), id, want;
        int fresh;
        MdlState s;
        sto_store_get(&f.st, &f.walk, from, &out);
        assert_int_equal(out.len, f.known[from].len);
        assert_memory_equal(buf, f.known[from].w, out.len * sizeof *buf);
        memset(&cur, 0, sizeof cur);
        memcpy(cur.w, buf, out.len * sizeof *buf);
        cur.len = out.len;
        v = cur;
        if (i % 5 == 4)
            random_vec(&v);             /* an unrelated successor */
        else
            mutate(&v);
        s = as_state(&v);
        {
            MdlState p = out;
            want = expect_id(&f, &v, &fresh);
            assert_int_equal(sto_store_put(&f.st, &f.walk, &p, &s, &id),
                             fresh);
            assert_int_equal(id, want);
        }
        put_scratch(&f, &v);
        assert_int_equal(sto_store_count(&f.st), f.n);
    }
    /* every id decodes to its vector, each from the one decoded before */
    for (uint32_t i = 0; i < f.n; i++) {
        sto_store_get(&f.st, &f.walk, i, &out);
        assert_int_equal(out.len, f.known[i].len);
        assert_memory_equal(buf, f.known[i].w, out.len * sizeof *buf);
    }
    fix_free(&f);
}

/* find never inserts: an absent vector stays absent, a stored one is
   found with its id from any decoded state. */
static void test_find(void **state)
{
    Fix f;
    Vec v, w;
    uint64_t buf[MAXW] = {0};           /* zero past len, as MdlState */
    MdlState out = {buf, 0, MAXW}, s;
    uint32_t id;
    fix_init(&f, state);
    for (int i = 0; i < 50; i++) {
        random_vec(&v);
        put_scratch(&f, &v);
    }
    for (int i = 0; i < 200; i++) {
        int fresh;
        sto_store_get(&f.st, &f.walk, (uint32_t)(next() % f.n), &out);
        w = f.known[next() % f.n];
        s = as_state(&w);
        assert_int_equal(sto_store_find(&f.st, &f.walk, &out, &s, &id), 0);
        assert_true(same(&f.known[id], &w));
        random_vec(&w);
        s = as_state(&w);
        (void)expect_id(&f, &w, &fresh);
        f.n -= (uint32_t)fresh;         /* find does not store it */
        if (fresh)
            assert_int_equal(sto_store_find(&f.st, &f.walk, &out, &s, &id),
                             1);
        assert_int_equal(sto_store_count(&f.st), f.n);
    }
    fix_free(&f);
}

/* The parallel explorer's renumbering: of the ids [lo, lo + n), keep of
   them, permuted, become [lo, lo + keep) and the rest are cut off (a level
   cut by --max-states); every kept vector keeps its new name (decoding and
   finding agree), the others below lo theirs. A reset empties the store. */
static void test_renumber(void **state)
{
    Fix f;
    Vec v;
    uint64_t buf[MAXW] = {0};
    MdlState out = {buf, 0, MAXW}, s;
    uint32_t perm[NVEC], tmp[NVEC], lo = 40, n, keep, id;
    Vec *old;
    fix_init(&f, state);
    for (int i = 0; i < NVEC; i++) {
        random_vec(&v);
        put_scratch(&f, &v);
    }
    n = f.n - lo;
    keep = n - 7;
    for (uint32_t r = 0; r < n; r++)
        perm[r] = r;
    for (uint32_t r = n - 1; r > 0; r--) {
        uint32_t k = (uint32_t)(next() % (r + 1)), t = perm[r];
        perm[r] = perm[k];
        perm[k] = t;
    }
    sto_store_renumber(&f.st, lo, keep, perm, tmp);
    sto_store_truncate(&f.st, lo + keep);
    assert_int_equal(sto_store_count(&f.st), lo + keep);
    old = calloc(n, sizeof *old);
    assert_non_null(old);
    memcpy(old, f.known + lo, n * sizeof *old);
    for (uint32_t r = 0; r < keep; r++)
        f.known[lo + r] = old[perm[r]];
    free(old);
    f.n = lo + keep;
    for (uint32_t i = 0; i < f.n; i++) {
        sto_store_get(&f.st, &f.walk, i, &out);
        assert_int_equal(out.len, f.known[i].len);
        assert_memory_equal(buf, f.known[i].w, out.len * sizeof *buf);
        v = f.known[i];
        s = as_state(&v);
        assert_int_equal(sto_store_find(&f.st, &f.scratch, NULL, &s, &id), 0);
        assert_int_equal(id, i);
    }
    assert_int_equal(sto_store_reset(&f.st), 0);
    assert_int_equal(sto_store_count(&f.st), 0);
    assert_int_equal(sto_store_find(&f.st, &f.scratch, NULL, &s, &id), 1);
    f.n = 0;
    for (int i = 0; i < 100; i++) {
        random_vec(&v);
        put_scratch(&f, &v);
    }
    fix_free(&f);
}

/* The gate (sto_gate.c) under contention: threads inside announce
   themselves in `inside`; the function run alone sees nobody there and
   updates a plain counter no other thread writes meanwhile. Threads that
   enter while it runs raise `active` for a moment and back off; the gate
   must not mistake that for a second thread inside. */
enum { GATE_THREADS = 4, GATE_ROUNDS = 20000 };

typedef struct {
    StoGate gate;
    atomic_int inside;
    long plain;
    long alone_runs;
    int bad;
} GateFix;

static void gate_alone(void *arg)
{
    GateFix *g = arg;
    if (atomic_load(&g->inside) != 0)
        g->bad = 1;
    g->plain++;
    g->alone_runs++;
}

static void *gate_worker(void *arg)
{
    GateFix *g = arg;
    for (int i = 0; i < GATE_ROUNDS; i++) {
        sto_gate_enter(&g->gate);
        atomic_fetch_add(&g->inside, 1);
        if (i % 64 == 0) {
            atomic_fetch_sub(&g->inside, 1);
            sto_gate_exclusive(&g->gate, gate_alone, g);
            atomic_fetch_add(&g->inside, 1);
        }
        atomic_fetch_sub(&g->inside, 1);
        sto_gate_leave(&g->gate);
    }
    return NULL;
}

static void test_gate_contended(void **state)
{
    (void)state;
    static GateFix g;
    pthread_t t[GATE_THREADS];
    memset(&g, 0, sizeof g);
    sto_gate_init(&g.gate, GATE_THREADS);
    for (int i = 0; i < GATE_THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, gate_worker, &g), 0);
    for (int i = 0; i < GATE_THREADS; i++)
        pthread_join(t[i], NULL);
    sto_gate_free(&g.gate);
    assert_int_equal(g.bad, 0);
    assert_int_equal(g.alone_runs, GATE_THREADS * ((GATE_ROUNDS + 63) / 64));
    assert_int_equal(g.plain, g.alone_runs);
}

static int flat = CHK_STATE_FLAT, tree = CHK_STATE_TREE;

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_one_name_per_vector, &flat),
        cmocka_unit_test_prestate(test_one_name_per_vector, &tree),
        cmocka_unit_test_prestate(test_find, &flat),
        cmocka_unit_test_prestate(test_find, &tree),
        cmocka_unit_test_prestate(test_renumber, &flat),
        cmocka_unit_test_prestate(test_renumber, &tree),
        cmocka_unit_test(test_gate_contended),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
