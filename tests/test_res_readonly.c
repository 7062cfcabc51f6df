/* results: a RES_READONLY connection (what `gpmc query` uses) cannot
   change the database by any statement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "harness/harness.h"
#include "tests/test_res_fixture.h"

typedef struct {
    FxDir d;
    char *bytes;                        /* the database file before */
    size_t len;
} Fixture;

static int setup(void **state)
{
    Fixture *fx = calloc(1, sizeof *fx);
    fx_dir_make(&fx->d);
    ResDb *db = fx_open(fx->d.db, RES_READWRITE);
    int64_t run = fx_run(db, "gpmc run sb.litmus");
    FxCheck f;
    fx_check(&f, "SB", "hw");
    fx_result(&f, "crash", "~exists", "(x == 1)", "No", "Ok");
    fx_outcome(&f, "crash", "x=0", 2);
    fx_violation(&f, 0, "counterexample", "x=1", "w", "{}", 1);
    fx_cost(&f, "stall_cycles", 5);
    fx_write(db, run, &f);
    res_run_end(db, run, "done");
    res_close(db);
    /* Closing the last connection checkpoints the WAL into the file. */
    fx->bytes = fx_slurp(fx->d.db, &fx->len);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    Fixture *fx = *state;
    fx_dir_remove(&fx->d);
    free(fx->bytes);
    free(fx);
    return 0;
}

static void assert_unchanged(const Fixture *fx)
{
    size_t len;
    char *now = fx_slurp(fx->d.db, &len);
    assert_int_equal(len, fx->len);
    assert_memory_equal(now, fx->bytes, len);
    free(now);
    ResDb *db = fx_open(fx->d.db, RES_READONLY);
    assert_csv(db, "SELECT (SELECT count(*) FROM runs) AS r,"
                   " (SELECT count(*) FROM checks) AS c,"
                   " (SELECT count(*) FROM results) AS s,"
                   " (SELECT count(*) FROM costs) AS k,"
                   " (SELECT count(*) FROM sqlite_schema) AS o,"
                   " (SELECT status FROM checks) AS st",
               "r,c,s,k,o,st\n1,1,1,1,24,done\n");
    assert_csv(db, "PRAGMA user_version", "user_version\n0\n");
    assert_csv(db, "PRAGMA journal_mode", "journal_mode\nwal\n");
    assert_csv(db, "PRAGMA query_only", "query_only\n1\n");
    res_close(db);
}

static void expect_refused(ResDb *db, const char *sql, const char *msg)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    int rc = res_query(db, sql, RES_FMT_CSV, f);
    fclose(f);
    if (rc != RES_EINPUT)
        fail_msg("not refused (%d): %s", rc, sql);
    assert_string_equal(res_errmsg(db), msg);
    /* Refused before any row is printed: not even a header. */
    assert_string_equal(out, "");
    free(out);
}

#define RO " (the query connection is read-only)"

static void test_attacks_refused(void **state)
{
    Fixture *fx = *state;
    char attach[256], vacuum[256], sql[300], msg[400];
    fx_path(&fx->d, "new.db", attach, sizeof attach);
    fx_path(&fx->d, "copy.db", vacuum, sizeof vacuum);
    ResDb *db = fx_open(fx->d.db, RES_READONLY);

    expect_refused(db, "INSERT INTO runs(started_at, argv, version, host,"
                       " status) VALUES ('a', 'b', 'c', 'd', 'e')",
                   "query refused: INSERT on runs" RO);
    expect_refused(db, "UPDATE checks SET status = 'error'",
                   "query refused: UPDATE on checks" RO);
    expect_refused(db, "DELETE FROM results", "query refused: DELETE on"
                                              " results" RO);
    expect_refused(db, "WITH x AS (SELECT 1) DELETE FROM costs",
                   "query refused: DELETE on costs" RO);
    expect_refused(db, "INSERT INTO tests SELECT * FROM tests RETURNING *",
                   "query refused: INSERT on tests" RO);
    expect_refused(db, "DROP TABLE costs",
                   "query refused: DROP changes the schema" RO);
    expect_refused(db, "DROP VIEW verdict_matrix",
                   "query refused: DROP changes the schema" RO);
    expect_refused(db, "CREATE TABLE evil(x)",
                   "query refused: CREATE changes the schema" RO);
    expect_refused(db, "CREATE TEMP TABLE evil(x)",
                   "query refused: CREATE changes the schema" RO);
    expect_refused(db, "CREATE INDEX evil ON runs(host)",
                   "query refused: CREATE changes the schema" RO);
    expect_refused(db, "CREATE TRIGGER evil AFTER INSERT ON runs BEGIN"
                       " DELETE FROM checks; END",
                   "query refused: CREATE on evil" RO);
    expect_refused(db, "ALTER TABLE runs ADD COLUMN evil",
                   "query refused: ALTER TABLE on runs" RO);
    snprintf(sql, sizeof sql, "ATTACH '%s' AS evil", attach);
    snprintf(msg, sizeof msg, "query refused: ATTACH of '%s'" RO, attach);
    expect_refused(db, sql, msg);
    expect_refused(db, "PRAGMA journal_mode=delete",
                   "query refused: PRAGMA journal_mode = delete may change"
                   " the database" RO);
    expect_refused(db, "PRAGMA user_version=5",
                   "query refused: PRAGMA user_version = 5 may change the"
                   " database" RO);
    expect_refused(db, "PRAGMA main.user_version = 5",
                   "query refused: PRAGMA user_version = 5 may change the"
                   " database" RO);
    expect_refused(db, "PRAGMA query_only = 0",
                   "query refused: PRAGMA query_only = 0 may change the"
                   " database" RO);
    expect_refused(db, "PRAGMA writable_schema = ON",
                   "query refused: PRAGMA writable_schema = ON may change the"
                   " database" RO);
    expect_refused(db, "PRAGMA wal_checkpoint(TRUNCATE)",
                   "query refused: PRAGMA wal_checkpoint = TRUNCATE may"
                   " change the database" RO);
    expect_refused(db, "PRAGMA optimize",
                   "query refused: PRAGMA optimize may change the"
                   " database" RO);
    expect_refused(db, "SELECT * FROM pragma_optimize",
                   "query refused: a change to the schema" RO);
    expect_refused(db, "SELECT 1; DELETE FROM runs",
                   "query refused: more than one SQL statement (gpmc query"
                   " runs exactly one)");
    expect_refused(db, "SELECT 1; SELECT 2",
                   "query refused: more than one SQL statement (gpmc query"
                   " runs exactly one)");
    expect_refused(db, "SELECT 1 /* c */ ; -- c\n DROP TABLE runs",
                   "query refused: more than one SQL statement (gpmc query"
                   " runs exactly one)");
    expect_refused(db, "DELETE FROM runs; SELECT 1",
                   "query refused: DELETE on runs" RO);
    expect_refused(db, "VACUUM", "query refused: the statement would modify"
                                 " the database" RO);
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", vacuum);
    expect_refused(db, sql, "query refused: the statement would modify the"
                            " database" RO);
    expect_refused(db, "REINDEX", "query refused: REINDEX" RO);
    expect_refused(db, "ANALYZE", "query refused: ANALYZE changes the"
                                  " schema" RO);
    expect_refused(db, "BEGIN", "query refused: a transaction" RO);
    expect_refused(db, "SAVEPOINT s", "query refused: SAVEPOINT" RO);
    expect_refused(db, "DETACH main", "query refused: DETACH on main" RO);
    expect_refused(db, "SELECT load_extension('/tmp/evil.so')",
                   "query refused: function load_extension() is not"
                   " allowed" RO);
    expect_refused(db, "SELECT fts3_tokenizer('simple')",
                   "query refused: function fts3_tokenizer() is not"
                   " allowed" RO);
    res_close(db);

    assert_int_equal(access(attach, F_OK), -1);
    assert_int_equal(access(vacuum, F_OK), -1);
    assert_unchanged(fx);
}

/* Bad SQL is an input error with SQLite's reason. */
static void test_bad_sql(void **state)
{
    Fixture *fx = *state;
    ResDb *db = fx_open(fx->d.db, RES_READONLY);
    expect_refused(db, "SELEC 1", "query: near \"SELEC\": syntax error");
    expect_refused(db, "SELECT nosuch FROM runs",
                   "query: no such column: nosuch");
    expect_refused(db, "", "query: no SQL statement");
    expect_refused(db, "  -- only a comment\n", "query: no SQL statement");
    res_close(db);
    assert_unchanged(fx);
}

/* What a read-only connection does allow. */
static void test_reads_allowed(void **state)
{
    Fixture *fx = *state;
    ResDb *db = fx_open(fx->d.db, RES_READONLY);
    assert_csv(db, "SELECT test, model, verdict, expected FROM"
                   " verdict_matrix", "test,model,verdict,expected\n"
                                      "SB,hw,No,Ok\n");
    assert_csv(db, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1"
                   " FROM n WHERE i < 3) SELECT sum(i) FROM n; -- done",
               "sum(i)\n6\n");
    assert_csv(db, "SELECT name FROM pragma_table_info('costs')",
               "name\ncheck_id\nmetric\nvalue\n");
    assert_csv(db, "PRAGMA table_info(meta)",
               "cid,name,type,notnull,dflt_value,pk\n"
               "0,key,TEXT,1,,1\n1,value,TEXT,1,,0\n");
    assert_csv(db, "PRAGMA integrity_check", "integrity_check\nok\n");
    char *json = fx_query(db, "SELECT model, cycles, 1.5 AS x, 0.1 AS y,"
                              " 2.0 AS z, NULL AS n, 'a\"b\n' AS s"
                              " FROM checks", RES_FMT_JSON);
    assert_string_equal(json, "[\n{\"model\":\"hw\",\"cycles\":1000,"
                              "\"x\":1.5,\"y\":0.1,\"z\":2.0,\"n\":null,"
                              "\"s\":\"a\\\"b\\n\"}\n]\n");
    free(json);
    json = fx_query(db, "SELECT 1 WHERE 0", RES_FMT_JSON);
    assert_string_equal(json, "[]\n");
    free(json);
    char *table = fx_query(db, "SELECT model, states, 'x\ty' AS s,"
                               " NULL AS n FROM checks", RES_FMT_TABLE);
    assert_string_equal(table, "model  states  s     n\n"
                               "-----  ------  ----  ----\n"
                               "hw         10  x\\ty  NULL\n");
    free(table);
    res_close(db);
    assert_unchanged(fx);
}

/* The command: every refusal is exit status 2 and changes nothing. */
static void test_cli_exit_status(void **state)
{
    Fixture *fx = *state;
    static const char *const attacks[] = {
        "DELETE FROM checks", "DROP TABLE runs", "PRAGMA user_version=5",
        "SELECT 1; DELETE FROM checks", "SELECT nosuch", "VACUUM",
    };
    for (size_t i = 0; i < sizeof attacks / sizeof *attacks; i++) {
        char *argv[] = {(char *)"--db", fx->d.db, (char *)attacks[i]};
        assert_int_equal(h_cmd_query(3, argv), H_USAGE);
    }
    char missing[256];
    fx_path(&fx->d, "missing.db", missing, sizeof missing);
    char *argv1[] = {(char *)"--db", missing, (char *)"SELECT 1"};
    assert_int_equal(h_cmd_query(3, argv1), H_USAGE);
    assert_int_equal(access(missing, F_OK), -1);
    char *argv2[] = {(char *)"--db", fx->d.db};
    assert_int_equal(h_cmd_query(2, argv2), H_USAGE);
    char *argv3[] = {(char *)"--csv", (char *)"--json", (char *)"SELECT 1"};
    assert_int_equal(h_cmd_query(3, argv3), H_USAGE);
    char *argv4[] = {(char *)"--bogus", (char *)"SELECT 1"};
    assert_int_equal(h_cmd_query(2, argv4), H_USAGE);
    char dbopt[300];
    snprintf(dbopt, sizeof dbopt, "--db=%s", fx->d.db);
    char *argv5[] = {dbopt, (char *)"SELECT 1"};
    assert_int_equal(h_cmd_query(2, argv5), H_OK);
    assert_unchanged(fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_attacks_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_sql, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reads_allowed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cli_exit_status, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
