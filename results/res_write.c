/* Writing one check: the check row and every row that belongs to it, in one
   transaction, so a killed or failing writer leaves whole checks only. */
#include "results/results_int.h"

static int insert_test(ResDb *db, const ResTest *t, int64_t *test_id)
{
    /* ON CONFLICT names the key: a NULL in a NOT NULL column still fails. */
    const char *params = t->params ? t->params : "";
    int rc = res_sql_exec(db,
                          "INSERT INTO tests(name, path, sha256, source, params)"
                          " VALUES (?, ?, ?, ?, ?)"
                          " ON CONFLICT(name, path, sha256, params) DO NOTHING",
                          "ttttt", t->name, t->path, t->sha256, t->source,
                          params);
    if (rc)
        return rc;
    int s = res_sql_int(db, test_id,
                        "SELECT test_id FROM tests WHERE name = ? AND path = ?"
                        " AND sha256 = ? AND params = ?",
                        "tttt", t->name, t->path, t->sha256, params);
    return s < 0 ? -s : RES_OK;
}

/* Bind row i of one of a check's child tables after its check id. */
typedef int (*BindRow)(ResDb *db, sqlite3_stmt *st, int64_t id,
                       const ResCheck *c, int i);

static int bind_result(ResDb *db, sqlite3_stmt *st, int64_t id,
                       const ResCheck *c, int i)
{
    const ResResult *r = &c->results[i];
    return res_sql_rebind(db, st, "iitttttii", id, (int64_t)r->cond_index,
                          r->phase, r->quant, r->cond, r->verdict,
                          r->expected, r->positive, r->negative);
}

static int bind_outcome(ResDb *db, sqlite3_stmt *st, int64_t id,
                        const ResCheck *c, int i)
{
    const ResOutcome *o = &c->outcomes[i];
    return res_sql_rebind(db, st, "itti", id, o->phase, o->state, o->count);
}

static int bind_violation(ResDb *db, sqlite3_stmt *st, int64_t id,
                          const ResCheck *c, int i)
{
    const ResViolation *v = &c->violations[i];
    return res_sql_rebind(db, st, "iitttti", id, (int64_t)v->cond_index,
                          v->kind, v->image, v->witness, v->witness_json,
                          (int64_t)v->depth);
}

static int bind_cost(ResDb *db, sqlite3_stmt *st, int64_t id,
                     const ResCheck *c, int i)
{
    return res_sql_rebind(db, st, "itf", id, c->costs[i].metric,
                          c->costs[i].value);
}

static int insert_rows(ResDb *db, int64_t id, const ResCheck *c,
                       const char *sql, int n, BindRow bind)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st, sql, "");
    for (int i = 0; !rc && i < n; i++) {
        rc = bind(db, st, id, c, i);
        int s = rc ? 0 : res_sql_step(db, st);
        if (s < 0)
            rc = -s;
    }
    sqlite3_finalize(st);
    return rc;
}

static int write_rows(ResDb *db, int64_t run_id, const ResCheck *c,
                      int64_t *check_id)
{
    int64_t test_id;
    int rc = insert_test(db, &c->test, &test_id);
    if (rc)
        return rc;
    rc = res_sql_exec(db,
                      "INSERT INTO checks(run_id, test_id, model, config,"
                      " status, states, transitions, crash_points,"
                      " crash_images, recoveries, elapsed_ms, peak_kb,"
                      " cycles, nvm_writes, error)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      "iitttiiiiiiinnt", run_id, test_id, c->model, c->config,
                      c->status, c->states, c->transitions, c->crash_points,
                      c->crash_images, c->recoveries, c->elapsed_ms,
                      c->peak_kb, c->cycles, c->nvm_writes, c->error);
    if (rc)
        return rc;
    int64_t id = sqlite3_last_insert_rowid(db->db);
    assert(id > 0);
    if ((rc = insert_rows(db, id, c,
                          "INSERT INTO results(check_id, cond_index, phase,"
                          " quant, cond, verdict, expected, positive,"
                          " negative) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          c->nresults, bind_result)) ||
        (rc = insert_rows(db, id, c,
                          "INSERT INTO outcomes(check_id, phase, state,"
                          " count) VALUES (?, ?, ?, ?)",
                          c->noutcomes, bind_outcome)) ||
        (rc = insert_rows(db, id, c,
                          "INSERT INTO violations(check_id, cond_index,"
                          " kind, image, witness, witness_json, depth)"
                          " VALUES (?, ?, ?, ?, ?, ?, ?)",
                          c->nviolations, bind_violation)) ||
        (rc = insert_rows(db, id, c,
                          "INSERT INTO costs(check_id, metric, value)"
                          " VALUES (?, ?, ?)", c->ncosts, bind_cost)))
        return rc;
    *check_id = id;
    return RES_OK;
}

static int bad_counts(const ResCheck *c)
{
    return c->nresults < 0 || c->noutcomes < 0 || c->nviolations < 0 ||
           c->ncosts < 0 || (c->nresults && !c->results) ||
           (c->noutcomes && !c->outcomes) ||
           (c->nviolations && !c->violations) || (c->ncosts && !c->costs);
}

int res_write_check(ResDb *db, int64_t run_id, const ResCheck *c,
                    int64_t *check_id)
{
    int rc = res_sql_writable(db, "writing a check");
    if (rc)
        return rc;
    if (bad_counts(c))
        return res_sql_fail(db, RES_EINTERNAL,
                            "results: writing a check: bad record counts");
    rc = res_sql_exec(db, "BEGIN IMMEDIATE", "");
    if (!rc)
        rc = write_rows(db, run_id, c, check_id);
    if (!rc)
        rc = res_sql_exec(db, "COMMIT", "");
    if (rc) {
        /* Keep the first message, not ROLLBACK's. */
        sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
        return rc;
    }
    return RES_OK;
}

int res_violation_ids(ResDb *db, int64_t check_id, int64_t *ids, int max)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st, "SELECT violation_id FROM violations"
                             " WHERE check_id = ? ORDER BY violation_id",
                             "i", check_id);
    if (rc)
        return -rc;
    int s, n = 0;
    while ((s = res_sql_step(db, st)) > 0 && n < max)
        ids[n++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return s < 0 ? s : n;
}

int res_write_test(ResDb *db, const ResTest *t, int64_t *test_id)
{
    return insert_test(db, t, test_id);
}
