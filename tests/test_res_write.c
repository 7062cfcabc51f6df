/* results: writing checks (round trip, rollback, concurrency), runs,
   --resume lookups, and the views over hand-built data. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <sys/wait.h>

#include "tests/test_res_fixture.h"

static void build_full_check(FxCheck *f)
{
    fx_check(f, "SB+pbar+sync", "bscoped");
    f->c.test.source = "test SB+pbar+sync \"two, \"\nkernel k0\n";
    f->c.test.params = "N=2";
    f->c.config = "N=2;crash_depth=2;naive=0;wpq=durable";
    f->c.status = "incomplete";
    f->c.error = "max-states 1000 reached";
    f->c.states = 1000;
    f->c.transitions = 2345;
    f->c.crash_points = 999;
    f->c.crash_images = 4321;
    f->c.recoveries = 77;
    f->c.elapsed_ms = 250;
    f->c.peak_kb = 8192;
    f->c.cycles = -1;
    f->c.nvm_writes = 42;
    fx_result(f, "crash", "~exists", "(y == 1 && x == 0)", "No", "No");
    f->r[0].positive = 7;
    f->r[0].negative = 3;
    fx_result(f, "noerror", NULL, NULL, "Ok", NULL);
    f->r[1].positive = 0;
    f->r[1].negative = 0;
    fx_outcome(f, "crash", "x=0; y=0", 4);
    fx_outcome(f, "crash", "x=1; y=0", 2);
    fx_outcome(f, "final", "1:r0=1; x=1; y=1", 1);
    fx_violation(f, 0, "counterexample", "x=0; y=1", "step 0\nstep 1\n",
                 "{\"steps\":[],\"deps\":[]}", 1);
    fx_violation(f, 1, "error", NULL, "T0: index 4 out of bounds", NULL, 2);
    fx_cost(f, "stall_cycles", 120);
    fx_cost(f, "l2_writebacks", 3.5);
}

static void test_round_trip(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    int64_t run = fx_run(db, "gpmc run --model bscoped sb.litmus");
    assert_int_equal(run, 1);
    char host[256] = "", want[1024];
    gethostname(host, sizeof host - 1);
    snprintf(want, sizeof want,
             "run_id,argv,version,host,status,open,iso\n"
             "1,gpmc run --model bscoped sb.litmus,0.1.0,%s,running,1,1\n",
             host);
    assert_csv(db, "SELECT run_id, argv, version, host, status,"
                   " finished_at IS NULL AS open, started_at GLOB "
                   FX_ISO_GLOB " AS iso FROM runs", want);

    FxCheck f;
    build_full_check(&f);
    assert_int_equal(fx_write(db, run, &f), 1);
    assert_int_equal(res_run_end(db, run, "done"), RES_OK);

    assert_csv(db, "SELECT status, finished_at >= started_at AS ordered,"
                   " finished_at GLOB " FX_ISO_GLOB " AS iso"
                   " FROM runs", "status,ordered,iso\ndone,1,1\n");
    assert_csv(db, "SELECT * FROM tests",
               "test_id,name,path,sha256,source,params\n"
               "1,SB+pbar+sync,suite/SB+pbar+sync.litmus,sha-SB+pbar+sync,"
               "\"test SB+pbar+sync \"\"two, \"\"\nkernel k0\n\",N=2\n");
    assert_csv(db, "SELECT * FROM checks",
               "check_id,run_id,test_id,model,config,status,states,"
               "transitions,crash_points,crash_images,recoveries,elapsed_ms,"
               "peak_kb,cycles,nvm_writes,error\n"
               "1,1,1,bscoped,N=2;crash_depth=2;naive=0;wpq=durable,"
               "incomplete,1000,2345,999,4321,77,250,8192,,42,"
               "max-states 1000 reached\n");
    assert_csv(db, "SELECT typeof(cycles), typeof(nvm_writes) FROM checks",
               "typeof(cycles),typeof(nvm_writes)\nnull,integer\n");
    assert_csv(db, "SELECT *, typeof(quant), typeof(expected) FROM results"
                   " ORDER BY cond_index",
               "check_id,cond_index,phase,quant,cond,verdict,expected,"
               "positive,negative,typeof(quant),typeof(expected)\n"
               "1,0,crash,~exists,(y == 1 && x == 0),No,No,7,3,text,text\n"
               "1,1,noerror,,,Ok,,0,0,null,null\n");
    assert_csv(db, "SELECT * FROM outcomes ORDER BY rowid",
               "check_id,phase,state,count\n"
               "1,crash,x=0; y=0,4\n1,crash,x=1; y=0,2\n"
               "1,final,1:r0=1; x=1; y=1,1\n");
    assert_csv(db, "SELECT *, typeof(image) FROM violations",
               "violation_id,check_id,cond_index,kind,image,witness,"
               "witness_json,depth,typeof(image)\n"
               "1,1,0,counterexample,x=0; y=1,\"step 0\nstep 1\n\","
               "\"{\"\"steps\"\":[],\"\"deps\"\":[]}\",1,text\n"
               "2,1,1,error,,T0: index 4 out of bounds,,2,null\n");
    assert_csv(db, "SELECT *, typeof(value) FROM costs ORDER BY rowid",
               "check_id,metric,value,typeof(value)\n"
               "1,stall_cycles,120.0,real\n1,l2_writebacks,3.5,real\n");

    /* The same test under another model shares its tests row; other
       params make another. */
    f.c.model = "scoped";
    assert_int_equal(fx_write(db, run, &f), 2);
    f.c.test.params = "N=3";
    assert_int_equal(fx_write(db, run, &f), 3);
    assert_csv(db, "SELECT c.check_id, c.test_id, t.params FROM checks c"
                   " JOIN tests t USING (test_id) ORDER BY 1",
               "check_id,test_id,params\n1,1,N=2\n2,1,N=2\n3,2,N=3\n");
    res_close(db);
    fx_dir_remove(&d);
}

static void assert_nothing_written(ResDb *db)
{
    assert_csv(db, "SELECT (SELECT count(*) FROM tests) AS t,"
                   " (SELECT count(*) FROM checks) AS c,"
                   " (SELECT count(*) FROM results) AS r,"
                   " (SELECT count(*) FROM outcomes) AS o,"
                   " (SELECT count(*) FROM violations) AS v,"
                   " (SELECT count(*) FROM costs) AS k",
               "t,c,r,o,v,k\n0,0,0,0,0,0\n");
}

static void expect_rollback(ResDb *db, int64_t run, const FxCheck *f,
                            const char *msg)
{
    int64_t id = -7;
    assert_int_equal(res_write_check(db, run, &f->c, &id), RES_EINTERNAL);
    assert_int_equal(id, -7);
    assert_string_equal(res_errmsg(db), msg);
    assert_nothing_written(db);
}

static void test_failed_write_rolls_back(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    int64_t run = fx_run(db, "gpmc run mp.litmus");
    FxCheck f;

    /* Each failure comes after the test, the check and some rows are in. */
    build_full_check(&f);
    f.r[1].verdict = "Maybe";
    expect_rollback(db, run, &f, "results: CHECK constraint failed: verdict"
                                 " IN ('Ok', 'No', 'Unknown')");
    build_full_check(&f);
    f.o[2].phase = NULL;
    expect_rollback(db, run, &f, "results: NOT NULL constraint failed:"
                                 " outcomes.phase");
    build_full_check(&f);
    f.o[1].state = "x=0; y=0";
    expect_rollback(db, run, &f, "results: UNIQUE constraint failed:"
                                 " outcomes.check_id, outcomes.phase,"
                                 " outcomes.state");
    build_full_check(&f);
    f.v[1].witness_json = "{\"steps\": [";
    expect_rollback(db, run, &f, "results: CHECK constraint failed:"
                                 " witness_json IS NULL OR"
                                 " json_valid(witness_json)");
    build_full_check(&f);
    f.k[1].metric = "stall_cycles";
    expect_rollback(db, run, &f, "results: UNIQUE constraint failed:"
                                 " costs.check_id, costs.metric");
    build_full_check(&f);
    expect_rollback(db, run + 1, &f, "results: FOREIGN KEY constraint"
                                     " failed");
    build_full_check(&f);
    f.c.nresults = -1;
    expect_rollback(db, run, &f, "results: writing a check: bad record"
                                 " counts");

    /* The connection is usable afterwards: no transaction was left open. */
    build_full_check(&f);
    assert_int_equal(fx_write(db, run, &f), 1);
    assert_csv(db, "SELECT (SELECT count(*) FROM results) AS r,"
                   " (SELECT count(*) FROM outcomes) AS o,"
                   " (SELECT count(*) FROM violations) AS v",
               "r,o,v\n2,3,2\n");
    res_close(db);
    fx_dir_remove(&d);
}

static void test_read_only_refuses_writes(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    res_close(fx_open(d.db, RES_READWRITE));
    ResDb *db = fx_open(d.db, RES_READONLY);
    FxCheck f;
    build_full_check(&f);
    int64_t id;
    assert_int_equal(res_write_check(db, 1, &f.c, &id), RES_EINTERNAL);
    assert_string_equal(res_errmsg(db), "results: writing a check: database"
                                        " opened read-only");
    assert_int_equal(res_run_begin(db, "x", "0.1.0", &id), RES_EINTERNAL);
    assert_string_equal(res_errmsg(db), "results: starting a run: database"
                                        " opened read-only");
    assert_int_equal(res_run_end(db, 1, "done"), RES_EINTERNAL);
    assert_string_equal(res_errmsg(db), "results: ending a run: database"
                                        " opened read-only");
    res_close(db);
    db = fx_open(d.db, RES_READWRITE);
    assert_int_equal(res_run_end(db, 99, "done"), RES_EINTERNAL);
    assert_string_equal(res_errmsg(db), "results: no run 99");
    res_close(db);
    fx_dir_remove(&d);
}

static void test_check_done_for_resume(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    int64_t run = fx_run(db, "gpmc suite s");
    FxCheck f;
    fx_check(&f, "X", "hw");
    f.c.config = "c1";
    fx_write(db, run, &f);
    fx_check(&f, "Y", "hw");
    f.c.config = "c1";
    f.c.status = "incomplete";
    fx_write(db, run, &f);
    assert_int_equal(res_check_done(db, "sha-X", "hw", "c1", "0.1.0"), 1);
    assert_int_equal(res_check_done(db, "sha-X", "hw", "c1", "0.2.0"), 0);
    assert_int_equal(res_check_done(db, "sha-X", "hw", "c2", "0.1.0"), 0);
    assert_int_equal(res_check_done(db, "sha-X", "strict", "c1", "0.1.0"), 0);
    assert_int_equal(res_check_done(db, "sha-Z", "hw", "c1", "0.1.0"), 0);
    assert_int_equal(res_check_done(db, "sha-Y", "hw", "c1", "0.1.0"), 0);
    res_close(db);
    fx_dir_remove(&d);
}

/* ---- views ------------------------------------------------------------ */

static void write_one(ResDb *db, int64_t run, const char *test,
                      const char *model, const char *config, int64_t states,
                      const char *v0, const char *e0, const char *v1,
                      const char *e1)
{
    FxCheck f;
    fx_check(&f, test, model);
    f.c.config = config;
    f.c.states = states;
    fx_result(&f, "crash", "~exists", "(x == 1)", v0, e0);
    if (v1)
        fx_result(&f, "noerror", NULL, NULL, v1, e1);
    fx_write(db, run, &f);
}

#define C1 "crash_depth=1;naive=0"
#define C2 "crash_depth=2;naive=0"

static void test_views(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    ResDb *db = fx_open(d.db, RES_READWRITE);
    int64_t a = fx_run(db, "run A"), b = fx_run(db, "run B"),
            c = fx_run(db, "run C"), dd = fx_run(db, "run D"),
            e = fx_run(db, "run E");
    write_one(db, a, "MP", "scoped", C2, 101, "No", "No", NULL, NULL);
    write_one(db, a, "MP", "bscoped", C2, 102, "No", "Ok", NULL, NULL);
    write_one(db, a, "SB", "strict", C2, 103, "Ok", NULL, "No", NULL);
    /* Run B repeats MP bscoped twice (a file given twice): the later
       check of the run counts. */
    write_one(db, b, "MP", "bscoped", C2, 201, "No", "Ok", NULL, NULL);
    write_one(db, b, "MP", "bscoped", C2, 202, "Ok", "Ok", NULL, NULL);
    write_one(db, b, "MP", "scoped", C1, 203, "Ok", "No", NULL, NULL);
    /* Run C never finished: its checks count, dated by its start. */
    write_one(db, c, "SB", "hw", C2, 301, "No", NULL, "Ok", NULL);
    /* D and E finish at the same time: E, started later, wins although its
       check was written first. */
    write_one(db, e, "SB", "epoch", C2, 501, "Ok", NULL, "Ok", NULL);
    write_one(db, dd, "SB", "epoch", C2, 401, "No", NULL, "No", NULL);
    fx_raw(d.db,
           "UPDATE runs SET status = 'done', started_at = CASE run_id"
           " WHEN 1 THEN '2025-01-01T00:00:00.000000Z'"
           " WHEN 2 THEN '2025-01-02T00:00:00.000000Z'"
           " WHEN 3 THEN '2025-01-03T00:00:00.000000Z'"
           " WHEN 4 THEN '2025-01-04T00:00:00.000000Z'"
           " ELSE '2025-01-04T12:00:00.000000Z' END,"
           " finished_at = CASE run_id"
           " WHEN 1 THEN '2025-01-01T01:00:00.000000Z'"
           " WHEN 2 THEN '2025-01-02T01:00:00.000000Z'"
           " WHEN 3 THEN NULL ELSE '2025-01-05T00:00:00.000000Z' END");

    assert_csv(db, "SELECT * FROM latest_checks",
               "test,model,config,status,states,transitions,crash_points,"
               "crash_images,recoveries,cycles,nvm_writes,error\n"
               "MP,scoped," C1 ",done,203,20,10,12,12,1000,16,\n"
               "MP,scoped," C2 ",done,101,20,10,12,12,1000,16,\n"
               "MP,bscoped," C2 ",done,202,20,10,12,12,1000,16,\n"
               "SB,strict," C2 ",done,103,20,10,12,12,1000,16,\n"
               "SB,epoch," C2 ",done,501,20,10,12,12,1000,16,\n"
               "SB,hw," C2 ",done,301,20,10,12,12,1000,16,\n");
    assert_csv(db, "SELECT * FROM verdict_matrix",
               "test,model,cond_index,phase,verdict,expected\n"
               "MP,scoped,0,crash,Ok,No\n"
               "MP,scoped,0,crash,No,No\n"
               "MP,bscoped,0,crash,Ok,Ok\n"
               "SB,strict,0,crash,Ok,\n"
               "SB,epoch,0,crash,Ok,\n"
               "SB,hw,0,crash,No,\n"
               "SB,strict,1,noerror,No,\n"
               "SB,epoch,1,noerror,Ok,\n"
               "SB,hw,1,noerror,Ok,\n");
    assert_csv(db, "SELECT * FROM unexpected",
               "test,model,cond_index,phase,verdict,expected\n"
               "MP,scoped,0,crash,Ok,No\n"
               "SB,hw,0,crash,No,\n"
               "SB,strict,1,noerror,No,\n");
    assert_csv(db, "SELECT * FROM model_disagreements",
               "test,cond_index,model_a,verdict_a,model_b,verdict_b\n"
               "MP,0,scoped,No,bscoped,Ok\n"
               "SB,0,strict,Ok,hw,No\n"
               "SB,0,epoch,Ok,hw,No\n"
               "SB,1,strict,No,epoch,Ok\n"
               "SB,1,strict,No,hw,Ok\n");

    /* A newer finished run takes over; the unfinished one then loses. */
    int64_t f = fx_run(db, "run F");
    write_one(db, f, "SB", "hw", C2, 601, "Ok", NULL, "Ok", NULL);
    assert_int_equal(res_run_end(db, f, "done"), RES_OK);
    assert_csv(db, "SELECT test, model, states FROM latest_checks"
                   " WHERE model = 'hw'", "test,model,states\nSB,hw,601\n");
    assert_csv(db, "SELECT count(*) FROM unexpected", "count(*)\n2\n");
    res_close(db);
    fx_dir_remove(&d);
}

/* ---- concurrency -------------------------------------------------------- */

static int child_writes(const char *path, const char *prefix, int n)
{
    ResDb *db;
    char err[256], name[32];
    if (res_open(path, RES_READWRITE, &db, err, sizeof err))
        return 1;
    int64_t run;
    if (res_run_begin(db, prefix, "0.1.0", &run))
        return 2;
    for (int i = 0; i < n; i++) {
        FxCheck f;
        snprintf(name, sizeof name, "%s-%d", prefix, i);
        fx_check(&f, name, i % 2 ? "hw" : "scoped");
        fx_result(&f, "crash", "forall", "(x == 0)", "Ok", NULL);
        fx_result(&f, "final", "exists", "(x == 1)", "No", "No");
        fx_outcome(&f, "crash", "x=0", 3);
        if (i % 2)
            fx_violation(&f, 1, "counterexample", NULL, "w", "{}", 1);
        int64_t id;
        if (res_write_check(db, run, &f.c, &id))
            return 3;
    }
    if (res_run_end(db, run, "done"))
        return 4;
    res_close(db);
    return 0;
}

static void test_concurrent_writers(void **state)
{
    (void)state;
    FxDir d;
    fx_dir_make(&d);
    res_close(fx_open(d.db, RES_READWRITE));
    static const char *const prefixes[] = {"A", "B"};
    pid_t pids[2];
    for (int i = 0; i < 2; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0)
            _exit(child_writes(d.db, prefixes[i], 100));
    }
    for (int i = 0; i < 2; i++) {
        int status;
        assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    ResDb *db = fx_open(d.db, RES_READONLY);
    assert_csv(db, "PRAGMA integrity_check", "integrity_check\nok\n");
    assert_csv(db, "SELECT (SELECT count(*) FROM runs) AS runs,"
                   " (SELECT count(*) FROM tests) AS tests,"
                   " (SELECT count(*) FROM checks) AS checks,"
                   " (SELECT count(*) FROM results) AS results,"
                   " (SELECT count(*) FROM outcomes) AS outcomes,"
                   " (SELECT count(*) FROM violations) AS violations",
               "runs,tests,checks,results,outcomes,violations\n"
               "2,200,200,400,200,100\n");
    assert_csv(db, "SELECT r.argv, count(*), count(DISTINCT t.name)"
                   " FROM checks c JOIN runs r USING (run_id)"
                   " JOIN tests t USING (test_id) GROUP BY r.argv ORDER BY 1",
               "argv,count(*),count(DISTINCT t.name)\nA,100,100\nB,100,100\n");
    /* Every check has exactly its own rows. */
    assert_csv(db, "SELECT count(*) FROM checks c WHERE"
                   " (SELECT count(*) FROM results r"
                   "  WHERE r.check_id = c.check_id) <> 2",
               "count(*)\n0\n");
    res_close(db);
    fx_dir_remove(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_failed_write_rolls_back),
        cmocka_unit_test(test_read_only_refuses_writes),
        cmocka_unit_test(test_check_done_for_resume),
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_concurrent_writers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
