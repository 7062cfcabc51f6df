/* Runs: one row per gpmc invocation that writes checks. */
#include <string.h>
#include <unistd.h>

#include "results/results_int.h"

int res_run_begin(ResDb *db, const char *argv, const char *version,
                  int64_t *run_id)
{
    int rc = res_sql_writable(db, "starting a run");
    if (rc)
        return rc;
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        strcpy(host, "unknown");
    assert(host[sizeof host - 1] == '\0');  /* a truncated name ends too */
    char now[32];
    res_sql_now(now);
    rc = res_sql_exec(db,
                      "INSERT INTO runs(started_at, argv, version, host,"
                      " status) VALUES (?, ?, ?, ?, 'running')",
                      "tttt", now, argv, version, host);
    if (rc)
        return rc;
    *run_id = sqlite3_last_insert_rowid(db->db);
    return RES_OK;
}

int res_run_end(ResDb *db, int64_t run_id, const char *status)
{
    int rc = res_sql_writable(db, "ending a run");
    if (rc)
        return rc;
    char now[32];
    res_sql_now(now);
    rc = res_sql_exec(db,
                      "UPDATE runs SET finished_at = ?, status = ?"
                      " WHERE run_id = ?", "tti", now, status, run_id);
    if (rc)
        return rc;
    if (sqlite3_changes(db->db) != 1)
        return res_sql_fail(db, RES_EINTERNAL, "results: no run %lld",
                            (long long)run_id);
    return RES_OK;
}
