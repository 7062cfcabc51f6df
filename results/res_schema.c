/* The schema, version 1 (DESIGN section 5; documented in specs/schema.md). */
#include <stdlib.h>
#include <string.h>

#include "results/results_int.h"

#define MATRIX_ORDER \
    " ORDER BY test, config, cond_index, " RES_MODEL_RANK("model") ", model"

static const char *const schema_sql[] = {
    "CREATE TABLE meta("
    " key TEXT PRIMARY KEY NOT NULL,"
    " value TEXT NOT NULL)",

    "CREATE TABLE runs("
    " run_id INTEGER PRIMARY KEY,"
    " started_at TEXT NOT NULL,"
    " finished_at TEXT,"
    " argv TEXT NOT NULL,"
    " version TEXT NOT NULL,"
    " host TEXT NOT NULL,"
    " status TEXT NOT NULL)",
    "CREATE INDEX runs_identity ON runs(started_at, argv, host)",

    "CREATE TABLE tests("
    " test_id INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " path TEXT NOT NULL,"
    " sha256 TEXT NOT NULL,"
    " source TEXT NOT NULL,"
    " params TEXT NOT NULL,"
    " UNIQUE(name, path, sha256, params))",
    "CREATE INDEX tests_sha256 ON tests(sha256)",

    "CREATE TABLE checks("
    " check_id INTEGER PRIMARY KEY,"
    " run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
    " test_id INTEGER NOT NULL REFERENCES tests(test_id),"
    " model TEXT NOT NULL CHECK(model <> ''),"
    " config TEXT NOT NULL,"
    " status TEXT NOT NULL CHECK(status IN ('done', 'incomplete', 'error')),"
    " states INTEGER NOT NULL CHECK(states >= 0),"
    " transitions INTEGER NOT NULL CHECK(transitions >= 0),"
    " crash_points INTEGER NOT NULL CHECK(crash_points >= 0),"
    " crash_images INTEGER NOT NULL CHECK(crash_images >= 0),"
    " recoveries INTEGER NOT NULL CHECK(recoveries >= 0),"
    " elapsed_ms INTEGER NOT NULL CHECK(elapsed_ms >= 0),"
    " peak_kb INTEGER NOT NULL CHECK(peak_kb >= 0),"
    " cycles INTEGER CHECK(cycles >= 0),"
    " nvm_writes INTEGER CHECK(nvm_writes >= 0),"
    " error TEXT)",
    "CREATE INDEX checks_run ON checks(run_id)",
    "CREATE INDEX checks_key ON checks(test_id, model, config)",

    "CREATE TABLE results("
    " check_id INTEGER NOT NULL REFERENCES checks(check_id) ON DELETE CASCADE,"
    " cond_index INTEGER NOT NULL CHECK(cond_index >= 0),"
    " phase TEXT NOT NULL"
    "  CHECK(phase IN ('final', 'crash', 'recovered', 'noerror')),"
    " quant TEXT CHECK(quant IN ('exists', '~exists', 'forall')),"
    " cond TEXT,"
    " verdict TEXT NOT NULL CHECK(verdict IN ('Ok', 'No')),"
    " expected TEXT CHECK(expected IN ('Ok', 'No')),"
    " positive INTEGER NOT NULL CHECK(positive >= 0),"
    " negative INTEGER NOT NULL CHECK(negative >= 0),"
    " CHECK((phase = 'noerror') = (quant IS NULL)),"
    " PRIMARY KEY(check_id, cond_index))",

    "CREATE TABLE outcomes("
    " check_id INTEGER NOT NULL REFERENCES checks(check_id) ON DELETE CASCADE,"
    " phase TEXT NOT NULL CHECK(phase IN ('final', 'crash', 'recovered')),"
    " state TEXT NOT NULL,"
    " count INTEGER NOT NULL CHECK(count >= 1),"
    " PRIMARY KEY(check_id, phase, state))",

    "CREATE TABLE violations("
    " violation_id INTEGER PRIMARY KEY,"
    " check_id INTEGER NOT NULL REFERENCES checks(check_id) ON DELETE CASCADE,"
    " cond_index INTEGER NOT NULL CHECK(cond_index >= -1),"
    " kind TEXT NOT NULL CHECK(kind IN ('counterexample', 'example', 'error')),"
    " image TEXT,"
    " witness TEXT NOT NULL,"
    " witness_json TEXT CHECK(witness_json IS NULL OR json_valid(witness_json)),"
    " depth INTEGER NOT NULL CHECK(depth >= 0))",
    "CREATE INDEX violations_check ON violations(check_id, cond_index)",

    "CREATE TABLE costs("
    " check_id INTEGER NOT NULL REFERENCES checks(check_id) ON DELETE CASCADE,"
    " metric TEXT NOT NULL,"
    " value REAL NOT NULL,"
    " PRIMARY KEY(check_id, metric))",

    "CREATE VIEW latest_checks AS SELECT t.name AS test, c.model AS model,"
    " c.config AS config, c.status AS status, c.states AS states,"
    " c.transitions AS transitions, c.crash_points AS crash_points,"
    " c.crash_images AS crash_images, c.recoveries AS recoveries,"
    " c.cycles AS cycles, c.nvm_writes AS nvm_writes, c.error AS error"
    " FROM " RES_LATEST_FROM
    " ORDER BY test, config, " RES_MODEL_RANK("model") ", model",

    "CREATE VIEW verdict_matrix AS SELECT test, model, cond_index, phase,"
    " verdict, expected FROM (" RES_LATEST_RESULTS ")" MATRIX_ORDER,

    "CREATE VIEW unexpected AS SELECT test, model, cond_index, phase,"
    " verdict, expected FROM (" RES_LATEST_RESULTS ")"
    " WHERE NOT " RES_PASSES("verdict", "expected") MATRIX_ORDER,

    "CREATE VIEW model_disagreements AS SELECT test, cond_index, model_a,"
    " verdict_a, model_b, verdict_b FROM (" RES_DISAGREEMENTS ")"
    RES_DISAGREEMENTS_ORDER,
};

/* 1 if the file has no schema objects at all, 0 if it has, negative (a
   foreign file) with the message set. */
static int is_empty(ResDb *db, const char *path)
{
    int64_t n;
    int rc = res_sql_int(db, &n, "SELECT count(*) FROM sqlite_schema", "");
    if (rc < 0)
        return -res_sql_fail(db, RES_EINPUT,
                             "%s: not a gpmc results database (%s)", path,
                             sqlite3_errmsg(db->db));
    return n == 0;
}

static int check_version(ResDb *db, const char *path)
{
    int64_t has_meta;
    if (res_sql_int(db, &has_meta,
                    "SELECT count(*) FROM sqlite_schema"
                    " WHERE type = 'table' AND name = 'meta'", "") < 0)
        return RES_EINTERNAL;
    sqlite3_stmt *st;
    if (!has_meta ||
        res_sql_prepare(db, &st, "SELECT value, typeof(value) = 'text'"
                        " FROM meta WHERE key = ?", "t", "schema_version"))
        return res_sql_fail(db, RES_EINPUT,
                            "%s: not a gpmc results database (no meta table)",
                            path);
    int s = res_sql_step(db, st);
    char version[64] = "";
    int text = 0;
    if (s > 0) {
        snprintf(version, sizeof version, "%s", res_sql_text(st, 0));
        text = sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    if (s < 0)
        return RES_EINTERNAL;
    if (s == 0)
        return res_sql_fail(db, RES_EINPUT,
                            "%s: not a gpmc results database"
                            " (no schema_version in meta)", path);
    /* Exactly the text gpmc writes: not ' 1', '01' or the integer 1. */
    char want[16];
    snprintf(want, sizeof want, "%d", RES_SCHEMA_VERSION);
    if (!text || strcmp(version, want))
        return res_sql_fail(db, RES_EINPUT,
                            "%s: schema version %s, this gpmc writes version"
                            " %d", path, version, RES_SCHEMA_VERSION);
    return RES_OK;
}

static int create_schema(ResDb *db)
{
    for (size_t i = 0; i < sizeof schema_sql / sizeof *schema_sql; i++) {
        int rc = res_sql_exec(db, schema_sql[i], "");
        if (rc)
            return rc;
    }
    char now[32], version[16];
    res_sql_now(now);
    snprintf(version, sizeof version, "%d", RES_SCHEMA_VERSION);
    int rc = res_sql_exec(db, "INSERT INTO meta(key, value) VALUES (?, ?)",
                          "tt", "schema_version", version);
    if (!rc)
        rc = res_sql_exec(db, "INSERT INTO meta(key, value) VALUES (?, ?)",
                          "tt", "created_at", now);
    return rc;
}

int res_schema_init(ResDb *db, const char *path, int create)
{
    int empty = is_empty(db, path);
    if (empty < 0)
        return -empty;
    if (!empty)
        return check_version(db, path);
    if (!create)
        return res_sql_fail(db, RES_EINPUT,
                            "%s: not a gpmc results database (empty)", path);
    /* Another process may create the schema between our look and our
       transaction: look again under the write lock. */
    int rc = res_sql_exec(db, "BEGIN IMMEDIATE", "");
    if (rc)
        return rc;
    empty = is_empty(db, path);
    if (empty < 0)
        rc = -empty;
    else if (empty)
        rc = create_schema(db);
    else
        rc = check_version(db, path);
    if (!rc)
        rc = res_sql_exec(db, "COMMIT", "");
    if (rc)
        sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}
