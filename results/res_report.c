/* `gpmc report`: the views over the latest checks as fixed-width tables.
   Everything is read before anything is printed, so a failing report
   prints nothing. */
#include <string.h>

#include "results/results_int.h"

static const char *const std_models[] = {
    "strict", "epoch", "bepoch", "scoped", "bscoped", "hw",
};
#define NSTD ((int)(sizeof std_models / sizeof *std_models))

/* A test checked under several configs gets one row group per config,
   labelled "name [k]" (k counts its configs in sorted order) and explained
   under the table. */
typedef struct {
    const char *test, *config;
} Variant;

typedef struct {
    Variant *v;
    int n;
} Variants;

static int load_variants(ResDb *db, ResArena *a, Variants *vs)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st,
                             "SELECT DISTINCT t.name, c.config FROM "
                             RES_LATEST_FROM "ORDER BY 1, 2", "");
    if (rc)
        return rc;
    int cap = 0, s;
    vs->n = 0;
    vs->v = NULL;
    while ((s = res_sql_step(db, st)) > 0) {
        if (vs->n == cap) {
            cap = cap ? 2 * cap : 64;
            Variant *v = res_arena_alloc(a, sizeof *v * (size_t)cap);
            if (vs->n)
                memcpy(v, vs->v, sizeof *v * (size_t)vs->n);
            vs->v = v;
        }
        vs->v[vs->n].test = res_arena_strdup(a, res_sql_text(st, 0));
        vs->v[vs->n].config = res_arena_strdup(a, res_sql_text(st, 1));
        vs->n++;
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

/* Index of (test, config) in the sorted list (SQLite's BINARY order is
   strcmp's), -1 when absent. */
static int variant_find(const Variants *vs, const char *test,
                        const char *config)
{
    int lo = 0, hi = vs->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(vs->v[mid].test, test);
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

static int same_test(const Variants *vs, int i, int j)
{
    return j >= 0 && j < vs->n && !strcmp(vs->v[i].test, vs->v[j].test);
}

static const char *variant_label(ResArena *a, const Variants *vs, int i)
{
    if (!same_test(vs, i, i - 1) && !same_test(vs, i, i + 1))
        return vs->v[i].test;
    int first = i;
    while (same_test(vs, i, first - 1))
        first--;
    return res_arena_printf(a, "%s [%d]", vs->v[i].test, i - first + 1);
}

static const char *label(ResArena *a, const Variants *vs, const char *test,
                         const char *config)
{
    int i = variant_find(vs, test, config);
    return i < 0 ? test : variant_label(a, vs, i);
}

static void print_configs(ResArena *a, const Variants *vs, FILE *out)
{
    int header = 0;
    for (int i = 0; i < vs->n; i++) {
        if (!same_test(vs, i, i - 1) && !same_test(vs, i, i + 1))
            continue;
        if (!header++)
            fputs("\nconfigs:\n", out);
        fprintf(out, "  %s  %s\n", variant_label(a, vs, i), vs->v[i].config);
    }
}

static void print_table(const ResTable *t, FILE *out)
{
    if (res_table_rows(t)) {
        res_table_print(t, out);
        fputc('\n', out);
    }
}

/* "1 check", "2 checks". */
static const char *count(ResArena *a, int n, const char *what)
{
    return res_arena_printf(a, "%d %s%s", n, what, n == 1 ? "" : "s");
}

static const char *num_or_dash(ResArena *a, sqlite3_stmt *st, int i)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return "-";
    return res_arena_printf(a, "%lld", (long long)sqlite3_column_int64(st, i));
}

/* ---- verdicts ------------------------------------------------------------ */

static int model_columns(ResDb *db, ResArena *a, const char ***models,
                         int *n)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st,
                             "SELECT DISTINCT c.model FROM " RES_LATEST_FROM
                             "WHERE " RES_MODEL_RANK("c.model") " = 6"
                             " ORDER BY 1", "");
    if (rc)
        return rc;
    int cap = NSTD + 8, s;
    *models = res_arena_alloc(a, sizeof **models * (size_t)cap);
    for (*n = 0; *n < NSTD; (*n)++)
        (*models)[*n] = std_models[*n];
    while ((s = res_sql_step(db, st)) > 0) {
        if (*n == cap) {
            const char **m = res_arena_alloc(a, sizeof *m * (size_t)cap * 2);
            memcpy(m, *models, sizeof *m * (size_t)cap);
            *models = m;
            cap *= 2;
        }
        (*models)[(*n)++] = res_arena_strdup(a, res_sql_text(st, 0));
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

static int report_verdicts(ResDb *db, ResArena *a, FILE *out)
{
    Variants vs;
    const char **models;
    int nmodels;
    int rc = load_variants(db, a, &vs);
    if (!rc)
        rc = model_columns(db, a, &models, &nmodels);
    if (rc)
        return rc;
    int ncols = 3 + nmodels;
    const char **cells = res_arena_alloc(a, sizeof *cells * (size_t)ncols);
    cells[0] = "test";
    cells[1] = "cond";
    cells[2] = "phase";
    for (int m = 0; m < nmodels; m++)
        cells[3 + m] = models[m];
    ResTable *t = res_table_new(a, ncols, cells);
    res_table_right(t, 1);

    sqlite3_stmt *st;
    rc = res_sql_prepare(db, &st,
                         "SELECT t.name, c.config, r.cond_index, r.phase,"
                         " c.model, r.verdict, "
                         RES_PASSES("r.verdict", "r.expected") " FROM "
                         RES_LATEST_FROM
                         "JOIN results r ON r.check_id = c.check_id"
                         " ORDER BY t.name, c.config, r.cond_index", "");
    if (rc)
        return rc;
    int s, nverdicts = 0, npass = 0, open = 0;
    const char *test = NULL, *config = NULL;
    int64_t cond = -1;
    while ((s = res_sql_step(db, st)) > 0) {
        const char *name = res_sql_text(st, 0), *cfg = res_sql_text(st, 1);
        int64_t k = sqlite3_column_int64(st, 2);
        if (!open || strcmp(name, test) || strcmp(cfg, config) || k != cond) {
            if (open)
                res_table_add(t, cells);
            test = res_arena_strdup(a, name);
            config = res_arena_strdup(a, cfg);
            cond = k;
            cells[0] = label(a, &vs, test, config);
            cells[1] = res_arena_printf(a, "%lld", (long long)k);
            cells[2] = res_arena_strdup(a, res_sql_text(st, 3));
            for (int m = 0; m < nmodels; m++)
                cells[3 + m] = "-";
            open = 1;
        }
        int pass = sqlite3_column_int(st, 6);
        for (int m = 0; m < nmodels; m++)
            if (!strcmp(models[m], res_sql_text(st, 4)))
                cells[3 + m] = res_arena_printf(a, "%s%s",
                                                res_sql_text(st, 5),
                                                pass ? "" : "!");
        nverdicts++;
        npass += pass;
    }
    if (open)
        res_table_add(t, cells);
    sqlite3_finalize(st);
    if (s < 0)
        return -s;
    print_table(t, out);
    fprintf(out, "%s, %s: %d pass, %d unexpected (marked !)\n",
            count(a, res_table_rows(t), "row"),
            count(a, nverdicts, "verdict"), npass, nverdicts - npass);
    print_configs(a, &vs, out);
    return RES_OK;
}

/* ---- unexpected ------------------------------------------------------------ */

static int report_unexpected(ResDb *db, ResArena *a, FILE *out)
{
    Variants vs;
    int rc = load_variants(db, a, &vs);
    if (rc)
        return rc;
    static const char *const h1[] = {
        "test", "model", "cond", "phase", "verdict", "expected",
    };
    static const char *const h2[] = {"test", "model", "status", "error"};
    ResTable *bad = res_table_new(a, 6, h1), *inc = res_table_new(a, 4, h2);
    res_table_right(bad, 2);
    sqlite3_stmt *st;
    rc = res_sql_prepare(db, &st,
                         "SELECT t.name, c.config, c.model, r.cond_index,"
                         " r.phase, r.verdict, r.expected FROM "
                         RES_LATEST_FROM
                         "JOIN results r ON r.check_id = c.check_id"
                         " WHERE NOT " RES_PASSES("r.verdict", "r.expected")
                         " ORDER BY t.name, c.config, r.cond_index, "
                         RES_MODEL_RANK("c.model") ", c.model", "");
    if (rc)
        return rc;
    int s;
    while ((s = res_sql_step(db, st)) > 0) {
        const char *row[6] = {
            label(a, &vs, res_sql_text(st, 0), res_sql_text(st, 1)),
            res_sql_text(st, 2),
            res_arena_printf(a, "%lld",
                             (long long)sqlite3_column_int64(st, 3)),
            res_sql_text(st, 4), res_sql_text(st, 5),
            sqlite3_column_type(st, 6) == SQLITE_NULL ? "-"
                                                      : res_sql_text(st, 6),
        };
        res_table_add(bad, row);
    }
    sqlite3_finalize(st);
    if (s < 0)
        return -s;
    rc = res_sql_prepare(db, &st,
                         "SELECT t.name, c.config, c.model, c.status, c.error"
                         " FROM " RES_LATEST_FROM "WHERE c.status <> 'done'"
                         " ORDER BY t.name, c.config, "
                         RES_MODEL_RANK("c.model") ", c.model", "");
    if (rc)
        return rc;
    while ((s = res_sql_step(db, st)) > 0) {
        const char *row[4] = {
            label(a, &vs, res_sql_text(st, 0), res_sql_text(st, 1)),
            res_sql_text(st, 2), res_sql_text(st, 3),
            sqlite3_column_type(st, 4) == SQLITE_NULL ? "-"
                                                      : res_sql_text(st, 4),
        };
        res_table_add(inc, row);
    }
    sqlite3_finalize(st);
    if (s < 0)
        return -s;
    print_table(bad, out);
    print_table(inc, out);
    fprintf(out, "%s, %s incomplete or failed\n",
            count(a, res_table_rows(bad), "unexpected verdict"),
            count(a, res_table_rows(inc), "check"));
    print_configs(a, &vs, out);
    return RES_OK;
}

/* ---- costs ------------------------------------------------------------------ */

/* The baseline of a test is the member FAMILY+base of its family, FAMILY
   being the name up to its last '+' (the whole name when it has none), at
   the same model and config. rtrim(name, <name without '+'>) keeps the
   name up to and including its last '+'. */
#define COSTS_SQL \
    "WITH lc AS (SELECT t.name AS name, c.config AS config, c.model AS model," \
    " c.cycles AS cycles, c.nvm_writes AS nvm_writes," \
    " rtrim(t.name, replace(t.name, '+', '')) AS fam FROM " RES_LATEST_FROM ")" \
    " SELECT a.name, a.config, a.model, a.cycles, a.nvm_writes," \
    " b.cycles, b.nvm_writes FROM lc a LEFT JOIN lc b" \
    " ON b.name = (CASE WHEN a.fam = '' THEN a.name" \
    " ELSE substr(a.fam, 1, length(a.fam) - 1) END) || '+base'" \
    " AND b.config = a.config AND b.model = a.model" \
    " ORDER BY a.name, a.config, " RES_MODEL_RANK("a.model") ", a.model"

static const char *ratio(ResArena *a, sqlite3_stmt *st, int num, int den)
{
    if (sqlite3_column_type(st, num) == SQLITE_NULL ||
        sqlite3_column_type(st, den) == SQLITE_NULL ||
        sqlite3_column_int64(st, den) <= 0)
        return "-";
    return res_arena_printf(a, "%.2f",
                            (double)sqlite3_column_int64(st, num) /
                                (double)sqlite3_column_int64(st, den));
}

static int report_costs(ResDb *db, ResArena *a, FILE *out)
{
    Variants vs;
    int rc = load_variants(db, a, &vs);
    if (rc)
        return rc;
    static const char *const h[] = {
        "test", "model", "cycles", "nvm_writes", "cycles/base", "writes/base",
    };
    ResTable *t = res_table_new(a, 6, h);
    for (int i = 2; i < 6; i++)
        res_table_right(t, i);
    sqlite3_stmt *st;
    if ((rc = res_sql_prepare(db, &st, COSTS_SQL, "")))
        return rc;
    int s;
    while ((s = res_sql_step(db, st)) > 0) {
        const char *row[6] = {
            label(a, &vs, res_sql_text(st, 0), res_sql_text(st, 1)),
            res_sql_text(st, 2), num_or_dash(a, st, 3), num_or_dash(a, st, 4),
            ratio(a, st, 3, 5), ratio(a, st, 4, 6),
        };
        res_table_add(t, row);
    }
    sqlite3_finalize(st);
    if (s < 0)
        return -s;
    print_table(t, out);
    fprintf(out, "%s; baseline: FAMILY+base at the same model and config,"
                 " FAMILY = the test name up to its last '+'\n",
            count(a, res_table_rows(t), "check"));
    print_configs(a, &vs, out);
    return RES_OK;
}

/* ---- disagreements ------------------------------------------------------------ */

static int report_disagreements(ResDb *db, ResArena *a, FILE *out)
{
    Variants vs;
    int rc = load_variants(db, a, &vs);
    if (rc)
        return rc;
    static const char *const h[] = {
        "test", "cond", "model_a", "verdict_a", "model_b", "verdict_b",
    };
    ResTable *t = res_table_new(a, 6, h);
    res_table_right(t, 1);
    sqlite3_stmt *st;
    if ((rc = res_sql_prepare(db, &st,
                              "SELECT test, config, cond_index, model_a,"
                              " verdict_a, model_b, verdict_b FROM ("
                              RES_DISAGREEMENTS ")" RES_DISAGREEMENTS_ORDER,
                              "")))
        return rc;
    int s;
    while ((s = res_sql_step(db, st)) > 0) {
        const char *row[6] = {
            label(a, &vs, res_sql_text(st, 0), res_sql_text(st, 1)),
            res_arena_printf(a, "%lld",
                             (long long)sqlite3_column_int64(st, 2)),
            res_sql_text(st, 3), res_sql_text(st, 4), res_sql_text(st, 5),
            res_sql_text(st, 6),
        };
        res_table_add(t, row);
    }
    sqlite3_finalize(st);
    if (s < 0)
        return -s;
    print_table(t, out);
    fprintf(out, "%s\n", count(a, res_table_rows(t), "disagreement"));
    print_configs(a, &vs, out);
    return RES_OK;
}

int res_report(ResDb *db, const char *which, FILE *out)
{
    static const struct {
        const char *name;
        int (*fn)(ResDb *, ResArena *, FILE *);
    } reports[] = {
        {"verdicts", report_verdicts},
        {"unexpected", report_unexpected},
        {"costs", report_costs},
        {"disagreements", report_disagreements},
    };
    for (size_t i = 0; i < sizeof reports / sizeof *reports; i++) {
        if (strcmp(which, reports[i].name))
            continue;
        ResArena *a = res_arena_new();
        int rc = reports[i].fn(db, a, out);
        res_arena_free(a);
        return rc;
    }
    return res_sql_fail(db, RES_EINPUT,
                        "unknown report '%s' (expected verdicts, unexpected,"
                        " costs or disagreements)", which);
}
