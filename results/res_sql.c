/* Statement helpers: every statement is prepared and its values bound, so
   no SQL text is ever built from data. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "results/results_int.h"

int res_sql_fail(ResDb *db, int code, const char *fmt, ...)
{
    va_list ap;
    assert(code != RES_OK);             /* a failure has a code */
    va_start(ap, fmt);
    vsnprintf(db->err, sizeof db->err, fmt, ap);
    va_end(ap);
    return code;
}

int res_sql_error(ResDb *db)
{
    int e = sqlite3_extended_errcode(db->db);
    const char *msg = sqlite3_errmsg(db->db);
    if (db->timed_out)
        return res_sql_fail(db, RES_EINPUT, "timed out after %g s",
                            db->limit_s);
    switch (e & 0xFF) {
    case SQLITE_CORRUPT:
        return res_sql_fail(db, RES_EINPUT, "%s: corrupt database (%s)",
                            db->path, msg);
    case SQLITE_NOTADB:
        return res_sql_fail(db, RES_EINPUT, "%s: not a gpmc results database"
                            " (%s)", db->path, msg);
    case SQLITE_CANTOPEN:
        return res_sql_fail(db, RES_EINPUT, "%s: cannot open: %s", db->path,
                            msg);
    case SQLITE_READONLY:
        if (e == SQLITE_READONLY_DIRECTORY)
            return res_sql_fail(db, RES_EINPUT, "%s: cannot write: its"
                                " directory is not writable (SQLite keeps"
                                " %s-wal and %s-shm beside it)", db->path,
                                db->path, db->path);
        return res_sql_fail(db, RES_EINPUT, "%s: cannot write: %s", db->path,
                            msg);
    default:
        return res_sql_fail(db, RES_EINTERNAL, "results: %s", msg);
    }
}

int res_sql_writable(ResDb *db, const char *what)
{
    if (!db->readonly)
        return RES_OK;
    return res_sql_fail(db, RES_EINTERNAL,
                        "results: %s: database opened read-only", what);
}

static int bind_args(ResDb *db, sqlite3_stmt *st, const char *fmt,
                     va_list ap)
{
    for (int i = 0; fmt[i]; i++) {
        int rc, col = i + 1;
        switch (fmt[i]) {
        case 't': {
            const char *s = va_arg(ap, const char *);
            rc = s ? sqlite3_bind_text(st, col, s, -1, SQLITE_TRANSIENT)
                   : sqlite3_bind_null(st, col);
            break;
        }
        case 'i':
            rc = sqlite3_bind_int64(st, col, va_arg(ap, int64_t));
            break;
        case 'n': {
            int64_t v = va_arg(ap, int64_t);
            rc = v < 0 ? sqlite3_bind_null(st, col)
                       : sqlite3_bind_int64(st, col, v);
            break;
        }
        case 'f':
            rc = sqlite3_bind_double(st, col, va_arg(ap, double));
            break;
        default:
            return res_sql_fail(db, RES_EINTERNAL,
                                "results: bad bind format '%c'", fmt[i]);
        }
        if (rc != SQLITE_OK)
            return res_sql_fail(db, RES_EINTERNAL, "results: bind: %s",
                                sqlite3_errmsg(db->db));
    }
    return RES_OK;
}

int res_sql_vprepare(ResDb *db, sqlite3_stmt **st, const char *sql,
                     const char *fmt, va_list ap)
{
    *st = NULL;
    if (sqlite3_prepare_v2(db->db, sql, -1, st, NULL) != SQLITE_OK)
        return res_sql_error(db);
    int rc = bind_args(db, *st, fmt, ap);
    if (rc) {
        sqlite3_finalize(*st);
        *st = NULL;
    }
    return rc;
}

int res_sql_prepare(ResDb *db, sqlite3_stmt **st, const char *sql,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = res_sql_vprepare(db, st, sql, fmt, ap);
    va_end(ap);
    return rc;
}

int res_sql_rebind(ResDb *db, sqlite3_stmt *st, const char *fmt, ...)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    va_list ap;
    va_start(ap, fmt);
    int rc = bind_args(db, st, fmt, ap);
    va_end(ap);
    return rc;
}

double res_sql_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Called every PROGRESS_OPS virtual-machine steps; nonzero interrupts. */
static int past_deadline(void *ctx)
{
    ResDb *db = ctx;
    if (res_sql_clock() < db->deadline)
        return 0;
    db->timed_out = 1;
    return 1;
}

enum { PROGRESS_OPS = 1000 };

void res_sql_deadline(ResDb *db, double deadline, double limit_s)
{
    db->deadline = deadline;
    db->limit_s = limit_s;
    db->timed_out = 0;
    sqlite3_progress_handler(db->db, deadline > 0 ? PROGRESS_OPS : 0,
                             deadline > 0 ? past_deadline : NULL, db);
}

void res_time_limit(ResDb *db, double seconds)
{
    res_sql_deadline(db, seconds > 0 ? res_sql_clock() + seconds : 0,
                     seconds);
}

int res_sql_step(ResDb *db, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return -res_sql_error(db);
}

int res_sql_exec(ResDb *db, const char *sql, const char *fmt, ...)
{
    sqlite3_stmt *st;
    va_list ap;
    va_start(ap, fmt);
    int rc = res_sql_vprepare(db, &st, sql, fmt, ap);
    va_end(ap);
    if (rc)
        return rc;
    int s;
    while ((s = res_sql_step(db, st)) > 0)
        ;
    sqlite3_finalize(st);
    return s < 0 ? -s : RES_OK;
}

int res_sql_int(ResDb *db, int64_t *out, const char *sql, const char *fmt,
                ...)
{
    sqlite3_stmt *st;
    va_list ap;
    va_start(ap, fmt);
    int rc = res_sql_vprepare(db, &st, sql, fmt, ap);
    va_end(ap);
    if (rc)
        return -rc;
    int s = res_sql_step(db, st);
    if (s > 0)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return s;
}

void res_sql_now(char buf[32])
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(buf, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + n, 32 - n, ".%06ldZ", (long)(ts.tv_nsec / 1000));
    assert(strlen(buf) == 27);          /* one length: the form sorts as text */
}

const char *res_sql_text(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? (const char *)s : "";
}
