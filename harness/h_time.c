/*
 * h_time.c — `gpmc time FILE… [--model M[,M…]|all] [-D NAME=V]
 * [--config KEY=V] [--db F] [--timeout S]`: one timed run of each file's
 * main program
 * under each model (timing/timing.h, tm_run), printed as one table,
 * a row per file and model, a column per metric (tm_cost_names). A run
 * that ends in
 * a runtime error, at the step bound or at --timeout prints its row
 * (costs up to there) and an `error:` line under it. Exit 0 when every run
 * finished, 1 when one did not, 2 on input errors (a program larger than
 * the model layer holds included; the other files still run), 3 when
 * gpmc fails.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "timing/timing.h"

static const char *time_help =
    "usage: gpmc time FILE... [--model M[,M...]|all] [-D NAME=V] "
    "[--config KEY=V] [--db F]\n"
    "                 [--timeout SECONDS] [--csv|--json]\n"
    "Runs each file's main program once on the timing model of the GPU\n"
    "memory hierarchy under each persistency model's reference\n"
    "implementation and prints cycles, stalls by cause (warp-cycles), NVM\n"
    "writes and bytes, L2 writebacks and the peak WPQ occupancy, as a table,\n"
    "CSV or JSON. --timeout ends a run after that many seconds of wall-clock\n"
    "time, with the costs of what it ran (incomplete, exit 1).\n";

typedef struct {
    char *name;
    int model;
    TmCosts c;
} Row;

/* The rows as one table (text, CSV or JSON): test, model, a column per
   metric, and the error of a run that did not finish (a line under its
   row in text). */
static int print_table(const Row *rows, int n, int fmt)
{
    const char *cells[TM_NCOSTS + 3];
    int nc = TM_NCOSTS + 3;
    cells[0] = "test";
    cells[1] = "model";
    for (int k = 0; k < TM_NCOSTS; k++)
        cells[2 + k] = tm_cost_names[k];
    cells[nc - 1] = "error";
    ResTable *t = res_table_new(nc, cells);
    if (!t) {
        fprintf(stderr, "gpmc: internal error: out of memory\n");
        return H_INTERNAL;
    }
    for (int k = 0; k < TM_NCOSTS; k++)
        res_table_numeric(t, 2 + k);
    res_table_note(t, nc - 1);
    for (int i = 0; i < n; i++) {
        cells[0] = rows[i].name;
        cells[1] = lit_model_names[rows[i].model];
        for (int k = 0; k < TM_NCOSTS; k++)
            cells[2 + k] = res_table_printf(
                t, "%lld", (long long)tm_cost_value(&rows[i].c, k));
        cells[nc - 1] = rows[i].c.status != TM_OK ? rows[i].c.error
                                                        : NULL;
        res_table_add(t, cells, NULL);
    }
    int rc = res_table_print(t, fmt, stdout);
    res_table_free(t);
    if (rc) {
        fprintf(stderr, "gpmc: internal error: out of memory\n");
        return H_INTERNAL;
    }
    return H_OK;
}

static void free_rows(Row *rows, int n)
{
    for (int i = 0; i < n; i++)
        base_free(rows[i].name);
    base_free(rows);
}

static int open_db(const HOpts *o, int argc, char **argv, ResDb **db,
                   int64_t *run_id)
{
    char err[512], *args = h_argv_string("time", argc, argv);
    int rc = H_OK;
    if (res_open(o->db, RES_READWRITE, db, err, sizeof err)) {
        fprintf(stderr, "gpmc time: error: %s\n", err);
        *db = NULL;
        rc = H_USAGE;
    } else if (res_run_begin(*db, args ? args : "gpmc time", GPMC_VERSION,
                             run_id)) {
        fprintf(stderr, "gpmc time: error: %s\n", res_errmsg(*db));
        res_close(*db);
        *db = NULL;
        rc = H_USAGE;
    }
    base_free(args);
    return rc;
}

int h_cmd_time(int argc, char **argv)
{
    HOpts o;
    Row *rows;
    int nrows = 0, status = H_OK;
    ResDb *db = NULL;
    int64_t run_id = 0;
    int r = h_opts_parse(argc, argv, &o, HO_DEFINE | HO_FORMAT | HO_TIMEOUT,
                         "time");
    if (!r && o.csv && o.json) {
        fprintf(stderr, "gpmc time: error: --csv and --json exclude each"
                " other\n");
        r = H_USAGE;
    }
    r = h_opts_done(&o, r, "time", time_help, "no input file");
    if (r >= 0)
        return r;
    rows = base_calloc((size_t)o.nfiles * LIT_NMODELS + 1, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "gpmc: internal error: out of memory\n");
        h_opts_free(&o);
        return H_INTERNAL;
    }
    for (int i = 0; i < o.nfiles && status != H_INTERNAL; i++) {
        HFile f;
        if (h_file_load(o.files[i], &o, &f)) {
            status = H_USAGE;
            continue;
        }
        if (o.db && !db && open_db(&o, argc, argv, &db, &run_id)) {
            h_file_free(&f);
            status = H_USAGE;
            break;
        }
        for (int k = 0; k < o.nmodels; k++) {
            Row *row = &rows[nrows];
            char err[256];
            int tr = tm_run_timed(f.p, o.models[k], 0, o.chk.timeout_s,
                                  &row->c, err, sizeof err);
            if (tr == TM_EINPUT) {
                fprintf(stderr, "%s: error: %s: %s\n", o.files[i],
                        lit_model_names[o.models[k]], err);
                status = H_USAGE;
                continue;
            }
            if (tr) {
                fprintf(stderr, "gpmc: internal error: %s: %s\n",
                        o.files[i], err);
                status = H_INTERNAL;
                break;
            }
            row->name = h_strndup(f.p->name, strlen(f.p->name));
            row->model = o.models[k];
            if (!row->name) {
                fprintf(stderr, "gpmc: internal error: out of memory\n");
                status = H_INTERNAL;
                break;
            }
            nrows++;
            if (db && (r = h_store_costs(&f, &o, o.models[k], &row->c, db,
                                         run_id)))
                status = r;
            if (row->c.status != TM_OK && status == H_OK)
                status = H_FAIL;
        }
        h_file_free(&f);
    }
    if (db) {
        res_run_end(db, run_id, status == H_INTERNAL ? "error" : "done");
        res_close(db);
    }
    if (nrows && (r = print_table(rows, nrows,
                                  o.csv ? RES_FMT_CSV
                                  : o.json ? RES_FMT_JSON : RES_FMT_TABLE)))
        status = r;
    free_rows(rows, nrows);
    h_opts_free(&o);
    return status;
}
