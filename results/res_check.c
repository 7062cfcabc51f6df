/* --resume support: has this exact check already been done? */
#include "results/results_int.h"

int res_check_done(ResDb *db, const char *sha256, const char *model,
                   const char *config, const char *version)
{
    int64_t one;
    return res_sql_int(db, &one,
                       "SELECT 1 FROM checks c"
                       " JOIN tests t ON t.test_id = c.test_id"
                       " JOIN runs r ON r.run_id = c.run_id"
                       " WHERE t.sha256 = ? AND c.model = ? AND c.config = ?"
                       " AND r.version = ? AND c.status = 'done' LIMIT 1",
                       "tttt", sha256, model, config, version);
}

int res_check_failures(ResDb *db, const char *sha256, const char *model,
                       const char *config, const char *version, int64_t *nfail,
                       int64_t *check_id)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(
        db, &st,
        "WITH c AS (SELECT c.check_id AS id FROM checks c"
        " JOIN tests t ON t.test_id = c.test_id"
        " JOIN runs r ON r.run_id = c.run_id"
        " WHERE t.sha256 = ? AND c.model = ? AND c.config = ?"
        " AND r.version = ? AND c.status = 'done'"
        " ORDER BY c.check_id DESC LIMIT 1)"
        " SELECT c.id, (SELECT count(*) FROM results x WHERE x.check_id = c.id"
        " AND NOT " RES_PASSES("x.verdict", "x.expected") ")"
        " + (SELECT count(*) FROM violations v WHERE v.check_id = c.id"
        " AND v.cond_index < 0) FROM c",
        "tttt", sha256, model, config, version);
    if (rc)
        return -rc;
    int s = res_sql_step(db, st);
    if (s > 0) {
        *check_id = sqlite3_column_int64(st, 0);
        *nfail = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return s > 0 ? 0 : s < 0 ? s : -RES_EINPUT;
}
