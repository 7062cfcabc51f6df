/* Tests of results/res_sql.c: statement helpers, binding, errors, the
   clock and the time limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "results/results_int.h"
#include "tests/test_res_fixture.h"

static ResDb *memory_db(void)
{
    ResDb *db = NULL;
    char err[256];
    if (res_open(":memory:", RES_READWRITE, &db, err, sizeof err))
        fail_msg("res_open: %s", err);
    return db;
}

static void test_bind_formats(void **state)
{
    (void)state;
    ResDb *db = memory_db();
    sqlite3_stmt *st;
    assert_int_equal(res_sql_prepare(db, &st, "SELECT ?, ?, ?, ?, ?, ?, "
                                     "typeof(?3), typeof(?5)", "titnnf",
                                     "a'b", (int64_t)-7, (const char *)NULL,
                                     (int64_t)-1, (int64_t)9, 2.5),
                     RES_OK);
    assert_int_equal(res_sql_step(db, st), 1);
    assert_string_equal(res_sql_text(st, 0), "a'b");
    assert_int_equal(sqlite3_column_int64(st, 1), -7);
    assert_string_equal(res_sql_text(st, 2), "");        /* NULL */
    assert_int_equal(sqlite3_column_type(st, 3), SQLITE_NULL);
    assert_int_equal(sqlite3_column_int64(st, 4), 9);
    assert_true(sqlite3_column_double(st, 5) == 2.5);
    assert_string_equal(res_sql_text(st, 6), "null");
    assert_string_equal(res_sql_text(st, 7), "integer");
    assert_int_equal(res_sql_step(db, st), 0);
    /* rebind the same statement */
    assert_int_equal(res_sql_rebind(db, st, "ti", "z", (int64_t)1), RES_OK);
    assert_int_equal(res_sql_step(db, st), 1);
    assert_string_equal(res_sql_text(st, 0), "z");
    assert_int_equal(sqlite3_column_type(st, 2), SQLITE_NULL);  /* cleared */
    sqlite3_finalize(st);
    /* a bad format letter, bad SQL */
    assert_int_equal(res_sql_prepare(db, &st, "SELECT ?", "q", 1),
                     RES_EINTERNAL);
    assert_null(st);
    assert_string_equal(res_errmsg(db), "results: bad bind format 'q'");
    assert_int_equal(res_sql_prepare(db, &st, "SELEC 1", ""), RES_EINTERNAL);
    assert_null(st);
    assert_string_equal(res_errmsg(db),
                        "results: near \"SELEC\": syntax error");
    res_close(db);
}

static void test_exec_and_int(void **state)
{
    (void)state;
    ResDb *db = memory_db();
    int64_t v = -1;
    assert_int_equal(res_sql_exec(db, "INSERT INTO meta(key, value)"
                                  " VALUES (?, ?)", "tt", "k", "v"), RES_OK);
    assert_int_equal(res_sql_int(db, &v, "SELECT count(*) FROM meta"
                                 " WHERE key = ?", "t", "k"), 1);
    assert_int_equal(v, 1);
    v = 5;
    assert_int_equal(res_sql_int(db, &v, "SELECT 1 FROM meta WHERE key = ?",
                                 "t", "none"), 0);
    assert_int_equal(v, 5);                             /* untouched */
    /* a constraint failure while stepping */
    assert_int_equal(res_sql_exec(db, "INSERT INTO meta(key, value)"
                                  " VALUES ('k', 'again')", ""),
                     RES_EINTERNAL);
    assert_string_equal(res_errmsg(db),
                        "results: UNIQUE constraint failed: meta.key");
    assert_true(res_sql_int(db, &v, "SELECT nosuch FROM meta", "") < 0);
    assert_int_equal(res_sql_fail(db, 42, "x%dy", 7), 42);
    assert_string_equal(res_errmsg(db), "x7y");
    assert_int_equal(res_sql_writable(db, "writing"), RES_OK);
    res_close(db);
}

static void test_readonly_and_now(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    res_close(fx_open(d.db, RES_READWRITE));
    ResDb *db = fx_open(d.db, RES_READONLY);
    assert_int_equal(res_sql_writable(db, "res_write_check"), RES_EINTERNAL);
    assert_string_equal(res_errmsg(db), "results: res_write_check: database"
                                        " opened read-only");
    char now[32];
    res_sql_now(now);
    int64_t ok = 0;
    assert_int_equal(res_sql_int(db, &ok, "SELECT ? GLOB " FX_ISO_GLOB, "t",
                                 now), 1);
    assert_int_equal(ok, 1);
    res_close(db);
    fx_dir_remove(&d);
}

/* The time limit stops an endless statement with RES_EINPUT, and lifting
   it lets statements run again. */
static void test_time_limit(void **state)
{
    (void)state;
    ResDb *db = memory_db();
    static const char endless[] = "WITH RECURSIVE r(i) AS (SELECT 1 UNION"
                                  " ALL SELECT i + 1 FROM r) SELECT count(*)"
                                  " FROM r";
    double t0 = res_sql_clock();
    res_time_limit(db, 0.2);
    int64_t v;
    assert_int_equal(res_sql_int(db, &v, endless, ""), -RES_EINPUT);
    double took = res_sql_clock() - t0;
    assert_true(took >= 0.2 && took < 10);
    assert_string_equal(res_errmsg(db), "timed out after 0.2 s");
    /* past the deadline everything stops at once */
    assert_int_equal(res_sql_exec(db, "WITH RECURSIVE r(i) AS (SELECT 1"
                                  " UNION ALL SELECT i + 1 FROM r WHERE i <"
                                  " 100000) SELECT count(*) FROM r", ""),
                     RES_EINPUT);
    res_time_limit(db, 0);
    assert_int_equal(res_sql_int(db, &v, "WITH RECURSIVE r(i) AS (SELECT 1"
                                 " UNION ALL SELECT i + 1 FROM r WHERE i <"
                                 " 100000) SELECT count(*) FROM r", ""), 1);
    assert_int_equal(v, 100000);
    /* an absolute deadline, reported as the limit it came from */
    res_sql_deadline(db, res_sql_clock() + 0.05, 7);
    assert_int_equal(res_sql_int(db, &v, endless, ""), -RES_EINPUT);
    assert_string_equal(res_errmsg(db), "timed out after 7 s");
    res_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bind_formats),
        cmocka_unit_test(test_exec_and_int),
        cmocka_unit_test(test_readonly_and_now),
        cmocka_unit_test(test_time_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
