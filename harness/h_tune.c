/*
 * h_tune.c — `gpmc tune FILE [--model M[,M…]] [--exact N]
 * [--max-candidates N] [--timeout S] [--apply] [--db F]` and run's
 * exploration options: for a test whose checks hold, the weakest
 * persistency instructions that still make them hold, the cycles each
 * weakening saves, and for every instruction that cannot be weakened the
 * witness that breaks without it (specs/fix.md).
 *
 * Each persistency instruction (in a kernel of per-thread bodies, the n-th
 * persist barrier of every body together: scoped barriers are collective)
 * has a chain of weaker forms: pbar.kr, pbar.wg, pbar, none; psync, pbar,
 * none; st.wt, st; clflush, clwb, none; clwb, pcommit, l2wb and the fences,
 * none. Greedy: in program order, each instruction is weakened one step at
 * a time for as long as every check still holds, in passes until one
 * changes nothing. Exact (when the chains' combinations number at most
 * --exact, default 1024): every combination is timed, and the cheaper
 * ones than the greedy result are verified cheapest first; the first that
 * holds is the cheapest correct program of the whole space.
 *
 * Exit 0 when the search ran to its end, 1 when the test does not hold to
 * begin with or the budget ran out (the best program found is reported),
 * 2 on usage or input errors, 3 on internal errors.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/harness.h"

static const char *tune_help =
    "usage: gpmc tune FILE [--model M[,M...]|all] [--exact N]\n"
    "                 [--max-candidates N] [--timeout SECONDS] [--apply]\n"
    "                 [--db F] [--progress] [-D NAME=V] [--config KEY=V]\n"
    "                 [--crash-depth D] [--naive] [--max-states N]\n"
    "                 [--max-steps N] [--threads N]\n"
    "For a test whose checks all hold under the chosen models (default:\n"
    "all), weakens each persistency instruction in turn (pbar.kr -> pbar.wg\n"
    "-> pbar -> none, psync -> pbar, st.wt -> st, clflush -> clwb, drop\n"
    "clwb, pcommit, l2wb, fences) and keeps a weakening when every check\n"
    "still holds: prints the steps with the cycles each saves, the weakest\n"
    "correct program as a diff, and each necessary instruction with the\n"
    "witness that breaks without it. Greedy in program order; exact (the\n"
    "cheapest correct combination) when the combinations number at most\n"
    "--exact (default 1024). --apply writes the weakest program.\n";

#define NONE (-1)
#define MAX_CHAIN 4
#define MAX_GROUPS 64
#define MAX_MEMBERS 256

static const int chains[][MAX_CHAIN + 1] = {
    {LIT_PBAR_KR, LIT_PBAR_WG, LIT_PBAR_WI, NONE, -2},
    {LIT_PBAR_WG, LIT_PBAR_WI, NONE, -2},
    {LIT_PBAR_WI, NONE, -2},
    {LIT_PSYNC, LIT_PBAR_WI, NONE, -2},
    {LIT_ST_WT, LIT_ST, -2},
    {LIT_CLFLUSH, LIT_CLWB, NONE, -2},
    {LIT_CLWB, NONE, -2},
    {LIT_PCOMMIT, NONE, -2},
    {LIT_L2WB, NONE, -2},
    {LIT_SFENCE, NONE, -2},
    {LIT_MEMBAR_SYS, NONE, -2},
    {LIT_MEMBAR_CTA, NONE, -2},
};

/* An instruction, or the barriers of a kernel's bodies that change
   together. */
typedef struct {
    int k, file;                        /* file: its .cu, or 0 */
    int n, mb[MAX_MEMBERS], mi[MAX_MEMBERS];
    const int *chain;
    int len;
} Group;

typedef struct {
    int level[MAX_GROUPS];
    HRVariant *v;
} Point;

typedef struct {
    HRepair *R;
    Group g[MAX_GROUPS];
    int ngroups;
    Point *pts;                         /* every program verified or timed */
    size_t npts, cappts;
    HRVariant **all;                    /* every variant made (to free) */
    size_t nall, capall;
} Tune;

static const char *op_name(int op)
{
    return op == NONE ? "none" : lit_opinfo[op].name;
}

static const int *chain_of(int op)
{
    for (size_t c = 0; c < sizeof chains / sizeof *chains; c++)
        if (chains[c][0] == op)
            return chains[c];
    return NULL;
}

static int chain_len(const int *c)
{
    int n = 0;
    while (c[n] != -2)
        n++;
    return n;
}

/* The groups of the original program, in program order. */
static int find_groups(Tune *T)
{
    const HRepair *R = T->R;
    const LitProgram *p = R->orig->p;
    for (int k = 0; k < p->nkernels; k++) {
        const LitKernel *kn = &p->kernels[k];
        for (int b = 0; b < kn->nbodies; b++) {
            int file = h_repair_cuda_file(R, p, k, b);
            if (kn->from && !file)
                continue;               /* a .ptx body */
            for (int i = 0; i < kn->bodies[b].ninstr; i++) {
                int op = kn->bodies[b].code[i].op, taken = 0;
                const int *chain = chain_of(op);
                if (!chain || (file && !h_repair_cuda_call(op, 0)))
                    continue;
                for (int g = 0; g < T->ngroups && !taken; g++)
                    for (int m = 0; m < T->g[g].n && !taken; m++)
                        taken = T->g[g].k == k && T->g[g].mb[m] == b &&
                                T->g[g].mi[m] == i;
                if (taken)
                    continue;
                if (T->ngroups == MAX_GROUPS)
                    return -1;
                Group *g = &T->g[T->ngroups++];
                g->k = k;
                g->file = file;
                g->n = h_repair_group(p, k, b, i, g->mb, g->mi, MAX_MEMBERS);
                g->chain = chain;
                g->len = chain_len(chain);
            }
        }
    }
    return 0;
}

static const LitInstr *first_instr(const Tune *T, const Group *g)
{
    return &T->R->orig->p->kernels[g->k].bodies[g->mb[0]].code[g->mi[0]];
}

/* "line 40 `pbar.wg` (kernel insert, every thread body)" */
static void group_text(const Tune *T, const Group *g, char *buf, size_t n)
{
    const HRVariant *o = T->R->orig;
    const LitInstr *in = first_instr(T, g);
    const char *name = T->R->orig->p->kernels[g->k].name;
    char text[128];
    if (lit_edit_text(o->text[g->file], o->len[g->file], in->pos, text,
                      sizeof text) || g->file)
        snprintf(text, sizeof text, "%s",
                 g->file ? h_repair_cuda_call(in->op, 0) : op_name(in->op));
    if (g->file) {
        const char *base = strrchr(T->R->path[g->file], '/');
        snprintf(buf, n, "%s:%d `%s()` (kernel %s)",
                 base ? base + 1 : T->R->path[g->file], (int)in->pos.line,
                 text, name);
    } else {
        snprintf(buf, n, "line %d `%s` (kernel %s%s)", (int)in->pos.line,
                 text, name, g->n > 1 ? ", every thread body" : "");
    }
}

/* The edits that give group g its form `op` in the original's text. */
static int weaken(const Tune *T, const Group *g, int op, HRChange *ch)
{
    const HRVariant *o = T->R->orig;
    const LitKernel *kn = &o->p->kernels[g->k];
    for (int m = 0; m < g->n; m++) {
        const LitInstr *in = &kn->bodies[g->mb[m]].code[g->mi[m]];
        LitEdit e;
        int rc;
        if (ch->nedits == HR_MAX_EDITS)
            return -1;
        if (g->file) {
            const char *from = NULL;
            const char *to = op == NONE ? NULL : h_repair_cuda_call(op, 0);
            rc = -1;
            for (int nth = 0; rc && (from = h_repair_cuda_call(in->op, nth));
                 nth++)
                rc = lit_edit_cuda_call(o->text[g->file], o->len[g->file],
                                        in->pos.line, from, to, &e);
            if (rc || (op != NONE && !to))
                return -1;
        } else if (op == NONE) {
            rc = lit_edit_delete(o->text[0], o->len[0], in->pos, &e);
        } else {
            rc = lit_edit_opcode(o->text[0], o->len[0], in->pos,
                                 lit_opinfo[op].name, &e);
        }
        if (rc)
            return -1;
        ch->edits[ch->nedits++] = (HREdit){g->file, e};
    }
    return 0;
}

static HRVariant *lookup(const Tune *T, const int *level)
{
    for (size_t i = 0; i < T->npts; i++)
        if (!memcmp(T->pts[i].level, level, sizeof T->pts[i].level))
            return T->pts[i].v;
    return NULL;
}

/* The program with these levels, made (not verified) once. NULL when the
   edits do not apply or memory ran out. */
static HRVariant *program(Tune *T, const int *level)
{
    HRVariant *v = lookup(T, level);
    if (v)
        return v;
    int zero = 1;
    for (int g = 0; g < T->ngroups; g++)
        zero &= level[g] == 0;
    if (zero)
        v = T->R->orig;
    else {
        HRChange ch;
        int dup, rc = 0;
        memset(&ch, 0, sizeof ch);
        BaseStr d = {0};
        for (int g = 0; g < T->ngroups && !rc; g++) {
            if (!level[g])
                continue;
            char at[256];
            group_text(T, &T->g[g], at, sizeof at);
            rc = weaken(T, &T->g[g], T->g[g].chain[level[g]], &ch);
            base_str_printf(&d, "%s`%s` -> `%s` at %s", d.len ? "\n" : "",
                            op_name(T->g[g].chain[0]),
                            op_name(T->g[g].chain[level[g]]), at);
        }
        snprintf(ch.desc, sizeof ch.desc, "%s", d.s ? d.s : "");
        base_str_free(&d);
        v = rc ? NULL : h_repair_derive(T->R, T->R->orig, &ch, &dup);
        h_repair_change_free(&ch);
        if (!v)
            return NULL;
        v->size = 0;
        for (int g = 0; g < T->ngroups; g++)
            v->size += level[g];
        if (T->nall == T->capall &&
            BASE_GROW(T->all, T->capall, T->nall + 1)) {
            h_repair_variant_free(v);
            return NULL;
        }
        T->all[T->nall++] = v;
    }
    if (T->npts == T->cappts && BASE_GROW(T->pts, T->cappts, T->npts + 1))
        return NULL;
    memcpy(T->pts[T->npts].level, level, sizeof T->pts[T->npts].level);
    T->pts[T->npts++].v = v;
    return v;
}

/* Verified (and timed, when it holds); the state says. NULL as above. */
static HRVariant *verified(Tune *T, const int *level, int *rc)
{
    HRVariant *v = program(T, level);
    *rc = v ? h_repair_verify(T->R, v, 0) : H_OK;
    if (v && !*rc && v != T->R->orig)   /* the original's stays: groups
                                           point into it */
        h_repair_release(v);
    return v;
}

/* Greedy: each group weakened step by step, in program order, in passes
   until one changes nothing. *steps counts the weakenings kept. */
static int greedy(Tune *T, int *level, int *steps)
{
    int rc = H_OK, changed = 1, n = 0, told[MAX_GROUPS] = {0};
    HRVariant *cur = T->R->orig;
    printf("Greedy, in program order (instruction 1 first), one step at a "
           "time:\n");
    while (changed && !rc) {
        changed = 0;
        for (int g = 0; g < T->ngroups && !rc; g++)
            while (level[g] + 1 < T->g[g].len && !rc) {
                int next[MAX_GROUPS];
                char at[256];
                memcpy(next, level, sizeof next);
                next[g]++;
                HRVariant *v = verified(T, next, &rc);
                if (rc)
                    break;
                group_text(T, &T->g[g], at, sizeof at);
                if (v && v->state == HR_UNCHECKED) {
                    printf("  the budget ran out (--max-candidates or "
                           "--timeout): the remaining steps were not "
                           "tried\n");
                    return H_OK;
                }
                if (!v)
                    break;
                const char *from = op_name(T->g[g].chain[level[g]]);
                const char *to = op_name(T->g[g].chain[next[g]]);
                if (v->state != HR_HOLDS) {
                    if (told[g] != next[g])  /* once, not every pass */
                        printf("  %d. `%s` -> `%s` at %s: %s\n", ++n, from,
                               to, at, v->why);
                    told[g] = next[g];
                    break;
                }
                printf("  %d. `%s` -> `%s` at %s: every check holds; cycles "
                       "%lld -> %lld (saves %lld)\n", ++n, from, to, at,
                       (long long)cur->total, (long long)v->total,
                       (long long)(cur->total - v->total));
                memcpy(level, next, sizeof next);
                cur = v;
                changed = 1;
                (*steps)++;
            }
    }
    return rc;
}

static int cmp_cost(const void *a, const void *b)
{
    const Point *x = a, *y = b;
    if (x->v->total != y->v->total)
        return x->v->total < y->v->total ? -1 : 1;
    if (x->v->size != y->v->size)
        return y->v->size - x->v->size;
    return memcmp(x->level, y->level, sizeof x->level);
}

/* Exact: every combination timed; those cheaper than best verified,
   cheapest first. 0 with *exact set when the space was covered. */
static int exact(Tune *T, int64_t limit, int *level, int *done)
{
    int64_t combos = 1;
    *done = 0;
    for (int g = 0; g < T->ngroups; g++)   /* at most 4^64: saturate */
        combos = combos > INT64_MAX / MAX_CHAIN ? INT64_MAX
                                                : combos * T->g[g].len;
    if (combos > limit) {
        printf("Exact: skipped (%s%lld combinations, --exact %lld)\n",
               combos == INT64_MAX ? "more than " : "",
               (long long)combos, (long long)limit);
        return H_OK;
    }
    Point *all = base_calloc((size_t)combos, sizeof *all);
    int rc = all ? H_OK : H_INTERNAL;
    int64_t n = 0;
    for (int64_t c = 0; c < combos && !rc; c++) {
        int lv[MAX_GROUPS] = {0};
        int64_t x = c;
        for (int g = 0; g < T->ngroups; g++) {
            lv[g] = (int)(x % T->g[g].len);
            x /= T->g[g].len;
        }
        HRVariant *v = program(T, lv);
        if (!v)
            continue;
        if ((rc = h_repair_time(T->R, v)))
            break;
        if (v != T->R->orig)
            h_repair_release(v);
        memcpy(all[n].level, lv, sizeof lv);
        all[n++].v = v;
    }
    HRVariant *best = lookup(T, level), *greedy_best = best;
    int64_t checked = 0;
    if (!rc) {
        qsort(all, (size_t)n, sizeof *all, cmp_cost);
        *done = 1;
        for (int64_t i = 0; i < n && !rc; i++) {
            HRVariant *v = all[i].v;
            if (v == best || cmp_cost(&all[i], &(Point){{0}, best}) >= 0)
                break;
            if (v->state == HR_UNCHECKED) {
                if (h_repair_exhausted(T->R)) {
                    *done = 0;
                    T->R->out_of_budget = 1;
                    break;
                }
                checked++;
                if ((rc = h_repair_verify(T->R, v, 0)))
                    break;
                if (v != T->R->orig)
                    h_repair_release(v);
            }
            if (v->state == HR_HOLDS) {
                memcpy(level, all[i].level, sizeof all[i].level);
                best = v;
                break;
            }
        }
    }
    if (!rc && !*done)
        printf("Exact: incomplete (the budget ran out after %lld of the "
               "cheaper combinations): the greedy result stands\n",
               (long long)checked);
    else if (!rc)
        printf("Exact: %s among the %lld combinations (%lld cheaper ones "
               "checked)\n", best == greedy_best
                                 ? "the greedy result is the cheapest correct"
                                 : "a cheaper correct program than the "
                                   "greedy result",
               (long long)combos, (long long)checked);
    base_free(all);
    return rc;
}

int h_cmd_tune(int argc, char **argv)
{
    int64_t max_candidates = 2000, exact_limit = 1024, apply = 0;
    const HROpt opts[] = {
        {"--max-candidates", &max_candidates, 1, INT64_MAX, 0},
        {"--exact", &exact_limit, 1, INT64_MAX, 0},
        {"--apply", &apply, 0, 1, 1},
    };
    HOpts o;
    HFile f;
    HRepair R;
    Tune T;
    memset(&T, 0, sizeof T);
    memset(&R, 0, sizeof R);
    int status = h_repair_args("tune", tune_help, argc, argv, opts, 3, &o,
                               &f);
    if (status >= 0)
        return status;
    if ((status = h_repair_begin(&R, "tune", &f, &o, max_candidates)))
        goto done;
    T.R = &R;
    if (R.orig->state != HR_HOLDS) {
        printf("  fails: %s\n  tune needs a program whose checks hold "
               "(gpmc fix proposes one)\nTuned %s 0 %lld %lld none "
               "incomplete\n", R.orig->why, f.p->name,
               (long long)R.orig->total, (long long)R.orig->total);
        status = H_FAIL;
        goto done;
    }
    if (find_groups(&T)) {
        fprintf(stderr, "gpmc tune: error: more than %d persistency "
                "instructions\n", MAX_GROUPS);
        status = H_USAGE;
        goto done;
    }
    printf("  persistency instructions: %d\n", T.ngroups);
    for (int g = 0; g < T.ngroups; g++) {
        char at[256];
        group_text(&T, &T.g[g], at, sizeof at);
        printf("    %d. %s:", g + 1, at);
        for (int c = 0; c < T.g[g].len; c++)
            printf("%s%s", c ? " -> " : " ", op_name(T.g[g].chain[c]));
        printf("\n");
    }
    int level[MAX_GROUPS] = {0}, steps = 0, exact_done = 0;
    HRVariant *o0 = program(&T, level);
    if (!o0) {
        status = H_INTERNAL;
        goto done;
    }
    h_repair_stage(&R, "greedy", 0);
    if ((status = greedy(&T, level, &steps)))
        goto done;
    h_repair_stage(&R, "exact", 0);
    if ((status = exact(&T, exact_limit, level, &exact_done)))
        goto done;
    h_repair_stage(&R, "necessary", 0);
    HRVariant *best = lookup(&T, level);
    printf("Weakest correct program:");
    h_repair_print_cycles(&R, best);
    printf(" (total %lld)", (long long)best->total);
    if (best == R.orig) {
        printf(": the original (no weakening keeps every check)\n");
    } else {
        BaseStr d = {0};
        long long saved = (long long)(R.orig->total - best->total);
        printf(", saves %lld cycles (%.1f%%)\n", saved,
               R.orig->total ? 100.0 * (double)saved / (double)R.orig->total
                             : 0.0);
        h_repair_print_indented(best->desc, "  ");
        if (h_repair_diff(&R, best, &d))
            status = H_INTERNAL;
        fputs(d.s ? d.s : "", stdout);
        base_str_free(&d);
    }
    printf("Necessary:\n");
    int necessary = 0;
    BaseStr lines = {0};                /* the fixed lines, after the text */
    for (int g = 0; g < T.ngroups && !status; g++) {
        int next[MAX_GROUPS];
        char at[256];
        if (level[g] + 1 >= T.g[g].len)
            continue;
        memcpy(next, level, sizeof next);
        next[g]++;
        HRVariant *v = verified(&T, next, &status);
        if (status || !v)
            continue;
        group_text(&T, &T.g[g], at, sizeof at);
        if (v->state == HR_UNCHECKED) {
            printf("  %s: not known (the budget ran out)\n", at);
            continue;
        }
        const char *now = op_name(T.g[g].chain[level[g]]);
        const char *weaker = op_name(T.g[g].chain[next[g]]);
        if (v->state == HR_HOLDS) {
            printf("  %s as `%s`: `%s` also holds but costs %lld cycles "
                   "more\n", at, now, weaker,
                   (long long)(v->total - best->total));
            continue;
        }
        necessary++;
        printf("  %s as `%s`: `%s` instead breaks %s:\n", at, now, weaker,
               v->why);
        h_repair_print_indented(v->witness, "      ");
        base_str_printf(&lines, "Necessary %s %d %s %s %s\n", f.p->name,
                        (int)first_instr(&T, &T.g[g])->pos.line, now, weaker,
                        lit_model_names[v->fail_model]);
    }
    h_repair_stage(&R, NULL, 0);
    if (!necessary)
        printf("  (none)\n");
    fputs(lines.s ? lines.s : "", stdout);
    base_str_free(&lines);
    printf("Tuned %s %d %lld %lld %s %s\n", f.p->name, best->size,
           (long long)R.orig->total, (long long)best->total,
           exact_done ? "exact" : "greedy",
           R.out_of_budget ? "incomplete" : "complete");
    if (!status)
        status = R.out_of_budget ? H_FAIL : H_OK;
    if (apply && best != R.orig && status != H_INTERNAL) {
        int rc = h_repair_apply(&R, best);
        if (!rc)
            fprintf(stderr, "gpmc tune: wrote the weakest program to %s\n",
                    f.path);
        else
            status = rc;
    }
    if (o.db && status != H_INTERNAL) {
        HRVariant **vs = base_calloc(T.nall + 1, sizeof *vs);
        int *rank = base_calloc(T.nall + 1, sizeof *rank);
        int n = 0, rc = vs && rank ? H_OK : H_INTERNAL;
        for (size_t i = 0; !rc && i < T.nall; i++)
            if (T.all[i]->state != HR_UNCHECKED) {
                rank[n] = T.all[i] == best ? 1 : -1;
                vs[n++] = T.all[i];
            }
        if (!rc)
            rc = h_repair_store(&R, argc, argv, vs, rank, n);
        base_free(vs);
        base_free(rank);
        if (rc)
            status = rc;
    }
done:
    h_repair_variants_free(T.all, T.nall);
    base_free(T.pts);
    h_repair_end(&R, &f, &o);
    return status;
}
