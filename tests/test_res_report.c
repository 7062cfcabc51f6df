/* results: report, show and DOT text on a small hand-built database, and
   the example queries of specs/schema.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "harness/harness.h"
#include "tests/test_res_fixture.h"

#define C1 "crash_depth=1;naive=0"
#define C2 "crash_depth=2;naive=0"
/* Their ids: the first 8 hex digits of their SHA-256. */
#define C1ID "0e912427"
#define C2ID "168499f4"

#define SB_JSON                                                              \
    "{\"steps\":[{\"id\":0,\"phase\":\"main\",\"thread\":0,\"kernel\":\"k0\"," \
    "\"line\":5,\"instr\":\"st x, 1\",\"effect\":\"x = 1\",\"store\":1},"    \
    "{\"id\":1,\"phase\":\"main\",\"thread\":1,\"kernel\":\"k0\",\"line\":9," \
    "\"instr\":\"ld r0, x\",\"effect\":\"r0 = 1\",\"extra\":[1,{\"a\":null}]},"\
    "{\"id\":2,\"phase\":\"main\",\"thread\":1,\"kernel\":\"k0\","           \
    "\"line\":10,\"instr\":\"st y, 1\",\"effect\":\"y = 1\",\"store\":2}," \
    "{\"id\":3,\"phase\":\"main\",\"thread\":0,\"kernel\":\"k0\",\"line\":6," \
    "\"instr\":\"pbar\",\"effect\":\"\\\"ordered\\\"\"}],"                   \
    "\"crash\":{\"after\":2,\"included\":[2],\"excluded\":[1]},"             \
    "\"recovery\":[{\"id\":0,\"phase\":\"recovery\",\"thread\":0,"           \
    "\"kernel\":\"fix\",\"line\":14,\"instr\":\"ld r1, y\"}],"               \
    "\"deps\":[[2,1],[9,1]],\"note\":\"ignored\"}"

typedef struct {
    const char *test, *model, *config;
    int64_t cycles, nvm;
    const char *v0, *e0, *v1, *e1;      /* verdicts of check lines 0, 1 */
} Row;

static void write_rows(ResDb *db, int64_t run, const Row *rows, int n)
{
    for (int i = 0; i < n; i++) {
        const Row *r = &rows[i];
        FxCheck f;
        fx_check(&f, r->test, r->model);
        f.c.config = r->config;
        f.c.cycles = r->cycles;
        f.c.nvm_writes = r->nvm;
        if (r->v0)
            fx_result(&f, "crash", r->test[0] == 'S' ? "~exists" : "forall",
                      /* the checker's form carries the quantifier */
                      r->test[0] == 'S' ? "(y == 1 && x == 0)"
                                        : "forall (ok == 1)",
                      r->v0, r->e0);
        if (r->v1)
            fx_result(&f, "noerror", NULL, NULL, r->v1, r->e1);
        if (!strcmp(r->test, "SB") && !strcmp(r->config, C2)) {
            fx_outcome(&f, "crash", "x=0; y=0", 5);
            if (!strcmp(r->model, "bscoped") || !strcmp(r->model, "bepoch"))
                fx_outcome(&f, "crash", "x=0; y=1", 2);
            fx_outcome(&f, "crash", "x=1; y=1", 3);
            fx_outcome(&f, "final", "1:r0=1; x=1; y=1", 1);
            fx_cost(&f, "stall_cycles", 12.5);
            fx_cost(&f, "bytes_written", 256);
        }
        if (r->v0 && r->v0[0] == 'N')
            fx_violation(&f, 0, "counterexample", "x=0; y=1",
                         "main: T1 k0:10 st y, 1\ncrash: y persisted,"
                         " x lost\n", SB_JSON, 1);
        if (r->v1 && r->v1[0] == 'N')
            fx_violation(&f, 1, "error", NULL,
                         "T0 k0:7: index 4 out of bounds", NULL, 1);
        if (!strcmp(r->test, "MP") && !strcmp(r->model, "hw")) {
            f.c.status = "incomplete";
            f.c.error = "max-states 1000000 reached";
        }
        fx_write(db, run, &f);
    }
}

static const Row run1[] = {
    {"btree+base", "strict", C2, 1000, 40, "Ok", "Ok", NULL, NULL},
    {"btree+base", "hw", C2, 2000, 80, "Ok", "Ok", NULL, NULL},
    {"btree+pbar.kr", "strict", C2, 750, 30, "Ok", "Ok", NULL, NULL},
    {"btree+pbar.kr", "hw", C2, 3000, -1, "No", "Ok", NULL, NULL},
    {"SB", "strict", C2, 500, 10, "Ok", "Ok", "Ok", NULL},
    {"SB", "epoch", C2, 400, 9, "Ok", "Ok", "Ok", NULL},
    {"SB", "bepoch", C2, 300, 8, "No", "No", "Ok", NULL},
    {"SB", "scoped", C2, 350, 9, "Ok", "Ok", "Ok", NULL},
    {"SB", "bscoped", C2, 250, 8, "No", "No", "Ok", NULL},
    {"SB", "hw", C2, 600, 12, "Ok", "Ok", "No", NULL},
    {"SB", "strict", C1, 450, 10, "Ok", "Ok", "Ok", NULL},
    {"MP", "hw", C2, -1, -1, NULL, NULL, NULL, NULL},
    {"MP", "tso", C2, -1, -1, "Ok", NULL, NULL, NULL},
};

static const Row run2[] = {
    {"SB", "bscoped", C2, 260, 8, "No", "No", "No", NULL},
};

typedef struct {
    FxDir d;
} Fixture;

static int setup(void **state)
{
    Fixture *fx = calloc(1, sizeof *fx);
    fx_dir_make(&fx->d);
    ResDb *db = fx_open(fx->d.db, RES_READWRITE);
    int64_t r1 = fx_run(db, "gpmc suite litmus");
    write_rows(db, r1, run1, (int)(sizeof run1 / sizeof *run1));
    res_run_end(db, r1, "done");
    int64_t r2 = fx_run(db, "gpmc run --model bscoped SB.litmus");
    write_rows(db, r2, run2, 1);
    res_run_end(db, r2, "done");
    res_close(db);
    fx_raw(fx->d.db,
           "UPDATE runs SET host = 'lab1', started_at = CASE run_id"
           " WHEN 1 THEN '2025-03-01T10:00:00.000000Z'"
           " ELSE '2025-03-02T09:00:00.000000Z' END,"
           " finished_at = CASE run_id"
           " WHEN 1 THEN '2025-03-01T10:05:00.000000Z'"
           " ELSE '2025-03-02T09:01:00.000000Z' END");
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

typedef int (*Printer)(ResDb *db, const char *arg, int64_t id, FILE *out);

static int print_report(ResDb *db, const char *arg, int64_t id, FILE *out)
{
    (void)id;
    return res_report(db, arg, RES_FMT_TABLE, out);
}

static int print_violation(ResDb *db, const char *arg, int64_t id, FILE *out)
{
    return res_show_violation(db, id, arg != NULL, out);
}

static int print_check(ResDb *db, const char *arg, int64_t id, FILE *out)
{
    return res_show_check(db, id, arg != NULL, out);
}

/* Output of a printer on the fixture's database (malloc'd). */
static char *capture(const Fixture *fx, Printer p, const char *arg,
                     int64_t id, int want_rc)
{
    ResDb *db = fx_open(fx->d.db, RES_READONLY);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    int rc = p(db, arg, id, f);
    fclose(f);
    if (rc != want_rc)
        fail_msg("rc %d: %s", rc, res_errmsg(db));
    res_close(db);
    return out;
}

#define assert_output(fx, p, arg, id, want)                                \
    do {                                                                   \
        char *got_ = capture(fx, p, arg, id, RES_OK);                      \
        assert_string_equal(got_, want);                                   \
        free(got_);                                                        \
    } while (0)

static void test_report_verdicts(void **state)
{
    assert_output(*state, print_report, "verdicts", 0,
        "test           cond  phase    strict  epoch  bepoch  scoped  bscoped"
        "  hw   tso\n"
        "-------------  ----  -------  ------  -----  ------  ------  -------"
        "  ---  ---\n"
        "MP                0  crash    -       -      -       -       -      "
        "  -    Ok\n"
        "SB [1]            0  crash    Ok      -      -       -       -      "
        "  -    -\n"
        "SB [1]            1  noerror  Ok      -      -       -       -      "
        "  -    -\n"
        "SB [2]            0  crash    Ok      Ok     No      Ok      No     "
        "  Ok   -\n"
        "SB [2]            1  noerror  Ok      Ok     Ok      Ok      No!    "
        "  No!  -\n"
        "btree+base        0  crash    Ok      -      -       -       -      "
        "  Ok   -\n"
        "btree+pbar.kr     0  crash    Ok      -      -       -       -      "
        "  No!  -\n"
        "\n"
        "7 rows, 19 verdicts: 16 pass, 3 unexpected (marked !), 0 Unknown\n"
        "\n"
        "configs:\n"
        "  SB [1]  " C1ID "  " C1 "\n"
        "  SB [2]  " C2ID "  " C2 "\n");
}

static void test_report_unexpected(void **state)
{
    assert_output(*state, print_report, "unexpected", 0,
        "test           model    cond  phase    verdict  expected  check"
        "  violation\n"
        "-------------  -------  ----  -------  -------  --------  -----"
        "  ---------\n"
        "SB [2]         bscoped     1  noerror  No       -            14"
        "  6\n"
        "SB [2]         hw          1  noerror  No       -            10"
        "  4\n"
        "btree+pbar.kr  hw          0  crash    No       Ok            4"
        "  1\n"
        "\n"
        "test  model  status      error                       check"
        "  violation\n"
        "----  -----  ----------  --------------------------  -----"
        "  ---------\n"
        "MP    hw     incomplete  max-states 1000000 reached     12  -\n"
        "\n"
        "3 unexpected verdicts, 1 check incomplete or failed\n"
        "\n"
        "configs:\n"
        "  SB [1]  " C1ID "  " C1 "\n"
        "  SB [2]  " C2ID "  " C2 "\n");
}

static void test_report_costs(void **state)
{
    assert_output(*state, print_report, "costs", 0,
        "test           model    cycles  nvm_writes  cycles/base  writes/base\n"
        "-------------  -------  ------  ----------  -----------  -----------\n"
        "MP             hw            -           -            -            -\n"
        "MP             tso           -           -            -            -\n"
        "SB [1]         strict      450          10            -            -\n"
        "SB [2]         strict      500          10            -            -\n"
        "SB [2]         epoch       400           9            -            -\n"
        "SB [2]         bepoch      300           8            -            -\n"
        "SB [2]         scoped      350           9            -            -\n"
        "SB [2]         bscoped     260           8            -            -\n"
        "SB [2]         hw          600          12            -            -\n"
        "btree+base     strict     1000          40         1.00         1.00\n"
        "btree+base     hw         2000          80         1.00         1.00\n"
        "btree+pbar.kr  strict      750          30         0.75         0.75\n"
        "btree+pbar.kr  hw         3000           -         1.50            -\n"
        "\n"
        "13 checks; baseline: FAMILY+base at the same model and config,"
        " FAMILY = the test name up to its last '+'\n"
        "\n"
        "configs:\n"
        "  SB [1]  " C1ID "  " C1 "\n"
        "  SB [2]  " C2ID "  " C2 "\n");
}

static void test_report_disagreements(void **state)
{
    assert_output(*state, print_report, "disagreements", 0,
        "test           cond  model_a  verdict_a  model_b  verdict_b\n"
        "-------------  ----  -------  ---------  -------  ---------\n"
        "SB [2]            0  strict   Ok         bepoch   No\n"
        "SB [2]            0  strict   Ok         bscoped  No\n"
        "SB [2]            0  epoch    Ok         bepoch   No\n"
        "SB [2]            0  epoch    Ok         bscoped  No\n"
        "SB [2]            0  bepoch   No         scoped   Ok\n"
        "SB [2]            0  bepoch   No         hw       Ok\n"
        "SB [2]            0  scoped   Ok         bscoped  No\n"
        "SB [2]            0  bscoped  No         hw       Ok\n"
        "SB [2]            1  strict   Ok         bscoped  No\n"
        "SB [2]            1  strict   Ok         hw       No\n"
        "SB [2]            1  epoch    Ok         bscoped  No\n"
        "SB [2]            1  epoch    Ok         hw       No\n"
        "SB [2]            1  bepoch   Ok         bscoped  No\n"
        "SB [2]            1  bepoch   Ok         hw       No\n"
        "SB [2]            1  scoped   Ok         bscoped  No\n"
        "SB [2]            1  scoped   Ok         hw       No\n"
        "btree+pbar.kr     0  strict   Ok         hw       No\n"
        "\n"
        "17 disagreements\n"
        "\n"
        "configs:\n"
        "  SB [1]  " C1ID "  " C1 "\n"
        "  SB [2]  " C2ID "  " C2 "\n");
}

static void test_report_empty_and_unknown(void **state)
{
    Fixture *fx = *state;
    char path[256];
    fx_path(&fx->d, "empty.db", path, sizeof path);
    res_close(fx_open(path, RES_READWRITE));
    ResDb *db = fx_open(path, RES_READONLY);
    static const char *const want[][2] = {
        {"verdicts", "0 rows, 0 verdicts: 0 pass, 0 unexpected (marked !),"
                     " 0 Unknown\n"},
        {"unexpected", "0 unexpected verdicts, 0 checks incomplete or"
                       " failed\n"},
        {"costs", "0 checks; baseline: FAMILY+base at the same model and"
                  " config, FAMILY = the test name up to its last '+'\n"},
        {"disagreements", "0 disagreements\n"},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *out = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&out, &len);
        assert_int_equal(res_report(db, want[i][0], RES_FMT_TABLE, f),
                         RES_OK);
        fclose(f);
        assert_string_equal(out, want[i][1]);
        free(out);
    }
    assert_int_equal(res_report(db, "verdict", RES_FMT_TABLE, stdout),
                     RES_EINPUT);
    assert_string_equal(res_errmsg(db), "unknown report 'verdict' (expected"
                        " verdicts, unexpected, costs, disagreements,"
                        " configs or html)");
    res_close(db);

    char *a1[] = {(char *)"bogus", (char *)"--db", fx->d.db};
    assert_int_equal(h_cmd_report(3, a1), H_USAGE);
    char *a2[] = {(char *)"--db", fx->d.db};
    assert_int_equal(h_cmd_report(2, a2), H_USAGE);
    char *a3[] = {(char *)"verdicts", (char *)"--db", path};
    assert_int_equal(h_cmd_report(3, a3), H_OK);
    fx_path(&fx->d, "missing.db", path, sizeof path);
    char *a4[] = {(char *)"verdicts", (char *)"--db", path};
    assert_int_equal(h_cmd_report(3, a4), H_USAGE);
}

/* CSV and JSON carry the config as a column instead of "NAME [k]"
   labels, and no summary; unexpected is then one table of the failing
   verdicts and the failing checks. */
static void test_report_formats(void **state)
{
    Fixture *fx = *state;
    ResDb *db = fx_open(fx->d.db, RES_READONLY);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "disagreements", RES_FMT_CSV, f), RES_OK);
    fclose(f);
    assert_string_equal(out,
        "test,path,config_id,cond,model_a,verdict_a,model_b,verdict_b\n"
        "SB,suite/SB.litmus," C2ID ",0,strict,Ok,bepoch,No\n"
        "SB,suite/SB.litmus," C2ID ",0,strict,Ok,bscoped,No\n"
        "SB,suite/SB.litmus," C2ID ",0,epoch,Ok,bepoch,No\n"
        "SB,suite/SB.litmus," C2ID ",0,epoch,Ok,bscoped,No\n"
        "SB,suite/SB.litmus," C2ID ",0,bepoch,No,scoped,Ok\n"
        "SB,suite/SB.litmus," C2ID ",0,bepoch,No,hw,Ok\n"
        "SB,suite/SB.litmus," C2ID ",0,scoped,Ok,bscoped,No\n"
        "SB,suite/SB.litmus," C2ID ",0,bscoped,No,hw,Ok\n"
        "SB,suite/SB.litmus," C2ID ",1,strict,Ok,bscoped,No\n"
        "SB,suite/SB.litmus," C2ID ",1,strict,Ok,hw,No\n"
        "SB,suite/SB.litmus," C2ID ",1,epoch,Ok,bscoped,No\n"
        "SB,suite/SB.litmus," C2ID ",1,epoch,Ok,hw,No\n"
        "SB,suite/SB.litmus," C2ID ",1,bepoch,Ok,bscoped,No\n"
        "SB,suite/SB.litmus," C2ID ",1,bepoch,Ok,hw,No\n"
        "SB,suite/SB.litmus," C2ID ",1,scoped,Ok,bscoped,No\n"
        "SB,suite/SB.litmus," C2ID ",1,scoped,Ok,hw,No\n"
        "btree+pbar.kr,suite/btree+pbar.kr.litmus," C2ID ",0,strict,Ok,hw,No\n");
    free(out);
    f = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "unexpected", RES_FMT_JSON, f), RES_OK);
    fclose(f);
    assert_string_equal(out,
        "[\n"
        "{\"test\":\"SB\",\"path\":\"suite/SB.litmus\",\"config_id\":\"" C2ID "\",\"model\":\"bscoped\","
        "\"cond\":1,\"phase\":\"noerror\",\"verdict\":\"No\",\"expected\":null,"
        "\"status\":\"done\",\"error\":null,\"check\":14,\"violation\":\"6\"},\n"
        "{\"test\":\"SB\",\"path\":\"suite/SB.litmus\",\"config_id\":\"" C2ID "\",\"model\":\"hw\","
        "\"cond\":1,\"phase\":\"noerror\",\"verdict\":\"No\",\"expected\":null,"
        "\"status\":\"done\",\"error\":null,\"check\":10,\"violation\":\"4\"},\n"
        "{\"test\":\"btree+pbar.kr\",\"path\":\"suite/btree+pbar.kr.litmus\",\"config_id\":\"" C2ID "\",\"model\":\"hw\","
        "\"cond\":0,\"phase\":\"crash\",\"verdict\":\"No\",\"expected\":\"Ok\","
        "\"status\":\"done\",\"error\":null,\"check\":4,\"violation\":\"1\"},\n"
        "{\"test\":\"MP\",\"path\":\"suite/MP.litmus\",\"config_id\":\"" C2ID "\",\"model\":\"hw\","
        "\"cond\":null,\"phase\":null,\"verdict\":null,\"expected\":null,"
        "\"status\":\"incomplete\",\"error\":\"max-states 1000000 reached\","
        "\"check\":12,\"violation\":null}\n"
        "]\n");
    free(out);
    f = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "costs", RES_FMT_JSON, f), RES_OK);
    fclose(f);
    assert_non_null(strstr(out, "{\"test\":\"btree+pbar.kr\",\"path\":\"suite/btree+pbar.kr.litmus\",\"config_id\":\""
                                C2ID "\",\"model\":\"hw\",\"cycles\":3000,"
                                "\"nvm_writes\":null,\"cycles/base\":1.50,"
                                "\"writes/base\":null}"));
    free(out);
    /* verdicts: a row per model, the verdict clean, with its expectation
       and whether it passes */
    f = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "verdicts", RES_FMT_CSV, f), RES_OK);
    fclose(f);
    assert_non_null(strstr(out, "test,path,config_id,cond,phase,model,verdict,"
                                "expected,pass\n"
                                "MP,suite/MP.litmus," C2ID ",0,crash,tso,Ok,,1\n"));
    assert_non_null(strstr(out, "SB,suite/SB.litmus," C2ID ",1,noerror,bscoped,No,,0\n"
                                "SB,suite/SB.litmus," C2ID ",1,noerror,hw,No,,0\n"
                                "btree+base,suite/btree+base.litmus," C2ID ",0,crash,strict,Ok,Ok,"
                                "1\n"));
    assert_null(strchr(out, '!'));
    free(out);
    f = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "verdicts", RES_FMT_JSON, f), RES_OK);
    fclose(f);
    assert_non_null(strstr(out, "{\"test\":\"btree+pbar.kr\",\"path\":\"suite/btree+pbar.kr.litmus\",\"config_id\":"
                                "\"" C2ID "\",\"cond\":0,\"phase\":\"crash\","
                                "\"model\":\"hw\",\"verdict\":\"No\","
                                "\"expected\":\"Ok\",\"pass\":0}"));
    free(out);
    /* configs: each id with its config, whole */
    f = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "configs", RES_FMT_CSV, f), RES_OK);
    fclose(f);
    assert_string_equal(out, "config_id,tests,config\n"
                             C1ID ",1," C1 "\n"
                             C2ID ",4," C2 "\n");
    free(out);
    f = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "configs", RES_FMT_TABLE, f), RES_OK);
    fclose(f);
    assert_string_equal(out, C1ID "  1 test  " C1 "\n"
                             C2ID "  4 tests  " C2 "\n"
                             "2 configs\n");
    free(out);
    res_close(db);
}

/* An incomplete check's Unknown verdicts never pass: verdicts marks and
   counts them, unexpected lists them, and they disagree with nothing. */
static void test_report_unknown(void **state)
{
    Fixture *fx = *state;
    char path[256];
    fx_path(&fx->d, "unknown.db", path, sizeof path);
    ResDb *db = fx_open(path, RES_READWRITE);
    int64_t run = fx_run(db, "gpmc run big.litmus");
    FxCheck f;
    fx_check(&f, "BIG", "strict");
    f.c.status = "incomplete";
    f.c.error = "max-states (1000) reached";
    fx_result(&f, "final", "forall", "forall (x == 1)", "Unknown", "Ok");
    fx_result(&f, "crash", "~exists", "~exists (x == 2)", "No", NULL);
    fx_result(&f, "noerror", NULL, NULL, "Unknown", NULL);
    fx_violation(&f, 1, "counterexample", "x=2", "w", "{}", 1);
    fx_write(db, run, &f);
    fx_check(&f, "BIG", "epoch");
    fx_result(&f, "final", "forall", "forall (x == 1)", "Ok", "Ok");
    fx_result(&f, "crash", "~exists", "~exists (x == 2)", "No", NULL);
    fx_result(&f, "noerror", NULL, NULL, "Ok", NULL);
    fx_write(db, run, &f);
    res_close(db);
    db = fx_open(path, RES_READONLY);
    char *out = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "verdicts", RES_FMT_TABLE, o), RES_OK);
    fclose(o);
    assert_string_equal(out,
        "test  cond  phase    strict    epoch  bepoch  scoped  bscoped  hw\n"
        "----  ----  -------  --------  -----  ------  ------  -------  --\n"
        "BIG      0  final    Unknown!  Ok     -       -       -        -\n"
        "BIG      1  crash    No!       No!    -       -       -        -\n"
        "BIG      2  noerror  Unknown!  Ok     -       -       -        -\n"
        "\n"
        "3 rows, 6 verdicts: 2 pass, 4 unexpected (marked !), 2 Unknown\n");
    free(out);
    assert_csv(db, "SELECT model, cond_index, verdict FROM unexpected",
               "model,cond_index,verdict\nstrict,0,Unknown\nstrict,1,No\n"
               "epoch,1,No\nstrict,2,Unknown\n");
    assert_csv(db, "SELECT count(*) AS n FROM model_disagreements",
               "n\n0\n");
    res_close(db);
}

/* Two files that give a test the same name (papers/ and seeds/ of the
   corpus did): each keeps its latest results, so the views have a row for
   each and the reports tell them apart by their file; a later run of one
   replaces only its own. */
static void test_report_same_name(void **state)
{
    Fixture *fx = *state;
    char path[256];
    fx_path(&fx->d, "same.db", path, sizeof path);
    ResDb *db = fx_open(path, RES_READWRITE);
    int64_t run = fx_run(db, "gpmc suite a b");
    FxCheck f;
    fx_check(&f, "T", "strict");
    snprintf(f.path, sizeof f.path, "a/t.litmus");
    fx_result(&f, "final", "forall", "forall (x == 1)", "Ok", NULL);
    fx_write(db, run, &f);
    fx_check(&f, "T", "strict");
    snprintf(f.path, sizeof f.path, "b/t.litmus");
    snprintf(f.sha, sizeof f.sha, "sha-other");
    fx_result(&f, "final", "forall", "forall (x == 1)", "No", "No");
    fx_write(db, run, &f);
    /* a later run of a/t.litmus replaces its own check only */
    run = fx_run(db, "gpmc run a/t.litmus");
    fx_check(&f, "T", "strict");
    snprintf(f.path, sizeof f.path, "a/t.litmus");
    fx_result(&f, "final", "forall", "forall (x == 1)", "No", NULL);
    fx_write(db, run, &f);
    res_close(db);
    db = fx_open(path, RES_READONLY);
    assert_csv(db, "SELECT test, model, verdict, expected FROM verdict_matrix",
               "test,model,verdict,expected\nT,strict,No,\nT,strict,No,No\n");
    assert_csv(db, "SELECT count(*) AS n FROM latest_checks", "n\n2\n");
    char *out = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "verdicts", RES_FMT_TABLE, o), RES_OK);
    fclose(o);
    assert_string_equal(out,
        "test   cond  phase  strict  epoch  bepoch  scoped  bscoped  hw\n"
        "-----  ----  -----  ------  -----  ------  ------  -------  --\n"
        "T [1]     0  final  No!     -      -       -       -        -\n"
        "T [2]     0  final  No      -      -       -       -        -\n"
        "\n"
        "2 rows, 2 verdicts: 1 pass, 1 unexpected (marked !), 0 Unknown\n"
        "\n"
        "configs:\n"
        "  T [1]  a/t.litmus  " C2ID "  " C2 "\n"
        "  T [2]  b/t.litmus  " C2ID "  " C2 "\n");
    free(out);
    o = open_memstream(&out, &len);
    assert_int_equal(res_report(db, "unexpected", RES_FMT_CSV, o), RES_OK);
    fclose(o);
    assert_string_equal(out,
        "test,path,config_id,model,cond,phase,verdict,expected,status,error,"
        "check,violation\n"
        "T,a/t.litmus," C2ID ",strict,0,final,No,,done,,3,\n");
    free(out);
    res_close(db);
}

/* ---- show ----------------------------------------------------------------- */

static void test_show_violation(void **state)
{
    assert_output(*state, print_violation, NULL, 1,
        "violation 1: counterexample, depth 1\n"
        "  test       btree+pbar.kr (suite/btree+pbar.kr.litmus)\n"
        "  model      hw\n"
        "  config     " C2 "\n"
        "  check      4\n"
        "  condition  0: crash forall (ok == 1)\n"
        "  verdict    No (expected Ok)\n"
        "image:\n"
        "x=0; y=1\n"
        "witness:\n"
        "main: T1 k0:10 st y, 1\n"
        "crash: y persisted, x lost\n");
}

/* The fixture's witness in the short form (one "crash", a separate
   "recovery" array), titled with the check line it violates. */
static void test_show_violation_dot(void **state)
{
    assert_output(*state, print_violation, "dot", 2,
        "digraph violation_2 {\n"
        "  label=\"violation 2: counterexample of SB under bepoch (check 7)"
        "\\ncondition 0: crash ~exists (y == 1 && x == 0): No (expected"
        " No)\";\n"
        "  labelloc=t;\n"
        "  node [shape=box, fontname=\"monospace\"];\n"
        "  subgraph cluster_main {\n"
        "    label=\"main\";\n"
        "    subgraph cluster_main_t0 {\n"
        "      label=\"thread 0\";\n"
        "      s0 [label=\"1: T0 k0:5\\nst x, 1\\nx = 1\\nstore #1\","
        " style=filled, fillcolor=lightpink];\n"
        "      s3 [label=\"4: T0 k0:6\\npbar\\n\\\"ordered\\\"\"];\n"
        "    }\n"
        "    subgraph cluster_main_t1 {\n"
        "      label=\"thread 1\";\n"
        "      s1 [label=\"2: T1 k0:9\\nld r0, x\\nr0 = 1\"];\n"
        "      s2 [label=\"3: T1 k0:10\\nst y, 1\\ny = 1\\nstore #2\","
        " style=filled, fillcolor=palegreen];\n"
        "    }\n"
        "  }\n"
        "  crash [shape=octagon, label=\"crash after step 3\\npersisted:"
        " #2\\nlost: #1\"];\n"
        "  subgraph cluster_recovery {\n"
        "    label=\"recovery\";\n"
        "    subgraph cluster_recovery_t0 {\n"
        "      label=\"thread 0\";\n"
        "      s4 [label=\"1: T0 fix:14\\nld r1, y\"];\n"
        "    }\n"
        "  }\n"
        "  s1 -> s2 [label=\"po\"];\n"
        "  s0 -> s3 [label=\"po\"];\n"
        "  s2 -> crash [style=bold];\n"
        "  crash -> s4 [style=bold];\n"
        "  s2 -> crash [label=\"persisted\", color=darkgreen,"
        " fontcolor=darkgreen, style=dotted];\n"
        "  s0 -> crash [label=\"lost\", color=red, fontcolor=red,"
        " style=dotted];\n"
        "  s0 -> s2 [style=dashed, color=blue, fontcolor=blue,"
        " label=\"pdep\"];\n"
        "}\n");
}

static void test_show_check(void **state)
{
    assert_output(*state, print_check, NULL, 14,
        "check 14: SB under bscoped, done\n"
        "  test          SB (suite/SB.litmus)\n"
        "  sha256        sha-SB\n"
        "  params        -\n"
        "  config        " C2 "\n"
        "  run           2: gpmc 0.1.0 on lab1, started"
        " 2025-03-02T09:00:00.000000Z: gpmc run --model bscoped SB.litmus\n"
        "  states        10\n"
        "  transitions   20\n"
        "  crash points  10\n"
        "  crash images  12\n"
        "  recoveries    12\n"
        "  elapsed       3 ms\n"
        "  peak memory   512 kB\n"
        "  cycles        260\n"
        "  nvm writes    8\n"
        "  error         -\n"
        "\n"
        "results:\n"
        "cond  phase    quant    condition           verdict  expected"
        "  positive  negative\n"
        "----  -------  -------  ------------------  -------  --------"
        "  --------  --------\n"
        "   0  crash    ~exists  (y == 1 && x == 0)  No       No      "
        "         2         1\n"
        "   1  noerror  -        -                   No       -       "
        "         2         1\n"
        "\n"
        "outcomes:\n"
        "phase  state             count\n"
        "-----  ----------------  -----\n"
        "final  1:r0=1; x=1; y=1      1\n"
        "crash  x=0; y=0              5\n"
        "crash  x=0; y=1              2\n"
        "crash  x=1; y=1              3\n"
        "\n"
        "costs:\n"
        "metric         value\n"
        "-------------  -----\n"
        "bytes_written  256.0\n"
        "stall_cycles    12.5\n"
        "\n"
        "violations:\n"
        "violation 5: counterexample, depth 1\n"
        "  test       SB (suite/SB.litmus)\n"
        "  model      bscoped\n"
        "  config     " C2 "\n"
        "  check      14\n"
        "  condition  0: crash ~exists (y == 1 && x == 0)\n"
        "  verdict    No (expected No)\n"
        "image:\n"
        "x=0; y=1\n"
        "witness:\n"
        "main: T1 k0:10 st y, 1\n"
        "crash: y persisted, x lost\n"
        "\n"
        "violation 6: error, depth 1\n"
        "  test       SB (suite/SB.litmus)\n"
        "  model      bscoped\n"
        "  config     " C2 "\n"
        "  check      14\n"
        "  condition  1: noerror\n"
        "  verdict    No (expected none)\n"
        "witness:\n"
        "T0 k0:7: index 4 out of bounds\n");
}

static void test_show_errors(void **state)
{
    Fixture *fx = *state;
    char *out = capture(fx, print_violation, NULL, 99, RES_EINPUT);
    assert_string_equal(out, "");
    free(out);
    out = capture(fx, print_check, NULL, 99, RES_EINPUT);
    assert_string_equal(out, "");
    free(out);
    out = capture(fx, print_check, "dot", 99, RES_EINPUT);
    assert_string_equal(out, "");
    free(out);
    /* Violation 6 has no witness_json: --dot cannot draw it. */
    out = capture(fx, print_violation, "dot", 6, RES_EINPUT);
    assert_string_equal(out, "");
    free(out);
    ResDb *db = fx_open(fx->d.db, RES_READONLY);
    assert_int_equal(res_show_violation(db, 6, 1, stdout), RES_EINPUT);
    assert_string_equal(res_errmsg(db), "violation 6 has no witness_json");
    assert_int_equal(res_show_check(db, 99, 0, stdout), RES_EINPUT);
    assert_string_equal(res_errmsg(db), "no check 99");
    assert_int_equal(res_show_violation(db, 99, 0, stdout), RES_EINPUT);
    assert_string_equal(res_errmsg(db), "no violation 99");
    res_close(db);

    char *a1[] = {(char *)"violation", (char *)"x1", (char *)"--db", fx->d.db};
    assert_int_equal(h_cmd_show(4, a1), H_USAGE);
    char *a2[] = {(char *)"violation", (char *)"--db", fx->d.db};
    assert_int_equal(h_cmd_show(3, a2), H_USAGE);
    char *a3[] = {(char *)"run", (char *)"1", (char *)"--db", fx->d.db};
    assert_int_equal(h_cmd_show(4, a3), H_USAGE);
    char *a4[] = {(char *)"check", (char *)"99", (char *)"--db", fx->d.db};
    assert_int_equal(h_cmd_show(4, a4), H_USAGE);
}

/* ---- the example queries of specs/schema.md -------------------------------- */

/* Each "```sql example" block of the file, in order (malloc'd copies). */
static int read_examples(char **sql, int max)
{
    size_t len;
    char *doc = fx_slurp("specs/schema.md", &len), *p = doc;
    int n = 0;
    const char *open = "```sql example\n";
    while ((p = strstr(p, open)) && n < max) {
        p += strlen(open);
        char *end = strstr(p, "```");
        assert_non_null(end);
        sql[n] = strndup(p, (size_t)(end - p));
        n++;
        p = end + 3;
    }
    free(doc);
    return n;
}

static void test_schema_examples(void **state)
{
    Fixture *fx = *state;
    static const char *const want[] = {
        "test,cond_index,scoped,bscoped\nSB,0,Ok,No\nSB,1,Ok,No\n",
        "model,cond_index,kind,depth,violation_id\n"
        "bepoch,0,counterexample,1,2\n"
        "bscoped,0,counterexample,1,3\n"
        "hw,1,error,1,4\n"
        "bscoped,0,counterexample,1,5\n"
        "bscoped,1,error,1,6\n",
        "test,model,cycles,nvm_writes\n"
        "btree+pbar.kr,hw,3000,\n"
        "btree+base,hw,2000,80\n"
        "btree+base,strict,1000,40\n",
        "test,model,cond_index,before,after\nSB,bscoped,1,Ok,No\n",
        "test,model,status,error\nMP,hw,incomplete,max-states 1000000 reached\n",
        "model,verdicts,pass\n"
        "bscoped,2,1\n"
        "hw,4,2\n"
        "bepoch,2,2\n"
        "epoch,2,2\n"
        "scoped,2,2\n"
        "strict,6,6\n"
        "tso,1,1\n",
        "state\nx=0; y=1\n",
    };
    enum { N = sizeof want / sizeof *want };
    char *sql[N + 1];
    int n = read_examples(sql, N + 1);
    assert_int_equal(n, N);
    ResDb *db = fx_open(fx->d.db, RES_READONLY);
    for (int i = 0; i < n; i++) {
        assert_csv(db, sql[i], want[i]);
        free(sql[i]);
    }
    res_close(db);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_report_verdicts),
        T(test_report_unexpected),
        T(test_report_costs),
        T(test_report_disagreements),
        T(test_report_empty_and_unknown),
        T(test_report_formats),
        T(test_report_unknown),
        T(test_report_same_name),
        T(test_show_violation),
        T(test_show_violation_dot),
        T(test_show_check),
        T(test_show_errors),
        T(test_schema_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
