/* `gpmc show`: one violation, or one check with everything it recorded. */
#include <string.h>

#include "results/results_int.h"

/* Print a stored text block, ending it with exactly one newline. */
static void block(const char *title, const char *text, FILE *out)
{
    size_t n = strlen(text);
    fprintf(out, "%s:\n%s", title, text);
    if (!n || text[n - 1] != '\n')
        fputc('\n', out);
}

#define VIOLATION_SQL \
    "SELECT v.violation_id, v.check_id, v.cond_index, v.kind, v.image," \
    " v.witness, v.witness_json, v.depth, t.name, t.path, c.model, c.config," \
    " r.phase, r.quant, r.cond, r.verdict, r.expected" \
    " FROM violations v JOIN checks c ON c.check_id = v.check_id" \
    " JOIN tests t ON t.test_id = c.test_id" \
    " LEFT JOIN results r ON r.check_id = v.check_id" \
    " AND r.cond_index = v.cond_index"

/* "4: crash ~exists (x == 1)" and "No (expected Ok)", or "4" and NULL
   when the check line has no results row (a runtime error without
   `check noerror`). */
static void condition_text(sqlite3_stmt *st, BaseStr *cond, BaseStr *verdict)
{
    base_str_printf(cond, "%lld", (long long)sqlite3_column_int64(st, 2));
    if (sqlite3_column_type(st, 12) == SQLITE_NULL)
        return;
    const char *quant = res_sql_text(st, 13), *text = res_sql_text(st, 14);
    size_t n = strlen(quant);
    base_str_printf(cond, ": %s", res_sql_text(st, 12));
    /* The condition text may carry its quantifier already. */
    if (*quant && (strncmp(text, quant, n) || text[n] != ' '))
        base_str_printf(cond, " %s", quant);
    if (*text)
        base_str_printf(cond, " %s", text);
    base_str_printf(verdict, "%s (expected %s)", res_sql_text(st, 15),
                   sqlite3_column_type(st, 16) == SQLITE_NULL
                       ? "none" : res_sql_text(st, 16));
}

static int print_violation(ResDb *db, sqlite3_stmt *st, FILE *out)
{
    BaseStr cond = {0}, verdict = {0};
    condition_text(st, &cond, &verdict);
    if (cond.failed || verdict.failed) {
        base_str_free(&cond);
        base_str_free(&verdict);
        return res_sql_fail(db, RES_EINTERNAL, "show: out of memory");
    }
    fprintf(out, "violation %lld: %s, depth %lld\n",
            (long long)sqlite3_column_int64(st, 0), res_sql_text(st, 3),
            (long long)sqlite3_column_int64(st, 7));
    fprintf(out, "  test       %s (%s)\n", res_sql_text(st, 8),
            res_sql_text(st, 9));
    fprintf(out, "  model      %s\n", res_sql_text(st, 10));
    fprintf(out, "  config     %s\n", res_sql_text(st, 11));
    fprintf(out, "  check      %lld\n", (long long)sqlite3_column_int64(st, 1));
    fprintf(out, "  condition  %s\n", cond.s);
    if (verdict.s)
        fprintf(out, "  verdict    %s\n", verdict.s);
    if (sqlite3_column_type(st, 4) != SQLITE_NULL)
        block("image", res_sql_text(st, 4), out);
    block("witness", res_sql_text(st, 5), out);
    base_str_free(&cond);
    base_str_free(&verdict);
    return RES_OK;
}

/* The DOT graph of the violation, titled with what it violates. */
static int print_dot(ResDb *db, sqlite3_stmt *st, FILE *out)
{
    BaseStr title = {0}, cond = {0}, verdict = {0};
    condition_text(st, &cond, &verdict);
    base_str_printf(&title, "violation %lld: %s of %s under %s (check %lld)\n"
                   "condition %s%s%s",
                   (long long)sqlite3_column_int64(st, 0), res_sql_text(st, 3),
                   res_sql_text(st, 8), res_sql_text(st, 10),
                   (long long)sqlite3_column_int64(st, 1),
                   cond.s ? cond.s : "", verdict.s ? ": " : "",
                   verdict.s ? verdict.s : "");
    int rc = title.failed || cond.failed || verdict.failed
        ? res_sql_fail(db, RES_EINTERNAL, "show: out of memory")
        : res_dot_witness(db, sqlite3_column_int64(st, 0),
                          sqlite3_column_type(st, 6) == SQLITE_NULL
                              ? NULL : res_sql_text(st, 6),
                          title.s, out);
    base_str_free(&title);
    base_str_free(&cond);
    base_str_free(&verdict);
    return rc;
}

/* Show every violation the statement (VIOLATION_SQL + a WHERE) selects;
   the number shown in *n. */
static int show_violations(ResDb *db, sqlite3_stmt *st, int dot, FILE *out,
                           int *n)
{
    int s;
    for (*n = 0; (s = res_sql_step(db, st)) > 0; (*n)++) {
        if (!dot && *n)
            fputc('\n', out);
        int rc = dot ? print_dot(db, st, out) : print_violation(db, st, out);
        if (rc)
            return rc;
    }
    return s < 0 ? -s : RES_OK;
}

int res_show_violation(ResDb *db, int64_t id, int dot, FILE *out)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st, VIOLATION_SQL
                             " WHERE v.violation_id = ?", "i", id);
    if (rc)
        return rc;
    int n;
    rc = show_violations(db, st, dot, out, &n);
    sqlite3_finalize(st);
    if (!rc && !n)
        return res_sql_fail(db, RES_EINPUT, "no violation %lld",
                            (long long)id);
    return rc;
}

/* Fill a table from a query, one cell per column; NULL prints as "-". */
static int table_rows(ResDb *db, ResTable *t, int ncols, const char *sql,
                      int64_t id)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st, sql, "i", id);
    if (rc)
        return rc;
    const char *cells[16];
    int s;
    while ((s = res_sql_step(db, st)) > 0) {
        for (int i = 0; i < ncols; i++)
            cells[i] = sqlite3_column_type(st, i) == SQLITE_NULL
                ? NULL : res_sql_text(st, i);
        res_table_add(t, cells, NULL);
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

/* The check's fields, as text in *text (the caller frees it). */
static int check_header(ResDb *db, int64_t id, BaseStr *text)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st,
                             "SELECT t.name, t.path, t.sha256, t.params,"
                             " c.model, c.config, c.status, c.error,"
                             " r.run_id, r.started_at, r.argv, r.version,"
                             " r.host, c.states, c.transitions,"
                             " c.crash_points, c.crash_images, c.recoveries,"
                             " c.elapsed_ms, c.peak_kb, c.cycles, c.nvm_writes"
                             " FROM checks c JOIN tests t ON t.test_id = c.test_id"
                             " JOIN runs r ON r.run_id = c.run_id"
                             " WHERE c.check_id = ?", "i", id);
    if (rc)
        return rc;
    int s = res_sql_step(db, st);
    if (s <= 0) {
        sqlite3_finalize(st);
        return s < 0 ? -s
                     : res_sql_fail(db, RES_EINPUT, "no check %lld",
                                    (long long)id);
    }
#define T(i) res_sql_text(st, i)
#define I(i) (long long)sqlite3_column_int64(st, i)
#define N(i) (sqlite3_column_type(st, i) == SQLITE_NULL ? "-" : T(i))
    base_str_printf(text,
        "check %lld: %s under %s, %s\n"
        "  test          %s (%s)\n"
        "  sha256        %s\n"
        "  params        %s\n"
        "  config        %s\n"
        "  run           %lld: gpmc %s on %s, started %s: %s\n"
        "  states        %lld\n"
        "  transitions   %lld\n"
        "  crash points  %lld\n"
        "  crash images  %lld\n"
        "  recoveries    %lld\n"
        "  elapsed       %lld ms\n"
        "  peak memory   %lld kB\n"
        "  cycles        %s\n"
        "  nvm writes    %s\n"
        "  error         %s\n",
        (long long)id, T(0), T(4), T(6), T(0), T(1), T(2),
        *T(3) ? T(3) : "-", T(5), I(8), T(11), T(12), T(9), T(10), I(13),
        I(14), I(15), I(16), I(17), I(18), I(19), N(20), N(21), N(7));
#undef T
#undef I
#undef N
    sqlite3_finalize(st);
    return text->failed ? res_sql_fail(db, RES_EINTERNAL, "show: out of memory")
                        : RES_OK;
}

static int show_check_text(ResDb *db, int64_t id, FILE *out)
{
    static const char *const hr[] = {
        "cond", "phase", "quant", "condition", "verdict", "expected",
        "positive", "negative",
    };
    static const char *const ho[] = {"phase", "state", "count"};
    static const char *const hc[] = {"metric", "value"};
    BaseStr header = {0};
    ResTable *tr = res_table_new(8, hr), *to = res_table_new(3, ho),
             *tc = res_table_new(2, hc);
    int rc = check_header(db, id, &header);
    if (!rc && (!tr || !to || !tc))
        rc = res_sql_fail(db, RES_EINTERNAL, "show: out of memory");
    if (!rc) {
        static const int numeric[][2] = {
            {0, 0}, {0, 6}, {0, 7}, {1, 2}, {2, 1},
        };
        ResTable *ts[] = {tr, to, tc};
        for (size_t i = 0; i < sizeof numeric / sizeof *numeric; i++)
            res_table_numeric(ts[numeric[i][0]], numeric[i][1]);
        for (int i = 0; i < 3; i++)
            res_table_null_text(ts[i], "-");
    }
    if (!rc)
        rc = table_rows(db, tr, 8,
                        "SELECT cond_index, phase, quant, cond, verdict,"
                        " expected, positive, negative FROM results"
                        " WHERE check_id = ? ORDER BY cond_index", id);
    if (!rc)
        rc = table_rows(db, to, 3,
                        "SELECT phase, state, count FROM outcomes"
                        " WHERE check_id = ? ORDER BY CASE phase"
                        " WHEN 'final' THEN 0 WHEN 'crash' THEN 1 ELSE 2 END,"
                        " state", id);
    if (!rc)
        rc = table_rows(db, tc, 2,
                        "SELECT metric, value FROM costs WHERE check_id = ?"
                        " ORDER BY metric", id);
    if (!rc && (res_table_failed(tr) || res_table_failed(to) ||
                res_table_failed(tc)))
        rc = res_sql_fail(db, RES_EINTERNAL, "show: out of memory");
    if (!rc) {
        fputs(header.s, out);
        fputs("\nresults:\n", out);
        res_table_print(tr, RES_FMT_TABLE, out);
        fputs("\noutcomes:\n", out);
        res_table_print(to, RES_FMT_TABLE, out);
        fputs("\ncosts:\n", out);
        res_table_print(tc, RES_FMT_TABLE, out);
    }
    base_str_free(&header);
    res_table_free(tr);
    res_table_free(to);
    res_table_free(tc);
    return rc;
}

int res_show_check(ResDb *db, int64_t id, int dot, FILE *out)
{
    int rc;
    if (dot) {
        /* Only to say "no check N" for an unknown id. */
        BaseStr header = {0};
        rc = check_header(db, id, &header);
        base_str_free(&header);
    } else {
        rc = show_check_text(db, id, out);
    }
    if (rc)
        return rc;
    sqlite3_stmt *st;
    rc = res_sql_prepare(db, &st, VIOLATION_SQL " WHERE v.check_id = ?"
                         " ORDER BY v.violation_id", "i", id);
    if (rc)
        return rc;
    int n;
    if (!dot)
        fputs("\nviolations:\n", out);
    rc = show_violations(db, st, dot, out, &n);
    sqlite3_finalize(st);
    if (!rc && !dot && !n)
        fputs("none\n", out);
    return rc;
}
