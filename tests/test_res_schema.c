/* results: schema creation, version check, reopening, foreign files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <sys/wait.h>

#include "tests/test_res_fixture.h"

static void test_creates_schema_v1(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    assert_int_equal(access(d.db, F_OK), 0);
    assert_csv(db, "SELECT key, value FROM meta WHERE key = 'schema_version'",
               "key,value\nschema_version,1\n");
    assert_int_equal(fx_int(db, "SELECT count(*) FROM meta"), 2);
    /* created_at: UTC ISO-8601 with microseconds, e.g.
       2025-01-31T12:34:56.123456Z */
    assert_int_equal(fx_int(db, "SELECT value GLOB " FX_ISO_GLOB
                                " FROM meta WHERE key = 'created_at'"), 1);
    assert_csv(db, "SELECT name FROM sqlite_schema WHERE type = 'table'"
                   " ORDER BY name",
               "name\nchecks\ncosts\nmeta\noutcomes\nproposals\nresults\nruns\n"
               "tests\nviolations\n");
    assert_csv(db, "SELECT name FROM sqlite_schema WHERE type = 'view'"
                   " ORDER BY name",
               "name\nlatest_checks\nmodel_disagreements\nunexpected\n"
               "verdict_matrix\n");
    static const char *const cols[][2] = {
        {"meta", "key value"},
        {"runs", "run_id started_at finished_at argv version host status"},
        {"tests", "test_id name path sha256 source params"},
        {"checks", "check_id run_id test_id model config status states "
                   "transitions crash_points crash_images recoveries "
                   "elapsed_ms peak_kb cycles nvm_writes error"},
        {"results", "check_id cond_index phase quant cond verdict expected "
                    "positive negative"},
        {"outcomes", "check_id phase state count"},
        {"violations", "violation_id check_id cond_index kind image witness "
                       "witness_json depth"},
        {"costs", "check_id metric value"},
        {"proposals", "proposal_id run_id test_id command seq size changes "
                      "diff state rank cycles verdicts witness"},
        {"verdict_matrix", "test model cond_index phase verdict expected"},
        {"unexpected", "test model cond_index phase verdict expected"},
        {"model_disagreements",
         "test cond_index model_a verdict_a model_b verdict_b"},
        {"latest_checks", "test model config status states transitions "
                          "crash_points crash_images recoveries cycles "
                          "nvm_writes error"},
    };
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++) {
        char sql[160], want[400];
        snprintf(sql, sizeof sql, "SELECT group_concat(name, ' ') AS c"
                                  " FROM pragma_table_info('%s')", cols[i][0]);
        snprintf(want, sizeof want, "c\n%s\n", cols[i][1]);
        assert_csv(db, sql, want);
    }
    /* The id columns are INTEGER PRIMARY KEYs (rowid aliases); the child
       tables are keyed by their check and what they describe. */
    assert_csv(db, "SELECT m.name AS t, group_concat(p.name || ' ' || p.type,"
                   " ', ') AS pk FROM sqlite_schema m,"
                   " pragma_table_info(m.name) p WHERE m.type = 'table'"
                   " AND p.pk > 0 GROUP BY m.name ORDER BY m.name",
               "t,pk\nchecks,check_id INTEGER\n"
               "costs,\"check_id INTEGER, metric TEXT\"\n"
               "meta,key TEXT\n"
               "outcomes,\"check_id INTEGER, phase TEXT, state TEXT\"\n"
               "proposals,proposal_id INTEGER\n"
               "results,\"check_id INTEGER, cond_index INTEGER\"\n"
               "runs,run_id INTEGER\ntests,test_id INTEGER\n"
               "violations,violation_id INTEGER\n");
    assert_csv(db, "SELECT * FROM pragma_foreign_keys", "foreign_keys\n1\n");
    res_close(db);
    db = fx_open(d.db, RES_READONLY);
    assert_csv(db, "PRAGMA journal_mode", "journal_mode\nwal\n");
    res_close(db);
    fx_dir_remove(&d);
}

static void test_reopen_keeps_data(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    char *meta = fx_query(db, "SELECT * FROM meta ORDER BY key", RES_FMT_CSV);
    fx_run(db, "gpmc run a.litmus");
    res_close(db);
    for (int mode = RES_READWRITE; mode <= RES_READONLY; mode++) {
        db = fx_open(d.db, mode);
        char *again = fx_query(db, "SELECT * FROM meta ORDER BY key",
                               RES_FMT_CSV);
        assert_string_equal(again, meta);
        free(again);
        assert_csv(db, "SELECT run_id, argv, status FROM runs",
                   "run_id,argv,status\n1,gpmc run a.litmus,running\n");
        res_close(db);
    }
    free(meta);
    fx_dir_remove(&d);
}

static void expect_open_error(const char *path, int mode, int code,
                              const char *msg)
{
    ResDb *db = (ResDb *)1;
    char err[512] = "";
    assert_int_equal(res_open(path, mode, &db, err, sizeof err), code);
    assert_null(db);
    assert_string_equal(err, msg);
}

static void test_refuses_other_version(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    res_close(fx_open(d.db, RES_READWRITE));
    fx_raw(d.db, "UPDATE meta SET value = '2' WHERE key = 'schema_version'");
    char want[256];
    snprintf(want, sizeof want,
             "%s: schema version 2, this gpmc writes version 1", d.db);
    expect_open_error(d.db, RES_READWRITE, RES_EINPUT, want);
    expect_open_error(d.db, RES_READONLY, RES_EINPUT, want);

    /* A foreign database is not touched: not even its journal mode. */
    char other[128];
    fx_path(&d, "v2.db", other, sizeof other);
    fx_raw(other, "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
                  "INSERT INTO meta VALUES ('schema_version', '2');");
    snprintf(want, sizeof want,
             "%s: schema version 2, this gpmc writes version 1", other);
    expect_open_error(other, RES_READWRITE, RES_EINPUT, want);
    sqlite3 *raw;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(other, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &st,
                                        NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "delete");
    sqlite3_finalize(st);
    sqlite3_close(raw);
    fx_dir_remove(&d);
}

static void test_refuses_foreign_files(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    char p[128], want[256];

    fx_path(&d, "other.db", p, sizeof p);
    fx_raw(p, "CREATE TABLE t(x)");
    snprintf(want, sizeof want,
             "%s: not a gpmc results database (no meta table)", p);
    expect_open_error(p, RES_READWRITE, RES_EINPUT, want);
    expect_open_error(p, RES_READONLY, RES_EINPUT, want);

    fx_path(&d, "text.db", p, sizeof p);
    FILE *f = fopen(p, "w");
    fputs("this is not a database, it is a text file of some length.\n"
          "SQLite reads the first 100 bytes as its header and rejects it.\n",
          f);
    fclose(f);
    snprintf(want, sizeof want,
             "%s: not a gpmc results database (file is not a database)", p);
    expect_open_error(p, RES_READWRITE, RES_EINPUT, want);
    expect_open_error(p, RES_READONLY, RES_EINPUT, want);

    fx_path(&d, "empty.db", p, sizeof p);
    fclose(fopen(p, "w"));
    snprintf(want, sizeof want, "%s: not a gpmc results database (empty)", p);
    expect_open_error(p, RES_READONLY, RES_EINPUT, want);

    fx_path(&d, "missing.db", p, sizeof p);
    snprintf(want, sizeof want, "%s: No such file or directory", p);
    expect_open_error(p, RES_READONLY, RES_EINPUT, want);
    assert_int_equal(access(p, F_OK), -1);

    fx_path(&d, "no/such/dir.db", p, sizeof p);
    snprintf(want, sizeof want, "%s: cannot open: unable to open database"
                                " file", p);
    expect_open_error(p, RES_READWRITE, RES_EINPUT, want);
    fx_dir_remove(&d);
}

/* Several processes creating the same new database at once: one creates
   the schema, the others find it; nothing is lost. */
static void test_concurrent_creation(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    enum { N = 4 };
    pid_t pids[N];
    for (int i = 0; i < N; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            ResDb *db;
            char err[256];
            int64_t run;
            int rc = res_open(d.db, RES_READWRITE, &db, err, sizeof err);
            if (!rc)
                rc = res_run_begin(db, "child", "0.1.0", &run);
            if (!rc)
                res_close(db);
            _exit(rc);
        }
    }
    for (int i = 0; i < N; i++) {
        int status;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    ResDb *db = fx_open(d.db, RES_READONLY);
    assert_int_equal(fx_int(db, "SELECT count(*) FROM meta"), 2);
    assert_int_equal(fx_int(db, "SELECT count(*) FROM runs"), N);
    assert_csv(db, "PRAGMA integrity_check", "integrity_check\nok\n");
    res_close(db);
    fx_dir_remove(&d);
}

/* A database written by gpmc before `Unknown` (tests/data/res/main-v1.sql,
   the .dump of a file main wrote: INC checked under strict and epoch with
   --max-states 6, both incomplete, and under bepoch to the end). Every
   opening brings it up to date: the results check admits 'Unknown', the
   views are ours, and the incomplete checks' verdicts that no witness
   decided are 'Unknown'. */
static void load_main_v1(const char *path)
{
    size_t n;
    char *sql = fx_slurp("tests/data/res/main-v1.sql", &n);
    fx_raw(path, sql);
    free(sql);
}

/* The schema objects' texts: what an up-to-date file shares with a new one. */
static char *schema_text(const char *path)
{
    ResDb *db = fx_open(path, RES_READONLY);
    char *s = fx_query(db, "SELECT type, name, sql FROM sqlite_schema"
                           " ORDER BY name", RES_FMT_CSV);
    res_close(db);
    return s;
}

/* Verdicts of the INC checks after the upgrade, by check: incomplete
   strict and epoch keep the exists Ok (an example was found) and the
   ~exists No (a counterexample was found); the rest is Unknown. The
   complete bepoch check is as written. */
#define UPGRADED_VERDICTS \
    "check_id,v\n" \
    "1,Unknown Unknown Ok Unknown No Unknown\n" \
    "2,Unknown Unknown Ok Unknown No Unknown\n" \
    "3,Ok No Ok No No Ok\n"
#define VERDICTS_SQL \
    "SELECT check_id, group_concat(verdict, ' ') AS v FROM (SELECT *" \
    " FROM results ORDER BY check_id, cond_index) GROUP BY check_id"

static void test_upgrades_main_v1(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    char fresh[128], ro[128];
    fx_path(&d, "fresh.db", fresh, sizeof fresh);
    fx_path(&d, "ro.db", ro, sizeof ro);
    res_close(fx_open(fresh, RES_READWRITE));
    char *want = schema_text(fresh);

    /* Opened for writing. */
    load_main_v1(d.db);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    assert_csv(db, VERDICTS_SQL, UPGRADED_VERDICTS);
    res_close(db);
    char *got = schema_text(d.db);
    assert_string_equal(got, want);
    free(got);

    /* Opened again: nothing changes. */
    size_t n1, n2;
    char *before = fx_slurp(d.db, &n1);
    res_close(fx_open(d.db, RES_READWRITE));
    res_close(fx_open(d.db, RES_READONLY));
    char *after = fx_slurp(d.db, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(before, after, n1);
    free(before);
    free(after);

    /* Opened by a reader (gpmc query, report, show, merge's inputs): read
       as the upgrade would leave it (the views flag the Unknowns and
       disagree on none of them), and the file is not written. */
    load_main_v1(ro);
    before = fx_slurp(ro, &n1);
    db = fx_open(ro, RES_READONLY);
    assert_csv(db, VERDICTS_SQL, UPGRADED_VERDICTS);
    assert_csv(db, "SELECT model, cond_index, verdict, expected"
                   " FROM unexpected WHERE model = 'strict'",
               "model,cond_index,verdict,expected\n"
               "strict,0,Unknown,Ok\nstrict,1,Unknown,No\n"
               "strict,3,Unknown,\nstrict,4,No,\nstrict,5,Unknown,\n");
    assert_csv(db, "SELECT model_a, cond_index, verdict_a, model_b,"
                   " verdict_b FROM model_disagreements",
               "model_a,cond_index,verdict_a,model_b,verdict_b\n");
    res_close(db);
    after = fx_slurp(ro, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(before, after, n1);
    free(before);
    free(after);
    got = schema_text(ro);
    assert_string_not_equal(got, want);
    free(got);
    free(want);
    fx_dir_remove(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_creates_schema_v1),
        cmocka_unit_test(test_reopen_keeps_data),
        cmocka_unit_test(test_refuses_other_version),
        cmocka_unit_test(test_refuses_foreign_files),
        cmocka_unit_test(test_concurrent_creation),
        cmocka_unit_test(test_upgrades_main_v1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
