/* `gpmc query`: one read-only statement, printed as a table, CSV or JSON. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"
#include "results/results_int.h"

/* Past blanks, comments and (with semis) semicolons. */
static const char *skip_blank(const char *p, int semis)
{
    for (;;) {
        while (isspace((unsigned char)*p) || (semis && *p == ';'))
            p++;
        if (p[0] == '-' && p[1] == '-') {
            p += strcspn(p, "\n");
        } else if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            /* SQLite accepts an unterminated comment at the end. */
            p = end ? end + 2 : p + strlen(p);
        } else {
            return p;
        }
    }
}

/* The statement's first keyword, upper-cased, when it is not a query. */
static int leading_word(const char *sql, char *buf, size_t len)
{
    size_t n = 0;
    sql = skip_blank(sql, 0);
    while (isalpha((unsigned char)*sql) && n + 1 < len)
        buf[n++] = (char)toupper((unsigned char)*sql++);
    buf[n] = '\0';
    return n && strcmp(buf, "SELECT") && strcmp(buf, "WITH") &&
           strcmp(buf, "VALUES");
}

static int is_pragma(const char *sql)
{
    char word[8];
    leading_word(sql, word, sizeof word);
    return !strcmp(word, "PRAGMA");
}

/* A value as a cell: SQL NULL, a number (a REAL in the shortest form that
   reads back as itself, integral ones with ".0"; an infinity or NaN as
   text), or text (a BLOB as X'…'). */
static const char *value_cell(ResTable *t, sqlite3_stmt *st, int i,
                              int *kind)
{
    *kind = RES_CELL_TEXT;
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_NULL:
        *kind = RES_CELL_NULL;
        return NULL;
    case SQLITE_INTEGER:
        *kind = RES_CELL_NUM;
        return res_table_printf(t, "%lld",
                                (long long)sqlite3_column_int64(st, i));
    case SQLITE_FLOAT: {
        double d = sqlite3_column_double(st, i);
        char buf[32];
        if (!isfinite(d))
            return isnan(d) ? "NaN" : d > 0 ? "Inf" : "-Inf";
        snprintf(buf, sizeof buf, "%.15g", d);
        if (strtod(buf, NULL) != d)
            snprintf(buf, sizeof buf, "%.17g", d);
        *kind = RES_CELL_NUM;
        return res_table_printf(t, "%s%s", buf,
                                strpbrk(buf, ".e") ? "" : ".0");
    }
    case SQLITE_BLOB: {
        int n = sqlite3_column_bytes(st, i);
        const unsigned char *b = sqlite3_column_blob(st, i);
        /* Room for X'…' (empty when out of memory: the table knows). */
        char *hex = res_table_printf(t, "%*s", 2 * n + 3, ""), *q = hex;
        if (!*hex)
            return hex;
        q += sprintf(q, "X'");
        for (int k = 0; k < n; k++)
            q += sprintf(q, "%02X", b[k]);
        sprintf(q, "'");
        return hex;
    }
    default:
        return res_sql_text(st, i);
    }
}

/* Run the prepared statement to its end, then print its rows. */
static int print_rows(ResDb *db, sqlite3_stmt *st, int fmt, FILE *out)
{
    int ncols = sqlite3_column_count(st), s;
    const char **cells = base_calloc((size_t)ncols + 1, sizeof *cells);
    int *kinds = base_calloc((size_t)ncols + 1, sizeof *kinds);
    for (int i = 0; cells && i < ncols; i++)
        cells[i] = sqlite3_column_name(st, i);
    ResTable *t = cells && kinds ? res_table_new(ncols, cells) : NULL;
    if (!t) {
        base_free(cells);
        base_free(kinds);
        return res_sql_fail(db, RES_EINTERNAL, "query: out of memory");
    }
    res_table_null_text(t, "NULL");
    while ((s = res_sql_step(db, st)) > 0) {
        for (int i = 0; i < ncols; i++)
            cells[i] = value_cell(t, st, i, &kinds[i]);
        res_table_add(t, cells, kinds);
    }
    int rc = s < 0 ? RES_EINPUT : res_table_print(t, fmt, out);
    res_table_free(t);
    base_free(cells);
    base_free(kinds);
    /* A failure while stepping is the statement's (e.g. a bad argument to a
       function, or the time limit): an input error. */
    if (s < 0 && db->timed_out)
        return res_sql_fail(db, RES_EINPUT, "query: timed out after %g s"
                            " (see --timeout)", db->limit_s);
    if (s < 0)
        return res_sql_fail(db, RES_EINPUT, "query: %s",
                            sqlite3_errmsg(db->db));
    if (rc)
        return res_sql_fail(db, rc, "query: out of memory");
    return RES_OK;
}

int res_query(ResDb *db, const char *sql, int fmt, FILE *out)
{
    if (fmt != RES_FMT_TABLE && fmt != RES_FMT_CSV && fmt != RES_FMT_JSON)
        return res_sql_fail(db, RES_EINTERNAL, "query: bad output format");
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    db->denied[0] = '\0';
    db->denied_schema = 0;
    if (sqlite3_prepare_v2(db->db, sql, -1, &st, &tail) != SQLITE_OK) {
        char word[16];
        if (db->denied_schema && leading_word(sql, word, sizeof word))
            return res_sql_fail(db, RES_EINPUT,
                                "query refused: %s changes the schema (the"
                                " query connection is read-only)", word);
        if (db->denied[0])
            return res_sql_fail(db, RES_EINPUT,
                                "query refused: %s (the query connection is"
                                " read-only)", db->denied);
        return res_sql_fail(db, RES_EINPUT, "query: %s",
                            sqlite3_errmsg(db->db));
    }
    if (!st)
        return res_sql_fail(db, RES_EINPUT, "query: no SQL statement");
    const char *why = NULL;
    if (*skip_blank(tail, 1))
        why = "query refused: more than one SQL statement (gpmc query runs"
              " exactly one)";
    /* SQLite calls no PRAGMA read-only; on a guarded connection the
       PRAGMAs that got this far are the guard's reading ones. */
    else if (!sqlite3_stmt_readonly(st) &&
             !(db->readonly && is_pragma(sql)))
        why = "query refused: the statement would modify the database (the"
              " query connection is read-only)";
    if (why) {
        sqlite3_finalize(st);
        return res_sql_fail(db, RES_EINPUT, "%s", why);
    }
    int rc = print_rows(db, st, fmt, out);
    sqlite3_finalize(st);
    return rc;
}
