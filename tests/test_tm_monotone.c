/*
 * test_tm_monotone.c — a property of the timing layer (issue 25): adding
 * persistence instructions never makes a kernel faster. Over random,
 * seeded (so deterministic) kernels, grid and block sizes, line sizes and
 * presets, a kernel with clwb, pcommit, sfence, pbar.wi/wg/kr, psync
 * inserted after its stores, or st.wt for st, takes at least 98% of the
 * cycles of the same kernel without them, under every model. The one
 * exception specs/timing.md ("Monotonicity") explains, bounded write
 * queues that a burst of writes waits at longer than the same writes
 * spaced out, is checked, not listed: such a case must keep the property
 * once its WPQs are large enough to take every write, and the cases where
 * it shows are counted exactly.
 */
#include "tests/check_timing.h"

#include <inttypes.h>

enum { CASES = 300, MAX_STORES = 4, TEXT = 4096 };

/* WPQs that take every write of a case (at most 6 x 96 x 4). */
static const char big_wpq[] = "config wpq_entries = 4096\n";

static uint64_t rng_state;

/* xorshift64*: the same sequence on every machine. */
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 33) % n;
}

/* What follows a store in the instrumented kernel. */
static const char *const persist[] = {
    "", "  clwb a[r1 + %d]\n  sfence\n", "  sfence\n", "  pcommit\n",
    "  clwb a[r1 + %d]\n  sfence\n  pcommit\n  sfence\n", "  pbar.wi\n",
    "  pbar.wg\n", "  pbar.kr\n", "  psync\n",
};
enum { NPERSIST = sizeof persist / sizeof *persist };

static const char *const presets[] = {"lin", "gope", "gpm"};
static const int lines[] = {32, 64, 128, 256};

typedef struct {
    int preset, line, grid, block, stride, nst, flops, load;
    int after[MAX_STORES];              /* index into persist */
    int wt[MAX_STORES];                 /* st.wt for st */
} Case;

static void draw(Case *c)
{
    static const int blocks[] = {1, 8, 32, 64, 96};
    static const int strides[] = {1, 4, 16, 33};
    c->preset = (int)rnd(3);
    c->line = lines[rnd(4)];
    c->grid = 1 + (int)rnd(6);
    c->block = blocks[rnd(5)];
    c->stride = strides[rnd(4)];
    c->nst = 1 + (int)rnd(MAX_STORES);
    c->flops = (int)rnd(3) * 4;
    c->load = (int)rnd(2);
    for (int i = 0; i < MAX_STORES; i++) {
        c->after[i] = rnd(2) ? (int)rnd(NPERSIST) : 0;
        c->wt[i] = rnd(4) == 0;
    }
}

/* The kernel, with its persistence instructions or without, on the
   preset's WPQs or on big ones. */
static void source(const Case *c, int with, int big, char *buf, size_t len)
{
    int n = snprintf(buf, len,
                     "test mono\nconfig preset = %s\nconfig line_bytes = %d\n"
                     "%spm a[%d] = 0\nkernel k grid %d block %d {\n"
                     "  mul r1, %%gtid, %d\n  mov r2, 1\n",
                     presets[c->preset], c->line,
                     big ? big_wpq : "",
                     c->grid * c->block * c->stride + MAX_STORES, c->grid,
                     c->block, c->stride);
    if (c->load)
        n += snprintf(buf + n, len - (size_t)n, "  ld r2, a[r1]\n");
    for (int f = 0; f < c->flops; f++)
        n += snprintf(buf + n, len - (size_t)n, "  mul r3, r2, 3\n");
    for (int i = 0; i < c->nst; i++) {
        n += snprintf(buf + n, len - (size_t)n, "  st%s a[r1 + %d], r2\n",
                      with && c->wt[i] ? ".wt" : "", i);
        if (with)
            n += snprintf(buf + n, len - (size_t)n, persist[c->after[i]], i);
    }
    snprintf(buf + n, len - (size_t)n, "}\n");
}

static int64_t cycles(const char *text, int model)
{
    TmCosts c = cu_timed(text, model);
    if (c.status != TM_OK)
        fail_msg("%s: %s\n%s", lit_model_names[model], c.error, text);
    return c.cycles;
}

/* Whether case c's kernel (texts with and without) keeps the property
   under model m (1); if not, it must keep it on big WPQs (0), else the
   test fails. */
static int keeps(const Case *c, int k, int m, const char *with,
                 const char *without)
{
    char bwith[TEXT], bwithout[TEXT];
    int64_t w = cycles(with, m), b = cycles(without, m);
    if (w * 100 >= b * 98)
        return 1;
    source(c, 1, 1, bwith, sizeof bwith);
    source(c, 0, 1, bwithout, sizeof bwithout);
    if (cycles(bwith, m) * 100 < cycles(bwithout, m) * 98)
        fail_msg("case %d, %s: %" PRId64 " cycles with persistence, "
                 "%" PRId64 " without, and still faster on large WPQs\n"
                 "--- with\n%s--- without\n%s",
                 k, lit_model_names[m], w, b, with, without);
    return 0;
}

/* CASES kernels from seed; the (case, model) pairs where the bounded WPQs
   make the kernel faster with persistence are added to *queued. */
static void sample(uint64_t seed, int *checked, int *queued)
{
    rng_state = seed;
    for (int k = 0; k < CASES; k++) {
        char with[TEXT], without[TEXT];
        Case c;
        draw(&c);
        source(&c, 1, 0, with, sizeof with);
        source(&c, 0, 0, without, sizeof without);
        if (!strcmp(with, without))
            continue;
        for (int m = 0; m < LIT_NMODELS; m++) {
            *queued += !keeps(&c, k, m, with, without);
            ++*checked;
        }
    }
}

/* Two samples. Where the bounded WPQs show (specs/timing.md): the first
   seed's case 78 under strict, the second's case 1 under strict. */
static void test_persistence_never_faster(void **state)
{
    int checked = 0, queued = 0;
    (void)state;
    sample(0x9e3779b97f4a7c15ull, &checked, &queued);
    sample(0x0123456789abcdefull, &checked, &queued);
    /* most cases differ: the property is not checked on nothing */
    assert_true(checked >= 2 * CASES * LIT_NMODELS / 2);
    assert_int_equal(queued, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_persistence_never_faster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
