/* `gpmc merge`: copy databases into one, without duplicates. A run is
   identified by (started_at, argv, host), a test by its content (name, path,
   sha256, params), a check by (run, test, model, config); ids are remapped.
   Inputs are read in the order given, each in id order, and the whole merge
   is one transaction: the output gets all of it or nothing. */
#include <stdlib.h>
#include <string.h>

#include "results/results_int.h"

typedef struct {
    int64_t *src, *dst;
    int n, cap;
} IdMap;

static void map_put(IdMap *m, int64_t src, int64_t dst)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 256;
        m->src = realloc(m->src, sizeof *m->src * (size_t)m->cap);
        m->dst = realloc(m->dst, sizeof *m->dst * (size_t)m->cap);
        if (!m->src || !m->dst)
            abort();
    }
    m->src[m->n] = src;
    m->dst[m->n++] = dst;
}

/* Sources are read in id order, so src[] is sorted. */
static int64_t map_get(const IdMap *m, int64_t src)
{
    int lo = 0, hi = m->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (m->src[mid] == src)
            return m->dst[mid];
        if (m->src[mid] < src)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static void map_free(IdMap *m)
{
    free(m->src);
    free(m->dst);
}

typedef struct {
    ResDb *dst, *src;
    IdMap runs, tests;
} Merge;

/* Bind a source row's columns from first on to the parameters from param
   on, as many as the statement has. */
static int bind_row(Merge *g, sqlite3_stmt *to, int param, sqlite3_stmt *from,
                    int first)
{
    int n = sqlite3_column_count(from) - first;
    int room = sqlite3_bind_parameter_count(to) - param + 1;
    for (int i = 0; i < n && i < room; i++)
        if (sqlite3_bind_value(to, param + i,
                               sqlite3_column_value(from, first + i)) !=
            SQLITE_OK)
            return res_sql_fail(g->dst, RES_EINTERNAL, "merge: %s",
                                sqlite3_errmsg(g->dst->db));
    return RES_OK;
}

/* Step to the end of a write, then reset it for the next row. */
static int write_row(ResDb *db, sqlite3_stmt *st)
{
    int s = res_sql_step(db, st);
    sqlite3_reset(st);
    return s < 0 ? -s : RES_OK;
}

static int merge_runs(Merge *g)
{
    sqlite3_stmt *from, *find = NULL, *ins = NULL, *upd = NULL;
    int rc = res_sql_prepare(g->src, &from,
                             "SELECT run_id, started_at, argv, host,"
                             " finished_at, version, status FROM runs"
                             " ORDER BY run_id", "");
    if (rc)
        return rc;
    if ((rc = res_sql_prepare(g->dst, &find,
                              "SELECT run_id, finished_at IS NULL OR"
                              " finished_at < ?4 FROM runs"
                              " WHERE started_at = ?1 AND argv = ?2"
                              " AND host = ?3 ORDER BY run_id LIMIT 1", "")) ||
        (rc = res_sql_prepare(g->dst, &ins,
                              "INSERT INTO runs(started_at, argv, host,"
                              " finished_at, version, status)"
                              " VALUES (?, ?, ?, ?, ?, ?)", "")) ||
        (rc = res_sql_prepare(g->dst, &upd,
                              "UPDATE runs SET finished_at = ?1, status = ?2"
                              " WHERE run_id = ?3", "")))
        goto out;
    int s;
    while (!rc && (s = res_sql_step(g->src, from)) > 0) {
        sqlite3_reset(find);
        if ((rc = bind_row(g, find, 1, from, 1)))
            break;
        int f = res_sql_step(g->dst, find);
        if (f < 0) {
            rc = -f;
        } else if (f == 0) {
            if (!(rc = bind_row(g, ins, 1, from, 1)) &&
                !(rc = write_row(g->dst, ins)))
                map_put(&g->runs, sqlite3_column_int64(from, 0),
                        sqlite3_last_insert_rowid(g->dst->db));
        } else {
            int64_t id = sqlite3_column_int64(find, 0);
            /* A later finish (or the first one) of the same run wins. */
            if (sqlite3_column_int(find, 1) &&
                sqlite3_column_type(from, 4) != SQLITE_NULL) {
                sqlite3_bind_value(upd, 1, sqlite3_column_value(from, 4));
                sqlite3_bind_value(upd, 2, sqlite3_column_value(from, 6));
                sqlite3_bind_int64(upd, 3, id);
                rc = write_row(g->dst, upd);
            }
            map_put(&g->runs, sqlite3_column_int64(from, 0), id);
        }
    }
    if (!rc && s < 0)
        rc = -s;
out:
    sqlite3_finalize(from);
    sqlite3_finalize(find);
    sqlite3_finalize(ins);
    sqlite3_finalize(upd);
    return rc;
}

static int merge_tests(Merge *g)
{
    sqlite3_stmt *from, *ins = NULL, *find = NULL;
    int rc = res_sql_prepare(g->src, &from,
                             "SELECT test_id, name, path, sha256, params,"
                             " source FROM tests ORDER BY test_id", "");
    if (rc)
        return rc;
    if ((rc = res_sql_prepare(g->dst, &ins,
                              "INSERT INTO tests(name, path, sha256, params,"
                              " source) VALUES (?, ?, ?, ?, ?)"
                              " ON CONFLICT(name, path, sha256, params)"
                              " DO NOTHING", "")) ||
        (rc = res_sql_prepare(g->dst, &find,
                              "SELECT test_id FROM tests WHERE name = ?"
                              " AND path = ? AND sha256 = ? AND params = ?",
                              "")))
        goto out;
    int s;
    while (!rc && (s = res_sql_step(g->src, from)) > 0) {
        if ((rc = bind_row(g, ins, 1, from, 1)) ||
            (rc = write_row(g->dst, ins)))
            break;
        sqlite3_reset(find);
        if ((rc = bind_row(g, find, 1, from, 1)))
            break;
        int f = res_sql_step(g->dst, find);
        if (f < 0)
            rc = -f;
        else if (f > 0)
            map_put(&g->tests, sqlite3_column_int64(from, 0),
                    sqlite3_column_int64(find, 0));
    }
    if (!rc && s < 0)
        rc = -s;
out:
    sqlite3_finalize(from);
    sqlite3_finalize(ins);
    sqlite3_finalize(find);
    return rc;
}

/* The rows of one check's child table: the select's first column is the
   check id it filters on; the insert takes the new check id, then the
   remaining columns. */
static const struct {
    const char *select, *insert;
} children[] = {
    {"SELECT check_id, cond_index, phase, quant, cond, verdict, expected,"
     " positive, negative FROM results WHERE check_id = ? ORDER BY cond_index",
     "INSERT INTO results(check_id, cond_index, phase, quant, cond, verdict,"
     " expected, positive, negative) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"},
    {"SELECT check_id, phase, state, count FROM outcomes WHERE check_id = ?"
     " ORDER BY rowid",
     "INSERT INTO outcomes(check_id, phase, state, count)"
     " VALUES (?, ?, ?, ?)"},
    {"SELECT check_id, cond_index, kind, image, witness, witness_json, depth"
     " FROM violations WHERE check_id = ? ORDER BY violation_id",
     "INSERT INTO violations(check_id, cond_index, kind, image, witness,"
     " witness_json, depth) VALUES (?, ?, ?, ?, ?, ?, ?)"},
    {"SELECT check_id, metric, value FROM costs WHERE check_id = ?"
     " ORDER BY rowid",
     "INSERT INTO costs(check_id, metric, value) VALUES (?, ?, ?)"},
};

static int copy_children(Merge *g, int64_t src_id, int64_t dst_id)
{
    int rc = RES_OK;
    for (size_t k = 0; !rc && k < sizeof children / sizeof *children; k++) {
        sqlite3_stmt *from, *ins;
        if ((rc = res_sql_prepare(g->src, &from, children[k].select, "i",
                                  src_id)))
            return rc;
        if ((rc = res_sql_prepare(g->dst, &ins, children[k].insert, "i",
                                  dst_id))) {
            sqlite3_finalize(from);
            return rc;
        }
        int s;
        while (!rc && (s = res_sql_step(g->src, from)) > 0)
            if (!(rc = bind_row(g, ins, 2, from, 1)))
                rc = write_row(g->dst, ins);
        if (!rc && s < 0)
            rc = -s;
        sqlite3_finalize(from);
        sqlite3_finalize(ins);
    }
    return rc;
}

static int merge_checks(Merge *g)
{
    sqlite3_stmt *from, *find = NULL, *ins = NULL;
    int rc = res_sql_prepare(g->src, &from,
                             "SELECT check_id, run_id, test_id, model, config,"
                             " status, states, transitions, crash_points,"
                             " crash_images, recoveries, elapsed_ms, peak_kb,"
                             " cycles, nvm_writes, error FROM checks"
                             " ORDER BY check_id", "");
    if (rc)
        return rc;
    if ((rc = res_sql_prepare(g->dst, &find,
                              "SELECT 1 FROM checks WHERE run_id = ?"
                              " AND test_id = ? AND model = ? AND config = ?",
                              "")) ||
        (rc = res_sql_prepare(g->dst, &ins,
                              "INSERT INTO checks(run_id, test_id, model,"
                              " config, status, states, transitions,"
                              " crash_points, crash_images, recoveries,"
                              " elapsed_ms, peak_kb, cycles, nvm_writes, error)"
                              " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                              " ?, ?)", "")))
        goto out;
    int s;
    while (!rc && (s = res_sql_step(g->src, from)) > 0) {
        int64_t run = map_get(&g->runs, sqlite3_column_int64(from, 1));
        int64_t test = map_get(&g->tests, sqlite3_column_int64(from, 2));
        if (run < 0 || test < 0) {
            rc = res_sql_fail(g->dst, RES_EINTERNAL,
                              "merge: check %lld refers to a missing run or"
                              " test", (long long)sqlite3_column_int64(from, 0));
            break;
        }
        if ((rc = res_sql_rebind(g->dst, find, "ii", run, test)) ||
            (rc = bind_row(g, find, 3, from, 3)))
            break;
        int f = res_sql_step(g->dst, find);
        sqlite3_reset(find);
        if (f < 0)
            rc = -f;
        if (f != 0)
            continue;
        if ((rc = res_sql_rebind(g->dst, ins, "ii", run, test)) ||
            (rc = bind_row(g, ins, 3, from, 3)) ||
            (rc = write_row(g->dst, ins)))
            break;
        rc = copy_children(g, sqlite3_column_int64(from, 0),
                           sqlite3_last_insert_rowid(g->dst->db));
    }
    if (!rc && s < 0)
        rc = -s;
out:
    sqlite3_finalize(from);
    sqlite3_finalize(find);
    sqlite3_finalize(ins);
    return rc;
}

int res_merge(const char *out_path, const char *const *in, int nin,
              char *err, size_t errlen)
{
    if (nin < 1) {
        snprintf(err, errlen, "merge: no input databases");
        return RES_EINPUT;
    }
    /* Check every input before the output is created or touched. */
    for (int i = 0; i < nin; i++) {
        ResDb *src;
        int rc = res_open(in[i], RES_READONLY, &src, err, errlen);
        if (rc)
            return rc;
        res_close(src);
    }
    ResDb *dst;
    int rc = res_open(out_path, RES_READWRITE, &dst, err, errlen);
    if (rc)
        return rc;
    rc = res_sql_exec(dst, "BEGIN IMMEDIATE", "");
    for (int i = 0; !rc && i < nin; i++) {
        Merge g = {dst, NULL, {0}, {0}};
        rc = res_open(in[i], RES_READONLY, &g.src, err, errlen);
        if (rc) {
            res_sql_fail(dst, rc, "%s", err);
            break;
        }
        if (!(rc = merge_runs(&g)) && !(rc = merge_tests(&g)))
            rc = merge_checks(&g);
        if (rc && g.src->err[0] && !dst->err[0])
            res_sql_fail(dst, rc, "%s", g.src->err);
        res_close(g.src);
        map_free(&g.runs);
        map_free(&g.tests);
    }
    if (!rc)
        rc = res_sql_exec(dst, "COMMIT", "");
    if (rc) {
        sqlite3_exec(dst->db, "ROLLBACK", NULL, NULL, NULL);
        snprintf(err, errlen, "%s", dst->err);
    }
    res_close(dst);
    return rc;
}
