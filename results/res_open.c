/* Opening and closing a results database.

   A reader (RES_READONLY, RES_INSPECT) never writes the file: it is opened
   read-only, and one that an earlier gpmc wrote (a view or a table of
   another text, res_schema.c) is read through temporary objects that stand
   for what the upgrade would make (res_schema_overlay), in memory, while
   the file stays byte for byte as it was. Only a writer brings a file up
   to date. */
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

/* "file:PATH?immutable=1", PATH percent-encoded (RFC 3986, as SQLite reads
   URIs), or "" when it does not fit. */
static void immutable_uri(const char *path, char *buf, size_t len)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = (size_t)snprintf(buf, len, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (n + 4 >= len) {
            buf[0] = '\0';
            return;
        }
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("/._~-", *p)) {
            buf[n++] = (char)*p;
        } else {
            buf[n++] = '%';
            buf[n++] = hex[*p >> 4];
            buf[n++] = hex[*p & 15];
        }
    }
    if (n + sizeof "?immutable=1" > len) {
        buf[0] = '\0';
        return;
    }
    memcpy(buf + n, "?immutable=1", sizeof "?immutable=1");
}

/* A reader of a WAL database needs PATH-shm beside it, and SQLite makes it
   when it is missing: in a directory it may not write to (an archive, a
   read-only mount), it cannot read at all. When PATH-wal is missing or
   empty, the file alone is the whole database and nobody is writing it
   (a writer would have made both), so it is read as immutable; otherwise
   the log holds what the file lacks, and the error says so. */
static int open_sqlite(ResDb *db, int flags)
{
    if (sqlite3_open_v2(db->path, &db->db, flags, NULL) != SQLITE_OK)
        return res_sql_fail(db, RES_EINPUT, "%s: cannot open: %s", db->path,
                            db->db ? sqlite3_errmsg(db->db) : "out of memory");
    sqlite3_extended_result_codes(db->db, 1);
    sqlite3_busy_timeout(db->db, RES_BUSY_MS);
    if (!db->readonly) {
        /* SQLite opens a file it may not write read-only, silently. */
        if (sqlite3_db_readonly(db->db, "main") == 1)
            return res_sql_fail(db, RES_EINPUT, "%s: cannot write: the file"
                                " is read-only", db->path);
        return RES_OK;
    }
    int64_t n;
    if (res_sql_int(db, &n, "SELECT count(*) FROM sqlite_schema", "") >= 0)
        return RES_OK;
    int e = sqlite3_extended_errcode(db->db);
    if ((e & 0xFF) != SQLITE_READONLY && (e & 0xFF) != SQLITE_CANTOPEN)
        return res_sql_error(db);
    char wal[4096 + 8], uri[3 * 4096 + 32];
    struct stat sb;
    snprintf(wal, sizeof wal, "%s-wal", db->path);
    if (stat(wal, &sb) == 0 && sb.st_size > 0)
        return res_sql_fail(db, RES_EINPUT, "%s: cannot read: its directory"
                            " is not writable, and its write-ahead log %s"
                            " needs %s-shm beside it (make the directory"
                            " writable, or copy the database and its -wal"
                            " elsewhere)", db->path, wal, db->path);
    immutable_uri(db->path, uri, sizeof uri);
    sqlite3_close(db->db);
    db->db = NULL;
    if (!uri[0] ||
        sqlite3_open_v2(uri, &db->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                        NULL) != SQLITE_OK)
        return res_sql_fail(db, RES_EINPUT, "%s: cannot open: %s", db->path,
                            db->db ? sqlite3_errmsg(db->db) : "out of memory");
    sqlite3_extended_result_codes(db->db, 1);
    return res_sql_int(db, &n, "SELECT count(*) FROM sqlite_schema", "") < 0
           ? res_sql_error(db) : RES_OK;
}

int res_open(const char *path, int mode, ResDb **out, char *err, size_t errlen)
{
    *out = NULL;
    struct stat sb;
    /* SQLite would open "" as a private temporary database. */
    if (!*path) {
        snprintf(err, errlen, "the database needs a file name, got ''");
        return RES_EINPUT;
    }
    if (mode != RES_READWRITE && stat(path, &sb) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RES_EINPUT;
    }
    size_t plen = strlen(path);
    ResDb *db = base_calloc(1, sizeof *db + plen + 1);
    if (!db) {
        snprintf(err, errlen, "%s: out of memory", path);
        return RES_EINTERNAL;
    }
    memcpy(db->path, path, plen + 1);
    db->readonly = mode != RES_READWRITE;
    int rc = open_sqlite(db, db->readonly ? SQLITE_OPEN_READONLY
                                          : SQLITE_OPEN_READWRITE |
                                            SQLITE_OPEN_CREATE);
    if (rc)
        return open_fail(db, rc, err, errlen);
    if (db->readonly) {
        /* The overlay is made before the locks, which refuse temporary
           objects too; then three independent locks: a read-only file
           handle, query_only, and an authorizer that admits reads only
           (res_guard.c). */
        if (mode == RES_READONLY && !(rc = res_schema_init(db, path, 0)))
            rc = res_schema_overlay(db);
        if (!rc)
            rc = res_sql_exec(db, "PRAGMA query_only = 1", "");
        if (!rc)
            res_guard_install(db);
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
