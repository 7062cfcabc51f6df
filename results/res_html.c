/* `gpmc report html`: one self-contained HTML page over the latest checks:
   which runs it covers, the verdict matrix (coloured, Unknown and vacuous
   verdicts marked, every row's config named), the failing checks, the
   witnesses of what fails drawn as inline SVG (the caller renders the DOT
   graphs, e.g. with Graphviz; the other witnesses are a `gpmc show` away,
   so the page stays small: the bundled suite's drew 758 graphs into 21 MB),
   a cost chart per test (one scale and a labelled axis per chart), the
   configs by id, and the state-space-growth plot of `make bench` when
   bench/out has one. No scripts, no external resources: the file can be
   mailed or archived. The page is built in memory and written at the end,
   so a failing report writes nothing. */
#include <stdlib.h>
#include <string.h>

#include "results/results_int.h"

typedef struct {
    char **v;
    size_t n, cap;
} Strings;

typedef struct {
    ResDb *db;
    const ResHtmlOptions *o;
    BaseStr h;                           /* the page */
    char *ref;                           /* the most common config of the
                                           latest checks: others are shown
                                           by what sets them apart */
    Strings dots;                       /* the witnesses drawn, in page order */
    int64_t *drawn;                     /* their violation ids, sorted */
    int64_t failing;                    /* witnesses of what does not pass,
                                           drawn or not */
    int64_t max;                        /* at most this many are drawn */
} Html;

static void text(Html *H, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': base_str_putn(&H->h, "&amp;", 5); break;
        case '<': base_str_putn(&H->h, "&lt;", 4); break;
        case '>': base_str_putn(&H->h, "&gt;", 4); break;
        case '"': base_str_putn(&H->h, "&quot;", 6); break;
        default: base_str_putn(&H->h, s, 1);
        }
    }
}

static void raw(Html *H, const char *s)
{
    base_str_printf(&H->h, "%s", s);
}

static const char style[] =
    "body{font-family:sans-serif;margin:2em;color:#222}"
    "h1,h2{font-weight:600}table{border-collapse:collapse;margin:1em 0}"
    "th,td{border:1px solid #ccc;padding:2px 8px;text-align:left}"
    "td.num{text-align:right}"
    "td.ok{background:#d8f0d8}td.no{background:#e8e8f8}"
    "td.unexpected{background:#f8c8c8;font-weight:600}"
    "td.unknown{background:#fff0b0;font-style:italic}"
    "td.vacuous{background:repeating-linear-gradient(45deg,#fff,#fff 4px,"
    "#eee 4px,#eee 8px)}"
    "td.none{color:#aaa}td a{color:inherit}small{color:#666}"
    ".legend span{padding:2px 8px;margin-right:8px;border:1px solid #ccc}"
    "figure.costs{display:inline-block;margin:0.5em 1.5em 1em 0;"
    "vertical-align:top}figure.costs svg{margin-right:1em}"
    "rect.cycles{fill:#6a8fd0}rect.writes{fill:#d09a6a}"
    "section.witness{border-top:1px solid #ccc;margin-top:1.5em}"
    "pre{background:#f6f6f6;padding:0.5em;overflow:auto}"
    "svg{max-width:100%;height:auto}";

/* Column i of a row as text (NULL for SQL NULL). */
static const char *col(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NULL
                                                     : res_sql_text(st, i);
}

static int oom(Html *H)
{
    return res_sql_fail(H->db, RES_EINTERNAL, "report: out of memory");
}

/* A config as a cell's content: its id and what sets it apart from the
   most common one (the whole text in the title). */
static void config_cell(Html *H, const char *config)
{
    char id[9];
    BaseStr diff = {0};
    res_config_id(config, id);
    res_config_diff(H->ref ? H->ref : "", config, &diff);
    raw(H, "<td title=\"");
    text(H, config);
    base_str_printf(&H->h, "\"><code>%s</code>", id);
    if (diff.len) {
        raw(H, " ");
        text(H, diff.s);
    }
    raw(H, "</td>");
    if (diff.failed)
        H->h.failed = 1;
    base_str_free(&diff);
}

/* A test's cell: its name, and its file when files share the name. */
static void test_cell(Html *H, const char *name, const char *path, int shared)
{
    raw(H, "<td title=\"");
    text(H, path);
    raw(H, "\">");
    text(H, name);
    if (shared) {
        raw(H, "<br><small>");
        text(H, path);
        raw(H, "</small>");
    }
    raw(H, "</td>");
}

/* The key of the matrix's rows and the cost charts: test, file, config. */
typedef struct {
    char *test, *path, *config;
} Key;

static int key_is(const Key *k, const char *test, const char *path,
                  const char *config)
{
    return k->test && !strcmp(k->test, test) && !strcmp(k->path, path) &&
           !strcmp(k->config, config);
}

static void key_free(Key *k)
{
    base_free(k->test);
    base_free(k->path);
    base_free(k->config);
    k->test = k->path = k->config = NULL;
}

static int key_set(Html *H, Key *k, const char *test, const char *path,
                   const char *config)
{
    key_free(k);
    k->test = res_strdup(test);
    k->path = res_strdup(path);
    k->config = res_strdup(config);
    return k->test && k->path && k->config ? RES_OK : oom(H);
}

/* ---- what the page covers --------------------------------------------------- */

static int load_ref(Html *H)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(H->db, &st, "SELECT c.config FROM "
                             RES_LATEST_FROM "GROUP BY c.config"
                             " ORDER BY count(*) DESC, c.config LIMIT 1", "");
    if (rc)
        return rc;
    int s = res_sql_step(H->db, st);
    if (s > 0 && !(H->ref = res_strdup(res_sql_text(st, 0))))
        s = -oom(H);
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

/* The counts, and the runs the latest checks come from: a run that left
   no latest check is superseded and only counted. */
static int summary(Html *H)
{
    int64_t checks = 0, tests = 0, files = 0, runs = 0, covered = 0;
    int s;
    if ((s = res_sql_int(H->db, &checks, "SELECT count(*) FROM latest_checks",
                         "")) < 0 ||
        (s = res_sql_int(H->db, &tests, "SELECT count(DISTINCT t.name) FROM "
                         RES_LATEST_FROM, "")) < 0 ||
        (s = res_sql_int(H->db, &files, "SELECT count(DISTINCT t.path) FROM "
                         RES_LATEST_FROM, "")) < 0 ||
        (s = res_sql_int(H->db, &covered, "SELECT count(DISTINCT c.run_id)"
                         " FROM " RES_LATEST_FROM, "")) < 0 ||
        (s = res_sql_int(H->db, &runs, "SELECT count(*) FROM runs", "")) < 0)
        return -s;
    base_str_printf(&H->h, "<p id=\"summary\">%lld tests (%lld files), %lld"
                    " latest checks, from %lld of the database's %lld runs",
                    (long long)tests, (long long)files, (long long)checks,
                    (long long)covered, (long long)runs);
    if (runs > covered)
        base_str_printf(&H->h, " (the other %lld only hold checks run again"
                        " since)", (long long)(runs - covered));
    raw(H, ". <a href=\"#verdicts\">Verdicts</a> &middot;"
           " <a href=\"#failing\">Failing checks</a> &middot;"
           " <a href=\"#witnesses\">Witnesses</a> &middot;"
           " <a href=\"#costs\">Costs</a> &middot;"
           " <a href=\"#configs\">Configs</a> &middot;"
           " <a href=\"#growth\">State-space growth</a></p>\n"
           "<table id=\"runs\"><thead><tr><th>run</th><th>started</th>"
           "<th>finished</th><th>status</th><th>host</th><th>checks</th>"
           "<th>command</th></tr></thead><tbody>\n");
    sqlite3_stmt *st;
    int rc = res_sql_prepare(H->db, &st,
                             "SELECT ru.run_id, ru.started_at, ru.finished_at,"
                             " ru.status, ru.host, ru.argv, count(*) FROM "
                             RES_LATEST_FROM "JOIN runs ru ON ru.run_id ="
                             " c.run_id GROUP BY ru.run_id"
                             " ORDER BY ru.started_at, ru.run_id", "");
    if (rc)
        return rc;
    while ((s = res_sql_step(H->db, st)) > 0) {
        base_str_printf(&H->h, "<tr><td class=\"num\">%lld</td><td>",
                        (long long)sqlite3_column_int64(st, 0));
        text(H, res_sql_text(st, 1));
        raw(H, "</td><td>");
        text(H, col(st, 2) ? col(st, 2) : "-");
        raw(H, "</td><td>");
        text(H, res_sql_text(st, 3));
        raw(H, "</td><td>");
        text(H, res_sql_text(st, 4));
        base_str_printf(&H->h, "</td><td class=\"num\">%lld</td><td><code>",
                        (long long)sqlite3_column_int64(st, 6));
        text(H, res_sql_text(st, 5));
        raw(H, "</code></td></tr>\n");
    }
    sqlite3_finalize(st);
    raw(H, "</tbody></table>\n");
    return s < 0 ? -s : RES_OK;
}

/* ---- the verdict matrix ---------------------------------------------------- */

/* The latest results, a row per test, file, config and check line; the
   witness a cell names is the check line's first violation. */
#define MATRIX_SQL \
    "WITH l AS (SELECT t.name AS name, t.path AS path, c.config AS config," \
    " c.model AS model, c.check_id AS id, c.status AS status FROM " \
    RES_LATEST_FROM ")," \
    " n AS (SELECT name, count(DISTINCT path) AS k FROM l GROUP BY name)" \
    " SELECT l.name, l.path, l.config, r.cond_index, r.phase, l.model," \
    " r.verdict, r.expected, " RES_PASSES("r.verdict", "r.expected") "," \
    " (SELECT min(violation_id) FROM violations v" \
    " WHERE v.check_id = l.id AND v.cond_index = r.cond_index), n.k," \
    " r.positive, r.negative, l.status" \
    " FROM l JOIN n ON n.name = l.name JOIN results r ON r.check_id = l.id" \
    " ORDER BY l.name, l.path, l.config, r.cond_index, " \
    RES_MODEL_RANK("l.model") ", l.model"

/* A verdict whose phase was reached nowhere: the check is done, and its
   condition was never evaluated (DESIGN section 2 gives the verdict over
   the empty set; the page says so). */
static int vacuous(sqlite3_stmt *st)
{
    return !strcmp(res_sql_text(st, 13), "done") &&
           strcmp(res_sql_text(st, 4), "noerror") &&
           sqlite3_column_int64(st, 11) == 0 &&
           sqlite3_column_int64(st, 12) == 0;
}

static int cmp_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* 1 when the page draws violation id. */
static int is_drawn(const Html *H, int64_t id)
{
    return H->dots.n && bsearch(&id, H->drawn, H->dots.n, sizeof id, cmp_id);
}

/* A cell: a witness the page draws (of a verdict that does not pass) is
   linked; another is named for `gpmc show`. */
static void matrix_cell(Html *H, sqlite3_stmt *st)
{
    const char *v = res_sql_text(st, 6), *e = col(st, 7);
    int pass = sqlite3_column_int(st, 8), vac = vacuous(st);
    long long vid = (long long)sqlite3_column_int64(st, 9);
    int has = sqlite3_column_type(st, 9) != SQLITE_NULL;
    int link = has && is_drawn(H, vid);
    const char *cls = !strcmp(v, "Unknown") ? "unknown unexpected"
                      : !pass ? "unexpected" : !strcmp(v, "Ok") ? "ok" : "no";
    base_str_printf(&H->h, "<td class=\"%s%s\" title=\"expected %s", cls,
                    vac ? " vacuous" : "", e ? e : "none");
    if (vac)
        raw(H, "; vacuous: no outcome of its phase was reached");
    if (has && !link)
        base_str_printf(&H->h, "; witness: gpmc show violation %lld --dot",
                        vid);
    raw(H, "\">");
    if (link)
        base_str_printf(&H->h, "<a href=\"#violation-%lld\">", vid);
    text(H, v);
    if (!pass)
        raw(H, "!");
    if (vac)
        raw(H, "&empty;");
    if (link)
        raw(H, "</a>");
    raw(H, "</td>");
}

static int matrix(Html *H)
{
    char **models = NULL;
    size_t nmodels = 0;
    int rc = res_models(H->db, &models, &nmodels);
    sqlite3_stmt *st = NULL;
    if (!rc)
        rc = res_sql_prepare(H->db, &st, MATRIX_SQL, "");
    raw(H, "<h2 id=\"verdicts\">Verdicts</h2>\n<p class=\"legend\">"
           "<span class=\"ok\" style=\"background:#d8f0d8\">Ok</span>"
           "<span style=\"background:#e8e8f8\">No</span>"
           "<span style=\"background:#f8c8c8\">does not pass (!): linked to"
           " its witness</span>"
           "<span style=\"background:#fff0b0\">Unknown: incomplete, no"
           " witness decides it</span>"
           "<span>&empty; vacuous: no outcome of the phase was reached, the"
           " condition was never evaluated</span></p>\n"
           "<p>A config is named by its id and what sets it apart from the"
           " most common one (<a href=\"#configs\">Configs</a>).</p>\n"
           "<table id=\"matrix\"><thead><tr><th>test</th><th>config</th>"
           "<th>cond</th><th>phase</th>");
    for (size_t m = 0; m < nmodels; m++) {
        raw(H, "<th>");
        text(H, models[m]);
        raw(H, "</th>");
    }
    raw(H, "</tr></thead><tbody>\n");
    /* One row per test, file, config and check line; the cells arrive in
       that order, one per model checked. */
    Key key = {NULL, NULL, NULL};
    int64_t cond = -1;
    size_t next = 0;
    int s = 0, open = 0;
    while (!rc && (s = res_sql_step(H->db, st)) > 0) {
        const char *name = res_sql_text(st, 0), *file = res_sql_text(st, 1),
                   *cfg = res_sql_text(st, 2);
        int64_t k = sqlite3_column_int64(st, 3);
        if (!open || !key_is(&key, name, file, cfg) || k != cond) {
            for (; open && next < nmodels; next++)
                raw(H, "<td class=\"none\">-</td>");
            if (open)
                raw(H, "</tr>\n");
            if ((rc = key_set(H, &key, name, file, cfg)))
                break;
            cond = k;
            next = 0;
            open = 1;
            raw(H, "<tr>");
            test_cell(H, name, file, sqlite3_column_int(st, 10) > 1);
            config_cell(H, cfg);
            base_str_printf(&H->h, "<td class=\"num\">%lld</td><td>",
                            (long long)k);
            text(H, res_sql_text(st, 4));
            raw(H, "</td>");
        }
        const char *model = res_sql_text(st, 5);
        size_t m = next;
        while (m < nmodels && strcmp(models[m], model))
            m++;
        if (m == nmodels)
            continue;
        for (; next < m; next++)
            raw(H, "<td class=\"none\">-</td>");
        matrix_cell(H, st);
        next = m + 1;
    }
    for (; open && next < nmodels; next++)
        raw(H, "<td class=\"none\">-</td>");
    if (open)
        raw(H, "</tr>\n");
    raw(H, "</tbody></table>\n");
    sqlite3_finalize(st);
    key_free(&key);
    res_models_free(models, nmodels);
    return rc ? rc : s < 0 ? -s : RES_OK;
}

/* ---- failing checks ------------------------------------------------------- */

/* A violation the page draws: of a check line that does not pass, or a
   runtime error no `check noerror` covers. v violations, c checks, r the
   violation's result (if any). */
#define DRAWN(v, r) \
    "(" v ".cond_index < 0 OR NOT " RES_PASSES(r ".verdict", r ".expected") ")"

static int failing(Html *H)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(H->db, &st,
                             "SELECT t.name, t.path, c.config, c.model,"
                             " c.check_id, c.status, c.error, (SELECT"
                             " group_concat('cond ' || r.cond_index || ': ' ||"
                             " r.verdict || coalesce(', expected ' ||"
                             " r.expected, ''), '; ') FROM results r"
                             " WHERE r.check_id = c.check_id AND NOT "
                             RES_PASSES("r.verdict", "r.expected") "),"
                             " (SELECT group_concat(violation_id, ' ') FROM"
                             " (SELECT v.violation_id FROM violations v"
                             " LEFT JOIN results w ON w.check_id = v.check_id"
                             " AND w.cond_index = v.cond_index"
                             " WHERE v.check_id = c.check_id AND "
                             DRAWN("v", "w") " ORDER BY v.violation_id))"
                             " FROM " RES_LATEST_FROM "WHERE c.status <> 'done'"
                             " OR EXISTS (SELECT 1 FROM results r WHERE"
                             " r.check_id = c.check_id AND NOT "
                             RES_PASSES("r.verdict", "r.expected") ")"
                             " OR EXISTS (SELECT 1 FROM violations v WHERE"
                             " v.check_id = c.check_id AND v.cond_index < 0)"
                             " ORDER BY t.name, t.path, c.config, "
                             RES_MODEL_RANK("c.model") ", c.model", "");
    if (rc)
        return rc;
    raw(H, "<h2 id=\"failing\">Failing checks</h2>\n<table id=\"failing-checks\">"
           "<thead><tr><th>test</th><th>config</th><th>model</th><th>check</th>"
           "<th>status</th><th>why</th><th>witnesses</th></tr></thead>"
           "<tbody>\n");
    int s, n = 0;
    while ((s = res_sql_step(H->db, st)) > 0) {
        raw(H, "<tr>");
        test_cell(H, res_sql_text(st, 0), res_sql_text(st, 1), 0);
        config_cell(H, res_sql_text(st, 2));
        raw(H, "<td>");
        text(H, res_sql_text(st, 3));
        base_str_printf(&H->h, "</td><td class=\"num\">%lld</td><td>",
                        (long long)sqlite3_column_int64(st, 4));
        text(H, res_sql_text(st, 5));
        raw(H, "</td><td>");
        if (col(st, 7))
            text(H, col(st, 7));
        if (col(st, 6)) {
            raw(H, col(st, 7) ? "; " : "");
            text(H, col(st, 6));
        }
        if (!col(st, 6) && !col(st, 7))
            raw(H, "runtime error without a check noerror");
        raw(H, "</td><td>");
        /* the violation ids, each a link to its section if drawn */
        for (const char *p = col(st, 8); p && *p;) {
            char *end;
            long long id = strtoll(p, &end, 10);
            p = end;
            if (is_drawn(H, id))
                base_str_printf(&H->h, "<a href=\"#violation-%lld\">%lld</a> ",
                                id, id);
            else
                base_str_printf(&H->h, "<span title=\"gpmc show violation"
                                " %lld --dot\">%lld</span> ", id, id);
        }
        raw(H, "</td></tr>\n");
        n++;
    }
    sqlite3_finalize(st);
    raw(H, "</tbody></table>\n");
    if (!n)
        raw(H, "<p>None: every check passes.</p>\n");
    return s < 0 ? -s : RES_OK;
}

/* ---- witnesses -------------------------------------------------------------- */

#define WITNESS_SQL \
    "SELECT v.violation_id, v.check_id, v.cond_index, v.kind, v.witness," \
    " v.witness_json, t.name, c.model, r.phase, r.quant, r.cond, r.verdict," \
    " r.expected FROM " RES_LATEST_FROM \
    "JOIN violations v ON v.check_id = c.check_id" \
    " LEFT JOIN results r ON r.check_id = v.check_id" \
    " AND r.cond_index = v.cond_index WHERE " DRAWN("v", "r") \
    " ORDER BY t.name, t.path, c.config, " RES_MODEL_RANK("c.model") \
    ", c.model, v.cond_index, v.violation_id LIMIT ?"

static void strings_free(Strings *s)
{
    for (size_t i = 0; i < s->n; i++)
        base_free(s->v[i]);
    base_free(s->v);
}

/* The DOT graph of every witness drawn, in WITNESS_SQL order (NULL for a
   violation without JSON), and the ids drawn; first, so the matrix knows
   which cells to link. */
static int witness_dots(Html *H)
{
    Strings *dots = &H->dots;
    sqlite3_stmt *st;
    int s = res_sql_int(H->db, &H->failing, "SELECT count(*) FROM "
                        RES_LATEST_FROM "JOIN violations v ON v.check_id ="
                        " c.check_id LEFT JOIN results r ON r.check_id ="
                        " v.check_id AND r.cond_index = v.cond_index WHERE "
                        DRAWN("v", "r"), "");
    if (s < 0)
        return -s;
    int rc = res_sql_prepare(H->db, &st, WITNESS_SQL, "i", H->max);
    if (rc)
        return rc;
    while (!rc && (s = res_sql_step(H->db, st)) > 0) {
        char *buf = NULL;
        size_t len = 0;
        if (BASE_GROW(dots->v, dots->cap, dots->n + 1)) {
            rc = oom(H);
            break;
        }
        dots->v[dots->n] = NULL;
        if (sqlite3_column_type(st, 5) != SQLITE_NULL) {
            FILE *f = open_memstream(&buf, &len);
            if (!f) {
                rc = oom(H);
                break;
            }
            BaseStr title = {0};
            base_str_printf(&title, "violation %lld: %s of %s under %s",
                            (long long)sqlite3_column_int64(st, 0),
                            res_sql_text(st, 3), res_sql_text(st, 6),
                            res_sql_text(st, 7));
            int r = title.failed ? RES_EINTERNAL
                : res_dot_witness(H->db, sqlite3_column_int64(st, 0),
                                  res_sql_text(st, 5), title.s, f);
            base_str_free(&title);
            /* the stream's buffer could not grow: the graph stops short */
            if (fclose(f) && r == RES_OK)
                r = oom(H);
            /* A witness the DOT writer cannot read is shown as text. */
            if (r == RES_OK)
                dots->v[dots->n] = buf;
            else
                free(buf);
            if (r != RES_OK && r != RES_EINPUT)
                rc = r;
        }
        dots->n++;
    }
    sqlite3_finalize(st);
    if (!rc && s >= 0 && dots->n) {
        H->drawn = base_calloc(dots->n, sizeof *H->drawn);
        if (!H->drawn)
            return oom(H);
        /* the ids again, in the same order */
        rc = res_sql_prepare(H->db, &st, WITNESS_SQL, "i", H->max);
        for (size_t i = 0; !rc && i < dots->n &&
                           (s = res_sql_step(H->db, st)) > 0; i++)
            H->drawn[i] = sqlite3_column_int64(st, 0);
        if (!rc)
            sqlite3_finalize(st);
        qsort(H->drawn, dots->n, sizeof *H->drawn, cmp_id);
    }
    return rc ? rc : s < 0 ? -s : RES_OK;
}

/* The <svg> element of an SVG document (Graphviz writes an XML prolog and
   a doctype first), or NULL. */
static const char *svg_element(const char *svg, size_t *len)
{
    const char *a = svg ? strstr(svg, "<svg") : NULL;
    const char *b = a ? strstr(a, "</svg>") : NULL;
    if (!b)
        return NULL;
    *len = (size_t)(b + 6 - a);
    return a;
}

static int witnesses(Html *H)
{
    const Strings dots = H->dots;
    int64_t all = 0;
    char **svgs = NULL;
    int s = res_sql_int(H->db, &all, "SELECT count(*) FROM " RES_LATEST_FROM
                        "JOIN violations v ON v.check_id = c.check_id", "");
    int rc = s < 0 ? -s : RES_OK;
    if (!rc && dots.n) {
        svgs = base_calloc(dots.n, sizeof *svgs);
        if (!svgs)
            rc = oom(H);
        else if (H->o->svg)
            H->o->svg(H->o->svg_ctx, (const char *const *)dots.v,
                      (int)dots.n, svgs);
    }
    sqlite3_stmt *st = NULL;
    if (!rc)
        rc = res_sql_prepare(H->db, &st, WITNESS_SQL, "i", H->max);
    raw(H, "<h2 id=\"witnesses\">Witnesses</h2>\n");
    base_str_printf(&H->h, "<p>The witnesses of what does not pass: %zu drawn"
                    " of %lld", dots.n, (long long)H->failing);
    if (H->failing > (int64_t)dots.n)
        base_str_printf(&H->h, " (at most %lld: <code>report html"
                        " --witnesses N</code>)", (long long)H->max);
    base_str_printf(&H->h, ", of the latest checks' %lld. Any other is"
                    " drawn by <code>gpmc show violation ID --dot | dot"
                    " -Tsvg</code> (a verdict's title in the matrix names its"
                    " ID).</p>\n", (long long)all);
    s = 0;
    for (size_t i = 0; !rc && i < dots.n && (s = res_sql_step(H->db, st)) > 0;
         i++) {
        base_str_printf(&H->h, "<section class=\"witness\" id=\"violation-%lld\">"
                       "<h3>violation %lld: ",
                       (long long)sqlite3_column_int64(st, 0),
                       (long long)sqlite3_column_int64(st, 0));
        text(H, res_sql_text(st, 3));
        raw(H, " of ");
        text(H, res_sql_text(st, 6));
        raw(H, " under ");
        text(H, res_sql_text(st, 7));
        base_str_printf(&H->h, " (check %lld)</h3>\n<p>",
                        (long long)sqlite3_column_int64(st, 1));
        if (col(st, 8)) {
            base_str_printf(&H->h, "condition %lld: ",
                            (long long)sqlite3_column_int64(st, 2));
            text(H, res_sql_text(st, 8));
            raw(H, " ");
            /* The condition text carries its quantifier. */
            text(H, col(st, 10) ? res_sql_text(st, 10) : "");
            raw(H, ": ");
            text(H, res_sql_text(st, 11));
            raw(H, ", expected ");
            text(H, col(st, 12) ? col(st, 12) : "none");
            raw(H, ": does not pass");
        } else {
            raw(H, "a runtime error that no check noerror covers");
        }
        raw(H, "</p>\n");
        size_t len;
        const char *svg = svg_element(svgs[i], &len);
        if (svg)
            base_str_putn(&H->h, svg, len);
        else if (dots.v[i])
            raw(H, "<p>(Graphviz unavailable: the graph in DOT)</p>");
        if (!svg && dots.v[i]) {
            raw(H, "<pre class=\"dot\">");
            text(H, dots.v[i]);
            raw(H, "</pre>");
        }
        raw(H, "\n<details><summary>witness text</summary><pre>");
        text(H, res_sql_text(st, 4));
        raw(H, "</pre></details></section>\n");
    }
    sqlite3_finalize(st);
    for (size_t i = 0; svgs && i < dots.n; i++)
        base_free(svgs[i]);
    base_free(svgs);
    return rc ? rc : s < 0 ? -s : RES_OK;
}

/* ---- costs ------------------------------------------------------------------ */

typedef struct {
    ResBar *cycles, *writes;
    size_t n, cap, capw;
} Bars;

/* One figure per test, file and config: a chart of cycles and one of NVM
   line writes, a bar per model, each chart on its own scale. */
static void cost_figure(Html *H, const Key *k, const Bars *b)
{
    char id[9];
    raw(H, "<figure class=\"costs\"><figcaption>");
    text(H, k->test);
    if (H->ref && strcmp(k->config, H->ref)) {
        res_config_id(k->config, id);
        base_str_printf(&H->h, " <code>%s</code>", id);
    }
    raw(H, " <small>");
    text(H, k->path);
    raw(H, "</small></figcaption>");
    res_chart_bars(&H->h, "cycles", "core cycles of the timed run", "cycles",
                   b->cycles, (int)b->n);
    res_chart_bars(&H->h, "NVM line writes", "lines written to NVM", "writes",
                   b->writes, (int)b->n);
    raw(H, "</figure>\n");
}

static int costs(Html *H)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(H->db, &st,
                             "SELECT t.name, t.path, c.config, c.model,"
                             " c.cycles, c.nvm_writes FROM " RES_LATEST_FROM
                             "WHERE c.cycles IS NOT NULL"
                             " ORDER BY t.name, t.path, c.config, "
                             RES_MODEL_RANK("c.model") ", c.model", "");
    if (rc)
        return rc;
    raw(H, "<h2 id=\"costs\">Costs per model</h2>\n<p>The timed run of each"
           " check (<code>gpmc time</code>): its cycles and its NVM line"
           " writes, a bar per model, each chart on one scale from 0.</p>\n"
           "<div id=\"cost-charts\">\n");
    Bars b = {NULL, NULL, 0, 0, 0};
    Key key = {NULL, NULL, NULL};
    int s, figures = 0;
    while (!rc && (s = res_sql_step(H->db, st)) > 0) {
        const char *n = res_sql_text(st, 0), *p = res_sql_text(st, 1),
                   *c = res_sql_text(st, 2);
        if (!key_is(&key, n, p, c)) {
            if (key.test && b.n) {
                cost_figure(H, &key, &b);
                figures++;
            }
            for (size_t i = 0; i < b.n; i++)
                base_free((char *)b.cycles[i].label);
            b.n = 0;
            if ((rc = key_set(H, &key, n, p, c)))
                break;
        }
        char *model = res_strdup(res_sql_text(st, 3));
        if (!model || BASE_GROW(b.cycles, b.cap, b.n + 1) ||
            BASE_GROW(b.writes, b.capw, b.n + 1)) {
            base_free(model);
            rc = oom(H);
            break;
        }
        b.cycles[b.n] = (ResBar){model, sqlite3_column_int64(st, 4)};
        b.writes[b.n] = (ResBar){model, col(st, 5)
                                            ? sqlite3_column_int64(st, 5)
                                            : -1};
        b.n++;
    }
    if (!rc && key.test && b.n) {
        cost_figure(H, &key, &b);
        figures++;
    }
    for (size_t i = 0; i < b.n; i++)
        base_free((char *)b.cycles[i].label);
    base_free(b.cycles);
    base_free(b.writes);
    key_free(&key);
    sqlite3_finalize(st);
    raw(H, "</div>\n");
    if (!rc && !figures)
        raw(H, "<p>No timed checks.</p>\n");
    return rc ? rc : s < 0 ? -s : RES_OK;
}

/* ---- configs ------------------------------------------------------------------ */

static int configs(Html *H)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(H->db, &st,
                             "SELECT c.config, count(DISTINCT t.path),"
                             " count(*) FROM " RES_LATEST_FROM
                             "GROUP BY c.config ORDER BY c.config", "");
    if (rc)
        return rc;
    raw(H, "<h2 id=\"configs\">Configs</h2>\n<table id=\"config-list\">"
           "<thead><tr><th>id</th><th>files</th><th>checks</th>"
           "<th>apart from the most common</th><th>config</th></tr></thead>"
           "<tbody>\n");
    int s;
    while ((s = res_sql_step(H->db, st)) > 0) {
        const char *config = res_sql_text(st, 0);
        char id[9];
        BaseStr diff = {0};
        res_config_id(config, id);
        res_config_diff(H->ref ? H->ref : "", config, &diff);
        base_str_printf(&H->h, "<tr id=\"config-%s\"><td><code>%s</code></td>"
                        "<td class=\"num\">%lld</td><td class=\"num\">%lld"
                        "</td><td>", id, id,
                        (long long)sqlite3_column_int64(st, 1),
                        (long long)sqlite3_column_int64(st, 2));
        text(H, diff.len ? diff.s : "(the most common)");
        raw(H, "</td><td><code>");
        text(H, config);
        raw(H, "</code></td></tr>\n");
        if (diff.failed)
            H->h.failed = 1;
        base_str_free(&diff);
    }
    sqlite3_finalize(st);
    raw(H, "</tbody></table>\n");
    return s < 0 ? -s : RES_OK;
}

/* ---- state-space growth ------------------------------------------------------ */

/* A file of at most 16 MB, or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    BaseStr s = {0};
    char buf[4096];
    size_t n;
    if (!f)
        return NULL;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && s.len < (16u << 20))
        base_str_putn(&s, buf, n);
    fclose(f);
    if (s.failed || !s.s) {
        base_str_free(&s);
        return NULL;
    }
    return s.s;
}

/* The plot `make bench` leaves in its output directory: growth.svg as it
   is, or growth.csv (columns series, size, states; others ignored) drawn
   here as a line per series, states on a log scale. */
static void growth(Html *H)
{
    const char *dir = H->o->bench_dir;
    char path[4096];
    raw(H, "<h2 id=\"growth\">State-space growth</h2>\n");
    snprintf(path, sizeof path, "%s/growth.svg", dir ? dir : "");
    char *svg = dir ? slurp(path) : NULL;
    size_t len;
    const char *el = svg_element(svg, &len);
    if (el) {
        raw(H, "<div id=\"growth-plot\">");
        base_str_putn(&H->h, el, len);
        raw(H, "</div>\n");
        base_free(svg);
        return;
    }
    base_free(svg);
    snprintf(path, sizeof path, "%s/growth.csv", dir ? dir : "");
    char *csv = dir ? slurp(path) : NULL;
    if (!csv || res_growth_svg(csv, &H->h)) {
        raw(H, "<p>No plot: run <code>make bench</code> (it writes"
               " bench/out/growth.csv or growth.svg).</p>\n");
    }
    base_free(csv);
}

/* ---- the page ------------------------------------------------------------------ */

int res_report_html(ResDb *db, const ResHtmlOptions *o, FILE *out)
{
    Html H = {db, o, {0}, NULL, {NULL, 0, 0}, NULL, 0,
              o->max_witnesses < 0 ? 0 : o->max_witnesses
                                              ? o->max_witnesses
                                              : RES_HTML_WITNESSES};
    raw(&H, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>gpmc report</title><style>");
    raw(&H, style);
    raw(&H, "</style></head><body>\n<h1>gpmc report</h1>\n");
    int rc = load_ref(&H);
    if (!rc)
        rc = witness_dots(&H);
    if (!rc)
        rc = summary(&H);
    if (!rc)
        rc = matrix(&H);
    if (!rc)
        rc = failing(&H);
    if (!rc)
        rc = witnesses(&H);
    if (!rc)
        rc = costs(&H);
    if (!rc)
        rc = configs(&H);
    if (!rc)
        growth(&H);
    raw(&H, "</body></html>\n");
    if (!rc && H.h.failed)
        rc = oom(&H);
    if (!rc && fputs(H.h.s, out) == EOF)
        rc = res_sql_fail(db, RES_EINTERNAL, "report: cannot write the"
                          " page");
    base_str_free(&H.h);
    base_free(H.ref);
    base_free(H.drawn);
    strings_free(&H.dots);
    return rc;
}
