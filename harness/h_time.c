/*
 * h_time.c — `gpmc time FILE… [--model M[,M…]|all] [-D NAME=V]
 * [--config KEY=V] [--db F]`: one timed run of each file's main program
 * under each model (model/timing/timing.h, tm_run), printed as one table,
 * a row per file and model, a column per metric (tm_cost_names). A run that ends in
 * a runtime error or at the step bound prints its row (costs up to there)
 * and an `error:` line under it. Exit 0 when every run finished, 1 when
 * one did not, 2 on input errors (the other files still run), 3 when gpmc
 * fails.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "model/timing/timing.h"

static const char *time_help =
    "usage: gpmc time FILE... [--model M[,M...]|all] [-D NAME=V] "
    "[--config KEY=V] [--db F]\n"
    "Runs each file's main program once on the timing model of the GPU\n"
    "memory hierarchy under each persistency model's reference\n"
    "implementation and prints cycles, stalls by cause (warp-cycles), NVM\n"
    "writes and bytes, L2 writebacks and the peak WPQ occupancy.\n";

typedef struct {
    char *name;
    int model;
    TmCosts c;
} Row;

static int digits(int64_t v)
{
    int n = v < 0 ? 2 : 1;
    while (v <= -10 || v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

static void print_table(const Row *rows, int n)
{
    int wname = 4, wmodel = 5, w[TM_NCOSTS];
    for (int k = 0; k < TM_NCOSTS; k++)
        w[k] = (int)strlen(tm_cost_names[k]);
    for (int i = 0; i < n; i++) {
        int l = (int)strlen(rows[i].name);
        int lm = (int)strlen(lit_model_names[rows[i].model]);
        if (l > wname)
            wname = l;
        if (lm > wmodel)
            wmodel = lm;
        for (int k = 0; k < TM_NCOSTS; k++)
            if (digits(tm_cost_value(&rows[i].c, k)) > w[k])
                w[k] = digits(tm_cost_value(&rows[i].c, k));
    }
    printf("%-*s  %-*s", wname, "test", wmodel, "model");
    for (int k = 0; k < TM_NCOSTS; k++)
        printf("  %*s", w[k], tm_cost_names[k]);
    printf("\n");
    for (int i = 0; i < n; i++) {
        printf("%-*s  %-*s", wname, rows[i].name, wmodel,
               lit_model_names[rows[i].model]);
        for (int k = 0; k < TM_NCOSTS; k++)
            printf("  %*lld", w[k],
                   (long long)tm_cost_value(&rows[i].c, k));
        printf("\n");
        if (rows[i].c.status != TM_OK)
            printf("  error: %s\n", rows[i].c.error);
    }
}

static void free_rows(Row *rows, int n)
{
    for (int i = 0; i < n; i++)
        free(rows[i].name);
    free(rows);
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
    free(args);
    return rc;
}

int h_cmd_time(int argc, char **argv)
{
    HOpts o;
    Row *rows;
    int nrows = 0, status = H_OK;
    ResDb *db = NULL;
    int64_t run_id = 0;
    int r = h_opts_parse(argc, argv, &o, HO_DEFINE, "time");
    r = h_opts_done(&o, r, "time", time_help, "no input file");
    if (r >= 0)
        return r;
    rows = calloc((size_t)o.nfiles * LIT_NMODELS, sizeof *rows);
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
            if (tm_run(f.p, o.models[k], 0, &row->c, err, sizeof err)) {
                fprintf(stderr, "gpmc: internal error: %s: %s\n",
                        o.files[i], err);
                status = H_INTERNAL;
                break;
            }
            row->name = strdup(f.p->name);
            row->model = o.models[k];
            if (!row->name) {
                fprintf(stderr, "gpmc: internal error: out of memory\n");
                status = H_INTERNAL;
                break;
            }
            nrows++;
            if (db && h_store_costs(&f, &o, o.models[k], &row->c, db, run_id))
                status = H_INTERNAL;
            if (row->c.status != TM_OK && status == H_OK)
                status = H_FAIL;
        }
        h_file_free(&f);
    }
    if (db) {
        res_run_end(db, run_id, status == H_INTERNAL ? "error" : "done");
        res_close(db);
    }
    if (nrows)
        print_table(rows, nrows);
    free_rows(rows, nrows);
    h_opts_free(&o);
    return status;
}
