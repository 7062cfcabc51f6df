/*
 * results — the SQLite results store (DESIGN.md section 5, schema version 1).
 *
 * Promises: res_open creates the schema on first use (WAL journal, busy
 * timeout) and refuses a database of another schema version with a clear
 * message; res_write_check writes one check and every row that belongs to it
 * in one transaction, so a killed or failed writer leaves whole checks only;
 * RES_READONLY connections cannot modify the file by any statement; every
 * statement is prepared with bound parameters (no SQL is built from input).
 * Reports, `show` and `merge` read through the same API. Functions return 0
 * on success, nonzero with a message in the ResDb (res_errmsg) otherwise.
 * This layer knows nothing of the checker: callers fill plain records.
 */
#ifndef GPMC_RESULTS_H
#define GPMC_RESULTS_H

#include <stdint.h>
#include <stdio.h>

#define RES_SCHEMA_VERSION 1

typedef struct ResDb ResDb;

enum { RES_READWRITE = 0, RES_READONLY = 1 };

/* Error codes. RES_EINPUT: the user's fault (missing or foreign database,
   other schema version, bad or refused SQL, unknown report or id);
   RES_EINTERNAL: anything else (I/O, a record the schema rejects). */
enum { RES_OK = 0, RES_EINPUT = 1, RES_EINTERNAL = 2 };

typedef struct {
    const char *name, *path, *sha256, *source;
    const char *params;                 /* canonical "N=2;M=3" or "" */
} ResTest;

typedef struct {
    int cond_index;
    const char *phase;                  /* final crash recovered noerror */
    const char *quant;                  /* exists ~exists forall, or NULL */
    const char *cond;                   /* canonical condition text */
    const char *verdict;                /* "Ok" / "No" */
    const char *expected;               /* "Ok" / "No" / NULL */
    int64_t positive, negative;
} ResResult;

typedef struct {
    const char *phase;
    const char *state;                  /* "name=value; name[i]=value" */
    int64_t count;
} ResOutcome;

typedef struct {
    int cond_index;
    const char *kind;                   /* counterexample example error */
    const char *image;                  /* crash image text or NULL */
    const char *witness;                /* text */
    const char *witness_json;
    int depth;                          /* crashes in the witness */
} ResViolation;

typedef struct {
    const char *metric;
    double value;
} ResCost;

typedef struct {
    ResTest test;
    const char *model;
    const char *config;                 /* canonical, see DESIGN section 5 */
    const char *status;                 /* done incomplete error */
    const char *error;                  /* reason, or NULL */
    int64_t states, transitions, crash_points, crash_images, recoveries;
    int64_t elapsed_ms, peak_kb;
    int64_t cycles, nvm_writes;         /* -1: unknown (NULL) */
    int nresults, noutcomes, nviolations, ncosts;
    const ResResult *results;
    const ResOutcome *outcomes;
    const ResViolation *violations;
    const ResCost *costs;
} ResCheck;

int res_open(const char *path, int mode, ResDb **out, char *err, size_t errlen);
void res_close(ResDb *db);
const char *res_errmsg(const ResDb *db);

int res_run_begin(ResDb *db, const char *argv, const char *version,
                  int64_t *run_id);
int res_run_end(ResDb *db, int64_t run_id, const char *status);
int res_write_check(ResDb *db, int64_t run_id, const ResCheck *c,
                    int64_t *check_id);
/* 1 when a `done` check exists for this content, model, config and gpmc
   version (for --resume), 0 when not, negative (-RES_E…) on error. */
int res_check_done(ResDb *db, const char *sha256, const char *model,
                   const char *config, const char *version);

/* For the latest such `done` check: *nfail = its results that do not pass
   (DESIGN section 5) plus its runtime errors not tied to a `check noerror`
   (violations with cond_index < 0). 0, or negative on error. */
int res_check_failures(ResDb *db, const char *sha256, const char *model,
                       const char *config, const char *version,
                       int64_t *nfail);

/* From now on, statements on db stop once `seconds` have passed (an SQLite
   progress handler), failing with RES_EINPUT and "timed out after S s";
   0 lifts the limit. So a hostile or runaway query (an endless recursive
   CTE) cannot hang a reader. */
void res_time_limit(ResDb *db, double seconds);

enum { RES_FMT_TABLE, RES_FMT_CSV, RES_FMT_JSON };
/* Run exactly one statement that only reads and print its rows. A refused
   or malformed statement is RES_EINPUT with the reason, before any output. */
int res_query(ResDb *db, const char *sql, int fmt, FILE *out);
/* which: verdicts unexpected costs disagreements */
int res_report(ResDb *db, const char *which, FILE *out);
/* A violation, or a check with all its rows, as text; with dot, the DOT
   graphs of their witnesses instead. Unknown id: RES_EINPUT. */
int res_show_violation(ResDb *db, int64_t id, int dot, FILE *out);
int res_show_check(ResDb *db, int64_t id, int dot, FILE *out);
/* Copy the inputs into out_path (created if needed) without duplicates,
   in one transaction; every input (and an existing out_path) is verified
   first: exactly gpmc's schema, SQLite's integrity and foreign-key checks,
   every value of its column's type. A bad input is RES_EINPUT and leaves
   out_path as it was (not created when it did not exist). The whole merge
   stops after timeout_s seconds (0: no limit), also RES_EINPUT. */
int res_merge(const char *out_path, const char *const *in, int nin,
              double timeout_s, char *err, size_t errlen);

#endif
