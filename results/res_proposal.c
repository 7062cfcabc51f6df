/* The proposals of `gpmc fix` and `gpmc tune` (specs/schema.md,
   `proposals`): every candidate program a search verified, with its
   changes, diff, verdicts and cost, written in one transaction per test. */
#include "results/results_int.h"

int res_write_proposals(ResDb *db, int64_t run_id, const ResTest *t,
                        const ResProposal *p, int n)
{
    int64_t test_id;
    int rc = res_sql_writable(db, "writing proposals");
    if (rc)
        return rc;
    rc = res_sql_exec(db, "BEGIN IMMEDIATE", "");
    if (!rc)
        rc = res_write_test(db, t, &test_id);
    sqlite3_stmt *st = NULL;
    if (!rc)
        rc = res_sql_prepare(db, &st,
                             "INSERT INTO proposals(run_id, test_id, command,"
                             " seq, size, changes, diff, state, rank, cycles,"
                             " verdicts, witness) VALUES (?, ?, ?, ?, ?, ?, ?,"
                             " ?, ?, ?, ?, ?)", "");
    for (int i = 0; !rc && i < n; i++) {
        rc = res_sql_rebind(db, st, "iitiitttnntt", run_id, test_id,
                            p[i].command, p[i].seq, p[i].size, p[i].changes,
                            p[i].diff, p[i].state, p[i].rank, p[i].cycles,
                            p[i].verdicts, p[i].witness);
        int s = rc ? 0 : res_sql_step(db, st);
        if (s < 0)
            rc = -s;
    }
    sqlite3_finalize(st);
    if (!rc)
        rc = res_sql_exec(db, "COMMIT", "");
    if (rc)
        sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}
