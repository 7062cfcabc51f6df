/* A witness as a Graphviz DOT graph, from violations.witness_json (format
   in specs/schema.md). The steps are split into segments: the main program
   (0) and the recovery after crash k (k). Each segment is a cluster, each
   crash a node between two segments; program-order edges join consecutive
   steps of one thread in one segment; persist-dependency edges go from the
   step whose store must persist first to the step whose store depends on
   it. Steps whose store a crash image includes are green, those it lacks
   red. */
#include <string.h>

#include "results/results_int.h"

typedef struct {
    const ResJson *step;
    int64_t id, thread, store;          /* store: -1 when none */
    int seg;
} Node;

typedef struct {
    Node *v;
    int n, nseg;
    const ResJson **crash;              /* crash k is crash[k - 1] */
    int ncrash;
} Graph;

static void dot_text(const char *s, FILE *out)
{
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if (*s == '\n')
            fputs("\\n", out);
        else
            fputc(*s, out);
    }
}

static int in_array(const ResJson *arr, int64_t v)
{
    if (!arr || arr->type != RES_JARR)
        return 0;
    for (const ResJson *k = arr->kids; k; k = k->next)
        if (k->type == RES_JNUM && (int64_t)k->num == v)
            return 1;
    return 0;
}

/* The checker lists every crash in "crashes"; a single "crash" object is
   the short form. */
static void collect_crashes(ResArena *a, const ResJson *w, Graph *g)
{
    const ResJson *list = res_json_get(w, "crashes"),
                  *one = res_json_get(w, "crash");
    int n = list && list->type == RES_JARR ? list->nkids : 1;
    g->crash = res_arena_alloc(a, sizeof *g->crash * (size_t)n);
    if (list && list->type == RES_JARR) {
        for (const ResJson *c = list->kids; c; c = c->next)
            if (c->type == RES_JOBJ)
                g->crash[g->ncrash++] = c;
    } else if (one && one->type == RES_JOBJ) {
        g->crash[g->ncrash++] = one;
    }
}

/* A main step is in segment 0; any other step of "steps" in the segment
   after every crash that comes before it (at least 1 for a recovery step);
   the steps of a separate "recovery" array in segment 1. */
static void add_steps(Graph *g, const ResJson *steps, int recovery_array)
{
    if (!steps || steps->type != RES_JARR)
        return;
    for (const ResJson *s = steps->kids; s; s = s->next) {
        if (s->type != RES_JOBJ)
            continue;
        Node *n = &g->v[g->n];
        n->step = s;
        n->id = res_json_int(s, "id", g->n);
        n->thread = res_json_int(s, "thread", -1);
        n->store = res_json_get(s, "store") ? res_json_int(s, "store", -1)
                                            : -1;
        const char *phase = res_json_str(s, "phase");
        n->seg = 0;
        if (recovery_array)
            n->seg = 1;
        else if (!phase || strcmp(phase, "main"))
            for (int k = 0; k < g->ncrash; k++)
                n->seg += res_json_int(g->crash[k], "after", -1) < n->id;
        if (!n->seg && phase && !strcmp(phase, "recovery"))
            n->seg = 1;
        if (n->seg >= g->nseg)
            g->nseg = n->seg + 1;
        g->n++;
    }
}

static int count_objects(const ResJson *arr)
{
    return arr && arr->type == RES_JARR ? arr->nkids : 0;
}

static void print_node(const Graph *g, int i, FILE *out)
{
    const Node *n = &g->v[i];
    const char *kernel = res_json_str(n->step, "kernel");
    int64_t line = res_json_int(n->step, "line", -1);
    fprintf(out, "    s%d [label=\"%lld:", i, (long long)n->id);
    if (n->thread >= 0) {
        fprintf(out, " T%lld", (long long)n->thread);
        if (kernel && *kernel) {
            fputc(' ', out);
            dot_text(kernel, out);
        }
        if (line >= 0)
            fprintf(out, ":%lld", (long long)line);
    }
    static const char *const lines[] = {"instr", "effect"};
    for (int k = 0; k < 2; k++) {
        const char *s = res_json_str(n->step, lines[k]);
        if (s && *s) {
            fputs("\\n", out);
            dot_text(s, out);
        }
    }
    if (n->store >= 0)
        fprintf(out, "\\nstore %lld", (long long)n->store);
    fputc('"', out);
    for (int k = 0; n->store >= 0 && k < g->ncrash; k++) {
        if (in_array(res_json_get(g->crash[k], "included"), n->store)) {
            fputs(", style=filled, fillcolor=palegreen", out);
            break;
        }
        if (in_array(res_json_get(g->crash[k], "excluded"), n->store)) {
            fputs(", style=filled, fillcolor=lightpink", out);
            break;
        }
    }
    fputs("];\n", out);
}

static void print_id_list(const char *what, const ResJson *arr, FILE *out)
{
    if (!arr || arr->type != RES_JARR || !arr->nkids)
        return;
    fprintf(out, "\\n%s:", what);
    for (const ResJson *k = arr->kids; k; k = k->next)
        if (k->type == RES_JNUM)
            fprintf(out, " %lld", (long long)k->num);
}

/* "crash" when there is one, "crash1", "crash2" … otherwise. */
static void crash_name(const Graph *g, int k, char *buf, size_t len)
{
    if (g->ncrash == 1)
        snprintf(buf, len, "crash");
    else
        snprintf(buf, len, "crash%d", k);
}

static void print_segments(const Graph *g, FILE *out)
{
    for (int seg = 0; seg < g->nseg || seg <= g->ncrash; seg++) {
        int first = 1;
        for (int i = 0; i < g->n; i++) {
            if (g->v[i].seg != seg)
                continue;
            if (first) {
                if (!seg)
                    fputs("  subgraph cluster_main {\n    label=\"main\";\n",
                          out);
                else if (g->nseg == 2)
                    fputs("  subgraph cluster_recovery {\n"
                          "    label=\"recovery\";\n", out);
                else
                    fprintf(out, "  subgraph cluster_recovery%d {\n"
                                 "    label=\"recovery %d\";\n", seg, seg);
                first = 0;
            }
            print_node(g, i, out);
        }
        if (!first)
            fputs("  }\n", out);
        if (seg < g->ncrash) {
            char name[24];
            crash_name(g, seg + 1, name, sizeof name);
            fprintf(out, "  %s [shape=octagon, label=\"crash", name);
            if (g->ncrash > 1)
                fprintf(out, " %d", seg + 1);
            print_id_list("persisted", res_json_get(g->crash[seg], "included"),
                          out);
            print_id_list("lost", res_json_get(g->crash[seg], "excluded"),
                          out);
            fputs("\"];\n", out);
        }
    }
}

static int same_kernel(const Node *a, const Node *b)
{
    const char *x = res_json_str(a->step, "kernel"),
               *y = res_json_str(b->step, "kernel");
    return (!x && !y) || (x && y && !strcmp(x, y));
}

static void print_edges(const Graph *g, FILE *out)
{
    for (int i = 0; i < g->n; i++) {
        const Node *s = &g->v[i];
        for (int j = i - 1; s->thread >= 0 && j >= 0; j--) {
            const Node *p = &g->v[j];
            if (p->seg == s->seg && p->thread == s->thread &&
                same_kernel(p, s)) {
                fprintf(out, "  s%d -> s%d [label=\"po\"];\n", j, i);
                break;
            }
        }
    }
    for (int k = 1; k <= g->ncrash; k++) {
        char name[24];
        crash_name(g, k, name, sizeof name);
        int64_t after = res_json_int(g->crash[k - 1], "after", -1);
        for (int i = 0; i < g->n; i++)
            if (g->v[i].seg == k - 1 && g->v[i].id == after) {
                fprintf(out, "  s%d -> %s [style=bold];\n", i, name);
                break;
            }
        for (int i = 0; i < g->n; i++)
            if (g->v[i].seg == k) {
                fprintf(out, "  %s -> s%d [style=bold];\n", name, i);
                break;
            }
    }
}

static int store_node(const Graph *g, int64_t store)
{
    for (int i = 0; i < g->n; i++)
        if (g->v[i].store == store)
            return i;
    return -1;
}

static void print_deps(const Graph *g, const ResJson *deps, FILE *out)
{
    if (!deps || deps->type != RES_JARR)
        return;
    for (const ResJson *d = deps->kids; d; d = d->next) {
        if (d->type != RES_JARR || d->nkids != 2 ||
            d->kids->type != RES_JNUM || d->kids->next->type != RES_JNUM)
            continue;
        int later = store_node(g, (int64_t)d->kids->num);
        int first = store_node(g, (int64_t)d->kids->next->num);
        if (later >= 0 && first >= 0)
            fprintf(out, "  s%d -> s%d [style=dashed, color=blue,"
                         " label=\"pdep\"];\n", first, later);
    }
}

int res_dot_witness(ResDb *db, int64_t violation_id, const char *json,
                    FILE *out)
{
    if (!json)
        return res_sql_fail(db, RES_EINPUT,
                            "violation %lld has no witness_json",
                            (long long)violation_id);
    ResArena *a = res_arena_new();
    char err[128];
    const ResJson *w = res_json_parse(a, json, err, sizeof err);
    if (!w || w->type != RES_JOBJ) {
        res_sql_fail(db, RES_EINPUT, "violation %lld: bad witness_json: %s",
                     (long long)violation_id, w ? "not an object" : err);
        res_arena_free(a);
        return RES_EINPUT;
    }
    Graph g = {NULL, 0, 1, NULL, 0};
    collect_crashes(a, w, &g);
    const ResJson *steps = res_json_get(w, "steps"),
                  *recovery = res_json_get(w, "recovery");
    g.v = res_arena_alloc(a, sizeof *g.v * (size_t)(count_objects(steps) +
                                                    count_objects(recovery) +
                                                    1));
    add_steps(&g, steps, 0);
    add_steps(&g, recovery, 1);
    fprintf(out, "digraph violation_%lld {\n", (long long)violation_id);
    fputs("  node [shape=box, fontname=\"monospace\"];\n", out);
    print_segments(&g, out);
    print_edges(&g, out);
    print_deps(&g, res_json_get(w, "deps"), out);
    fputs("}\n", out);
    res_arena_free(a);
    return RES_OK;
}
