/* results: merging shard databases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "harness/harness.h"
#include "tests/test_res_fixture.h"

enum { NTESTS = 6, NMODELS = 3, NSHARDS = 3 };
static const char *const names[NTESTS] = {"T0", "T1", "T2", "T3", "T4", "T5"};
static const char *const models[NMODELS] = {"strict", "scoped", "hw"};

static void write_test(ResDb *db, int64_t run, int t, int m)
{
    FxCheck f;
    fx_check(&f, names[t], models[m]);
    f.c.states = 100 * t + m;
    const char *v = (t + m) % 3 ? "Ok" : "No";
    fx_result(&f, "crash", "~exists", "(x == 1)", v, t % 2 ? "Ok" : NULL);
    fx_result(&f, "final", "forall", "(x == 0)", m == 2 ? "No" : "Ok", NULL);
    fx_outcome(&f, "crash", "x=0", t + 1);
    fx_outcome(&f, "final", "x=1", 1);
    if (v[0] == 'N')
        fx_violation(&f, 0, "counterexample", models[m], names[t], "{}", 1);
    fx_cost(&f, "stall_cycles", t * 10 + m);
    fx_write(db, run, &f);
}

/* One database with every check (shard < 0), or shard i of NSHARDS. */
static void build(const char *path, int shard)
{
    ResDb *db = fx_open(path, RES_READWRITE);
    char argv[64];
    if (shard < 0)
        snprintf(argv, sizeof argv, "gpmc suite s");
    else
        snprintf(argv, sizeof argv, "gpmc suite s --shard %d/%d", shard,
                 NSHARDS);
    int64_t run = fx_run(db, argv);
    for (int t = 0; t < NTESTS; t++)
        if (shard < 0 || t % NSHARDS == shard)
            for (int m = 0; m < NMODELS; m++)
                write_test(db, run, t, m);
    assert_int_equal(res_run_end(db, run, "done"), RES_OK);
    res_close(db);
}

/* Concatenated CSV of queries (malloc'd). */
static char *dump(const char *path, const char *const *sqls, size_t n)
{
    ResDb *db = fx_open(path, RES_READONLY);
    char *all = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&all, &len);
    for (size_t i = 0; i < n; i++) {
        char *part = fx_query(db, sqls[i], RES_FMT_CSV);
        fprintf(f, "-- %s\n%s", sqls[i], part);
        free(part);
    }
    fclose(f);
    res_close(db);
    return all;
}

/* What must not depend on how the checks were split. */
static const char *const logical[] = {
    "SELECT * FROM verdict_matrix",
    "SELECT * FROM unexpected",
    "SELECT * FROM model_disagreements",
    "SELECT * FROM latest_checks",
    "SELECT t.name, c.model, v.cond_index, v.kind, v.image, v.witness,"
    " v.depth FROM violations v JOIN checks c USING (check_id)"
    " JOIN tests t USING (test_id) ORDER BY 1, 2, 3",
    "SELECT t.name, c.model, o.phase, o.state, o.count FROM outcomes o"
    " JOIN checks c USING (check_id) JOIN tests t USING (test_id)"
    " ORDER BY 1, 2, 3, 4",
    "SELECT t.name, c.model, k.metric, k.value FROM costs k"
    " JOIN checks c USING (check_id) JOIN tests t USING (test_id)"
    " ORDER BY 1, 2, 3",
};

/* Every row of every table, ids included. */
static const char *const physical[] = {
    "SELECT * FROM runs ORDER BY run_id",
    "SELECT * FROM tests ORDER BY test_id",
    "SELECT * FROM checks ORDER BY check_id",
    "SELECT rowid, * FROM results ORDER BY rowid",
    "SELECT rowid, * FROM outcomes ORDER BY rowid",
    "SELECT * FROM violations ORDER BY violation_id",
    "SELECT rowid, * FROM costs ORDER BY rowid",
};

#define N(a) (sizeof a / sizeof *a)

typedef struct {
    FxDir d;
    char single[256], shard[NSHARDS][256], out[256];
    const char *in[NSHARDS];
} Fixture;

static int setup(void **state)
{
    Fixture *fx = calloc(1, sizeof *fx);
    fx_dir_make(&fx->d);
    fx_path(&fx->d, "single.db", fx->single, sizeof fx->single);
    build(fx->single, -1);
    for (int i = 0; i < NSHARDS; i++) {
        char name[32];
        snprintf(name, sizeof name, "shard%d.db", i);
        fx_path(&fx->d, name, fx->shard[i], sizeof fx->shard[i]);
        build(fx->shard[i], i);
        fx->in[i] = fx->shard[i];
    }
    fx_path(&fx->d, "out.db", fx->out, sizeof fx->out);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    Fixture *fx = *state;
    fx_dir_remove(&fx->d);
    free(fx);
    return 0;
}

static void merge_ok(const char *out, const char *const *in, int n)
{
    char err[512];
    if (res_merge(out, in, n, 0, err, sizeof err))
        fail_msg("res_merge: %s", err);
}

static void test_shards_equal_single(void **state)
{
    Fixture *fx = *state;
    merge_ok(fx->out, fx->in, NSHARDS);
    char *want = dump(fx->single, logical, N(logical));
    char *got = dump(fx->out, logical, N(logical));
    assert_string_equal(got, want);
    free(want);
    free(got);
    ResDb *db = fx_open(fx->out, RES_READONLY);
    assert_csv(db, "SELECT (SELECT count(*) FROM runs) AS runs,"
                   " (SELECT count(*) FROM tests) AS tests,"
                   " (SELECT count(*) FROM checks) AS checks,"
                   " (SELECT count(*) FROM results) AS results,"
                   " (SELECT count(*) FROM violations) AS violations,"
                   " (SELECT count(*) FROM verdict_matrix) AS matrix",
               "runs,tests,checks,results,violations,matrix\n"
               "3,6,18,36,6,36\n");
    /* Ids were remapped: shard 1's first test (T1) was test 1 there. */
    assert_csv(db, "SELECT r.argv, group_concat(DISTINCT t.name) FROM checks c"
                   " JOIN runs r USING (run_id) JOIN tests t USING (test_id)"
                   " GROUP BY r.run_id ORDER BY r.run_id",
               "argv,group_concat(DISTINCT t.name)\n"
               "gpmc suite s --shard 0/3,\"T0,T3\"\n"
               "gpmc suite s --shard 1/3,\"T1,T4\"\n"
               "gpmc suite s --shard 2/3,\"T2,T5\"\n");
    assert_csv(db, "PRAGMA integrity_check", "integrity_check\nok\n");
    res_close(db);
}

static void test_idempotent_and_deterministic(void **state)
{
    Fixture *fx = *state;
    merge_ok(fx->out, fx->in, NSHARDS);
    char *first = dump(fx->out, physical, N(physical));

    merge_ok(fx->out, fx->in, NSHARDS);
    const char *twice[] = {fx->in[1], fx->in[1], fx->out};
    merge_ok(fx->out, twice, 3);
    char *again = dump(fx->out, physical, N(physical));
    assert_string_equal(again, first);
    free(again);

    char out2[256];
    fx_path(&fx->d, "out2.db", out2, sizeof out2);
    merge_ok(out2, fx->in, NSHARDS);
    char *other = dump(out2, physical, N(physical));
    assert_string_equal(other, first);
    free(other);
    free(first);
}

/* The same run met unfinished in one input and finished in another ends
   finished, its checks once. */
static void test_same_run_finishes(void **state)
{
    Fixture *fx = *state;
    char copy[256];
    fx_path(&fx->d, "copy.db", copy, sizeof copy);
    merge_ok(copy, fx->in, 1);
    fx_raw(copy, "UPDATE runs SET finished_at = NULL, status = 'running'");
    const char *in[] = {copy, fx->in[0]};
    merge_ok(fx->out, in, 2);
    char *want = dump(fx->in[0], physical, 3);
    char *got = dump(fx->out, physical, 3);
    assert_string_equal(got, want);
    free(want);
    free(got);
}

/* The other order: a finished run met again unfinished stays finished;
   a test met again with another source text (same name, path, hash and
   parameters) is the same test, its first source kept; a check met again
   is not copied twice. */
static void test_finished_run_stays(void **state)
{
    Fixture *fx = *state;
    char copy[256];
    fx_path(&fx->d, "copy.db", copy, sizeof copy);
    merge_ok(copy, fx->in, 1);
    fx_raw(copy, "UPDATE runs SET finished_at = NULL, status = 'running';"
                 " UPDATE tests SET source = 'other'");
    const char *in[] = {fx->in[0], copy};
    merge_ok(fx->out, in, 2);
    char *want = dump(fx->in[0], physical, N(physical));
    char *got = dump(fx->out, physical, N(physical));
    assert_string_equal(got, want);
    free(want);
    free(got);
    ResDb *db = fx_open(fx->out, RES_READONLY);
    assert_csv(db, "SELECT status, count(*) FROM runs, tests"
                   " WHERE source <> 'other'",
               "status,count(*)\ndone,2\n");
    res_close(db);
}

static void test_bad_inputs_leave_no_output(void **state)
{
    Fixture *fx = *state;
    char missing[256], want[512], err[512];
    fx_path(&fx->d, "missing.db", missing, sizeof missing);
    const char *in[] = {fx->in[0], missing};
    assert_int_equal(res_merge(fx->out, in, 2, 0, err, sizeof err), RES_EINPUT);
    snprintf(want, sizeof want, "%s: No such file or directory", missing);
    assert_string_equal(err, want);
    assert_int_equal(access(fx->out, F_OK), -1);

    fx_raw(fx->shard[2], "UPDATE meta SET value = '7'"
                         " WHERE key = 'schema_version'");
    assert_int_equal(res_merge(fx->out, fx->in, NSHARDS, 0, err, sizeof err),
                     RES_EINPUT);
    snprintf(want, sizeof want,
             "%s: schema version 7, this gpmc writes version 1", fx->shard[2]);
    assert_string_equal(err, want);
    assert_int_equal(access(fx->out, F_OK), -1);

    assert_int_equal(res_merge(fx->out, in, 0, 0, err, sizeof err), RES_EINPUT);
    assert_string_equal(err, "merge: no input databases");

    char *argv[] = {fx->out};
    assert_int_equal(h_cmd_merge(1, argv), H_USAGE);
    char *argv2[] = {fx->out, missing};
    assert_int_equal(h_cmd_merge(2, argv2), H_USAGE);
    char *argv3[] = {fx->out, fx->shard[0]};
    assert_int_equal(h_cmd_merge(2, argv3), H_OK);
    assert_int_equal(access(fx->out, F_OK), 0);
}

/* ---- hostile inputs ----------------------------------------------------

   Each input is a good shard doctored behind gpmc's back; the merge must
   refuse it with RES_EINPUT (exit 2) and this message, quickly, and leave
   OUT as it was: absent when it did not exist, byte for byte when it did. */

static const struct {
    const char *sql, *msg;              /* msg follows "PATH: " */
} hostile[] = {
    /* the review's hang: runs a view over an endless recursive query */
    {"ALTER TABLE runs RENAME TO runs0;"
     " CREATE VIEW runs AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL"
     " SELECT i + 1 FROM r) SELECT i AS run_id, 'x' AS started_at, NULL AS"
     " finished_at, 'x' AS argv, 'x' AS version, 'x' AS host, 'done' AS"
     " status FROM r",
     "not a gpmc results database: its index runs_identity differs from"
     " gpmc's"},
    {"CREATE TRIGGER t AFTER INSERT ON runs BEGIN SELECT 1; END",
     "not a gpmc results database: it has a trigger t that gpmc does not"
     " create"},
    /* an outdated view makes opening bring the file up to date, whose
       statements would fire the trigger: refused before that */
    {"DROP VIEW unexpected; CREATE VIEW unexpected AS SELECT 1;"
     " CREATE TRIGGER u AFTER UPDATE ON results BEGIN SELECT 1; END",
     "not a gpmc results database: it has a trigger u that gpmc does not"
     " create"},
    {"CREATE VIEW v AS SELECT 1",
     "not a gpmc results database: it has a view v that gpmc does not"
     " create"},
    {"CREATE VIEW checks_view AS SELECT * FROM checks",
     "not a gpmc results database: it has a view checks_view that gpmc does"
     " not create"},
    {"CREATE TABLE extra(x)",
     "not a gpmc results database: it has a table extra that gpmc does not"
     " create"},
    {"DROP INDEX checks_run",
     "not a gpmc results database: it has no index checks_run"},
    {"ALTER TABLE costs ADD COLUMN extra",
     "not a gpmc results database: its table costs differs from gpmc's"},
    {"UPDATE checks SET model = X'00FF' WHERE check_id = 2",
     "checks row 2: model is blob, not TEXT"},
    {"UPDATE checks SET states = 'lots' WHERE check_id = 3",
     "checks row 3: states is text, not INTEGER"},
    {"UPDATE costs SET value = 'x' WHERE rowid = 1",
     "costs row 1: value is text, not REAL"},
    {"UPDATE checks SET run_id = 99 WHERE check_id = 1",
     "checks row 1 refers to a missing runs row"},
    {"UPDATE results SET check_id = 999 WHERE rowid = 1",
     "results row 1 refers to a missing checks row"},
    {"UPDATE meta SET value = ' 1' WHERE key = 'schema_version'",
     "schema version  1, this gpmc writes version 1"},
    {"UPDATE meta SET value = '01' WHERE key = 'schema_version'",
     "schema version 01, this gpmc writes version 1"},
    {"UPDATE meta SET value = X'31' WHERE key = 'schema_version'",
     "schema version 1, this gpmc writes version 1"},
    {"PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql ="
     " replace(sql, 'status TEXT NOT NULL CHECK', 'status TEXT CHECK')"
     " WHERE name = 'checks'",
     "not a gpmc results database: its table checks differs from gpmc's"},
};

/* Merges in into out, and in is left byte for byte as it was. */
static void merge_keeps_input(const char *out, const char *in)
{
    size_t n0, n1;
    char *bytes = fx_slurp(in, &n0);
    const char *ins[] = {in};
    merge_ok(out, ins, 1);
    char *again = fx_slurp(in, &n1);
    assert_true(n0 == n1 && !memcmp(bytes, again, n0));
    free(again);
    free(bytes);
}

/* A fresh copy of shard 0 to doctor. */
static void copy_shard(Fixture *fx, char *path, size_t len)
{
    static int n;
    char name[32];
    snprintf(name, sizeof name, "bad%d.db", n++);
    fx_path(&fx->d, name, path, len);
    merge_ok(path, fx->in, 1);
}

static void refused(const char *out, const char *bad, const char *msg)
{
    char err[1024], want[1024];
    const char *in[] = {bad};
    assert_int_equal(res_merge(out, in, 1, 0, err, sizeof err), RES_EINPUT);
    snprintf(want, sizeof want, "%s: %s", bad, msg);
    assert_string_equal(err, want);
}

static void test_hostile_inputs(void **state)
{
    Fixture *fx = *state;
    char kept[256];
    fx_path(&fx->d, "kept.db", kept, sizeof kept);
    merge_ok(kept, fx->in + 1, 2);
    char *before = dump(kept, physical, N(physical));
    for (size_t i = 0; i < N(hostile); i++) {
        char bad[256];
        copy_shard(fx, bad, sizeof bad);
        fx_raw(bad, hostile[i].sql);
        size_t n0, n1;
        char *bytes = fx_slurp(bad, &n0);
        refused(fx->out, bad, hostile[i].msg);
        assert_int_equal(access(fx->out, F_OK), -1);
        refused(kept, bad, hostile[i].msg);
        char *again = fx_slurp(bad, &n1);   /* the input untouched too */
        assert_true(n0 == n1 && !memcmp(bytes, again, n0));
        free(again);
        free(bytes);
    }
    char *after = dump(kept, physical, N(physical));
    assert_string_equal(after, before);
    free(after);
    free(before);
    /* A view of another text is an older gpmc's: merged, and the input
       is left byte for byte as it was (issue 27: the reader brought it up
       to date in place). */
    char old[256];
    copy_shard(fx, old, sizeof old);
    fx_raw(old, "DROP VIEW verdict_matrix;"
                " CREATE VIEW verdict_matrix AS SELECT 1 AS x");
    merge_keeps_input(fx->out, old);
    /* A row that the schema refuses, written past its CHECK constraints
       (a read-only connection's integrity check does not look at them):
       the input's fault, as any other. */
    char bad[256];
    copy_shard(fx, bad, sizeof bad);
    fx_raw(bad, "PRAGMA ignore_check_constraints = 1;"
                " UPDATE results SET verdict = 'Maybe' WHERE rowid = 2");
    char err[1024], fresh[256];
    fx_path(&fx->d, "fresh.db", fresh, sizeof fresh);
    const char *in2[] = {bad};
    assert_int_equal(res_merge(fresh, in2, 1, 0, err, sizeof err),
                     RES_EINPUT);
    assert_int_equal(access(fresh, F_OK), -1);
    char want[1024];
    snprintf(want, sizeof want, "%s: a row that gpmc's schema refuses (CHECK"
             " constraint failed: verdict IN ('Ok', 'No', 'Unknown'))", bad);
    assert_string_equal(err, want);
}

/* A database of an earlier gpmc (its results table refuses 'Unknown'):
   merged as a reader sees it, the verdicts of its incomplete checks as
   the upgrade writes them, and not written itself. */
static void test_earlier_input(void **state)
{
    Fixture *fx = *state;
    char old[256];
    fx_path(&fx->d, "v1.db", old, sizeof old);
    size_t n;
    char *sql = fx_slurp("tests/data/res/main-v1.sql", &n);
    fx_raw(old, sql);
    free(sql);
    merge_keeps_input(fx->out, old);
    ResDb *db = fx_open(fx->out, RES_READONLY);
    char *v = fx_query(db, "SELECT check_id, group_concat(verdict, ' ') AS v"
                       " FROM (SELECT * FROM results ORDER BY check_id,"
                       " cond_index) GROUP BY check_id", RES_FMT_CSV);
    assert_string_equal(v, "check_id,v\n"
                           "1,Unknown Unknown Ok Unknown No Unknown\n"
                           "2,Unknown Unknown Ok Unknown No Unknown\n"
                           "3,Ok No Ok No No Ok\n");
    free(v);
    res_close(db);
}

/* A page of the file overwritten: SQLite's integrity check or a read of
   the page says so, an input error either way. */
static void test_corrupt_page(void **state)
{
    Fixture *fx = *state;
    char bad[256], err[1024];
    copy_shard(fx, bad, sizeof bad);
    FILE *f = fopen(bad, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f), page = 4096;
    assert_true(size >= 8 * page);
    unsigned char junk[4096];
    memset(junk, 0xA5, sizeof junk);
    assert_int_equal(fseek(f, 5 * page, SEEK_SET), 0);
    assert_int_equal(fwrite(junk, 1, sizeof junk, f), sizeof junk);
    fclose(f);
    const char *in[] = {fx->in[0], bad};
    assert_int_equal(res_merge(fx->out, in, 2, 0, err, sizeof err),
                     RES_EINPUT);
    assert_int_equal(strncmp(err, bad, strlen(bad)), 0);
    assert_int_equal(access(fx->out, F_OK), -1);
}

/* OUT itself is verified like an input before anything is written. */
static void test_hostile_output(void **state)
{
    Fixture *fx = *state;
    char err[1024], want[1024];
    merge_ok(fx->out, fx->in, 1);
    fx_raw(fx->out, "CREATE TRIGGER t AFTER INSERT ON checks BEGIN"
                    " DELETE FROM runs; END");
    char *before = dump(fx->out, physical, N(physical));
    assert_int_equal(res_merge(fx->out, fx->in + 1, 2, 0, err, sizeof err),
                     RES_EINPUT);
    snprintf(want, sizeof want, "%s: not a gpmc results database: it has a"
             " trigger t that gpmc does not create", fx->out);
    assert_string_equal(err, want);
    char *after = dump(fx->out, physical, N(physical));
    assert_string_equal(after, before);
    free(after);
    free(before);
}

/* The whole merge runs under the time limit. */
static void test_time_limit(void **state)
{
    Fixture *fx = *state;
    char err[1024];
    assert_int_equal(res_merge(fx->out, fx->in, NSHARDS, 1e-9, err,
                               sizeof err), RES_EINPUT);
    assert_non_null(strstr(err, "timed out after 1e-09 s"));
    assert_int_equal(access(fx->out, F_OK), -1);
    merge_ok(fx->out, fx->in, NSHARDS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_shards_equal_single, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_idempotent_and_deterministic,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_same_run_finishes, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_finished_run_stays, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_bad_inputs_leave_no_output,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_inputs, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_earlier_input, setup, teardown),
        cmocka_unit_test_setup_teardown(test_corrupt_page, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_output, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_time_limit, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
