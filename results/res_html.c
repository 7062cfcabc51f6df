/* `gpmc report html`: one self-contained HTML page over the latest checks:
   the verdict matrix (coloured, Unknown marked), the failing checks, each
   violation's witness as inline SVG (the caller renders the DOT graphs,
   e.g. with Graphviz), bars of each test's costs per model, and the
   state-space-growth plot of `make bench` when bench/out has one. No
   scripts, no external resources: the file can be mailed or archived. The
   page is built in memory and written at the end, so a failing report
   writes nothing. */
#include <stdlib.h>
#include <string.h>

#include "results/results_int.h"

typedef struct {
    ResDb *db;
    const ResHtmlOptions *o;
    BaseStr h;                           /* the page */
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
    "td.none{color:#aaa}td a{color:inherit}"
    ".legend span{padding:2px 8px;margin-right:8px;border:1px solid #ccc}"
    ".bars{margin:0.5em 0 1.5em}.bar{display:flex;align-items:center;"
    "margin:1px 0}.bar .label{width:7em}.bar .fill{background:#6a8fd0;"
    "height:1em;margin-right:6px}.bar .fill.writes{background:#d09a6a}"
    "section.witness{border-top:1px solid #ccc;margin-top:1.5em}"
    "pre{background:#f6f6f6;padding:0.5em;overflow:auto}"
    "svg{max-width:100%;height:auto}";

/* Column i of a row as text (NULL for SQL NULL). */
static const char *col(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NULL
                                                     : res_sql_text(st, i);
}

/* ---- the verdict matrix ---------------------------------------------------- */

/* The latest results; the last column counts the configs of the test
   (the config is shown only when a test has several). */
#define MATRIX_SQL \
    "WITH l AS (SELECT t.name AS name, c.config AS config, c.model AS model," \
    " c.check_id AS id FROM " RES_LATEST_FROM ")," \
    " n AS (SELECT name, count(DISTINCT config) AS k FROM l GROUP BY name)" \
    " SELECT l.name, l.config, r.cond_index, r.phase, l.model, r.verdict," \
    " r.expected, " RES_PASSES("r.verdict", "r.expected") "," \
    " (SELECT min(violation_id) FROM violations v" \
    " WHERE v.check_id = l.id AND v.cond_index = r.cond_index), n.k" \
    " FROM l JOIN n ON n.name = l.name JOIN results r ON r.check_id = l.id" \
    " ORDER BY l.name, l.config, r.cond_index, " RES_MODEL_RANK("l.model") \
    ", l.model"

static void matrix_cell(Html *H, sqlite3_stmt *st)
{
    const char *v = res_sql_text(st, 5), *e = col(st, 6);
    int pass = sqlite3_column_int(st, 7);
    const char *cls = !strcmp(v, "Unknown") ? "unknown unexpected"
                      : !pass ? "unexpected" : !strcmp(v, "Ok") ? "ok" : "no";
    base_str_printf(&H->h, "<td class=\"%s\" title=\"expected %s\">", cls,
                   e ? e : "none");
    if (sqlite3_column_type(st, 8) != SQLITE_NULL)
        base_str_printf(&H->h, "<a href=\"#violation-%lld\">",
                       (long long)sqlite3_column_int64(st, 8));
    text(H, v);
    if (!pass)
        raw(H, "!");
    if (sqlite3_column_type(st, 8) != SQLITE_NULL)
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
           "<span style=\"background:#f8c8c8\">does not pass (!)</span>"
           "<span style=\"background:#fff0b0\">Unknown: incomplete, no"
           " witness decides it</span></p>\n"
           "<table id=\"matrix\"><thead><tr><th>test</th><th>config</th>"
           "<th>cond</th><th>phase</th>");
    for (size_t m = 0; m < nmodels; m++) {
        raw(H, "<th>");
        text(H, models[m]);
        raw(H, "</th>");
    }
    raw(H, "</tr></thead><tbody>\n");
    /* One row per test, config and check line; the cells arrive in that
       order, one per model checked. */
    char *test = NULL, *config = NULL;
    int64_t cond = -1;
    size_t next = 0;
    int s = 0, open = 0;
    while (!rc && (s = res_sql_step(H->db, st)) > 0) {
        const char *name = res_sql_text(st, 0), *cfg = res_sql_text(st, 1);
        int64_t k = sqlite3_column_int64(st, 2);
        if (!open || strcmp(name, test) || strcmp(cfg, config) || k != cond) {
            for (; open && next < nmodels; next++)
                raw(H, "<td class=\"none\">-</td>");
            if (open)
                raw(H, "</tr>\n");
            base_free(test);
            base_free(config);
            test = res_strdup(name);
            config = res_strdup(cfg);
            if (!test || !config) {
                rc = res_sql_fail(H->db, RES_EINTERNAL,
                                  "report: out of memory");
                break;
            }
            cond = k;
            next = 0;
            open = 1;
            raw(H, "<tr><td>");
            text(H, name);
            raw(H, "</td><td title=\"");
            text(H, cfg);
            raw(H, "\">");
            /* The config only matters when a test has several. */
            text(H, sqlite3_column_int(st, 9) > 1 ? cfg : "");
            base_str_printf(&H->h, "</td><td class=\"num\">%lld</td><td>",
                           (long long)k);
            text(H, res_sql_text(st, 3));
            raw(H, "</td>");
        }
        const char *model = res_sql_text(st, 4);
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
    base_free(test);
    base_free(config);
    res_models_free(models, nmodels);
    return rc ? rc : s < 0 ? -s : RES_OK;
}

/* ---- failing checks ------------------------------------------------------- */

static int failing(Html *H)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(H->db, &st,
                             "SELECT t.name, c.model, c.check_id, c.status,"
                             " c.error, (SELECT group_concat('cond ' ||"
                             " r.cond_index || ': ' || r.verdict ||"
                             " coalesce(', expected ' || r.expected, ''),"
                             " '; ') FROM results r"
                             " WHERE r.check_id = c.check_id AND NOT "
                             RES_PASSES("r.verdict", "r.expected") ")"
                             " FROM " RES_LATEST_FROM "WHERE c.status <> 'done'"
                             " OR EXISTS (SELECT 1 FROM results r WHERE"
                             " r.check_id = c.check_id AND NOT "
                             RES_PASSES("r.verdict", "r.expected") ")"
                             " OR EXISTS (SELECT 1 FROM violations v WHERE"
                             " v.check_id = c.check_id AND v.cond_index < 0)"
                             " ORDER BY t.name, c.config, "
                             RES_MODEL_RANK("c.model") ", c.model", "");
    if (rc)
        return rc;
    raw(H, "<h2 id=\"failing\">Failing checks</h2>\n<table id=\"failing-checks\">"
           "<thead><tr><th>test</th><th>model</th><th>check</th>"
           "<th>status</th><th>why</th></tr></thead><tbody>\n");
    int s, n = 0;
    while ((s = res_sql_step(H->db, st)) > 0) {
        raw(H, "<tr><td>");
        text(H, res_sql_text(st, 0));
        raw(H, "</td><td>");
        text(H, res_sql_text(st, 1));
        base_str_printf(&H->h, "</td><td class=\"num\">%lld</td><td>",
                       (long long)sqlite3_column_int64(st, 2));
        text(H, res_sql_text(st, 3));
        raw(H, "</td><td>");
        if (col(st, 5))
            text(H, col(st, 5));
        if (col(st, 4)) {
            raw(H, col(st, 5) ? "; " : "");
            text(H, col(st, 4));
        }
        if (!col(st, 4) && !col(st, 5))
            raw(H, "runtime error without a check noerror");
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
    " AND r.cond_index = v.cond_index" \
    " ORDER BY t.name, c.config, " RES_MODEL_RANK("c.model") ", c.model," \
    " v.cond_index, v.violation_id"

typedef struct {
    char **v;
    size_t n, cap;
} Strings;

static void strings_free(Strings *s)
{
    for (size_t i = 0; i < s->n; i++)
        base_free(s->v[i]);
    base_free(s->v);
}

/* The DOT graph of every witness, in WITNESS_SQL order (NULL for a
   violation without JSON). */
static int witness_dots(Html *H, Strings *dots)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(H->db, &st, WITNESS_SQL, "");
    if (rc)
        return rc;
    int s;
    while (!rc && (s = res_sql_step(H->db, st)) > 0) {
        char *buf = NULL;
        size_t len = 0;
        if (BASE_GROW(dots->v, dots->cap, dots->n + 1)) {
            rc = res_sql_fail(H->db, RES_EINTERNAL, "report: out of memory");
            break;
        }
        dots->v[dots->n] = NULL;
        if (sqlite3_column_type(st, 5) != SQLITE_NULL) {
            FILE *f = open_memstream(&buf, &len);
            if (!f) {
                rc = res_sql_fail(H->db, RES_EINTERNAL,
                                  "report: out of memory");
                break;
            }
            BaseStr title = {0};
            base_str_printf(&title, "violation %lld: %s",
                           (long long)sqlite3_column_int64(st, 0),
                           res_sql_text(st, 3));
            int r = title.failed ? RES_EINTERNAL
                : res_dot_witness(H->db, sqlite3_column_int64(st, 0),
                                  res_sql_text(st, 5), title.s, f);
            base_str_free(&title);
            /* the stream's buffer could not grow: the graph stops short */
            if (fclose(f) && r == RES_OK)
                r = res_sql_fail(H->db, RES_EINTERNAL,
                                 "report: out of memory");
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
    Strings dots = {0};
    int rc = witness_dots(H, &dots);
    char **svgs = NULL;
    if (!rc && dots.n) {
        svgs = base_calloc(dots.n, sizeof *svgs);
        if (!svgs)
            rc = res_sql_fail(H->db, RES_EINTERNAL, "report: out of memory");
        else if (H->o->svg)
            H->o->svg(H->o->svg_ctx, (const char *const *)dots.v,
                      (int)dots.n, svgs);
    }
    sqlite3_stmt *st = NULL;
    if (!rc)
        rc = res_sql_prepare(H->db, &st, WITNESS_SQL, "");
    raw(H, "<h2 id=\"witnesses\">Witnesses</h2>\n");
    if (!rc && !dots.n)
        raw(H, "<p>No violations.</p>\n");
    int s = 0;
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
        base_str_printf(&H->h, " (check %lld)</h3>\n<p>condition %lld",
                       (long long)sqlite3_column_int64(st, 1),
                       (long long)sqlite3_column_int64(st, 2));
        if (col(st, 8)) {
            raw(H, ": ");
            text(H, res_sql_text(st, 8));
            raw(H, " ");
            /* The condition text carries its quantifier. */
            text(H, col(st, 10) ? res_sql_text(st, 10) : "");
            raw(H, ": ");
            text(H, res_sql_text(st, 11));
            raw(H, " (expected ");
            text(H, col(st, 12) ? col(st, 12) : "none");
            raw(H, ")");
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
    strings_free(&dots);
    return rc ? rc : s < 0 ? -s : RES_OK;
}

/* ---- costs ------------------------------------------------------------------ */

/* Per test and config: a bar per model for cycles and for NVM writes,
   scaled to the test's largest. */
static int costs(Html *H)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(H->db, &st,
                             "SELECT t.name, c.config, c.model, c.cycles,"
                             " c.nvm_writes, max(c.cycles) OVER w,"
                             " max(c.nvm_writes) OVER w FROM " RES_LATEST_FROM
                             "WHERE c.cycles IS NOT NULL"
                             " WINDOW w AS (PARTITION BY t.name, c.config)"
                             " ORDER BY t.name, c.config, "
                             RES_MODEL_RANK("c.model") ", c.model", "");
    if (rc)
        return rc;
    raw(H, "<h2 id=\"costs\">Costs per model</h2>\n<p>Cycles (blue) and NVM"
           " line writes (orange) of each check's timed run, scaled to the"
           " test's largest.</p>\n<div id=\"cost-bars\">\n");
    BaseStr key = {0};
    int s, n = 0;
    while ((s = res_sql_step(H->db, st)) > 0) {
        BaseStr k = {0};
        base_str_printf(&k, "%s\n%s", res_sql_text(st, 0), res_sql_text(st, 1));
        if (!key.s || !k.s || strcmp(key.s, k.s)) {
            if (key.s)
                raw(H, "</div>\n");
            raw(H, "<div class=\"bars\"><h3>");
            text(H, res_sql_text(st, 0));
            raw(H, "</h3>\n");
            base_str_free(&key);
            key = k;
        } else {
            base_str_free(&k);
        }
        int64_t cyc = sqlite3_column_int64(st, 3), maxc =
            sqlite3_column_int64(st, 5);
        double wc = maxc > 0 ? 100.0 * (double)cyc / (double)maxc : 0;
        raw(H, "<div class=\"bar\"><span class=\"label\">");
        text(H, res_sql_text(st, 2));
        base_str_printf(&H->h, "</span><span class=\"fill cycles\""
                       " style=\"width:%.1f%%\"></span>%lld cycles</div>\n",
                       wc * 0.6, (long long)cyc);
        if (col(st, 4)) {
            int64_t w = sqlite3_column_int64(st, 4),
                    maxw = sqlite3_column_int64(st, 6);
            double ww = maxw > 0 ? 100.0 * (double)w / (double)maxw : 0;
            raw(H, "<div class=\"bar\"><span class=\"label\"></span>");
            base_str_printf(&H->h, "<span class=\"fill writes\""
                           " style=\"width:%.1f%%\"></span>%lld NVM writes"
                           "</div>\n", ww * 0.6, (long long)w);
        }
        n++;
    }
    if (key.s)
        raw(H, "</div>\n");
    base_str_free(&key);
    sqlite3_finalize(st);
    raw(H, "</div>\n");
    if (!n)
        raw(H, "<p>No timed checks.</p>\n");
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

static int summary(Html *H)
{
    int64_t checks = 0, tests = 0, runs = 0;
    int s;
    if ((s = res_sql_int(H->db, &checks, "SELECT count(*) FROM latest_checks",
                         "")) < 0 ||
        (s = res_sql_int(H->db, &tests, "SELECT count(DISTINCT test) FROM"
                         " latest_checks", "")) < 0 ||
        (s = res_sql_int(H->db, &runs, "SELECT count(*) FROM runs", "")) < 0)
        return -s;
    base_str_printf(&H->h, "<p id=\"summary\">%lld tests, %lld latest checks,"
                   " %lld runs. <a href=\"#verdicts\">Verdicts</a> &middot;"
                   " <a href=\"#failing\">Failing checks</a> &middot;"
                   " <a href=\"#witnesses\">Witnesses</a> &middot;"
                   " <a href=\"#costs\">Costs</a> &middot;"
                   " <a href=\"#growth\">State-space growth</a></p>\n",
                   (long long)tests, (long long)checks, (long long)runs);
    return RES_OK;
}

int res_report_html(ResDb *db, const ResHtmlOptions *o, FILE *out)
{
    Html H = {db, o, {0}};
    raw(&H, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>gpmc report</title><style>");
    raw(&H, style);
    raw(&H, "</style></head><body>\n<h1>gpmc report</h1>\n");
    int rc = summary(&H);
    if (!rc)
        rc = matrix(&H);
    if (!rc)
        rc = failing(&H);
    if (!rc)
        rc = witnesses(&H);
    if (!rc)
        rc = costs(&H);
    if (!rc)
        growth(&H);
    raw(&H, "</body></html>\n");
    if (!rc && H.h.failed)
        rc = res_sql_fail(db, RES_EINTERNAL, "report: out of memory");
    if (!rc && fputs(H.h.s, out) == EOF)
        rc = res_sql_fail(db, RES_EINTERNAL, "report: cannot write the"
                          " page");
    base_str_free(&H.h);
    return rc;
}
