/*
 * red_gen.h — random small litmus programs for the reductions' equivalence
 * tests (tests/test_red.c): 2-4 threads in one CTA or two, PM words
 * private to a thread (x[%tid]) and shared (y, z, some on one line), a
 * dram and a shared word, and bodies drawn from stores, write-throughs,
 * loads, atomics, register arithmetic, forward branches, counted loops,
 * dram/shared traffic, pbar, pbar.wg, pbar.kr, psync, clwb, l2wb,
 * pcommit, sfence, bar.sync, grid.sync and exit (stores sometimes write
 * the value a word holds already; a volatile WPQ sometimes has one
 * controller for every line); sometimes a second kernel and a recovery
 * kernel. The crash check names a random subset of the PM words, so the
 * projection has something to leave out. The same seed gives the same
 * program.
 */
#ifndef GPMC_TESTS_RED_GEN_H
#define GPMC_TESTS_RED_GEN_H

#include "tests/hw_gen.h"

typedef struct {
    HwGen g;
    int nthreads, grid;
    int loops;                          /* counted loops written */
} RedGen;

/* A PM word as a memory operand: x[%tid], x[K], y or z. */
static const char *rg_word(RedGen *r, char *buf, size_t len)
{
    switch (hg_pick(&r->g, 5)) {
    case 0: case 1: snprintf(buf, len, "x[%%tid]"); break;
    case 2: snprintf(buf, len, "x[%d]", hg_pick(&r->g, r->nthreads)); break;
    case 3: snprintf(buf, len, "y"); break;
    default: snprintf(buf, len, "z"); break;
    }
    return buf;
}

static void rg_instr(RedGen *r, int depth)
{
    HwGen *g = &r->g;
    char w[32];
    int k = hg_pick(g, 100);
    if (k < 22)
        hg_put(g, "    st %s, %d\n", rg_word(r, w, sizeof w),
               hg_value(g));
    else if (k < 26)
        hg_put(g, "    st.wt %s, %d\n", rg_word(r, w, sizeof w),
               hg_value(g));
    else if (k < 34)
        hg_put(g, "    ld r0, %s\n", rg_word(r, w, sizeof w));
    else if (k < 37)
        hg_put(g, "    atom.add r1, %s, 1\n", rg_word(r, w, sizeof w));
    else if (k < 43)
        hg_put(g, "    add r2, r2, %d\n", 1 + hg_pick(g, 3));
    else if (k < 47)
        hg_put(g, "    st d, r0\n");
    else if (k < 50)
        hg_put(g, "    ld r4, d\n");
    else if (k < 53)
        hg_put(g, "    st s, %%tid\n");
    else if (k < 55)
        hg_put(g, "    ld r4, s\n");
    else if (k < 62)
        hg_put(g, "    pbar\n");
    else if (k < 65)
        hg_put(g, "    pbar.wg\n");
    else if (k < 67)
        hg_put(g, "    pbar.kr\n");
    else if (k < 70)
        hg_put(g, "    psync\n");
    else if (k < 73)
        hg_put(g, "    clwb %s\n", rg_word(r, w, sizeof w));
    else if (k < 75)
        hg_put(g, "    sfence\n");
    else if (k < 80)
        hg_put(g, "    %s\n", r->grid == 1 ? "bar.sync" : "grid.sync");
    else if (k < 86) {
        /* a forward branch around one instruction */
        int l = ++r->loops;
        hg_put(g, "    beq r0, 0, F%d\n", l);
        if (depth < 2)
            rg_instr(r, depth + 1);
        hg_put(g, "  F%d:\n", l);
    } else if (k < 91 && depth < 1) {
        /* a loop counted by its own register */
        int l = ++r->loops;
        hg_put(g, "    mov r5, 0\n  L%d:\n", l);
        rg_instr(r, depth + 1);
        hg_put(g, "    add r5, r5, 1\n    blt r5, 2, L%d\n", l);
    } else if (k < 93)
        hg_put(g, "    exit\n");
    else if (k < 95)
        hg_put(g, "    l2wb\n");
    else if (k < 97)
        hg_put(g, "    pcommit\n");
    else
        hg_put(g, "    mov r0, %d\n", hg_pick(g, 2));
}

/* Writes the program of `seed` into buf; size >= 1 scales the bodies. */
static void rg_program(uint64_t seed, int size, char *buf, size_t len)
{
    RedGen r;
    HwGen *g = &r.g;
    int budget;
    g->s = seed * 0xD1B54A32D192ED03ull + 0x8BB84B93962EACC9ull;
    g->buf = buf;
    g->len = len;
    g->n = 0;
    g->value = 0;
    g->nwords = 0;
    g->sync = 1;
    g->partial = 0;
    buf[0] = 0;
    r.loops = 0;
    r.nthreads = 2 + hg_pick(g, 3);
    r.grid = r.nthreads == 4 && hg_pick(g, 2) ? 2 : 1;
    hg_put(g, "test G%llu\n", (unsigned long long)seed);
    hg_put(g, "config line_bytes = 32\n");
    if (hg_pick(g, 4) == 0) {
        hg_put(g, "config wpq = volatile\n");
        if (hg_pick(g, 2))
            hg_put(g, "config controllers = 1\n");
    }
    hg_put(g, "pm x[4] = 0 line 0\n");
    hg_put(g, "pm y = 0 line %d\n", 1 + hg_pick(g, 2));
    hg_put(g, "pm z = 0 line 2\n");
    hg_put(g, "dram d = 0\nshared s\n");
    budget = size * (r.nthreads <= 2 ? 5 : r.nthreads == 3 ? 4 : 3);
    hg_put(g, "kernel k grid %d block %d {\n", r.grid, r.nthreads / r.grid);
    for (int t = 0; t < r.nthreads; t++) {
        int n = 1 + hg_pick(g, budget);
        hg_put(g, "  thread %d {\n", t);
        for (int i = 0; i < n; i++)
            rg_instr(&r, 0);
        hg_put(g, "  }\n");
    }
    hg_put(g, "}\n");
    if (hg_pick(g, 4) == 0) {
        r.nthreads = 1;
        r.grid = 1;
        hg_put(g, "kernel k2 grid 1 block 1 {\n  thread 0 {\n");
        for (int i = 0; i < 1 + hg_pick(g, 3); i++)
            rg_instr(&r, 0);
        hg_put(g, "  }\n}\n");
    }
    if (hg_pick(g, 3) == 0) {
        hg_put(g, "recover {\n  kernel fix grid 1 block 1 {\n"
                  "    ld r0, %s\n    add r0, r0, 100\n    st x[1], r0\n"
                  "    pbar\n  }\n}\n", hg_pick(g, 2) ? "y" : "x[0]");
        hg_put(g, "check recovered exists (x[1] == 100)\n");
    }
    {
        static const char *const words[6] = {"x[0]", "x[1]", "x[2]", "x[3]",
                                             "y", "z"};
        int first = 1, mask = 1 + hg_pick(g, 63);
        hg_put(g, "check crash forall (");
        for (int i = 0; i < 6; i++)
            if (mask & (1 << i)) {
                hg_put(g, "%s%s == 0", first ? "" : " && ", words[i]);
                first = 0;
            }
        hg_put(g, ")\n");
    }
    hg_put(g, "check final exists (0:r0 == 0 && y == 0)\n");
    hg_put(g, "check noerror\n");
}

#endif
