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

/* RES_INSPECT: read-only like RES_READONLY, but neither the schema version
   is checked nor an older file brought up to date: to look at a file from
   anywhere before anything runs on it (merge verifies its inputs so). */
enum { RES_READWRITE = 0, RES_READONLY = 1, RES_INSPECT = 2 };

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

/* For the latest such `done` check: *check_id = its id, *nfail = its
   results that do not pass (DESIGN section 5) plus its runtime errors not
   tied to a `check noerror` (violations with cond_index < 0). 0, or
   negative on error (or when there is no such check). */
int res_check_failures(ResDb *db, const char *sha256, const char *model,
                       const char *config, const char *version,
                       int64_t *nfail, int64_t *check_id);

/* From now on, statements on db stop once `seconds` have passed (an SQLite
   progress handler), failing with RES_EINPUT and "timed out after S s";
   0 lifts the limit. So a hostile or runaway query (an endless recursive
   CTE) cannot hang a reader. */
void res_time_limit(ResDb *db, double seconds);

/* Output formats of query, report, show and time: a fixed-width text
   table, CSV (RFC 4180, a header line, NULL empty) or JSON (an array of
   objects, numbers as numbers, NULL as null). A text table shows a cell
   wider than RES_TABLE_CELL_MAX characters clipped to that width, ending
   in "..."; CSV and JSON give every value whole. */
#define RES_TABLE_CELL_MAX 80
enum { RES_FMT_TABLE, RES_FMT_CSV, RES_FMT_JSON };

/* ---- tables (res_table.c): the one printer of every tabular output ---- */

typedef struct ResTable ResTable;

enum { RES_CELL_NULL, RES_CELL_TEXT, RES_CELL_NUM };

/* NULL when out of memory. */
ResTable *res_table_new(int ncols, const char *const *headers);
void res_table_free(ResTable *t);
/* The column's cells are numbers (JSON numbers; right-aligned text). */
void res_table_numeric(ResTable *t, int col);
/* The column is printed, in text tables, as an indented `header: value`
   line under its row (when not NULL), rather than as a column. */
void res_table_note(ResTable *t, int col);
/* How a text table shows NULL ("" unless set). */
void res_table_null_text(ResTable *t, const char *text);
/* Append a row of ncols cells (NULL: SQL NULL), copied; kinds (RES_CELL_*
   per cell) or NULL for the columns' kinds. */
void res_table_add(ResTable *t, const char *const *cells, const int *kinds);
int res_table_rows(const ResTable *t);
/* Text that lives as long as the table ("" when out of memory, which
   printing then reports). */
char *res_table_strdup(ResTable *t, const char *s);
char *res_table_printf(ResTable *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* RES_OK, or RES_EINTERNAL (nothing printed) when building the table ran
   out of memory. */
int res_table_print(const ResTable *t, int fmt, FILE *out);

/* Run exactly one statement that only reads and print its rows. A refused
   or malformed statement is RES_EINPUT with the reason, before any output. */
int res_query(ResDb *db, const char *sql, int fmt, FILE *out);
/* which: verdicts unexpected costs disagreements; fmt RES_FMT_*. */
int res_report(ResDb *db, const char *which, int fmt, FILE *out);
/* The same, and how many data rows it printed (`report --status`;
   unexpected: the unexpected verdicts and the failed checks). */
int res_report_rows(ResDb *db, const char *which, int fmt, FILE *out,
                    int64_t *rows);
/* Renders DOT graphs as SVG documents: svgs[i] (base_malloc'd) for dots[i],
   left NULL when it cannot (no Graphviz, a NULL graph). The caller of
   res_report_html provides it; results runs no programs. */
typedef void (*ResSvgFn)(void *ctx, const char *const *dots, int n,
                         char **svgs);

/* The witnesses `report html` draws by default (only those of what does
   not pass, and at most this many: each is some 20 KB of SVG). */
#define RES_HTML_WITNESSES 50

typedef struct {
    ResSvgFn svg;                       /* NULL: witnesses as DOT text */
    void *svg_ctx;
    const char *bench_dir;              /* growth.svg or growth.csv, or NULL */
    int max_witnesses;                  /* 0: RES_HTML_WITNESSES; negative:
                                           none */
} ResHtmlOptions;

/* `report html`: one self-contained HTML page (specs/schema.md). */
int res_report_html(ResDb *db, const ResHtmlOptions *o, FILE *out);

/* The ids of a check's violations in the order they were written (the
   order of ResCheck.violations); returns how many (at most max), or
   negative on error. */
int res_violation_ids(ResDb *db, int64_t check_id, int64_t *ids, int max);

/* ---- proposals (res_proposal.c): what `gpmc fix` and `gpmc tune` tried -- */

typedef struct {
    const char *command;                /* "fix" or "tune" */
    int64_t seq;                        /* order tried, from 0 */
    int64_t size;                       /* changes from the original */
    const char *changes;                /* in words, one a line */
    const char *diff;                   /* unified diff of the files */
    const char *state;                  /* holds fails unknown invalid */
    int64_t rank;                       /* printed as fix/step N; -1 none */
    int64_t cycles;                     /* summed over the models; -1 */
    const char *verdicts;               /* "strict Ok Ok; hw Ok No" */
    const char *witness;                /* why it fails, or NULL */
} ResProposal;

/* Writes n proposals about test t in one transaction. */
int res_write_proposals(ResDb *db, int64_t run_id, const ResTest *t,
                        const ResProposal *p, int n);

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
