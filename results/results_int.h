/*
 * results — private header: the connection object, statement helpers, the
 * read-only guard, the shared SQL fragments of the views.
 */
#ifndef GPMC_RESULTS_INT_H
#define GPMC_RESULTS_INT_H

#include <sqlite3.h>
#include <stdarg.h>

#include "litmus/litmus.h"
#include "results/results.h"

#define RES_BUSY_MS 10000               /* wait this long for a writer lock */

struct ResDb {
    sqlite3 *db;
    int readonly;
    char denied[256];                   /* why the guard refused, or "" */
    int denied_schema;                  /* refused: a write to the schema */
    double deadline;                    /* CLOCK_MONOTONIC s; 0: none */
    double limit_s;                     /* the limit it came from */
    int timed_out;                      /* the progress handler stopped it */
    char err[1024];
    char path[];                        /* the file, for messages */
};

/* ---- errors and statements (res_sql.c) --------------------------------- */

/* Sets the message and returns code. */
int res_sql_fail(ResDb *db, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* What SQLite's last error on db means, with the message set: the file's
   fault (RES_EINPUT: corrupt, not a database, cannot be opened or written
   where it lies; the time limit) or gpmc's and the system's
   (RES_EINTERNAL: I/O, a full disk, a record the schema refuses). */
int res_sql_error(ResDb *db);
/* RES_OK on a read-write connection, else an error about what. */
int res_sql_writable(ResDb *db, const char *what);
/* Prepare SQL and bind arguments described by fmt, one char each:
   t text (NULL binds NULL), i int64_t, n int64_t (negative binds NULL),
   f double. */
int res_sql_prepare(ResDb *db, sqlite3_stmt **st, const char *sql,
                    const char *fmt, ...);
int res_sql_vprepare(ResDb *db, sqlite3_stmt **st, const char *sql,
                     const char *fmt, va_list ap);
int res_sql_rebind(ResDb *db, sqlite3_stmt *st, const char *fmt, ...);
/* Stop statements at an absolute deadline (res_sql_clock seconds); the
   limit_s it is reported as. deadline 0: no limit. */
void res_sql_deadline(ResDb *db, double deadline, double limit_s);
double res_sql_clock(void);             /* CLOCK_MONOTONIC, seconds */
/* One step: 1 row, 0 done, negative error (message set): -RES_EINPUT when
   the time limit stopped it, else -RES_EINTERNAL. */
int res_sql_step(ResDb *db, sqlite3_stmt *st);
/* Prepare, bind, step to the end, finalize. */
int res_sql_exec(ResDb *db, const char *sql, const char *fmt, ...);
/* Run a one-value query: 1 with *out set, 0 when no row, negative on error. */
int res_sql_int(ResDb *db, int64_t *out, const char *sql, const char *fmt,
                ...);
/* Current UTC time as ISO-8601 with microseconds (27 bytes + NUL). */
void res_sql_now(char buf[32]);
/* Text of column i, "" for NULL. */
const char *res_sql_text(sqlite3_stmt *st, int i);

/* The test's row (made when missing): its id (res_write.c). */
int res_write_test(ResDb *db, const ResTest *t, int64_t *test_id);

/* ---- schema (res_schema.c) ----------------------------------------------- */

/* Verify the schema version; with create, make the schema of an empty file
   or bring an older one up to date. */
int res_schema_init(ResDb *db, const char *path, int create);
/* 1 when every table and view has gpmc's current text, 0 when the file
   needs the upgrade, negative on error. */
int res_schema_current(ResDb *db);
/* On a reader of a file that needs the upgrade: temporary objects that
   shadow the file's (SQLite looks names up in temp before main) and read
   as the upgrade would leave it: every view as gpmc defines it, a missing
   table empty, and `results` with the verdicts the upgrade rewrites. The
   file is not written. RES_OK at once for an up-to-date file. */
int res_schema_overlay(ResDb *db);

/* ---- read-only guard (res_guard.c) ----------------------------------------- */

void res_guard_install(ResDb *db);

/* ---- SQL shared by the views and the reports ------------------------------ */

/* Rank of a model in the order strict epoch bepoch scoped bscoped hw. */
#define RES_MODEL_RANK(m) \
    "(CASE " m " WHEN 'strict' THEN 0 WHEN 'epoch' THEN 1 " \
    "WHEN 'bepoch' THEN 2 WHEN 'scoped' THEN 3 WHEN 'bscoped' THEN 4 " \
    "WHEN 'hw' THEN 5 ELSE 6 END)"

/* check_id of the latest check of each test x model x config: runs are
   dated by finished_at (started_at while unfinished); ties fall to the run
   identity, then to the later check of one run. A test is its name and
   its file (tests.path): two files that give a test the same name keep
   their results apart (each has a row in the views, which carry no
   paths; `gpmc suite` and `run` warn about such names). */
#define RES_LATEST_IDS \
    "SELECT check_id FROM (SELECT c.check_id AS check_id, row_number() OVER (" \
    "PARTITION BY t.name, t.path, c.model, c.config ORDER BY " \
    "coalesce(r.finished_at, r.started_at) DESC, r.started_at DESC, " \
    "r.argv DESC, r.host DESC, c.check_id DESC) AS rn " \
    "FROM checks c JOIN runs r ON r.run_id = c.run_id " \
    "JOIN tests t ON t.test_id = c.test_id) WHERE rn = 1"

/* FROM clause over the latest checks: c checks, t tests. */
#define RES_LATEST_FROM \
    "(" RES_LATEST_IDS ") l JOIN checks c ON c.check_id = l.check_id " \
    "JOIN tests t ON t.test_id = c.test_id "

/* The latest results, with the config the views order by. */
#define RES_LATEST_RESULTS \
    "SELECT t.name AS test, t.path AS path, c.model AS model, " \
    "c.config AS config, " \
    "r.cond_index AS cond_index, r.phase AS phase, r.verdict AS verdict, " \
    "r.expected AS expected FROM " RES_LATEST_FROM \
    "JOIN results r ON r.check_id = c.check_id"

/* Pairs of models whose latest verdicts differ on one check line of one
   test and config; each pair once, the lower-ranked model as model_a. */
#define RES_DISAGREEMENTS \
    "WITH v AS (" RES_LATEST_RESULTS ")" \
    " SELECT a.test AS test, a.path AS path, a.config AS config," \
    " a.cond_index AS cond_index," \
    " a.model AS model_a, a.verdict AS verdict_a," \
    " b.model AS model_b, b.verdict AS verdict_b" \
    " FROM v a JOIN v b ON a.test = b.test AND a.path = b.path" \
    " AND a.config = b.config" \
    " AND a.cond_index = b.cond_index" \
    " AND (" RES_MODEL_RANK("a.model") ", a.model) < " \
    "(" RES_MODEL_RANK("b.model") ", b.model)" \
    " WHERE a.verdict <> b.verdict AND a.verdict <> 'Unknown'" \
    " AND b.verdict <> 'Unknown'"

#define RES_DISAGREEMENTS_ORDER \
    " ORDER BY test, path, config, cond_index, " RES_MODEL_RANK("model_a") \
    ", model_a, " RES_MODEL_RANK("model_b") ", model_b"

/* The pass rule of DESIGN section 5. */
#define RES_PASSES(v, e) \
    "((" e " IS NOT NULL AND " v " = " e ") OR (" e " IS NULL AND " v " = 'Ok'))"

/* ---- model columns (res_models.c) ---------------------------------------- */

/* The models of the verdict tables' columns (base_malloc'd strings). */
int res_models(ResDb *db, char ***models, size_t *n);
void res_models_free(char **models, size_t n);
/* s copied (base_malloc'd), or NULL. */
char *res_strdup(const char *s);

/* ---- configs (res_config.c) ---------------------------------------------- */

/* A config's id: the first 8 hex digits of its text's SHA-256. */
void res_config_id(const char *config, char id[9]);
/* What sets config apart from ref (both canonical: "key=value;…" sorted by
   key), appended to out: "key=value" for each key whose value differs or
   that ref lacks, "-key" for each key config lacks, ';'-separated; nothing
   when they are equal. */
void res_config_diff(const char *ref, const char *config, BaseStr *out);

/* ---- tables (res_table.c) ------------------------------------------------ */

/* 1 once an allocation for the table failed. */
int res_table_failed(const ResTable *t);

/* ---- the state-space-growth plot (res_plot.c) ----------------------------- */

/* Append the SVG plot of a bench growth CSV to out; -1 (nothing appended)
   when the CSV has no series/size/states columns or no usable row. */
int res_growth_svg(const char *csv, BaseStr *out);

/* A bar of a chart: its label and value (negative: unknown). */
typedef struct {
    const char *label;
    int64_t value;
} ResBar;

/* Append a horizontal bar chart as an <svg class="chart CLS"> element: the
   title, a bar (class CLS) per label with its value, one scale from 0 to a
   round maximum, and under the bars an axis with ticks and its title. */
void res_chart_bars(BaseStr *out, const char *title, const char *axis,
                    const char *cls, const ResBar *bars, int n);

/* ---- witness graphs (res_dot.c) ------------------------------------------------ */

/* Write the DOT graph of a witness (format in specs/schema.md), titled
   with title's lines and the witness's outcome or error. */
int res_dot_witness(ResDb *db, int64_t violation_id, const char *json,
                    const char *title, FILE *out);

#endif
