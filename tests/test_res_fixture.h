/*
 * Fixtures shared by the results tests (tests/test_res_*.c): temporary
 * directories, hand-built check records, and helpers that read query
 * results back as CSV text. Include after <cmocka.h>.
 */
#ifndef GPMC_TEST_RES_FIXTURE_H
#define GPMC_TEST_RES_FIXTURE_H

#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/results.h"

/* GLOB pattern of a gpmc timestamp: UTC ISO-8601 with microseconds. */
#define FX_D2 "[0-9][0-9]"
#define FX_ISO_GLOB \
    "'" FX_D2 FX_D2 "-" FX_D2 "-" FX_D2 "T" FX_D2 ":" FX_D2 ":" FX_D2 "." \
    FX_D2 FX_D2 FX_D2 "Z'"

typedef struct {
    char dir[64];
    char db[128];                       /* dir/results.db */
} FxDir;

static inline void fx_dir_make(FxDir *d)
{
    snprintf(d->dir, sizeof d->dir, "/tmp/gpmc-res-XXXXXX");
    assert_non_null(mkdtemp(d->dir));
    snprintf(d->db, sizeof d->db, "%s/results.db", d->dir);
}

static inline const char *fx_path(const FxDir *d, const char *name,
                                  char *buf, size_t n)
{
    char dir[sizeof d->dir];            /* buf may live in the same struct */
    memcpy(dir, d->dir, sizeof dir);
    snprintf(buf, n, "%s/%s", dir, name);
    return buf;
}

static inline void fx_dir_remove(const FxDir *d)
{
    DIR *dir = opendir(d->dir);
    struct dirent *e;
    char p[512];
    while (dir && (e = readdir(dir)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(fx_path(d, e->d_name, p, sizeof p));
    if (dir)
        closedir(dir);
    rmdir(d->dir);
}

static inline ResDb *fx_open(const char *path, int mode)
{
    ResDb *db = NULL;
    char err[512];
    if (res_open(path, mode, &db, err, sizeof err))
        fail_msg("res_open %s: %s", path, err);
    return db;
}

/* Run SQL on a plain SQLite connection (to doctor a file behind gpmc). */
static inline void fx_raw(const char *path, const char *sql)
{
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 10000);
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
        fail_msg("%s: %s", sql, err);
    sqlite3_close(db);
}

/* A check under construction: the record and room for its rows. */
typedef struct {
    ResCheck c;
    ResResult r[8];
    ResOutcome o[8];
    ResViolation v[4];
    ResCost k[4];
    char path[96], sha[96], source[96];
} FxCheck;

static inline void fx_check(FxCheck *f, const char *test, const char *model)
{
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "suite/%s.litmus", test);
    snprintf(f->sha, sizeof f->sha, "sha-%s", test);
    snprintf(f->source, sizeof f->source, "test %s\n", test);
    f->c.test = (ResTest){test, f->path, f->sha, f->source, ""};
    f->c.model = model;
    f->c.config = "crash_depth=2;naive=0";
    f->c.status = "done";
    f->c.states = 10;
    f->c.transitions = 20;
    f->c.crash_points = 10;
    f->c.crash_images = 12;
    f->c.recoveries = 12;
    f->c.elapsed_ms = 3;
    f->c.peak_kb = 512;
    f->c.cycles = 1000;
    f->c.nvm_writes = 16;
    f->c.results = f->r;
    f->c.outcomes = f->o;
    f->c.violations = f->v;
    f->c.costs = f->k;
}

/* Append a result for the next check line (cond_index counts from 0). */
static inline void fx_result(FxCheck *f, const char *phase, const char *quant,
                             const char *cond, const char *verdict,
                             const char *expected)
{
    f->r[f->c.nresults] = (ResResult){f->c.nresults, phase, quant, cond,
                                      verdict, expected, 2, 1};
    f->c.nresults++;
}

static inline void fx_outcome(FxCheck *f, const char *phase,
                              const char *state, int64_t count)
{
    f->o[f->c.noutcomes++] = (ResOutcome){phase, state, count};
}

static inline void fx_violation(FxCheck *f, int cond, const char *kind,
                                const char *image, const char *witness,
                                const char *json, int depth)
{
    f->v[f->c.nviolations++] = (ResViolation){cond, kind, image, witness,
                                              json, depth};
}

static inline void fx_cost(FxCheck *f, const char *metric, double value)
{
    f->k[f->c.ncosts++] = (ResCost){metric, value};
}

static inline int64_t fx_write(ResDb *db, int64_t run, const FxCheck *f)
{
    int64_t id = -1;
    if (res_write_check(db, run, &f->c, &id))
        fail_msg("res_write_check: %s", res_errmsg(db));
    return id;
}

static inline int64_t fx_run(ResDb *db, const char *argv)
{
    int64_t run = -1;
    if (res_run_begin(db, argv, "0.1.0", &run))
        fail_msg("res_run_begin: %s", res_errmsg(db));
    return run;
}

/* Output of res_query in a format (malloc'd; the caller frees). */
static inline char *fx_query(ResDb *db, const char *sql, int fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc = res_query(db, sql, fmt, f);
    fclose(f);
    if (rc)
        fail_msg("query %s: %s", sql, res_errmsg(db));
    return buf;
}

#define assert_csv(db, sql, expect)                                        \
    do {                                                                   \
        char *got_ = fx_query(db, sql, RES_FMT_CSV);                       \
        assert_string_equal(got_, expect);                                 \
        free(got_);                                                        \
    } while (0)

/* The single integer a query returns. */
static inline int64_t fx_int(ResDb *db, const char *sql)
{
    char *csv = fx_query(db, sql, RES_FMT_CSV);
    long long v;
    int n = sscanf(csv, "%*[^\n]\n%lld", &v);
    free(csv);
    assert_int_equal(n, 1);
    return v;
}

/* A whole file's bytes (malloc'd), its size in *n. */
static inline char *fx_slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    buf[len] = '\0';
    fclose(f);
    *n = (size_t)len;
    return buf;
}

#endif
