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
                       const char *config, const char *version, int64_t *nfail)
{
    int rc = res_sql_int(
        db, nfail,
        "WITH c AS (SELECT c.check_id AS id FROM checks c"
        " JOIN tests t ON t.test_id = c.test_id"
        " JOIN runs r ON r.run_id = c.run_id"
        " WHERE t.sha256 = ? AND c.model = ? AND c.config = ?"
        " AND r.version = ? AND c.status = 'done'"
        " ORDER BY c.check_id DESC LIMIT 1)"
        " SELECT (SELECT count(*) FROM results x, c WHERE x.check_id = c.id"
        " AND NOT " RES_PASSES("x.verdict", "x.expected") ")"
        " + (SELECT count(*) FROM violations v, c WHERE v.check_id = c.id"
        " AND v.cond_index < 0)",
        "tttt", sha256, model, config, version);
    return rc < 0 ? rc : 0;
}
