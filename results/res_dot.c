/* A witness as a Graphviz DOT graph, from violations.witness_json (format
   in specs/schema.md), read with SQLite's JSON functions. The steps are
   split into segments: the main program (0) and the recovery after crash k
   (k). Each segment is a cluster holding one cluster per thread; each
   crash is a node between two segments. Edges: program order (po) between
   consecutive steps of one thread in one segment; reads-from (rf) from the
   latest earlier step of the segment that wrote the word a step reads
   (visibility is sequentially consistent), or, for a PM word no step of a
   recovery wrote, from the crash whose image it starts on; persist order
   from each step whose pending store the crash image holds (persisted) or
   lacks (lost) to that crash; persist dependencies (pdep) from the step
   whose store must persist first to the step whose store depends on it;
   a livelock's cycle, from its last step back to its first.
   Steps are numbered as in the text witness (from 1). */
#include <string.h>

#include "results/results_int.h"

typedef struct {
    int64_t id, thread, line, store;    /* -1: absent */
    const char *kernel, *instr, *effect, *phase, *reads, *writes, *space;
    int seg;
} Node;

typedef struct {
    int64_t after;                      /* -1: before any step */
    int64_t *held, *lost;               /* the stores the image has, lacks */
    size_t nheld, nlost, capheld, caplost;
} Crash;

typedef struct {
    ResDb *db;
    BaseArena *a;
    const char *json;
    Node *v;
    size_t n, cap;
    int nseg, failed;
    Crash *crash;                       /* crash k is crash[k - 1] */
    size_t ncrash, capcrash;
} Graph;

static const char *keep(Graph *g, sqlite3_stmt *st, int i)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return NULL;
    char *s = base_arena_strdup(g->a, res_sql_text(st, i));
    g->failed |= !s;
    return s;
}

static int64_t int_or(sqlite3_stmt *st, int i, int64_t def)
{
    return sqlite3_column_type(st, i) == SQLITE_INTEGER
        ? sqlite3_column_int64(st, i) : def;
}

/* The member of value (a JSON object) when it has that JSON type. */
#define MEMBER(m, type) \
    "CASE WHEN json_type(value, '$." m "') = '" type "'" \
    " THEN json_extract(value, '$." m "') END"

/* The integers of a JSON array (the text of a crash's member). */
static int load_ints(Graph *g, const char *arr, int64_t **v, size_t *n,
                     size_t *cap)
{
    sqlite3_stmt *st;
    if (!arr)
        return RES_OK;
    int rc = res_sql_prepare(g->db, &st, "SELECT value FROM json_each(?)"
                             " WHERE type = 'integer'", "t", arr);
    if (rc)
        return rc;
    int s;
    while ((s = res_sql_step(g->db, st)) > 0) {
        if (BASE_GROW(*v, *cap, *n + 1)) {
            g->failed = 1;
            break;
        }
        (*v)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

/* The checker lists every crash in "crashes"; a single "crash" object is
   the short form. */
static int load_crashes(Graph *g)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(g->db, &st,
                             "SELECT " MEMBER("after", "integer") ","
                             " " MEMBER("included", "array") ","
                             " " MEMBER("excluded", "array")
                             " FROM json_each(?1, CASE WHEN json_type(?1,"
                             " '$.crashes') = 'array' THEN '$.crashes'"
                             " ELSE '$' END)"
                             " WHERE type = 'object' AND (json_type(?1,"
                             " '$.crashes') = 'array' OR key = 'crash')",
                             "t", g->json);
    if (rc)
        return rc;
    int s;
    while ((s = res_sql_step(g->db, st)) > 0 && !g->failed) {
        if (BASE_GROW(g->crash, g->capcrash, g->ncrash + 1)) {
            g->failed = 1;
            break;
        }
        Crash *c = &g->crash[g->ncrash++];
        memset(c, 0, sizeof *c);
        c->after = int_or(st, 0, -1);
        rc = load_ints(g, keep(g, st, 1), &c->held, &c->nheld, &c->capheld);
        if (!rc)
            rc = load_ints(g, keep(g, st, 2), &c->lost, &c->nlost,
                           &c->caplost);
        if (rc)
            break;
    }
    sqlite3_finalize(st);
    return rc ? rc : s < 0 ? -s : RES_OK;
}

/* A main step is in segment 0; any other step of "steps" in the segment
   after every crash that comes before it (at least 1 for a recovery step);
   the steps of a separate "recovery" array in segment 1. */
static int load_steps(Graph *g, const char *path, int recovery_array)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(g->db, &st,
                             "SELECT " MEMBER("id", "integer") ","
                             " " MEMBER("thread", "integer") ","
                             " " MEMBER("line", "integer") ","
                             " " MEMBER("store", "integer") ","
                             " " MEMBER("kernel", "text") ","
                             " " MEMBER("instr", "text") ","
                             " " MEMBER("effect", "text") ","
                             " " MEMBER("phase", "text") ","
                             " " MEMBER("reads", "text") ","
                             " " MEMBER("writes", "text") ","
                             " " MEMBER("space", "text")
                             " FROM json_each(?1, ?2)"
                             " WHERE json_type(?1, ?2) = 'array'"
                             " AND type = 'object'", "tt", g->json, path);
    if (rc)
        return rc;
    int s;
    while ((s = res_sql_step(g->db, st)) > 0 && !g->failed) {
        if (BASE_GROW(g->v, g->cap, g->n + 1)) {
            g->failed = 1;
            break;
        }
        Node *n = &g->v[g->n];
        n->id = int_or(st, 0, (int64_t)g->n);
        n->thread = int_or(st, 1, -1);
        n->line = int_or(st, 2, -1);
        n->store = int_or(st, 3, -1);
        n->kernel = keep(g, st, 4);
        n->instr = keep(g, st, 5);
        n->effect = keep(g, st, 6);
        n->phase = keep(g, st, 7);
        n->reads = keep(g, st, 8);
        n->writes = keep(g, st, 9);
        n->space = keep(g, st, 10);
        n->seg = 0;
        if (recovery_array)
            n->seg = 1;
        else if (!n->phase || strcmp(n->phase, "main"))
            for (size_t k = 0; k < g->ncrash; k++)
                n->seg += g->crash[k].after < n->id;
        if (!n->seg && n->phase && !strcmp(n->phase, "recovery"))
            n->seg = 1;
        if (n->seg >= g->nseg)
            g->nseg = n->seg + 1;
        g->n++;
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

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

static int holds(const int64_t *v, size_t n, int64_t x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

static void print_node(const Graph *g, size_t i, const char *indent,
                       FILE *out)
{
    const Node *n = &g->v[i];
    fprintf(out, "%ss%zu [label=\"%lld:", indent, i, (long long)n->id + 1);
    if (n->thread >= 0) {
        fprintf(out, " T%lld", (long long)n->thread);
        if (n->kernel && *n->kernel) {
            fputc(' ', out);
            dot_text(n->kernel, out);
        }
        if (n->line >= 0)
            fprintf(out, ":%lld", (long long)n->line);
    }
    const char *lines[] = {n->instr, n->effect};
    for (int k = 0; k < 2; k++)
        if (lines[k] && *lines[k]) {
            fputs("\\n", out);
            dot_text(lines[k], out);
        }
    if (n->store >= 0)
        fprintf(out, "\\nstore #%lld", (long long)n->store);
    fputc('"', out);
    for (size_t k = 0; n->store >= 0 && k < g->ncrash; k++) {
        const Crash *c = &g->crash[k];
        if (holds(c->held, c->nheld, n->store)) {
            fputs(", style=filled, fillcolor=palegreen", out);
            break;
        }
        if (holds(c->lost, c->nlost, n->store)) {
            fputs(", style=filled, fillcolor=lightpink", out);
            break;
        }
    }
    fputs("];\n", out);
}

/* "crash" when there is one, "crash1", "crash2" … otherwise. */
static void crash_name(const Graph *g, size_t k, char *buf, size_t len)
{
    if (g->ncrash == 1)
        snprintf(buf, len, "crash");
    else
        snprintf(buf, len, "crash%zu", k);
}

static void print_store_list(const char *what, const int64_t *v, size_t n,
                             FILE *out)
{
    if (!n)
        return;
    fprintf(out, "\\n%s:", what);
    for (size_t i = 0; i < n; i++)
        fprintf(out, " #%lld", (long long)v[i]);
}

static void segment_name(const Graph *g, int seg, char *name, size_t nlen,
                         char *label, size_t llen)
{
    if (!seg) {
        snprintf(name, nlen, "main");
        snprintf(label, llen, "main");
    } else if (g->nseg == 2) {
        snprintf(name, nlen, "recovery");
        snprintf(label, llen, "recovery");
    } else {
        snprintf(name, nlen, "recovery%d", seg);
        snprintf(label, llen, "recovery %d", seg);
    }
}

/* One segment: a cluster, inside it a cluster per thread in the order
   the threads first step, and the steps of no thread (model events). */
static void print_segment(const Graph *g, int seg, FILE *out)
{
    char name[32], label[32];
    int any = 0;
    for (size_t i = 0; i < g->n && !any; i++)
        any = g->v[i].seg == seg;
    if (!any)
        return;
    segment_name(g, seg, name, sizeof name, label, sizeof label);
    fprintf(out, "  subgraph cluster_%s {\n    label=\"%s\";\n", name, label);
    for (size_t i = 0; i < g->n; i++) {
        const Node *n = &g->v[i];
        int first = n->seg == seg && n->thread >= 0;
        for (size_t j = 0; first && j < i; j++)
            first = !(g->v[j].seg == seg && g->v[j].thread == n->thread);
        if (!first)
            continue;
        fprintf(out, "    subgraph cluster_%s_t%lld {\n"
                     "      label=\"thread %lld\";\n", name,
                (long long)n->thread, (long long)n->thread);
        for (size_t j = i; j < g->n; j++)
            if (g->v[j].seg == seg && g->v[j].thread == n->thread)
                print_node(g, j, "      ", out);
        fputs("    }\n", out);
    }
    for (size_t i = 0; i < g->n; i++)
        if (g->v[i].seg == seg && g->v[i].thread < 0)
            print_node(g, i, "    ", out);
    fputs("  }\n", out);
}

static void print_crash(const Graph *g, size_t k, FILE *out)
{
    const Crash *c = &g->crash[k - 1];
    char name[24];
    crash_name(g, k, name, sizeof name);
    fprintf(out, "  %s [shape=octagon, label=\"crash", name);
    if (g->ncrash > 1)
        fprintf(out, " %zu", k);
    fprintf(out, " after step %lld", (long long)c->after + 1);
    print_store_list("persisted", c->held, c->nheld, out);
    print_store_list("lost", c->lost, c->nlost, out);
    fputs("\"];\n", out);
}

static int same_text(const char *x, const char *y)
{
    return (!x && !y) || (x && y && !strcmp(x, y));
}

static long store_node(const Graph *g, int64_t store)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->v[i].store == store)
            return (long)i;
    return -1;
}

static void print_po(const Graph *g, FILE *out)
{
    for (size_t i = 0; i < g->n; i++) {
        const Node *s = &g->v[i];
        for (size_t j = i; s->thread >= 0 && j-- > 0;) {
            const Node *p = &g->v[j];
            if (p->seg == s->seg && p->thread == s->thread &&
                same_text(p->kernel, s->kernel)) {
                fprintf(out, "  s%zu -> s%zu [label=\"po\"];\n", j, i);
                break;
            }
        }
    }
}

static void print_rf(const Graph *g, FILE *out)
{
    for (size_t i = 0; i < g->n; i++) {
        const Node *s = &g->v[i];
        if (!s->reads)
            continue;
        size_t j = i;
        while (j-- > 0 && !(g->v[j].seg == s->seg &&
                            same_text(g->v[j].writes, s->reads)))
            ;
        if (j != (size_t)-1) {
            fprintf(out, "  s%zu -> s%zu [label=\"rf ", j, i);
        } else if (s->seg > 0 && (size_t)s->seg <= g->ncrash &&
                   s->space && !strcmp(s->space, "pm")) {
            char name[24];
            crash_name(g, (size_t)s->seg, name, sizeof name);
            fprintf(out, "  %s -> s%zu [label=\"rf ", name, i);
        } else {
            continue;                   /* the initial value */
        }
        dot_text(s->reads, out);
        fputs("\", color=darkgreen, fontcolor=darkgreen];\n", out);
    }
}

static void print_crash_edges(const Graph *g, FILE *out)
{
    for (size_t k = 1; k <= g->ncrash; k++) {
        const Crash *c = &g->crash[k - 1];
        char name[24];
        crash_name(g, k, name, sizeof name);
        for (size_t i = 0; i < g->n; i++)
            if (g->v[i].seg == (int)k - 1 && g->v[i].id == c->after) {
                fprintf(out, "  s%zu -> %s [style=bold];\n", i, name);
                break;
            }
        for (size_t i = 0; i < g->n; i++)
            if (g->v[i].seg == (int)k) {
                fprintf(out, "  %s -> s%zu [style=bold];\n", name, i);
                break;
            }
        for (size_t i = 0; i < c->nheld; i++) {
            long s = store_node(g, c->held[i]);
            if (s >= 0)
                fprintf(out, "  s%ld -> %s [label=\"persisted\","
                             " color=darkgreen, fontcolor=darkgreen,"
                             " style=dotted];\n", s, name);
        }
        for (size_t i = 0; i < c->nlost; i++) {
            long s = store_node(g, c->lost[i]);
            if (s >= 0)
                fprintf(out, "  s%ld -> %s [label=\"lost\", color=red,"
                             " fontcolor=red, style=dotted];\n", s, name);
        }
    }
}

static int print_deps(Graph *g, FILE *out)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(g->db, &st,
                             "SELECT json_extract(value, '$[0]'),"
                             " json_extract(value, '$[1]')"
                             " FROM json_each(?1, '$.deps')"
                             " WHERE json_type(?1, '$.deps') = 'array'"
                             " AND type = 'array'"
                             " AND json_array_length(value) = 2"
                             " AND json_type(value, '$[0]') = 'integer'"
                             " AND json_type(value, '$[1]') = 'integer'",
                             "t", g->json);
    if (rc)
        return rc;
    int s;
    while ((s = res_sql_step(g->db, st)) > 0) {
        long later = store_node(g, sqlite3_column_int64(st, 0));
        long first = store_node(g, sqlite3_column_int64(st, 1));
        if (later >= 0 && first >= 0)
            fprintf(out, "  s%ld -> s%ld [style=dashed, color=blue,"
                         " fontcolor=blue, label=\"pdep\"];\n", first, later);
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

/* A livelock's cycle ("cycle":{"from":A,"to":B}, step ids): an edge back
   from its last step to its first. */
static int print_cycle(Graph *g, FILE *out)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(g->db, &st,
                             "SELECT json_extract(?1, '$.cycle.from'),"
                             " json_extract(?1, '$.cycle.to')"
                             " WHERE json_type(?1, '$.cycle.from') = 'integer'"
                             " AND json_type(?1, '$.cycle.to') = 'integer'",
                             "t", g->json);
    if (rc)
        return rc;
    int s = res_sql_step(g->db, st);
    if (s > 0) {
        long from = -1, to = -1;
        for (size_t i = 0; i < g->n; i++) {
            if (g->v[i].id == sqlite3_column_int64(st, 0))
                from = (long)i;
            if (g->v[i].id == sqlite3_column_int64(st, 1))
                to = (long)i;
        }
        if (from >= 0 && to >= 0)
            fprintf(out, "  s%ld -> s%ld [style=bold, color=purple,"
                         " fontcolor=purple, constraint=false,"
                         " label=\"cycle: repeats forever\"];\n", to, from);
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

/* The graph's title: the caller's lines, then the outcome or the error. */
static int print_title(Graph *g, const char *title, FILE *out)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(g->db, &st,
                             "SELECT CASE WHEN json_type(?1, '$.outcome') ="
                             " 'text' THEN 'outcome: ' || json_extract(?1,"
                             " '$.outcome') END, CASE WHEN json_type(?1,"
                             " '$.error') = 'text' THEN 'error: ' ||"
                             " json_extract(?1, '$.error') END",
                             "t", g->json);
    if (rc)
        return rc;
    int s = res_sql_step(g->db, st);
    fputs("  label=\"", out);
    dot_text(title, out);
    for (int i = 0; s > 0 && i < 2; i++)
        if (sqlite3_column_type(st, i) != SQLITE_NULL) {
            fputs("\\n", out);
            dot_text(res_sql_text(st, i), out);
        }
    fputs("\";\n  labelloc=t;\n", out);
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

static int check_json(Graph *g, int64_t violation_id)
{
    int64_t ok = 0;
    /* json_type fails on malformed JSON: ask only about valid text. */
    int s = res_sql_int(g->db, &ok, "SELECT CASE WHEN json_valid(?1) THEN"
                        " json_type(?1) = 'object' ELSE 0 END", "t", g->json);
    if (s < 0)
        return -s;
    if (ok)
        return RES_OK;
    int64_t valid = 0;
    res_sql_int(g->db, &valid, "SELECT json_valid(?)", "t", g->json);
    return res_sql_fail(g->db, RES_EINPUT,
                        "violation %lld: bad witness_json: %s",
                        (long long)violation_id,
                        valid ? "not an object" : "not valid JSON");
}

int res_dot_witness(ResDb *db, int64_t violation_id, const char *json,
                    const char *title, FILE *out)
{
    if (!json)
        return res_sql_fail(db, RES_EINPUT,
                            "violation %lld has no witness_json",
                            (long long)violation_id);
    Graph g = {db, base_arena_new(), json, NULL, 0, 0, 1, 0, NULL, 0, 0};
    int rc = g.a ? check_json(&g, violation_id) : RES_EINTERNAL;
    if (!rc)
        rc = load_crashes(&g);
    if (!rc)
        rc = load_steps(&g, "$.steps", 0);
    if (!rc)
        rc = load_steps(&g, "$.recovery", 1);
    if (!rc && (g.failed || !g.a))
        rc = res_sql_fail(db, RES_EINTERNAL, "show: out of memory");
    if (!rc) {
        fprintf(out, "digraph violation_%lld {\n", (long long)violation_id);
        rc = print_title(&g, title, out);
    }
    if (!rc) {
        fputs("  node [shape=box, fontname=\"monospace\"];\n", out);
        for (int seg = 0; seg < g.nseg || (size_t)seg <= g.ncrash; seg++) {
            print_segment(&g, seg, out);
            if ((size_t)seg < g.ncrash)
                print_crash(&g, (size_t)seg + 1, out);
        }
        print_po(&g, out);
        print_rf(&g, out);
        print_crash_edges(&g, out);
        rc = print_deps(&g, out);
    }
    if (!rc)
        rc = print_cycle(&g, out);
    if (!rc)
        fputs("}\n", out);
    base_free(g.v);
    for (size_t k = 0; k < g.ncrash; k++) {
        base_free(g.crash[k].held);
        base_free(g.crash[k].lost);
    }
    base_free(g.crash);
    base_arena_free(g.a);
    return rc;
}
