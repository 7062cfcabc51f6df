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

/* Text of a value as the table and CSV show it; NULL for SQL NULL. */
static const char *value_text(ResArena *a, sqlite3_stmt *st, int i)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_NULL:
        return NULL;
    case SQLITE_BLOB: {
        int n = sqlite3_column_bytes(st, i);
        const unsigned char *b = sqlite3_column_blob(st, i);
        char *s = res_arena_alloc(a, 2 * (size_t)n + 4), *q = s;
        q += sprintf(q, "X'");
        for (int k = 0; k < n; k++)
            q += sprintf(q, "%02X", b[k]);
        sprintf(q, "'");
        return s;
    }
    default:
        return res_sql_text(st, i);
    }
}

static void csv_field(const char *s, FILE *out)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* The one JSON escaper (lit_str_json): invalid UTF-8 from the database
   comes out as U+FFFD, so the output is always valid JSON. -1: out of
   memory. */
static int json_string(const char *s, FILE *out)
{
    LitStr j = {0};
    lit_str_json(&j, s);
    int failed = j.failed;
    if (!failed)
        fputs(j.s, out);
    lit_str_free(&j);
    return failed ? -1 : 0;
}

static int json_value(ResArena *a, sqlite3_stmt *st, int i, FILE *out)
{
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_NULL:
        fputs("null", out);
        break;
    case SQLITE_INTEGER:
        fprintf(out, "%lld", (long long)sqlite3_column_int64(st, i));
        break;
    case SQLITE_FLOAT: {
        double d = sqlite3_column_double(st, i);
        /* The shortest of %.15g and %.17g that reads back as d. */
        char buf[32];
        snprintf(buf, sizeof buf, "%.15g", d);
        if (strtod(buf, NULL) != d)
            snprintf(buf, sizeof buf, "%.17g", d);
        if (!isfinite(d))
            fputs("null", out);
        else if (strpbrk(buf, ".en"))
            fputs(buf, out);
        else
            fprintf(out, "%s.0", buf);
        break;
    }
    default:
        return json_string(value_text(a, st, i), out);
    }
    return 0;
}

/* Run the prepared statement to its end, printing each row. */
static int print_rows(ResDb *db, sqlite3_stmt *st, int fmt, FILE *out)
{
    ResArena *a = res_arena_new();
    int ncols = sqlite3_column_count(st), s, nrows = 0, oom = 0;
    const char **cells = res_arena_alloc(a, sizeof *cells * (size_t)(ncols + 1));
    for (int i = 0; i < ncols; i++)
        cells[i] = sqlite3_column_name(st, i);
    ResTable *t = NULL;
    /* Per column: bit 0 no text seen, bit 1 a number seen; numbers-only
       columns are right-aligned. */
    char *numeric = res_arena_alloc(a, (size_t)ncols + 1);
    memset(numeric, 1, (size_t)ncols);
    if (fmt == RES_FMT_TABLE) {
        t = res_table_new(a, ncols, cells);
    } else if (fmt == RES_FMT_CSV) {
        for (int i = 0; i < ncols; i++) {
            if (i)
                fputc(',', out);
            csv_field(cells[i], out);
        }
        fputc('\n', out);
    } else {
        fputc('[', out);
    }
    while (!oom && (s = res_sql_step(db, st)) > 0) {
        if (fmt == RES_FMT_JSON) {
            fputs(nrows ? ",\n{" : "\n{", out);
            for (int i = 0; i < ncols; i++) {
                if (i)
                    fputc(',', out);
                oom |= json_string(sqlite3_column_name(st, i), out);
                fputc(':', out);
                oom |= json_value(a, st, i, out);
            }
            fputc('}', out);
        } else {
            for (int i = 0; i < ncols; i++) {
                int type = sqlite3_column_type(st, i);
                if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
                    numeric[i] |= 2;
                else if (type != SQLITE_NULL)
                    numeric[i] &= ~1;
                cells[i] = value_text(a, st, i);
                if (fmt == RES_FMT_CSV) {
                    if (i)
                        fputc(',', out);
                    csv_field(cells[i], out);
                } else if (!cells[i]) {
                    cells[i] = "NULL";
                }
            }
            if (fmt == RES_FMT_CSV)
                fputc('\n', out);
            else
                res_table_add(t, cells);
        }
        nrows++;
    }
    if (fmt == RES_FMT_JSON)
        fputs(nrows ? "\n]\n" : "]\n", out);
    if (t && s == 0) {
        for (int i = 0; i < ncols; i++)
            if (numeric[i] == 3)
                res_table_right(t, i);
        res_table_print(t, out);
    }
    res_arena_free(a);
    if (oom)
        return res_sql_fail(db, RES_EINTERNAL, "query: out of memory");
    /* A failure while stepping is the statement's (e.g. a bad argument to a
       function, or the time limit): an input error. */
    return s < 0 ? RES_EINPUT : RES_OK;
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
    if (rc == RES_EINPUT && db->timed_out)
        res_sql_fail(db, rc, "query: timed out after %g s (see --timeout)",
                     db->limit_s);
    else if (rc == RES_EINPUT)
        res_sql_fail(db, rc, "query: %s", sqlite3_errmsg(db->db));
    sqlite3_finalize(st);
    return rc;
}
