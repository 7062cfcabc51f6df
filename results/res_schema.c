/* The schema, version 1 (DESIGN section 5; documented in specs/schema.md).
   DESIGN fixes the version at 1, so the schema grows without a new number:
   every opening brings an older file of version 1 up to date (upgrade). */
#include <stdlib.h>
#include <string.h>

#include "results/results_int.h"

#define MATRIX_ORDER \
    " ORDER BY test, path, config, cond_index, " RES_MODEL_RANK("model") \
    ", model"

/* Every schema object, in creation order. `name` is the object a later
   gpmc may define differently: a view or a table whose text differs from
   ours is rebuilt on opening (upgrade); NULL for the indexes, which belong
   to their table. */
static const struct {
    const char *name, *sql;
} schema[] = {
    {"meta",
        "CREATE TABLE meta("
        " key TEXT PRIMARY KEY NOT NULL,"
        " value TEXT NOT NULL)"},
    {"runs",
        "CREATE TABLE runs("
        " run_id INTEGER PRIMARY KEY,"
        " started_at TEXT NOT NULL,"
        " finished_at TEXT,"
        " argv TEXT NOT NULL,"
        " version TEXT NOT NULL,"
        " host TEXT NOT NULL,"
        " status TEXT NOT NULL)"},
    {NULL,
        "CREATE INDEX runs_identity ON runs(started_at, argv, host)"},
    {"tests",
        "CREATE TABLE tests("
        " test_id INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL,"
        " path TEXT NOT NULL,"
        " sha256 TEXT NOT NULL,"
        " source TEXT NOT NULL,"
        " params TEXT NOT NULL,"
        " UNIQUE(name, path, sha256, params))"},
    {NULL,
        "CREATE INDEX tests_sha256 ON tests(sha256)"},
    {"checks",
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
        " error TEXT)"},
    {NULL,
        "CREATE INDEX checks_run ON checks(run_id)"},
    {NULL,
        "CREATE INDEX checks_key ON checks(test_id, model, config)"},
    {"results",
        "CREATE TABLE results("
        " check_id INTEGER NOT NULL REFERENCES checks(check_id) ON DELETE CASCADE,"
        " cond_index INTEGER NOT NULL CHECK(cond_index >= 0),"
        " phase TEXT NOT NULL"
        "  CHECK(phase IN ('final', 'crash', 'recovered', 'noerror')),"
        " quant TEXT CHECK(quant IN ('exists', '~exists', 'forall')),"
        " cond TEXT,"
        " verdict TEXT NOT NULL CHECK(verdict IN ('Ok', 'No', 'Unknown')),"
        " expected TEXT CHECK(expected IN ('Ok', 'No')),"
        " positive INTEGER NOT NULL CHECK(positive >= 0),"
        " negative INTEGER NOT NULL CHECK(negative >= 0),"
        " CHECK((phase = 'noerror') = (quant IS NULL)),"
        " PRIMARY KEY(check_id, cond_index))"},
    {"outcomes",
        "CREATE TABLE outcomes("
        " check_id INTEGER NOT NULL REFERENCES checks(check_id) ON DELETE CASCADE,"
        " phase TEXT NOT NULL CHECK(phase IN ('final', 'crash', 'recovered')),"
        " state TEXT NOT NULL,"
        " count INTEGER NOT NULL CHECK(count >= 1),"
        " PRIMARY KEY(check_id, phase, state))"},
    {"violations",
        "CREATE TABLE violations("
        " violation_id INTEGER PRIMARY KEY,"
        " check_id INTEGER NOT NULL REFERENCES checks(check_id) ON DELETE CASCADE,"
        " cond_index INTEGER NOT NULL CHECK(cond_index >= -1),"
        " kind TEXT NOT NULL CHECK(kind IN ('counterexample', 'example', 'error')),"
        " image TEXT,"
        " witness TEXT NOT NULL,"
        " witness_json TEXT CHECK(witness_json IS NULL OR json_valid(witness_json)),"
        " depth INTEGER NOT NULL CHECK(depth >= 0))"},
    {NULL,
        "CREATE INDEX violations_check ON violations(check_id, cond_index)"},
    {"costs",
        "CREATE TABLE costs("
        " check_id INTEGER NOT NULL REFERENCES checks(check_id) ON DELETE CASCADE,"
        " metric TEXT NOT NULL,"
        " value REAL NOT NULL,"
        " PRIMARY KEY(check_id, metric))"},
    {"proposals",
        "CREATE TABLE proposals("
        " proposal_id INTEGER PRIMARY KEY,"
        " run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
        " test_id INTEGER NOT NULL REFERENCES tests(test_id),"
        " command TEXT NOT NULL CHECK(command IN ('fix', 'tune')),"
        " seq INTEGER NOT NULL CHECK(seq >= 0),"
        " size INTEGER NOT NULL CHECK(size >= 0),"
        " changes TEXT NOT NULL,"
        " diff TEXT NOT NULL,"
        " state TEXT NOT NULL"
        "  CHECK(state IN ('holds', 'fails', 'unknown', 'invalid')),"
        " rank INTEGER CHECK(rank >= 1),"
        " cycles INTEGER CHECK(cycles >= 0),"
        " verdicts TEXT NOT NULL,"
        " witness TEXT,"
        " UNIQUE(run_id, test_id, command, seq))"},
    {"latest_checks",
        "CREATE VIEW latest_checks AS SELECT t.name AS test, c.model AS model,"
        " c.config AS config, c.status AS status, c.states AS states,"
        " c.transitions AS transitions, c.crash_points AS crash_points,"
        " c.crash_images AS crash_images, c.recoveries AS recoveries,"
        " c.cycles AS cycles, c.nvm_writes AS nvm_writes, c.error AS error"
        " FROM " RES_LATEST_FROM
        " ORDER BY test, t.path, config, " RES_MODEL_RANK("model") ", model"},
    {"verdict_matrix",
        "CREATE VIEW verdict_matrix AS SELECT test, model, cond_index, phase,"
        " verdict, expected FROM (" RES_LATEST_RESULTS ")" MATRIX_ORDER},
    {"unexpected",
        "CREATE VIEW unexpected AS SELECT test, model, cond_index, phase,"
        " verdict, expected FROM (" RES_LATEST_RESULTS ")"
        " WHERE NOT " RES_PASSES("verdict", "expected") MATRIX_ORDER},
    {"model_disagreements",
        "CREATE VIEW model_disagreements AS SELECT test, cond_index, model_a,"
        " verdict_a, model_b, verdict_b FROM (" RES_DISAGREEMENTS ")"
        RES_DISAGREEMENTS_ORDER},
};

/* 1 if the file has no schema objects at all, 0 if it has, negative (a
   foreign file) with the message set. */
static int is_empty(ResDb *db, const char *path)
{
    int64_t n;
    (void)path;
    int rc = res_sql_int(db, &n, "SELECT count(*) FROM sqlite_schema", "");
    return rc < 0 ? rc : n == 0;
}

static int check_version(ResDb *db, const char *path)
{
    int64_t has_meta;
    int s = res_sql_int(db, &has_meta, "SELECT count(*) FROM sqlite_schema"
                        " WHERE type = 'table' AND name = 'meta'", "");
    if (s < 0)
        return -s;
    sqlite3_stmt *st;
    if (!has_meta ||
        res_sql_prepare(db, &st, "SELECT value, typeof(value) = 'text'"
                        " FROM meta WHERE key = ?", "t", "schema_version"))
        return res_sql_fail(db, RES_EINPUT,
                            "%s: not a gpmc results database (no meta table)",
                            path);
    s = res_sql_step(db, st);
    char version[64] = "";
    int text = 0;
    if (s > 0) {
        snprintf(version, sizeof version, "%s", res_sql_text(st, 0));
        text = sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    if (s < 0)
        return -s;
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

#define NSCHEMA (sizeof schema / sizeof *schema)

static int create_schema(ResDb *db)
{
    for (size_t i = 0; i < NSCHEMA; i++) {
        int rc = res_sql_exec(db, schema[i].sql, "");
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

/* ---- upgrade ---------------------------------------------------------------

   SQLite keeps each object's CREATE text as written, so an object is up to
   date exactly when its text is ours. An older file of version 1 differs
   in the `results.verdict` check (no 'Unknown') and, for files of other
   gpmc builds, in view texts. The upgrade, in one write transaction:
   drops every view, rebuilds each table whose text differs (create under a
   temporary name, copy, drop, rename, recreate its indexes), recreates the
   views, and rewrites the verdicts of incomplete checks that no witness
   decided to 'Unknown' (DESIGN section 3), as gpmc now writes them. Every
   step leaves an up-to-date file as it is, so the upgrade is idempotent. */

/* Number of our named objects whose text differs from ours; negative on
   error. */
static int outdated(ResDb *db)
{
    int n = 0;
    for (size_t i = 0; i < NSCHEMA; i++) {
        int64_t same = 0;
        if (!schema[i].name)
            continue;
        int s = res_sql_int(db, &same, "SELECT sql = ? FROM sqlite_schema"
                            " WHERE name = ?", "tt", schema[i].sql,
                            schema[i].name);
        if (s < 0)
            return s;
        n += !s || !same;
    }
    return n;
}

static int is_view(size_t i)
{
    return !strncmp(schema[i].sql, "CREATE VIEW ", 12);
}

/* The old table is renamed away rather than the new one renamed in:
   SQLite's RENAME rewrites the CREATE text (quoting the name), and the
   text must stay ours. The statements are built from our own names,
   never from data. */
static int rebuild_table(ResDb *db, size_t i)
{
    const char *name = schema[i].name;
    char sql[256];
    int64_t same = 0;
    int s = res_sql_int(db, &same, "SELECT sql = ? FROM sqlite_schema"
                        " WHERE name = ?", "tt", schema[i].sql, name);
    if (s < 0)
        return -s;
    if (s && same)
        return RES_OK;
    if (!s)
        return res_sql_exec(db, schema[i].sql, "");
    snprintf(sql, sizeof sql, "ALTER TABLE %s RENAME TO %s_upgrade", name,
             name);
    int rc = res_sql_exec(db, sql, "");
    if (!rc)
        rc = res_sql_exec(db, schema[i].sql, "");
    /* The rebuilt tables keep their columns in order. */
    snprintf(sql, sizeof sql, "INSERT INTO %s SELECT * FROM %s_upgrade", name,
             name);
    if (!rc)
        rc = res_sql_exec(db, sql, "");
    snprintf(sql, sizeof sql, "DROP TABLE %s_upgrade", name);
    if (!rc)
        rc = res_sql_exec(db, sql, "");
    snprintf(sql, sizeof sql, " ON %s(", name);
    for (size_t k = i + 1; !rc && k < NSCHEMA && !schema[k].name; k++)
        if (strstr(schema[k].sql, sql))
            rc = res_sql_exec(db, schema[k].sql, "");
    return rc;
}

static int upgrade(ResDb *db)
{
    int rc = RES_OK;
    for (size_t i = 0; !rc && i < NSCHEMA; i++)
        if (schema[i].name && is_view(i)) {
            char sql[128];
            snprintf(sql, sizeof sql, "DROP VIEW IF EXISTS %s", schema[i].name);
            rc = res_sql_exec(db, sql, "");
        }
    for (size_t i = 0; !rc && i < NSCHEMA; i++)
        if (schema[i].name && !is_view(i))
            rc = rebuild_table(db, i);
    for (size_t i = 0; !rc && i < NSCHEMA; i++)
        if (schema[i].name && is_view(i))
            rc = res_sql_exec(db, schema[i].sql, "");
    if (!rc)
        rc = res_sql_exec(db,
                          "UPDATE results SET verdict = 'Unknown'"
                          " WHERE check_id IN (SELECT check_id FROM checks"
                          " WHERE status = 'incomplete')"
                          " AND verdict = CASE WHEN quant = 'exists'"
                          " THEN 'No' ELSE 'Ok' END", "");
    return rc;
}

int res_schema_current(ResDb *db)
{
    int n = outdated(db);
    return n < 0 ? n : n == 0;
}

/* The upgrade's verdict rewrite as a reader sees it. */
#define RESULTS_OVERLAY \
    "CREATE TEMP VIEW results AS SELECT check_id, cond_index, phase, quant," \
    " cond, CASE WHEN verdict = CASE WHEN quant = 'exists' THEN 'No'" \
    " ELSE 'Ok' END AND check_id IN (SELECT check_id FROM main.checks" \
    " WHERE status = 'incomplete') THEN 'Unknown' ELSE verdict END" \
    " AS verdict, expected, positive, negative FROM main.results"

int res_schema_overlay(ResDb *db)
{
    int n = outdated(db), rc = RES_OK;
    if (n <= 0)
        return -n;
    int64_t has_results = 0;
    for (size_t i = 0; !rc && i < NSCHEMA; i++) {
        int64_t has = 0;
        if (!schema[i].name)
            continue;
        if (!is_view(i)) {
            int s = res_sql_int(db, &has, "SELECT count(*) FROM sqlite_schema"
                                " WHERE type = 'table' AND name = ?", "t",
                                schema[i].name);
            if (s < 0)
                return -s;
            if (!strcmp(schema[i].name, "results"))
                has_results = has;
            if (has)
                continue;
        }
        BaseStr sql = {0};
        base_str_printf(&sql, "CREATE TEMP %s", schema[i].sql + 7);
        rc = sql.failed ? res_sql_fail(db, RES_EINTERNAL, "out of memory")
                        : res_sql_exec(db, sql.s, "");
        base_str_free(&sql);
    }
    return rc || !has_results ? rc : res_sql_exec(db, RESULTS_OVERLAY, "");
}
/* Create the schema of an empty file, or bring an older one up to date,
   under the write lock (another process may be doing the same). */
static int create_or_upgrade(ResDb *db, const char *path)
{
    int rc = res_sql_exec(db, "BEGIN IMMEDIATE", "");
    if (rc)
        return rc;
    int empty = is_empty(db, path), n = 0;
    if (empty < 0)
        rc = -empty;
    else if (empty)
        rc = create_schema(db);
    else if (!(rc = check_version(db, path)) && (n = outdated(db)) > 0)
        rc = upgrade(db);
    if (!rc && n < 0)
        rc = -n;
    if (!rc)
        rc = res_sql_exec(db, "COMMIT", "");
    if (rc)
        sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

int res_schema_init(ResDb *db, const char *path, int create)
{
    int empty = is_empty(db, path);
    if (empty < 0)
        return -empty;
    if (!empty) {
        int rc = check_version(db, path);
        if (rc || !create)
            return rc;
        int n = outdated(db);
        if (n <= 0)
            return -n;
        return create_or_upgrade(db, path);
    }
    if (!create)
        return res_sql_fail(db, RES_EINPUT,
                            "%s: not a gpmc results database (empty)", path);
    return create_or_upgrade(db, path);
}
