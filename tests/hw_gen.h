/*
 * hw_gen.h — random small litmus programs for the hw model's equivalence
 * tests: 1-3 threads (one CTA or several, sometimes a second kernel and a
 * recovery kernel), 2-4 PM words pinned to 1-3 lines of four words, lines
 * on one, two or eight controllers, a durable or volatile WPQ with either
 * write-through acknowledgement (wt_ack = nvm or wpq), and bodies
 * drawn from st, st.wt, ld, atom.add, clwb, clflush, l2wb, pcommit, sfence,
 * membar.cta, pbar, pbar.wg, pbar.kr, psync and bar.sync (grid.sync on
 * several CTAs), which order the threads. Some stores write a value the
 * word may hold already. The same seed gives the
 * same program. Every check mentions every PM word, so the crash outcomes
 * are the crash images (with hg_program_ex's partial, some words only).
 */
#ifndef GPMC_TESTS_HW_GEN_H
#define GPMC_TESTS_HW_GEN_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint64_t s;
    char *buf;
    size_t len, n;
    int nwords, value;
    int sync;                           /* bar.sync allowed (one CTA) */
    int partial;                        /* conditions name some words */
} HwGen;

static uint32_t hg_next(HwGen *g)
{
    g->s ^= g->s << 13;
    g->s ^= g->s >> 7;
    g->s ^= g->s << 17;
    return (uint32_t)(g->s >> 11);
}

static int hg_pick(HwGen *g, int n)
{
    return (int)(hg_next(g) % (uint32_t)n);
}

static void hg_put(HwGen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void hg_put(HwGen *g, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (g->n >= g->len)
        return;
    va_start(ap, fmt);
    k = vsnprintf(g->buf + g->n, g->len - g->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        g->n += (size_t)k;
}

/* A value to store: mostly a new one, one time in four 0 or 1, which
   words often hold already (a store that changes nothing in L2). */
static int hg_value(HwGen *g)
{
    return hg_pick(g, 4) ? ++g->value : hg_pick(g, 2);
}

/* One instruction of a main-program body. */
static void hg_instr(HwGen *g)
{
    char w = (char)('a' + hg_pick(g, g->nwords));
    int r = hg_pick(g, 100);
    if (r < 30)
        hg_put(g, "    st %c, %d\n", w, hg_value(g));
    else if (r < 40)
        hg_put(g, "    st.wt %c, %d\n", w, hg_value(g));
    else if (r < 46)
        hg_put(g, "    ld r0, %c\n", w);
    else if (r < 50)
        hg_put(g, "    atom.add r1, %c, %d\n", w, 10 * ++g->value);
    else if (r < 60)
        hg_put(g, "    clwb %c\n", w);
    else if (r < 63)
        hg_put(g, "    clflush %c\n", w);
    else if (r < 67)
        hg_put(g, "    l2wb\n");
    else if (r < 73)
        hg_put(g, "    pcommit\n");
    else if (r < 83)
        hg_put(g, "    sfence\n");
    else if (r < 85)
        hg_put(g, "    membar.cta\n");
    else if (r < 90)
        hg_put(g, "    pbar\n");
    else if (r < 92)
        hg_put(g, "    pbar.wg\n");
    else if (r < 94)
        hg_put(g, "    pbar.kr\n");
    else if (r < 96)
        hg_put(g, "    psync\n");
    else
        hg_put(g, "    %s\n", g->sync ? "bar.sync" : "grid.sync");
}

static void hg_body(HwGen *g, int gtid, int ninstr)
{
    hg_put(g, "  thread %d {\n", gtid);
    for (int i = 0; i < ninstr; i++)
        hg_instr(g);
    hg_put(g, "  }\n");
}

/* The condition "every word equals its initial value", as crash and
   recovered checks use it: it names every word, or (g->partial) a random
   nonempty subset of them, so that the projection leaves the others out. */
static void hg_all_zero(HwGen *g, const char *quant)
{
    int mask = g->partial ? 1 + hg_pick(g, (1 << g->nwords) - 1)
                          : (1 << g->nwords) - 1, first = 1;
    hg_put(g, "%s (", quant);
    for (int i = 0; i < g->nwords; i++)
        if (mask & (1 << i)) {
            hg_put(g, "%s%c == 0", first ? "" : " && ", 'a' + i);
            first = 0;
        }
    hg_put(g, ")\n");
}

/* Writes the program of `seed` into buf (len bytes); size >= 1 scales the
   number of instructions per thread; partial: see hg_all_zero. */
static __attribute__((unused)) void hg_program_ex(uint64_t seed, int size,
                                                 int partial, char *buf,
                                                 size_t len)
{
    static const int ctls[3] = {1, 2, 8};
    HwGen g;
    int nthreads, grid, budget, nlines;
    g.s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    g.buf = buf;
    g.len = len;
    g.n = 0;
    g.value = 0;
    g.partial = partial;
    buf[0] = 0;
    g.nwords = 2 + hg_pick(&g, 3);
    nlines = 1 + hg_pick(&g, 3);
    hg_put(&g, "test R%llu\n", (unsigned long long)seed);
    hg_put(&g, "config wpq = %s\n", hg_pick(&g, 2) ? "volatile" : "durable");
    hg_put(&g, "config wt_ack = %s\n", hg_pick(&g, 2) ? "wpq" : "nvm");
    hg_put(&g, "config line_bytes = 32\n");
    hg_put(&g, "config controllers = %d\n", ctls[hg_pick(&g, 3)]);
    for (int i = 0; i < g.nwords; i++)
        hg_put(&g, "pm %c = 0 line %d\n", 'a' + i,
               i < nlines ? i : hg_pick(&g, nlines));
    nthreads = 1 + hg_pick(&g, 3);
    grid = hg_pick(&g, 2) ? nthreads : 1;
    g.sync = grid == 1;
    budget = size * (nthreads == 1 ? 6 : nthreads == 2 ? 4 : 3);
    hg_put(&g, "kernel k grid %d block %d {\n", grid, nthreads / grid);
    for (int t = 0; t < nthreads; t++)
        hg_body(&g, t, 1 + hg_pick(&g, budget));
    hg_put(&g, "}\n");
    if (hg_pick(&g, 4) == 0) {
        hg_put(&g, "kernel k2 grid 1 block 1 {\n");
        g.sync = 1;
        hg_body(&g, 0, 1 + hg_pick(&g, 3 * size));
        hg_put(&g, "}\n");
    }
    if (hg_pick(&g, 3) == 0) {
        char a = (char)('a' + hg_pick(&g, g.nwords));
        char b = (char)('a' + hg_pick(&g, g.nwords));
        hg_put(&g, "recover {\n  kernel fix grid 1 block 1 {\n"
                   "    ld r0, %c\n    add r0, r0, 100\n    st %c, r0\n",
               a, b);
        if (hg_pick(&g, 2))
            hg_put(&g, "    clwb %c\n    sfence\n", b);
        hg_put(&g, "  }\n}\n");
        hg_put(&g, "check recovered ");
        hg_all_zero(&g, "exists");
    }
    hg_put(&g, "check crash ");
    hg_all_zero(&g, "forall");
    hg_put(&g, "check final exists (0:r0 == 0 && a == 0)\n");
    hg_put(&g, "check noerror\n");
}

static __attribute__((unused)) void hg_program(uint64_t seed, int size,
                                              char *buf, size_t len)
{
    hg_program_ex(seed, size, 0, buf, len);
}

#endif
