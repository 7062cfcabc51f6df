/* A witness as a Graphviz DOT graph, from violations.witness_json:
   main-program steps and recovery steps as nodes (in clusters), the crash as
   a node between them, program-order edges between consecutive steps of one
   thread (same phase and kernel), and persist-dependency edges from the step
   whose store must persist first to the step whose store depends on it.
   Steps whose store the crash image includes are green, those it lacks red. */
#include <string.h>

#include "results/results_int.h"

typedef struct {
    const ResJson *step;
    char name[24];
} Node;

typedef struct {
    Node *v;
    int n;
} Nodes;

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

static Nodes collect(ResArena *a, const ResJson *steps, char prefix)
{
    Nodes ns = {NULL, 0};
    if (!steps || steps->type != RES_JARR)
        return ns;
    ns.v = res_arena_alloc(a, sizeof *ns.v * (size_t)(steps->nkids + 1));
    for (const ResJson *s = steps->kids; s; s = s->next) {
        if (s->type != RES_JOBJ)
            continue;
        ns.v[ns.n].step = s;
        snprintf(ns.v[ns.n].name, sizeof ns.v[ns.n].name, "%c%d", prefix,
                 ns.n);
        ns.n++;
    }
    return ns;
}

static void print_nodes(const Nodes *ns, const char *cluster,
                        const ResJson *crash, FILE *out)
{
    if (!ns->n)
        return;
    fprintf(out, "  subgraph cluster_%s {\n    label=\"%s\";\n", cluster,
            cluster);
    for (int i = 0; i < ns->n; i++) {
        const ResJson *s = ns->v[i].step;
        fprintf(out, "    %s [label=\"%lld: T%lld", ns->v[i].name,
                (long long)res_json_int(s, "id", i),
                (long long)res_json_int(s, "thread", 0));
        if (res_json_str(s, "kernel")) {
            fputc(' ', out);
            dot_text(res_json_str(s, "kernel"), out);
        }
        int64_t line = res_json_int(s, "line", -1);
        if (line >= 0)
            fprintf(out, ":%lld", (long long)line);
        static const char *const lines[] = {"instr", "effect"};
        for (int k = 0; k < 2; k++)
            if (res_json_str(s, lines[k])) {
                fputs("\\n", out);
                dot_text(res_json_str(s, lines[k]), out);
            }
        int64_t store = res_json_int(s, "store", -1);
        if (store >= 0)
            fprintf(out, "\\nstore %lld", (long long)store);
        fputc('"', out);
        if (store >= 0 && in_array(res_json_get(crash, "included"), store))
            fputs(", style=filled, fillcolor=palegreen", out);
        else if (store >= 0 &&
                 in_array(res_json_get(crash, "excluded"), store))
            fputs(", style=filled, fillcolor=lightpink", out);
        fputs("];\n", out);
    }
    fputs("  }\n", out);
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static void print_po(const Nodes *ns, FILE *out)
{
    for (int i = 0; i < ns->n; i++) {
        const ResJson *s = ns->v[i].step;
        for (int j = i - 1; j >= 0; j--) {
            const ResJson *p = ns->v[j].step;
            if (res_json_int(p, "thread", 0) == res_json_int(s, "thread", 0) &&
                same_str(res_json_str(p, "kernel"),
                         res_json_str(s, "kernel"))) {
                fprintf(out, "  %s -> %s [label=\"po\"];\n", ns->v[j].name,
                        ns->v[i].name);
                break;
            }
        }
    }
}

static const char *node_where(const Nodes *ns, const char *key, int64_t v)
{
    for (int i = 0; i < ns->n; i++)
        if (res_json_get(ns->v[i].step, key) &&
            res_json_int(ns->v[i].step, key, -1) == v)
            return ns->v[i].name;
    return NULL;
}

static const char *store_node(const Nodes *m, const Nodes *r, int64_t store)
{
    const char *n = node_where(m, "store", store);
    return n ? n : node_where(r, "store", store);
}

static void print_id_list(const char *what, const ResJson *arr, FILE *out)
{
    if (!arr || arr->type != RES_JARR)
        return;
    fprintf(out, "\\n%s:", what);
    for (const ResJson *k = arr->kids; k; k = k->next)
        if (k->type == RES_JNUM)
            fprintf(out, " %lld", (long long)k->num);
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
    const ResJson *crash = res_json_get(w, "crash");
    if (crash && crash->type != RES_JOBJ)
        crash = NULL;
    Nodes m = collect(a, res_json_get(w, "steps"), 'm');
    Nodes r = collect(a, res_json_get(w, "recovery"), 'r');
    fprintf(out, "digraph violation_%lld {\n", (long long)violation_id);
    fputs("  node [shape=box, fontname=\"monospace\"];\n", out);
    print_nodes(&m, "main", crash, out);
    if (crash) {
        fputs("  crash [shape=octagon, label=\"crash", out);
        print_id_list("persisted", res_json_get(crash, "included"), out);
        print_id_list("lost", res_json_get(crash, "excluded"), out);
        fputs("\"];\n", out);
    }
    print_nodes(&r, "recovery", crash, out);
    print_po(&m, out);
    print_po(&r, out);
    if (crash) {
        const char *after = res_json_get(crash, "after")
            ? node_where(&m, "id", res_json_int(crash, "after", -1)) : NULL;
        if (after)
            fprintf(out, "  %s -> crash [style=bold];\n", after);
        if (r.n)
            fprintf(out, "  crash -> %s [style=bold];\n", r.v[0].name);
    }
    const ResJson *deps = res_json_get(w, "deps");
    for (const ResJson *d = deps && deps->type == RES_JARR ? deps->kids : NULL;
         d; d = d->next) {
        if (d->type != RES_JARR || d->nkids != 2 ||
            d->kids->type != RES_JNUM || d->kids->next->type != RES_JNUM)
            continue;
        const char *later = store_node(&m, &r, (int64_t)d->kids->num);
        const char *first = store_node(&m, &r, (int64_t)d->kids->next->num);
        if (later && first)
            fprintf(out, "  %s -> %s [style=dashed, color=blue,"
                         " label=\"pdep\"];\n", first, later);
    }
    fputs("}\n", out);
    res_arena_free(a);
    return RES_OK;
}
