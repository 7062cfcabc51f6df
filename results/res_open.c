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

int res_open(const char *path, int mode, ResDb **out, char *err, size_t errlen)
{
    *out = NULL;
    struct stat sb;
    if (mode == RES_READONLY && stat(path, &sb) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RES_EINPUT;
    }
    ResDb *db = calloc(1, sizeof *db);
    if (!db) {
        snprintf(err, errlen, "%s: out of memory", path);
        return RES_EINTERNAL;
    }
    db->readonly = mode == RES_READONLY;
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
        rc = res_schema_init(db, path, 0);
    } else {
        rc = res_sql_exec(db, "PRAGMA foreign_keys = ON", "");
        if (!rc)
            rc = res_schema_init(db, path, 1);
        /* WAL lets readers and several writers' processes share the file;
           set after the version check so a foreign file is left alone. */
        if (!rc)
            rc = res_sql_exec(db, "PRAGMA journal_mode = WAL", "");
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
    free(db);
}

const char *res_errmsg(const ResDb *db)
{
    return db->err;
}
