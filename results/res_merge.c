/* `gpmc merge`: copy databases into one, without duplicates. A run is
   identified by (started_at, argv, host), a test by its content (name, path,
   sha256, params), a check by (run, test, model, config); ids are remapped.
   Inputs are read in the order given, each in id order, and the whole merge
   is one transaction: the output gets all of it or nothing.
   An input is data from anywhere, so before it is opened the ordinary way
   (which may bring an older file up to date) nothing in it may run code
   (structure), and before anything is copied it must be exactly what gpmc
   writes (verify): the same schema objects with the same SQL as a fresh
   database, SQLite's integrity and foreign-key checks clean, and every
   value of its column's declared type. Everything runs under a
   time limit (an SQLite progress handler), so not even a database that
   gets past those can make the merge hang. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "litmus/litmus.h"
#include "results/results_int.h"

typedef struct {
    int64_t src, dst;
} IdPair;

typedef struct {
    IdPair *v;                          /* src ascending (read in id order) */
    size_t n, cap;
} IdMap;

static int map_put(ResDb *db, IdMap *m, int64_t src, int64_t dst)
{
    /* sources are read in id order, so the map stays sorted for map_get */
    assert(!m->n || m->v[m->n - 1].src < src);
    assert(dst > 0);
    if (BASE_GROW(m->v, m->cap, m->n + 1))
        return res_sql_fail(db, RES_EINTERNAL, "merge: out of memory");
    m->v[m->n++] = (IdPair){src, dst};
    return RES_OK;
}

static int64_t map_get(const IdMap *m, int64_t src)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].src == src)
            return m->v[mid].dst;
        if (m->v[mid].src < src)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

enum { MAP_RUNS, MAP_TESTS, NMAPS };

typedef struct {
    ResDb *dst, *src;
    IdMap map[NMAPS];                   /* source id -> output id */
} Merge;

/* How each table is copied: one row of `tables` per table, its flags read
   by one loop (copy_table), as SQLite's OPFLG_* drive its VM. A source
   row's column 0 is its id (a child row's: its check's); the loop binds
   its own parameters first (the check of a child row, the mapped run and
   test of a check) and the row's remaining columns after them. */
enum {
    MG_CHILD = 1 << 0,    /* the rows of one check: the select takes its source
                             id, the insert's ?1 is its output id */
    MG_IDS = 1 << 1,      /* columns 1 and 2 are a run and a test id, bound
                             mapped as ?1 and ?2 */
    MG_FINISH = 1 << 2,   /* a found row that finished earlier (find's column
                             1) takes the source's finish, columns 4 and 6
                             (finished_at, status): update's ?1 ?2, ?3 its id */
    MG_PARENT = 1 << 3,   /* an inserted row's children (MG_CHILD) follow it */
    MG_OPTIONAL = 1 << 4, /* a table an earlier gpmc did not make: a source
                             without it has no rows */
};

typedef struct {
    int flags;
    const char *name;                   /* MG_OPTIONAL: the table */
    int map;                            /* MAP_*: ids of found and inserted
                                           rows, or -1: a found row is
                                           skipped */
    const char *select;                 /* on the source, in id order */
    const char *find;                   /* an equal output row: its id, and
                                           (MG_FINISH) whether it finished
                                           earlier; or NULL */
    const char *insert, *update;
} MergeTable;

/* In copying order: runs and tests before the checks that refer to them. */
static const MergeTable tables[] = {
    {MG_FINISH, NULL, MAP_RUNS,
     "SELECT run_id, started_at, argv, host, finished_at, version, status"
     " FROM runs ORDER BY run_id",
     "SELECT run_id, finished_at IS NULL OR finished_at < ?4 FROM runs"
     " WHERE started_at = ?1 AND argv = ?2 AND host = ?3 ORDER BY run_id"
     " LIMIT 1",
     "INSERT INTO runs(started_at, argv, host, finished_at, version, status)"
     " VALUES (?, ?, ?, ?, ?, ?)",
     "UPDATE runs SET finished_at = ?1, status = ?2 WHERE run_id = ?3"},
    {0, NULL, MAP_TESTS,
     "SELECT test_id, name, path, sha256, params, source FROM tests"
     " ORDER BY test_id",
     "SELECT test_id FROM tests WHERE name = ? AND path = ? AND sha256 = ?"
     " AND params = ?",
     "INSERT INTO tests(name, path, sha256, params, source)"
     " VALUES (?, ?, ?, ?, ?)", NULL},
    {MG_IDS | MG_PARENT, NULL, -1,
     "SELECT check_id, run_id, test_id, model, config, status, states,"
     " transitions, crash_points, crash_images, recoveries, elapsed_ms,"
     " peak_kb, cycles, nvm_writes, error FROM checks ORDER BY check_id",
     "SELECT check_id FROM checks WHERE run_id = ? AND test_id = ?"
     " AND model = ? AND config = ?",
     "INSERT INTO checks(run_id, test_id, model, config, status, states,"
     " transitions, crash_points, crash_images, recoveries, elapsed_ms,"
     " peak_kb, cycles, nvm_writes, error)"
     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", NULL},
    {MG_CHILD, NULL, -1,
     "SELECT check_id, cond_index, phase, quant, cond, verdict, expected,"
     " positive, negative FROM results WHERE check_id = ? ORDER BY cond_index",
     NULL,
     "INSERT INTO results(check_id, cond_index, phase, quant, cond, verdict,"
     " expected, positive, negative) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
     NULL},
    {MG_CHILD, NULL, -1,
     "SELECT check_id, phase, state, count FROM outcomes WHERE check_id = ?"
     " ORDER BY rowid",
     NULL,
     "INSERT INTO outcomes(check_id, phase, state, count)"
     " VALUES (?, ?, ?, ?)", NULL},
    {MG_CHILD, NULL, -1,
     "SELECT check_id, cond_index, kind, image, witness, witness_json, depth"
     " FROM violations WHERE check_id = ? ORDER BY violation_id",
     NULL,
     "INSERT INTO violations(check_id, cond_index, kind, image, witness,"
     " witness_json, depth) VALUES (?, ?, ?, ?, ?, ?, ?)", NULL},
    {MG_CHILD, NULL, -1,
     "SELECT check_id, metric, value FROM costs WHERE check_id = ?"
     " ORDER BY rowid",
     NULL,
     "INSERT INTO costs(check_id, metric, value) VALUES (?, ?, ?)", NULL},
    /* fix and tune's proposals (specs/schema.md): one kept of equals */
    {MG_IDS | MG_OPTIONAL, "proposals", -1,
     "SELECT proposal_id, run_id, test_id, command, seq, size, changes, diff,"
     " state, rank, cycles, verdicts, witness FROM proposals"
     " ORDER BY proposal_id",
     "SELECT proposal_id FROM proposals WHERE run_id = ? AND test_id = ?"
     " AND command = ? AND seq = ?",
     "INSERT INTO proposals(run_id, test_id, command, seq, size, changes,"
     " diff, state, rank, cycles, verdicts, witness)"
     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", NULL},
};
#define NTABLES (sizeof tables / sizeof *tables)

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

static int copy_table(Merge *g, const MergeTable *t, int64_t src_parent,
                      int64_t dst_parent);

/* Binds a source row to st: the mapped run and test ids to ?1 and ?2 and
   the columns from 3 on after them (MG_IDS); the columns from 1 on after
   ?1, the check bound once (MG_CHILD); or the columns from 1 on. */
static int bind_own(Merge *g, const MergeTable *t, sqlite3_stmt *st,
                    sqlite3_stmt *from, int64_t run, int64_t test)
{
    if (t->flags & MG_IDS) {
        int rc = res_sql_rebind(g->dst, st, "ii", run, test);
        return rc ? rc : bind_row(g, st, 3, from, 3);
    }
    return bind_row(g, st, t->flags & MG_CHILD ? 2 : 1, from, 1);
}

/* One source row: found in the output (then mapped, finished or skipped)
   or inserted (then mapped, its children copied). */
static int copy_row(Merge *g, const MergeTable *t, sqlite3_stmt *from,
                    sqlite3_stmt *find, sqlite3_stmt *ins, sqlite3_stmt *upd)
{
    int64_t src_id = sqlite3_column_int64(from, 0), run = 0, test = 0;
    int rc;
    if (t->flags & MG_IDS) {
        run = map_get(&g->map[MAP_RUNS], sqlite3_column_int64(from, 1));
        test = map_get(&g->map[MAP_TESTS], sqlite3_column_int64(from, 2));
        if (run < 0 || test < 0)
            return res_sql_fail(g->dst, RES_EINTERNAL,
                                "merge: check %lld refers to a missing run or"
                                " test", (long long)src_id);
    }
    if (find) {
        if ((rc = bind_own(g, t, find, from, run, test)))
            return rc;
        int f = res_sql_step(g->dst, find);
        int64_t id = f > 0 ? sqlite3_column_int64(find, 0) : 0;
        int earlier = f > 0 && (t->flags & MG_FINISH) &&
                      sqlite3_column_int(find, 1);
        sqlite3_reset(find);
        if (f < 0)
            return -f;
        if (f > 0) {
            /* A later finish (or the first one) of the same run wins. */
            if (earlier && sqlite3_column_type(from, 4) != SQLITE_NULL) {
                sqlite3_bind_value(upd, 1, sqlite3_column_value(from, 4));
                sqlite3_bind_value(upd, 2, sqlite3_column_value(from, 6));
                sqlite3_bind_int64(upd, 3, id);
                if ((rc = write_row(g->dst, upd)))
                    return rc;
            }
            return t->map < 0 ? RES_OK
                              : map_put(g->dst, &g->map[t->map], src_id, id);
        }
    }
    if ((rc = bind_own(g, t, ins, from, run, test)) ||
        (rc = write_row(g->dst, ins)))
        return rc;
    int64_t id = sqlite3_last_insert_rowid(g->dst->db);
    assert(id > 0);
    if (t->map >= 0)
        return map_put(g->dst, &g->map[t->map], src_id, id);
    for (size_t k = 0; !rc && (t->flags & MG_PARENT) && k < NTABLES; k++)
        if (tables[k].flags & MG_CHILD)
            rc = copy_table(g, &tables[k], src_id, id);
    return rc;
}

/* The rows of table t (of one check: MG_CHILD) from the source to the
   output. */
static int copy_table(Merge *g, const MergeTable *t, int64_t src_parent,
                      int64_t dst_parent)
{
    sqlite3_stmt *from, *find = NULL, *ins = NULL, *upd = NULL;
    const char *child = t->flags & MG_CHILD ? "i" : "";
    if ((t->flags & MG_OPTIONAL) &&
        sqlite3_table_column_metadata(g->src->db, "main", t->name, NULL, NULL,
                                      NULL, NULL, NULL, NULL) != SQLITE_OK)
        return RES_OK;
    int rc = res_sql_prepare(g->src, &from, t->select, child, src_parent);
    if (rc)
        return rc;
    if ((t->find && (rc = res_sql_prepare(g->dst, &find, t->find, ""))) ||
        (rc = res_sql_prepare(g->dst, &ins, t->insert, child, dst_parent)) ||
        (t->update && (rc = res_sql_prepare(g->dst, &upd, t->update, ""))))
        goto out;
    int s;
    while (!rc && (s = res_sql_step(g->src, from)) > 0)
        rc = copy_row(g, t, from, find, ins, upd);
    if (!rc && s < 0)
        rc = -s;
out:
    sqlite3_finalize(from);
    sqlite3_finalize(find);
    sqlite3_finalize(ins);
    sqlite3_finalize(upd);
    return rc;
}

/* Every table but the children, which their checks copy. */
static int copy_all(Merge *g)
{
    int rc = RES_OK;
    for (size_t k = 0; !rc && k < NTABLES; k++)
        if (!(tables[k].flags & MG_CHILD))
            rc = copy_table(g, &tables[k], 0, 0);
    return rc;
}

/* ---- verification ------------------------------------------------------ */

/* The rows of a query (one text argument, or none when arg is NULL) as
   text: the columns of a row separated by blanks, one line a row. */
static int rows_text(ResDb *db, BaseStr *out, const char *sql,
                     const char *arg)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st, sql, arg ? "t" : "", arg);
    if (rc)
        return rc;
    int s, n = sqlite3_column_count(st);
    while ((s = res_sql_step(db, st)) > 0)
        for (int i = 0; i < n; i++)
            base_str_printf(out, "%s%c", res_sql_text(st, i),
                           i + 1 < n ? ' ' : '\n');
    sqlite3_finalize(st);
    if (s < 0)
        return -s;
    return out->failed ? res_sql_fail(db, RES_EINTERNAL, "merge: out of "
                                      "memory") : RES_OK;
}

/* The schema objects of db, one "type name tbl_name sql" line each, sorted:
   what must be identical to a fresh gpmc database's. Loose, the text of
   tables and views is left out, and so are the tables an earlier gpmc did
   not make (MG_OPTIONAL: proposals): an input may be an earlier gpmc's, whose
   views merge does not read (a reader reads gpmc's own, res_open.c) and
   whose tables differ in their CHECK constraints at most (structure()
   compares their columns), which the output enforces on every row copied
   (copy_refused). */
static int schema_text(ResDb *db, BaseStr *out, int loose)
{
    return rows_text(db, out, loose
                     ? "SELECT type, name, tbl_name, CASE type WHEN 'index'"
                       " THEN coalesce(sql, '') ELSE '' END"
                       " FROM main.sqlite_schema"
                       " WHERE tbl_name NOT IN ('proposals')"
                       " ORDER BY type, name"
                     : "SELECT type, name, tbl_name, coalesce(sql, '')"
                       " FROM main.sqlite_schema ORDER BY type, name", NULL);
}

/* Length of "type name" at the start of a schema line. */
static size_t key_len(const char *line, size_t n)
{
    const char *sp = memchr(line, ' ', n);
    sp = sp ? memchr(sp + 1, ' ', n - (size_t)(sp + 1 - line)) : NULL;
    return sp ? (size_t)(sp - line) : n;
}

/* What the first difference between two schema texts is, for a message.
   Lines sort by type then name, so the smaller key is the one the other
   side lacks. */
static void schema_difference(const char *have, const char *want, char *buf,
                              size_t len)
{
    size_t a, b;
    for (;;) {
        a = strcspn(have, "\n");
        b = strcspn(want, "\n");
        if (a != b || memcmp(have, want, a) || !a)
            break;
        have += a + 1;
        want += b + 1;
    }
    size_t ka = key_len(have, a), kb = key_len(want, b);
    int order = !a ? 1 : !b ? -1 : memcmp(have, want, ka < kb ? ka : kb);
    if (!order && ka != kb)
        order = ka < kb ? -1 : 1;
    if (!order)
        snprintf(buf, len, "its %.*s differs from gpmc's", (int)ka, have);
    else if (order < 0)
        snprintf(buf, len, "it has a %.*s that gpmc does not create",
                 (int)ka, have);
    else
        snprintf(buf, len, "it has no %.*s", (int)kb, want);
}

/* Steps a reporting PRAGMA once: 1 with *st on its first row, 0 when it
   has none, negative on error (*st is finalized but for 1). */
static int first_row(ResDb *db, const char *sql, sqlite3_stmt **st)
{
    int rc = res_sql_prepare(db, st, sql, "");
    if (rc)
        return -rc;
    int s = res_sql_step(db, *st);
    if (s != 1)
        sqlite3_finalize(*st);
    return s;
}

/* SQLite's own check of the file: pages, indexes, NOT NULL and CHECK. */
static int integrity(ResDb *db, const char *path)
{
    sqlite3_stmt *st;
    int s = first_row(db, "PRAGMA integrity_check(1)", &st), rc = RES_OK;
    if (s < 0)
        return -s;
    if (s > 0 && strcmp(res_sql_text(st, 0), "ok"))
        rc = res_sql_fail(db, RES_EINPUT, "%s: corrupt database: %s", path,
                          res_sql_text(st, 0));
    if (s > 0)
        sqlite3_finalize(st);
    return rc;
}

/* No row refers to a run, test or check that is not there. */
static int no_dangling_ids(ResDb *db, const char *path)
{
    sqlite3_stmt *st;
    int s = first_row(db, "PRAGMA foreign_key_check", &st);
    if (s <= 0)
        return -s;
    int rc = res_sql_fail(db, RES_EINPUT, "%s: %s row %lld refers to a"
                          " missing %s row", path, res_sql_text(st, 0),
                          (long long)sqlite3_column_int64(st, 1),
                          res_sql_text(st, 2));
    sqlite3_finalize(st);
    return rc;
}

/* Storage classes a column of declared type decl may hold. */
static const char *classes(const char *decl, int notnull)
{
    if (!strcmp(decl, "INTEGER"))
        return notnull ? "'integer'" : "'integer', 'null'";
    if (!strcmp(decl, "REAL"))
        return notnull ? "'real'" : "'real', 'null'";
    return notnull ? "'text'" : "'text', 'null'";
}

/* Every value of every table of db is of its column's declared type (SQLite
   itself would store 'lots' in an INTEGER column). The tables and columns
   are the reference's, known to equal db's (an optional table db lacks
   aside). */
static int typed_values(ResDb *db, ResDb *ref, const char *path)
{
    sqlite3_stmt *tabs, *cols = NULL;
    int rc = res_sql_prepare(ref, &tabs, "SELECT name FROM sqlite_schema"
                             " WHERE type = 'table' ORDER BY name", "");
    if (rc)
        return rc;
    int s;
    while (!rc && (s = res_sql_step(ref, tabs)) > 0) {
        const char *table = res_sql_text(tabs, 0);
        if (sqlite3_table_column_metadata(db->db, "main", table, NULL, NULL,
                                          NULL, NULL, NULL, NULL) != SQLITE_OK)
            continue;                   /* MG_OPTIONAL, absent */
        if ((rc = res_sql_prepare(ref, &cols, "SELECT name, type, \"notnull\""
                                  " OR pk FROM pragma_table_info(?)", "t",
                                  table)))
            break;
        int c;
        while (!rc && (c = res_sql_step(ref, cols)) > 0) {
            char sql[512];
            const char *col = res_sql_text(cols, 0);
            snprintf(sql, sizeof sql, "SELECT rowid, typeof(\"%s\") FROM"
                     " main.\"%s\" WHERE typeof(\"%s\") NOT IN (%s) LIMIT 1",
                     col,
                     table, col, classes(res_sql_text(cols, 1),
                                         sqlite3_column_int(cols, 2)));
            sqlite3_stmt *bad;
            if ((rc = res_sql_prepare(db, &bad, sql, "")))
                break;
            int b = res_sql_step(db, bad);
            if (b > 0)
                rc = res_sql_fail(db, RES_EINPUT, "%s: %s row %lld: %s is %s,"
                                  " not %s", path, table,
                                  (long long)sqlite3_column_int64(bad, 0), col,
                                  res_sql_text(bad, 1),
                                  res_sql_text(cols, 1));
            else if (b < 0)
                rc = -b;
            sqlite3_finalize(bad);
        }
        if (!rc && c < 0)
            rc = -c;
        sqlite3_finalize(cols);
    }
    if (!rc && s < 0)
        rc = -s;
    sqlite3_finalize(tabs);
    return rc;
}

/* db (at path) is what gpmc writes: exactly, or (loose) an earlier
   gpmc's (schema_text). ref is a fresh database, ref_schema its schema
   text as loose asks. */
static int verify(ResDb *db, ResDb *ref, const char *ref_schema,
                  const char *path, int loose)
{
    BaseStr have = {0};
    int rc = schema_text(db, &have, loose);
    if (!rc && strcmp(have.s ? have.s : "", ref_schema)) {
        char what[256];
        schema_difference(have.s ? have.s : "", ref_schema, what,
                          sizeof what);
        rc = res_sql_fail(db, RES_EINPUT, "%s: not a gpmc results database:"
                          " %s", path, what);
    }
    base_str_free(&have);
    if (!rc)
        rc = integrity(db, path);
    if (!rc)
        rc = no_dangling_ids(db, path);
    if (!rc)
        rc = typed_values(db, ref, path);
    return rc;
}

/* The columns of a table as PRAGMA table_info gives them, one line each. */
static int columns_text(ResDb *db, const char *table, BaseStr *out)
{
    return rows_text(db, out, "SELECT name, type, \"notnull\","
                     " coalesce(dflt_value, ''), pk FROM pragma_table_info(?)"
                     " ORDER BY cid", table);
}

/* One object of db's schema against the reference: RES_OK when gpmc
   creates an object of that type and name, on the same table, and (a
   table) with the same columns; else a message. */
static int known_object(ResDb *db, ResDb *ref, const char *path,
                        const char *type, const char *name,
                        const char *table)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(ref, &st, "SELECT tbl_name FROM sqlite_schema"
                             " WHERE type = ? AND name = ?", "tt", type, name);
    if (rc)
        return rc;
    int s = res_sql_step(ref, st);
    int same = s > 0 && !strcmp(res_sql_text(st, 0), table);
    sqlite3_finalize(st);
    if (s < 0)
        return -s;
    if (s == 0)
        return res_sql_fail(db, RES_EINPUT, "%s: not a gpmc results database:"
                            " it has a %s %s that gpmc does not create", path,
                            type, name);
    if (same && !strcmp(type, "table")) {
        BaseStr have = {0}, want = {0};
        if (!(rc = columns_text(db, name, &have)) &&
            !(rc = columns_text(ref, name, &want)))
            same = !strcmp(have.s ? have.s : "", want.s ? want.s : "");
        base_str_free(&have);
        base_str_free(&want);
        if (rc)
            return rc;
    }
    return same ? RES_OK
                : res_sql_fail(db, RES_EINPUT, "%s: not a gpmc results"
                               " database: its %s %s differs from gpmc's",
                               path, type, name);
}

/* Before a file is opened the ordinary way (which brings a file of an
   earlier gpmc up to date, running statements on it): nothing in it may
   run code of its own (a trigger), be something else than gpmc's object
   of that name (a view for a table), or have other columns. Objects may
   be missing, and view texts differ, in a legitimately older file. */
static int structure(ResDb *db, ResDb *ref, const char *path)
{
    sqlite3_stmt *st;
    int rc = res_sql_prepare(db, &st, "SELECT type, name, tbl_name FROM"
                             " sqlite_schema ORDER BY type, name", "");
    if (rc)
        return rc;
    int s;
    while (!rc && (s = res_sql_step(db, st)) > 0)
        rc = known_object(db, ref, path, res_sql_text(st, 0),
                          res_sql_text(st, 1), res_sql_text(st, 2));
    sqlite3_finalize(st);
    return !rc && s < 0 ? -s : rc;
}

/* The structure of the file at path, before it is opened for real. */
static int inspect(const char *path, ResDb *ref, double deadline,
                   double timeout_s, char *err, size_t errlen)
{
    ResDb *db;
    int rc = res_open(path, RES_INSPECT, &db, err, errlen);
    if (rc)
        return rc;
    res_sql_deadline(db, deadline, timeout_s);
    if ((rc = structure(db, ref, path)))
        snprintf(err, errlen, "%s", res_errmsg(db));
    res_close(db);
    return rc;
}

/* Open and verify one input; *db stays open on success. */
static int open_input(const char *path, ResDb *ref, const char *ref_schema,
                      double deadline, double timeout_s, ResDb **db,
                      char *err, size_t errlen)
{
    *db = NULL;
    int rc = inspect(path, ref, deadline, timeout_s, err, errlen);
    if (!rc)
        rc = res_open(path, RES_READONLY, db, err, errlen);
    if (rc)
        return rc;
    res_sql_deadline(*db, deadline, timeout_s);
    rc = verify(*db, ref, ref_schema, path, 1);
    if (rc) {
        snprintf(err, errlen, "%s", res_errmsg(*db));
        res_close(*db);
        *db = NULL;
    }
    return rc;
}

/* A row of the input at path that the output's constraints refuse (an
   input's tables may be an earlier gpmc's, or doctored, and a read-only
   connection's integrity check leaves CHECK constraints out): the input's
   fault. */
static int copy_refused(ResDb *dst, const char *path)
{
    return res_sql_fail(dst, RES_EINPUT, "%s: a row that gpmc's schema"
                        " refuses (%s)", path, sqlite3_errmsg(dst->db));
}

static void remove_db(const char *path)
{
    static const char *const suffix[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s%s", path, suffix[i]);
        unlink(p);
    }
}

int res_merge(const char *out_path, const char *const *in, int nin,
              double timeout_s, char *err, size_t errlen)
{
    if (nin < 1) {
        snprintf(err, errlen, "merge: no input databases");
        return RES_EINPUT;
    }
    double deadline = timeout_s > 0 ? res_sql_clock() + timeout_s : 0;
    ResDb *ref;
    int rc = res_open(":memory:", RES_READWRITE, &ref, err, errlen);
    if (rc)
        return rc;
    BaseStr ref_schema = {0}, ref_loose = {0};
    if ((rc = schema_text(ref, &ref_schema, 0)) ||
        (rc = schema_text(ref, &ref_loose, 1))) {
        snprintf(err, errlen, "%s", res_errmsg(ref));
        goto done;
    }
    /* Verify every input before the output is created or touched. */
    for (int i = 0; !rc && i < nin; i++) {
        ResDb *src;
        rc = open_input(in[i], ref, ref_loose.s, deadline, timeout_s, &src,
                        err, errlen);
        res_close(src);
    }
    if (rc)
        goto done;
    struct stat sb;
    int existed = stat(out_path, &sb) == 0;
    ResDb *dst;
    if (existed && (rc = inspect(out_path, ref, deadline, timeout_s, err,
                                 errlen)))
        goto done;
    if ((rc = res_open(out_path, RES_READWRITE, &dst, err, errlen)))
        goto done;
    res_sql_deadline(dst, deadline, timeout_s);
    if (existed)
        rc = verify(dst, ref, ref_schema.s, out_path, 0);
    if (!rc)
        rc = res_sql_exec(dst, "BEGIN IMMEDIATE", "");
    for (int i = 0; !rc && i < nin; i++) {
        Merge g = {dst, NULL, {{0}}};
        rc = open_input(in[i], ref, ref_loose.s, deadline, timeout_s, &g.src,
                        err, errlen);
        if (rc) {
            res_sql_fail(dst, rc, "%s", err);
            break;
        }
        rc = copy_all(&g);
        if (rc && g.src->err[0] && !dst->err[0])
            res_sql_fail(dst, rc, "%s", g.src->err);
        else if (rc && (sqlite3_errcode(dst->db) & 0xFF) == SQLITE_CONSTRAINT)
            rc = copy_refused(dst, in[i]);
        res_close(g.src);
        for (int m = 0; m < NMAPS; m++)
            base_free(g.map[m].v);
    }
    if (!rc)
        rc = res_sql_exec(dst, "COMMIT", "");
    if (rc) {
        sqlite3_exec(dst->db, "ROLLBACK", NULL, NULL, NULL);
        snprintf(err, errlen, "%s", dst->err);
    }
    res_close(dst);
    if (rc && !existed)
        remove_db(out_path);
done:
    base_str_free(&ref_schema);
    base_str_free(&ref_loose);
    res_close(ref);
    return rc;
}
