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

static void print_violation(sqlite3_stmt *st, FILE *out)
{
    fprintf(out, "violation %lld: %s, depth %lld\n",
            (long long)sqlite3_column_int64(st, 0), res_sql_text(st, 3),
            (long long)sqlite3_column_int64(st, 7));
    fprintf(out, "  test       %s (%s)\n", res_sql_text(st, 8),
            res_sql_text(st, 9));
    fprintf(out, "  model      %s\n", res_sql_text(st, 10));
    fprintf(out, "  config     %s\n", res_sql_text(st, 11));
    fprintf(out, "  check      %lld\n", (long long)sqlite3_column_int64(st, 1));
    fprintf(out, "  condition  %lld", (long long)sqlite3_column_int64(st, 2));
    if (sqlite3_column_type(st, 12) != SQLITE_NULL) {
        const char *quant = res_sql_text(st, 13), *cond = res_sql_text(st, 14);
        size_t n = strlen(quant);
        fprintf(out, ": %s", res_sql_text(st, 12));
        /* The condition text may carry its quantifier already. */
        if (*quant && (strncmp(cond, quant, n) || cond[n] != ' '))
            fprintf(out, " %s", quant);
        if (*cond)
            fprintf(out, " %s", cond);
        fprintf(out, "\n  verdict    %s (expected %s)", res_sql_text(st, 15),
                sqlite3_column_type(st, 16) == SQLITE_NULL
                    ? "none" : res_sql_text(st, 16));
    }
    fputc('\n', out);
    if (sqlite3_column_type(st, 4) != SQLITE_NULL)
        block("image", res_sql_text(st, 4), out);
    block("witness", res_sql_text(st, 5), out);
}

/* Show every violation the statement (VIOLATION_SQL + a WHERE) selects;
   the number shown in *n. */
static int show_violations(ResDb *db, sqlite3_stmt *st, int dot, FILE *out,
                           int *n)
{
    int s;
    for (*n = 0; (s = res_sql_step(db, st)) > 0; (*n)++) {
        if (!dot) {
            if (*n)
                fputc('\n', out);
            print_violation(st, out);
            continue;
        }
        const char *json = sqlite3_column_type(st, 6) == SQLITE_NULL
            ? NULL : res_sql_text(st, 6);
        int rc = res_dot_witness(db, sqlite3_column_int64(st, 0), json, out);
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
                      int64_t id, ResArena *a)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st, sql, "i", id);
    if (rc)
        return rc;
    const char **cells = res_arena_alloc(a, sizeof *cells * (size_t)ncols);
    int s;
    while ((s = res_sql_step(db, st)) > 0) {
        for (int i = 0; i < ncols; i++)
            cells[i] = sqlite3_column_type(st, i) == SQLITE_NULL
                ? "-" : res_arena_strdup(a, res_sql_text(st, i));
        res_table_add(t, cells);
    }
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

static int check_header(ResDb *db, int64_t id, ResArena *a, char **text)
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
    *text = res_arena_printf(a,
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
    return RES_OK;
}

static int show_check_text(ResDb *db, int64_t id, ResArena *a, FILE *out)
{
    char *header;
    int rc = check_header(db, id, a, &header);
    if (rc)
        return rc;
    static const char *const hr[] = {
        "cond", "phase", "quant", "condition", "verdict", "expected",
        "positive", "negative",
    };
    static const char *const ho[] = {"phase", "state", "count"};
    static const char *const hc[] = {"metric", "value"};
    ResTable *tr = res_table_new(a, 8, hr), *to = res_table_new(a, 3, ho),
             *tc = res_table_new(a, 2, hc);
    res_table_right(tr, 0);
    res_table_right(tr, 6);
    res_table_right(tr, 7);
    res_table_right(to, 2);
    res_table_right(tc, 1);
    if ((rc = table_rows(db, tr, 8,
                         "SELECT cond_index, phase, quant, cond, verdict,"
                         " expected, positive, negative FROM results"
                         " WHERE check_id = ? ORDER BY cond_index", id, a)) ||
        (rc = table_rows(db, to, 3,
                         "SELECT phase, state, count FROM outcomes"
                         " WHERE check_id = ? ORDER BY CASE phase"
                         " WHEN 'final' THEN 0 WHEN 'crash' THEN 1 ELSE 2 END,"
                         " state", id, a)) ||
        (rc = table_rows(db, tc, 2,
                         "SELECT metric, value FROM costs WHERE check_id = ?"
                         " ORDER BY metric", id, a)))
        return rc;
    fputs(header, out);
    fputs("\nresults:\n", out);
    res_table_print(tr, out);
    fputs("\noutcomes:\n", out);
    res_table_print(to, out);
    fputs("\ncosts:\n", out);
    res_table_print(tc, out);
    return RES_OK;
}

int res_show_check(ResDb *db, int64_t id, int dot, FILE *out)
{
    ResArena *a = res_arena_new();
    int rc;
    if (dot) {
        char *header;
        /* Only to say "no check N" for an unknown id. */
        rc = check_header(db, id, a, &header);
    } else {
        rc = show_check_text(db, id, a, out);
    }
    res_arena_free(a);
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
