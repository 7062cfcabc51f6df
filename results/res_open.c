/* Opening and closing a results database. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/results_int.h"

static int open_fail(ResDb *db, int code, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s", db->err);
    res_close(db);
    return code;
}

static int open_once(const char *path, int mode, ResDb **out, char *err,
                     size_t errlen);

/* Switching to WAL needs the file to itself, and when another process
   switches the same new file at that moment SQLite answers SQLITE_BUSY at
   once, without the busy handler (test_concurrent_creation, four
   processes, two copies at a time: 8 and 12 failed runs in 400); so the
   switch is retried for as long as the busy handler would wait. */
static int set_wal(ResDb *db)
{
    double until = res_sql_clock() + RES_BUSY_MS / 1000.0;
    for (;;) {
        int rc = res_sql_exec(db, "PRAGMA journal_mode = WAL", "");
        if (!rc || (sqlite3_extended_errcode(db->db) & 0xFF) != SQLITE_BUSY ||
            res_sql_clock() > until)
            return rc;
        sqlite3_sleep(5);
    }
}

/* A reader that finds a file written by an earlier gpmc brings it up to
   date through a short writing connection first (res_schema.c), so that
   every reader sees the verdicts of DESIGN section 3. */
static int reopen_upgraded(const char *path, ResDb **out, char *err,
                           size_t errlen)
{
    ResDb *rw;
    char why[512];
    if (open_once(path, RES_READWRITE, &rw, why, sizeof why)) {
        snprintf(err, errlen, "%s: written by an earlier gpmc; bringing it"
                 " up to date failed: %s", path, why);
        return RES_EINPUT;
    }
    res_close(rw);
    return open_once(path, RES_READONLY, out, err, errlen);
}

int res_open(const char *path, int mode, ResDb **out, char *err, size_t errlen)
{
    int rc = open_once(path, mode, out, err, errlen);
    if (rc || mode != RES_READONLY)
        return rc;
    int cur = res_schema_current(*out);
    if (cur == 1)
        return RES_OK;
    if (cur < 0) {
        snprintf(err, errlen, "%s", (*out)->err);
        res_close(*out);
        *out = NULL;
        return RES_EINTERNAL;
    }
    res_close(*out);
    *out = NULL;
    return reopen_upgraded(path, out, err, errlen);
}

static int open_once(const char *path, int mode, ResDb **out, char *err,
                     size_t errlen)
{
    *out = NULL;
    struct stat sb;
    if (mode != RES_READWRITE && stat(path, &sb) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RES_EINPUT;
    }
    ResDb *db = base_calloc(1, sizeof *db);
    if (!db) {
        snprintf(err, errlen, "%s: out of memory", path);
        return RES_EINTERNAL;
    }
    db->readonly = mode != RES_READWRITE;
    int flags = db->readonly ? SQLITE_OPEN_READONLY
                             : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path, &db->db, flags, NULL) != SQLITE_OK) {
        res_sql_fail(db, RES_EINPUT, "%s: cannot open: %s", path,
                     db->db ? sqlite3_errmsg(db->db) : "out of memory");
        return open_fail(db, RES_EINPUT, err, errlen);
    }
    sqlite3_extended_result_codes(db->db, 1);
    sqlite3_busy_timeout(db->db, RES_BUSY_MS);
    int rc;
    if (db->readonly) {
        /* Three independent locks: a read-only file handle, query_only, and
           an authorizer that admits reads only (res_guard.c). */
        rc = res_sql_exec(db, "PRAGMA query_only = 1", "");
        if (rc)
            return open_fail(db, rc, err, errlen);
        res_guard_install(db);
        rc = mode == RES_READONLY ? res_schema_init(db, path, 0) : RES_OK;
    } else {
        rc = res_sql_exec(db, "PRAGMA foreign_keys = ON", "");
        if (!rc)
            rc = res_schema_init(db, path, 1);
        /* WAL lets readers and several writers' processes share the file;
           set after the version check so a foreign file is left alone. */
        if (!rc)
            rc = set_wal(db);
    }
    if (rc)
        return open_fail(db, rc, err, errlen);
    *out = db;
    return RES_OK;
}

void res_close(ResDb *db)
{
    if (!db)
        return;
    sqlite3_close(db->db);
    base_free(db);
}

const char *res_errmsg(const ResDb *db)
{
    return db->err;
}
