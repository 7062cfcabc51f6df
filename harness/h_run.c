/*
 * h_run.c — `gpmc run FILE… [--model …] [-D N=V] [--config K=V]
 * [--crash-depth D] [--naive] [--json] [--max-states N] [--max-steps N]
 * [--timeout S] [--threads N] [--max-memory SIZE] [--state auto|flat|tree]
 * [--db F]`: check each file under each model and print the herd-style
 * report (specs/checker.md). Exit 0 when every check passes, 1 when one
 * fails or is incomplete, 2 on input errors (the other files are still
 * checked; nothing is stored for a file that does not parse).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/harness.h"

static const char *run_help =
    "usage: gpmc run FILE... [--model M[,M...]|all] [-D NAME=V] "
    "[--config KEY=V]\n"
    "                [--crash-depth D] [--naive] [--json] [--max-states N]\n"
    "                [--max-steps N] [--timeout SECONDS] [--threads N]\n"
    "                [--max-memory SIZE] [--state auto|flat|tree] [--db F]\n"
    "                [--progress] [-q]\n"
    "                [--no-reduce] [--no-fuse] [--no-por] [--no-slice]\n"
    "Explores every execution of each file under each model, injects a crash\n"
    "at every reachable point, runs recovery on every crash image, and prints\n"
    "the distinct outcomes, verdicts, witnesses and statistics. With --db the\n"
    "checks are also recorded in that results database (and the ids of each\n"
    "check and violation printed). On a terminal, or with --progress, a\n"
    "progress line on stderr: states, states/s, depth, peak memory, time.\n"
    "The run ends with the failing checks and why, and `N passed, M failed`;\n"
    "-q prints only that. `-` reads a file from standard input; `--` ends\n"
    "the options.\n";

/* Opens --db and begins the run: H_OK, H_USAGE (cannot open or write it)
   or H_INTERNAL. Done at the first file that parses, so a run whose files
   all fail to parse writes nothing, not even the database. */
static int begin(const HOpts *o, int argc, char **argv, ResDb **db,
                 int64_t *run_id)
{
    char err[512], *args;
    if (res_open(o->db, RES_READWRITE, db, err, sizeof err)) {
        fprintf(stderr, "gpmc run: error: %s\n", err);
        *db = NULL;
        return H_USAGE;
    }
    args = h_argv_string("run", argc, argv);
    int rc = res_run_begin(*db, args ? args : "gpmc run", GPMC_VERSION,
                           run_id);
    base_free(args);
    if (rc) {
        fprintf(stderr, "gpmc run: error: %s\n", res_errmsg(*db));
        res_close(*db);
        *db = NULL;
    }
    return H_RES_STATUS(rc);
}

/* The end of a run, as suite's: the checks that failed and why, then the
   count (text only; --json is one JSON array). */
typedef struct {
    int passed, failed;
    int checked;                        /* checks run: none, no summary (a
                                           refused input or check prints
                                           nothing) */
    BaseStr why;                        /* "  FILE MODEL check ID: WHY\n"… */
} Summary;

static void summary_add(Summary *sm, const char *path, const char *model,
                        const HCheckResult *res)
{
    sm->checked += !res->refused;
    if (res->passed) {
        sm->passed++;
        return;
    }
    sm->failed++;
    base_str_printf(&sm->why, "  %s %s", path, model);
    if (res->check_id > 0)
        base_str_printf(&sm->why, " check %lld", (long long)res->check_id);
    base_str_printf(&sm->why, ": %s\n", res->why);
}

/* A file that could not be checked: its n checks fail. */
static void summary_unread(Summary *sm, const char *path, int n)
{
    sm->failed += n;
    base_str_printf(&sm->why, "  %s: cannot be read or parsed (%d check%s)\n",
                    path, n, n == 1 ? "" : "s");
}

static void summary_print(Summary *sm, int stored)
{
    if (!sm->checked)
        return;
    if (sm->failed)
        printf("failed checks%s:\n%s", stored ? " (`gpmc show check ID` has"
               " the details)" : "", sm->why.failed || !sm->why.s
                                      ? "  (out of memory)\n" : sm->why.s);
    printf("%d passed, %d failed\n", sm->passed, sm->failed);
}

int h_cmd_run(int argc, char **argv)
{
    HOpts o;
    ResDb *db = NULL;
    int64_t run_id = 0;
    int status = H_OK, first = 1, stop = 0;
    Summary sm = {0, 0, 0, {0}};
    char **names = NULL;                /* each file's test name, to warn */
    int r = h_opts_parse(argc, argv, &o, HO_RUN | HO_DEFINE | HO_PROGRESS,
                         "run");
    if (!r && o.quiet && o.json) {
        fprintf(stderr, "gpmc run: error: -q and --json exclude each "
                "other\n");
        r = H_USAGE;
    }
    r = h_opts_done(&o, r, "run", run_help, "no input file");
    if (r >= 0)
        return r;
    o.progress |= isatty(2);
    names = base_calloc((size_t)o.nfiles + 1, sizeof *names);
    h_interrupt_catch(1);
    if (o.json)
        printf("[");
    for (int i = 0; i < o.nfiles && !stop && !chk_interrupted(); i++) {
        HFile f;
        if (h_file_load(o.files[i], &o, &f)) {
            status = H_USAGE;
            summary_unread(&sm, h_file_name(o.files[i]), o.nmodels);
            continue;
        }
        if (names)
            names[i] = h_strndup(f.p->name, strlen(f.p->name));
        if (o.db && !db && (r = begin(&o, argc, argv, &db, &run_id))) {
            h_file_free(&f);
            status = r;
            break;
        }
        for (int k = 0; k < o.nmodels && !chk_interrupted(); k++) {
            HCheckResult res;
            int rc;
            /* The report goes out before the next check starts; a JSON
               object through a buffer, so that a check refused (nothing
               printed) leaves no stray comma. */
            char *obj = NULL;
            size_t len = 0;
            FILE *to = o.json ? open_memstream(&obj, &len)
                       : o.quiet ? NULL : stdout;
            if (!to && o.json) {
                fprintf(stderr, "gpmc: error: out of memory\n");
                status = H_INTERNAL;
                stop = 1;
                break;
            }
            rc = h_check(&f, &o, o.models[k], db, run_id, to, &res);
            if (o.json) {
                fclose(to);
                if (len) {
                    printf("%s\n", first ? "" : ",");
                    fwrite(obj, 1, len, stdout);
                    first = 0;
                }
                free(obj);
            }
            fflush(stdout);
            if (rc) {
                status = rc;
                stop = 1;
                break;
            }
            if (res.refused)
                status = H_USAGE;
            else if (!res.passed && status == H_OK)
                status = H_FAIL;
            summary_add(&sm, f.path, lit_model_names[o.models[k]], &res);
        }
        h_file_free(&f);
    }
    if (o.json)
        printf("\n]\n");
    else
        summary_print(&sm, db != NULL);
    base_str_free(&sm.why);
    if (names) {
        h_warn_same_names("run", (const char *const *)names, o.files,
                          o.nfiles);
        for (int i = 0; i < o.nfiles; i++)
            base_free(names[i]);
        base_free(names);
    }
    if (chk_interrupted() && status != H_INTERNAL) {
        fprintf(stderr, "gpmc run: interrupted: the running check is kept,"
                " incomplete; no other check was started\n");
        status = H_INTERRUPTED;
    }
    if (db) {
        res_run_end(db, run_id, status == H_INTERNAL ? "error"
                                : status == H_INTERRUPTED ? "interrupted"
                                : "done");
        res_close(db);
    }
    h_opts_free(&o);
    return status;
}
