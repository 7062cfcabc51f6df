/* `gpmc report`: the views over the latest checks as tables (text, CSV or
   JSON). Everything is read before anything is printed, so a failing
   report prints nothing. In text, a test checked under several configs is
   labelled "NAME [k]" and its configs are listed under the table; CSV and
   JSON carry a `config_id` column instead (the config's short name, the
   same in every database; `report configs` maps it to the config), and no
   summary line. CSV and JSON cells hold values only: the verdicts report
   is one row per model there, with `expected` and `pass` columns, where
   text marks a verdict that does not pass with '!'. */
#include <string.h>

#include "results/results_int.h"

typedef struct {
    char *test, *path, *config;
} Variant;

/* Every (test, file, config) of the latest checks, sorted; k of "NAME [k]"
   counts a test name's variants in this order (two files may give a test
   the same name: results are kept apart by file). */
typedef struct {
    Variant *v;
    size_t n, cap;
} Variants;

/* What every report shares: the connection, the output format, the
   variants, and the texts that live until the report is printed. */
typedef struct {
    ResDb *db;
    int fmt;
    Variants vs;
    ResTable *keep;                     /* owns label texts */
    int64_t rows;                       /* data rows of the report */
} Report;

static void variants_free(Variants *vs)
{
    for (size_t i = 0; i < vs->n; i++) {
        base_free(vs->v[i].test);
        base_free(vs->v[i].path);
        base_free(vs->v[i].config);
    }
    base_free(vs->v);
}

static int oom(ResDb *db)
{
    return res_sql_fail(db, RES_EINTERNAL, "report: out of memory");
}

static int load_variants(Report *R)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(R->db, &st,
                             "SELECT DISTINCT t.name, t.path, c.config FROM "
                             RES_LATEST_FROM "ORDER BY 1, 2, 3", "");
    if (rc)
        return rc;
    int s;
    while ((s = res_sql_step(R->db, st)) > 0) {
        Variants *vs = &R->vs;
        if (BASE_GROW(vs->v, vs->cap, vs->n + 1)) {
            s = -oom(R->db);
            break;
        }
        Variant *v = &vs->v[vs->n];
        v->test = res_strdup(res_sql_text(st, 0));
        v->path = res_strdup(res_sql_text(st, 1));
        v->config = res_strdup(res_sql_text(st, 2));
        vs->n += v->test || v->path || v->config;
        if (!v->test || !v->path || !v->config) {
            s = -oom(R->db);
            break;
        }
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

/* Index of (test, path, config) in the sorted list (SQLite's BINARY order
   is strcmp's), -1 when absent. */
static long variant_find(const Variants *vs, const char *test,
                         const char *path, const char *config)
{
    long lo = 0, hi = (long)vs->n - 1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        int c = strcmp(vs->v[mid].test, test);
        if (!c)
            c = strcmp(vs->v[mid].path, path);
        if (!c)
            c = strcmp(vs->v[mid].config, config);
        if (!c)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static int same_test(const Variants *vs, long i, long j)
{
    return j >= 0 && j < (long)vs->n && !strcmp(vs->v[i].test, vs->v[j].test);
}

/* 1 when the test name of variant i belongs to several files. */
static int shared_name(const Variants *vs, long i)
{
    for (long j = i; same_test(vs, i, j); j--)
        if (strcmp(vs->v[j].path, vs->v[i].path))
            return 1;
    for (long j = i; same_test(vs, i, j); j++)
        if (strcmp(vs->v[j].path, vs->v[i].path))
            return 1;
    return 0;
}

static const char *variant_label(Report *R, long i)
{
    const Variants *vs = &R->vs;
    if (!same_test(vs, i, i - 1) && !same_test(vs, i, i + 1))
        return vs->v[i].test;
    long first = i;
    while (same_test(vs, i, first - 1))
        first--;
    return res_table_printf(R->keep, "%s [%ld]", vs->v[i].test,
                            i - first + 1);
}

/* The test cell: its label in text, its name otherwise. */
static const char *test_cell(Report *R, const char *test, const char *path,
                             const char *config)
{
    if (R->fmt != RES_FMT_TABLE)
        return test;
    long i = variant_find(&R->vs, test, path, config);
    return i < 0 ? test : variant_label(R, i);
}

/* The config's id: the first 8 hex digits of its SHA-256 (the canonical
   config text is the same for the same config in any database). */
static const char *config_id(Report *R, const char *config)
{
    char id[9];
    res_config_id(config, id);
    return res_table_strdup(R->keep, id);
}

/* A table whose first column is the test and, off text, the next ones its
   file and its config's id; hdr names the other columns. *off is where
   they start. */
static ResTable *report_table(Report *R, const char *const *hdr, int n,
                              int *off)
{
    const char *h[32];
    int k = 0;
    h[k++] = "test";
    if (R->fmt != RES_FMT_TABLE) {
        h[k++] = "path";
        h[k++] = "config_id";
    }
    for (int i = 0; i < n && k < 32; i++)
        h[k++] = hdr[i];
    *off = k - n;
    ResTable *t = res_table_new(k, h);
    if (t)
        res_table_null_text(t, "-");
    return t;
}

/* Fill the first cells of a row: the test (or label), its file and its
   config. */
static int row_head(Report *R, const char **cells, const char *test,
                    const char *path, const char *config)
{
    cells[0] = test_cell(R, test, path, config);
    if (R->fmt == RES_FMT_TABLE)
        return 1;
    cells[1] = path;
    cells[2] = config_id(R, config);
    return 3;
}

/* Under a text table, what its "NAME [k]" labels stand for: the config
   (its id and text), and the file when files share the name. */
static void print_configs(Report *R, FILE *out)
{
    int header = 0;
    for (long i = 0; i < (long)R->vs.n; i++) {
        if (!same_test(&R->vs, i, i - 1) && !same_test(&R->vs, i, i + 1))
            continue;
        if (!header++)
            fputs("\nconfigs:\n", out);
        fprintf(out, "  %s  ", variant_label(R, i));
        if (shared_name(&R->vs, i))
            fprintf(out, "%s  ", R->vs.v[i].path);
        fprintf(out, "%s  %s\n", config_id(R, R->vs.v[i].config),
                R->vs.v[i].config);
    }
}

/* Print a table; in text, a table without rows is left out and a blank
   line follows the others. */
static int emit(Report *R, const ResTable *t, FILE *out)
{
    if (res_table_failed(R->keep))
        return oom(R->db);
    if (R->fmt == RES_FMT_TABLE && !res_table_rows(t))
        return RES_OK;
    int rc = res_table_print(t, R->fmt, out);
    if (rc)
        return oom(R->db);
    if (R->fmt == RES_FMT_TABLE)
        fputc('\n', out);
    return RES_OK;
}

/* "1 check", "2 checks". */
static void count(FILE *out, int n, const char *what)
{
    fprintf(out, "%d %s%s", n, what, n == 1 ? "" : "s");
}

/* Column i of a row as a cell: NULL for SQL NULL. */
static const char *col(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NULL
                                                     : res_sql_text(st, i);
}

/* ---- verdicts ------------------------------------------------------------ */

/* Text: one row per test, file, config and check line; a column per
   model. */
static int fill_verdicts(Report *R, ResTable *t, int off, char **models,
                         int nmodels, int *counts)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(R->db, &st,
                             "SELECT t.name, t.path, c.config, r.cond_index,"
                             " r.phase, c.model, r.verdict, "
                             RES_PASSES("r.verdict", "r.expected") " FROM "
                             RES_LATEST_FROM
                             "JOIN results r ON r.check_id = c.check_id"
                             " ORDER BY t.name, t.path, c.config,"
                             " r.cond_index", "");
    if (rc)
        return rc;
    int ncols = off + 2 + nmodels;
    const char **cells = base_calloc((size_t)ncols, sizeof *cells);
    char *test = NULL, *path = NULL, *config = NULL;
    int64_t cond = -1;
    int s, open = 0;
    if (!cells) {
        sqlite3_finalize(st);
        return oom(R->db);
    }
    while ((s = res_sql_step(R->db, st)) > 0) {
        const char *name = res_sql_text(st, 0), *file = res_sql_text(st, 1),
                   *cfg = res_sql_text(st, 2);
        int64_t k = sqlite3_column_int64(st, 3);
        if (!open || strcmp(name, test) || strcmp(file, path) ||
            strcmp(cfg, config) || k != cond) {
            if (open)
                res_table_add(t, cells, NULL);
            test = res_table_strdup(R->keep, name);
            path = res_table_strdup(R->keep, file);
            config = res_table_strdup(R->keep, cfg);
            cond = k;
            row_head(R, cells, test, path, config);
            cells[off] = res_table_printf(R->keep, "%lld", (long long)k);
            cells[off + 1] = res_table_strdup(R->keep, res_sql_text(st, 4));
            for (int m = 0; m < nmodels; m++)
                cells[off + 2 + m] = NULL;
            open = 1;
        }
        int pass = sqlite3_column_int(st, 7);
        const char *v = res_sql_text(st, 6);
        for (int m = 0; m < nmodels; m++)
            if (!strcmp(models[m], res_sql_text(st, 5)))
                cells[off + 2 + m] = res_table_printf(R->keep, "%s%s", v,
                                                      pass ? "" : "!");
        counts[0]++;
        counts[1] += pass;
        counts[2] += !strcmp(v, "Unknown");
    }
    if (open)
        res_table_add(t, cells, NULL);
    sqlite3_finalize(st);
    base_free(cells);
    return s < 0 ? -s : RES_OK;
}

static int fill(Report *R, ResTable *t, int off, const char *sql,
                const int *pick, int npick);

/* CSV and JSON: a row per test, config, check line and model. */
static int report_verdict_rows(Report *R, FILE *out)
{
    static const char *const h[] = {
        "cond", "phase", "model", "verdict", "expected", "pass",
    };
    static const int pick[] = {3, 4, 5, 6, 7, 8};
    int off, rc;
    ResTable *t = report_table(R, h, 6, &off);
    if (!t)
        return oom(R->db);
    res_table_numeric(t, off);
    res_table_numeric(t, off + 5);
    rc = fill(R, t, off,
              "SELECT t.name, t.path, c.config, r.cond_index, r.phase,"
              " c.model, r.verdict, r.expected, "
              RES_PASSES("r.verdict", "r.expected") " FROM " RES_LATEST_FROM
              "JOIN results r ON r.check_id = c.check_id"
              " ORDER BY t.name, t.path, c.config, r.cond_index, "
              RES_MODEL_RANK("c.model") ", c.model", pick, 6);
    if (!rc)
        rc = emit(R, t, out);
    R->rows = res_table_rows(t);
    res_table_free(t);
    return rc;
}

static int report_verdicts(Report *R, FILE *out)
{
    if (R->fmt != RES_FMT_TABLE)
        return report_verdict_rows(R, out);
    char **models = NULL;
    const char **hdr = NULL;
    size_t nmodels = 0;
    int rc = res_models(R->db, &models, &nmodels), off = 0;
    ResTable *t = NULL;
    if (!rc && !(hdr = base_calloc(nmodels + 2, sizeof *hdr)))
        rc = oom(R->db);
    if (!rc) {
        hdr[0] = "cond";
        hdr[1] = "phase";
        for (size_t m = 0; m < nmodels; m++)
            hdr[2 + m] = models[m];
        if (!(t = report_table(R, hdr, (int)nmodels + 2, &off)))
            rc = oom(R->db);
    }
    int counts[3] = {0, 0, 0};          /* verdicts, passing, Unknown */
    if (!rc) {
        res_table_numeric(t, off);
        rc = fill_verdicts(R, t, off, models, (int)nmodels, counts);
    }
    if (!rc)
        rc = emit(R, t, out);
    R->rows = t ? res_table_rows(t) : 0;
    if (!rc && R->fmt == RES_FMT_TABLE) {
        count(out, res_table_rows(t), "row");
        fputs(", ", out);
        count(out, counts[0], "verdict");
        fprintf(out, ": %d pass, %d unexpected (marked !), %d Unknown\n",
                counts[1], counts[0] - counts[1], counts[2]);
        print_configs(R, out);
    }
    res_table_free(t);
    base_free(hdr);
    res_models_free(models, nmodels);
    return rc;
}

/* ---- unexpected ------------------------------------------------------------ */

/* The ids of a check's violations of one check line, "3,4", or NULL. */
#define VIOLATION_IDS(check, cond) \
    "(SELECT group_concat(violation_id, ',') FROM (SELECT violation_id" \
    " FROM violations v WHERE v.check_id = " check \
    " AND v.cond_index = " cond " ORDER BY violation_id))"

#define UNEXPECTED_SQL \
    "SELECT t.name, t.path, c.config, c.model, r.cond_index, r.phase," \
    " r.verdict," \
    " r.expected, c.status, c.error, c.check_id, " \
    VIOLATION_IDS("c.check_id", "r.cond_index") " FROM " RES_LATEST_FROM \
    "JOIN results r ON r.check_id = c.check_id" \
    " WHERE NOT " RES_PASSES("r.verdict", "r.expected") \
    " ORDER BY t.name, t.path, c.config, r.cond_index, " \
    RES_MODEL_RANK("c.model") ", c.model"

/* The checks that fail whatever their verdicts: not done, or done with a
   runtime error that no `check noerror` covers (cond_index -1). */
#define FAILED_CHECKS_SQL \
    "SELECT t.name, t.path, c.config, c.model, NULL, NULL, NULL, NULL," \
    " c.status," \
    " coalesce(c.error, 'runtime error without a check noerror')," \
    " c.check_id, " VIOLATION_IDS("c.check_id", "-1") " FROM " \
    RES_LATEST_FROM "WHERE c.status <> 'done' OR EXISTS (SELECT 1" \
    " FROM violations v WHERE v.check_id = c.check_id" \
    " AND v.cond_index < 0)" \
    " ORDER BY t.name, t.path, c.config, " RES_MODEL_RANK("c.model") \
    ", c.model"

/* Rows of a query selecting test, path, config, then the cells of the
   columns picked (indexes into the query's columns from 3 on); numeric
   picks are numbers. */
static int fill(Report *R, ResTable *t, int off, const char *sql,
                const int *pick, int npick)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(R->db, &st, sql, "");
    if (rc)
        return rc;
    const char *cells[32];
    int s;
    while ((s = res_sql_step(R->db, st)) > 0) {
        row_head(R, cells, res_sql_text(st, 0), res_sql_text(st, 1),
                 res_sql_text(st, 2));
        for (int i = 0; i < npick; i++)
            cells[off + i] = col(st, pick[i]);
        res_table_add(t, cells, NULL);
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

static int report_unexpected(Report *R, FILE *out)
{
    /* Text: the failing verdicts, then the failing checks; CSV and JSON:
       one table of both, with the check's status and error. */
    static const char *const h1[] = {
        "model", "cond", "phase", "verdict", "expected", "check", "violation",
    };
    static const int p1[] = {3, 4, 5, 6, 7, 10, 11};
    static const char *const h2[] = {
        "model", "status", "error", "check", "violation",
    };
    static const int p2[] = {3, 8, 9, 10, 11};
    static const char *const hf[] = {
        "model", "cond", "phase", "verdict", "expected", "status", "error",
        "check", "violation",
    };
    static const int pf[] = {3, 4, 5, 6, 7, 8, 9, 10, 11};
    int text = R->fmt == RES_FMT_TABLE, off1 = 0, off2 = 0, rc = RES_OK;
    ResTable *bad = text ? report_table(R, h1, 7, &off1)
                         : report_table(R, hf, 9, &off1);
    ResTable *inc = text ? report_table(R, h2, 5, &off2) : bad;
    if (!text)
        off2 = off1;
    if (!bad || !inc)
        rc = oom(R->db);
    if (!rc) {
        res_table_numeric(bad, off1 + 1);
        res_table_numeric(bad, off1 + (text ? 5 : 7));
        res_table_numeric(inc, off2 + (text ? 3 : 7));
        rc = fill(R, bad, off1, UNEXPECTED_SQL, text ? p1 : pf, text ? 7 : 9);
    }
    int nbad = bad ? res_table_rows(bad) : 0;
    if (!rc)
        rc = fill(R, inc, off2, FAILED_CHECKS_SQL, text ? p2 : pf,
                  text ? 5 : 9);
    if (!rc)
        rc = emit(R, bad, out);
    if (!rc && text)
        rc = emit(R, inc, out);
    R->rows = nbad + (inc != bad && inc ? res_table_rows(inc) : 0);
    if (!rc && text) {
        count(out, nbad, "unexpected verdict");
        fputs(", ", out);
        count(out, res_table_rows(inc), "check");
        fputs(" incomplete or failed\n", out);
        print_configs(R, out);
    }
    if (inc != bad)
        res_table_free(inc);
    res_table_free(bad);
    return rc;
}

/* ---- costs ------------------------------------------------------------------ */

/* The baseline of a test is the member FAMILY+base of its family, FAMILY
   being the name up to its last '+' (the whole name when it has none), at
   the same model and config. rtrim(name, <name without '+'>) keeps the
   name up to and including its last '+'. A ratio is NULL when a value is
   unknown or the baseline's is not positive. */
#define RATIO(a, b) \
    "CASE WHEN " a " IS NOT NULL AND " b " > 0" \
    " THEN printf('%.2f', 1.0 * " a " / " b ") END"
#define COSTS_SQL \
    "WITH lc AS (SELECT t.name AS name, t.path AS path, c.config AS config," \
    " c.model AS model," \
    " c.cycles AS cycles, c.nvm_writes AS nvm_writes," \
    " rtrim(t.name, replace(t.name, '+', '')) AS fam FROM " RES_LATEST_FROM ")" \
    " SELECT a.name, a.path, a.config, a.model, a.cycles, a.nvm_writes," \
    " " RATIO("a.cycles", "b.cycles") ", " RATIO("a.nvm_writes", "b.nvm_writes") \
    " FROM lc a LEFT JOIN lc b" \
    " ON b.name = (CASE WHEN a.fam = '' THEN a.name" \
    " ELSE substr(a.fam, 1, length(a.fam) - 1) END) || '+base'" \
    " AND b.config = a.config AND b.model = a.model" \
    " ORDER BY a.name, a.path, a.config, " RES_MODEL_RANK("a.model") \
    ", a.model"

static int report_costs(Report *R, FILE *out)
{
    static const char *const h[] = {
        "model", "cycles", "nvm_writes", "cycles/base", "writes/base",
    };
    static const int pick[] = {3, 4, 5, 6, 7};
    int off, rc = RES_OK;
    ResTable *t = report_table(R, h, 5, &off);
    if (!t)
        return oom(R->db);
    for (int i = 1; i < 5; i++)
        res_table_numeric(t, off + i);
    rc = fill(R, t, off, COSTS_SQL, pick, 5);
    if (!rc)
        rc = emit(R, t, out);
    R->rows = res_table_rows(t);
    if (!rc && R->fmt == RES_FMT_TABLE) {
        count(out, res_table_rows(t), "check");
        fputs("; baseline: FAMILY+base at the same model and config,"
              " FAMILY = the test name up to its last '+'\n", out);
        print_configs(R, out);
    }
    res_table_free(t);
    return rc;
}

/* ---- disagreements ------------------------------------------------------------ */

static int report_disagreements(Report *R, FILE *out)
{
    static const char *const h[] = {
        "cond", "model_a", "verdict_a", "model_b", "verdict_b",
    };
    static const int pick[] = {3, 4, 5, 6, 7};
    int off, rc = RES_OK;
    ResTable *t = report_table(R, h, 5, &off);
    if (!t)
        return oom(R->db);
    res_table_numeric(t, off);
    rc = fill(R, t, off,
              "SELECT test, path, config, cond_index, model_a, verdict_a,"
              " model_b, verdict_b FROM (" RES_DISAGREEMENTS ")"
              RES_DISAGREEMENTS_ORDER, pick, 5);
    if (!rc)
        rc = emit(R, t, out);
    R->rows = res_table_rows(t);
    if (!rc && R->fmt == RES_FMT_TABLE) {
        count(out, res_table_rows(t), "disagreement");
        fputc('\n', out);
        print_configs(R, out);
    }
    res_table_free(t);
    return rc;
}

/* ---- configs ------------------------------------------------------------------ */

/* Every config of the latest checks with its id (the key of config_id
   columns), and how many tests use it. Text gives each whole, on a line
   of its own ("ID  N tests  CONFIG"): a table would clip it. */
static int report_configs(Report *R, FILE *out)
{
    static const char *const h[] = {"config_id", "tests", "config"};
    sqlite3_stmt *st;
    ResTable *t = res_table_new(3, h);
    BaseStr text = {0};
    if (!t)
        return oom(R->db);
    res_table_numeric(t, 1);
    int rc = res_sql_prepare(R->db, &st, "SELECT c.config,"
                             " count(DISTINCT t.name) FROM " RES_LATEST_FROM
                             "GROUP BY c.config ORDER BY c.config", "");
    int s = 0;
    while (!rc && (s = res_sql_step(R->db, st)) > 0) {
        const char *config = res_sql_text(st, 0);
        int64_t n = sqlite3_column_int64(st, 1);
        const char *cells[3] = {
            config_id(R, config),
            res_table_printf(R->keep, "%lld", (long long)n), config,
        };
        res_table_add(t, cells, NULL);
        base_str_printf(&text, "%s  %lld test%s  %s\n", cells[0],
                        (long long)n, n == 1 ? "" : "s", config);
    }
    if (!rc)
        sqlite3_finalize(st);
    if (!rc && s < 0)
        rc = -s;
    if (!rc && text.failed)
        rc = oom(R->db);
    R->rows = res_table_rows(t);
    if (!rc && R->fmt != RES_FMT_TABLE) {
        rc = emit(R, t, out);
    } else if (!rc) {
        if (res_table_failed(R->keep))
            rc = oom(R->db);
        else {
            fputs(text.s ? text.s : "", out);
            count(out, (int)R->rows, "config");
            fputc('\n', out);
        }
    }
    base_str_free(&text);
    res_table_free(t);
    return rc;
}

int res_report(ResDb *db, const char *which, int fmt, FILE *out)
{
    int64_t rows;
    return res_report_rows(db, which, fmt, out, &rows);
}

int res_report_rows(ResDb *db, const char *which, int fmt, FILE *out,
                    int64_t *rows)
{
    *rows = 0;
    static const struct {
        const char *name;
        int (*fn)(Report *, FILE *);
    } reports[] = {
        {"verdicts", report_verdicts},
        {"unexpected", report_unexpected},
        {"costs", report_costs},
        {"disagreements", report_disagreements},
        {"configs", report_configs},
    };
    for (size_t i = 0; i < sizeof reports / sizeof *reports; i++) {
        if (strcmp(which, reports[i].name))
            continue;
        static const char *const none[] = {""};
        Report R = {db, fmt, {NULL, 0, 0}, res_table_new(1, none), 0};
        int rc = R.keep ? load_variants(&R) : oom(db);
        if (!rc)
            rc = reports[i].fn(&R, out);
        *rows = R.rows;
        variants_free(&R.vs);
        res_table_free(R.keep);
        return rc;
    }
    return res_sql_fail(db, RES_EINPUT,
                        "unknown report '%s' (expected verdicts, unexpected,"
                        " costs, disagreements, configs or html)", which);
}
