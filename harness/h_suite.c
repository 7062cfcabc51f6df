/*
 * h_suite.c — `gpmc suite DIR|FILE… [--model …] [--jobs N] [--db F]
 * [--shard I/N] [--resume]`: every (file, model) check of a corpus into the
 * results store.
 *
 * The parent parses every file once, takes its deterministic shard of the
 * sorted (file, model) list, drops the checks --resume finds done, and
 * hands the rest one at a time to N forked workers over pipes (each worker
 * has its own SQLite connection; WAL lets them write concurrently, and every
 * check is one transaction, so a killed suite leaves whole checks only).
 * Results come back over one pipe per worker in records shorter than
 * PIPE_BUF; the end of that pipe without a result is a dead worker.
 */
#include <errno.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/harness.h"

static const char *suite_help =
    "usage: gpmc suite DIR|FILE... [--model M[,M...]|all] [--jobs N] [--db F]\n"
    "                  [--shard I/N] [--resume] [-D NAME=V] [--config KEY=V]\n"
    "                  [--crash-depth D] [--naive] [--max-states N]\n"
    "                  [--max-steps N] [--timeout SECONDS] [--threads N]\n"
    "                  [--max-memory SIZE]\n"
    "Checks every .litmus file (directories are searched recursively) under\n"
    "every model into the results database (default results/gpmc.db) and\n"
    "prints `N passed, M failed`. --shard I/N runs the I-th of N deterministic\n"
    "slices (merge the shard databases with `gpmc merge`); --resume skips the\n"
    "checks already recorded as done for the same content, model, config and\n"
    "gpmc version.\n";

typedef struct {
    char **v;
    int n, cap;
} Paths;

static void add_path(Paths *ps, const char *p)
{
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? ps->cap * 2 : 64;
        ps->v = realloc(ps->v, (size_t)ps->cap * sizeof *ps->v);
    }
    ps->v[ps->n++] = strdup(p);
}

static void free_paths(Paths *ps)
{
    for (int i = 0; i < ps->n; i++)
        free(ps->v[i]);
    free(ps->v);
}

static void walk(Paths *ps, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        char path[4096];
        struct stat st;
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st))
            continue;
        if (S_ISDIR(st.st_mode))
            walk(ps, path);
        else if (n > 7 && !strcmp(e->d_name + n - 7, ".litmus"))
            add_path(ps, path);
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct {
    int file, model;
} Job;

typedef struct {
    int32_t job, passed, rc;
} Result;

typedef struct {
    int total, done, passed, failed, tty;
    double t0;
} Progress;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress(Progress *pg, const HFile *f, int model, int passed)
{
    double el = now() - pg->t0, rate = el > 0 ? pg->done / el : 0;
    if (!pg->tty) {
        printf("%s %s %s\n", passed ? "pass" : "FAIL", f->path,
               lit_model_names[model]);
        fflush(stdout);
        return;
    }
    printf("\r%d/%d checks, %.1f/s, %.0fs elapsed, ETA %.0fs, %d failed   ",
           pg->done, pg->total, rate, el,
           rate > 0 ? (pg->total - pg->done) / rate : 0.0, pg->failed);
    fflush(stdout);
}

static void account(Progress *pg, const HFile *f, int model, int passed)
{
    pg->done++;
    if (passed)
        pg->passed++;
    else
        pg->failed++;
    progress(pg, f, model, passed);
}

static void worker(int in, int out, int w, const HFile *files, const Job *jobs,
                   const HOpts *o, const char *dbpath, int64_t run_id)
{
    ResDb *db;
    char err[512];
    int32_t j;
    if (res_open(dbpath, RES_READWRITE, &db, err, sizeof err)) {
        fprintf(stderr, "gpmc suite: worker %d: %s\n", w, err);
        _exit(H_INTERNAL);
    }
    while (read(in, &j, sizeof j) == (ssize_t)sizeof j) {
        Result r;
        int passed = 0;
        r.job = j;
        r.rc = h_check(&files[jobs[j].file], o, o->models[jobs[j].model], db,
                       run_id, NULL, &passed);
        r.passed = passed;
        if (write(out, &r, sizeof r) != (ssize_t)sizeof r)
            break;
    }
    res_close(db);
    _exit(0);
}

/* A forked worker: its job pipe, its result pipe, the job it runs. */
typedef struct {
    pid_t pid;
    int to, from;
    int32_t job;                        /* -1 when idle */
} Worker;

/* Forks worker w with its two pipes; the child keeps none of the pipes
   of the workers before it. */
static int spawn(Worker *ws, int w, const HFile *files, const Job *jobs,
                 const HOpts *o, const char *dbpath, int64_t run_id)
{
    int jp[2], rp[2];
    if (pipe(jp))
        return -1;
    if (pipe(rp)) {
        close(jp[0]);
        close(jp[1]);
        return -1;
    }
    ws[w].pid = fork();
    if (ws[w].pid == 0) {
        close(jp[1]);
        close(rp[0]);
        for (int k = 0; k < w; k++) {
            close(ws[k].to);
            close(ws[k].from);
        }
        worker(jp[0], rp[1], w, files, jobs, o, dbpath, run_id);
    }
    close(jp[0]);
    close(rp[1]);
    if (ws[w].pid < 0) {
        close(jp[1]);
        close(rp[0]);
        return -1;
    }
    ws[w].to = jp[1];
    ws[w].from = rp[0];
    ws[w].job = -1;
    return 0;
}

/* A failed write means the worker is gone: its result pipe then reads EOF,
   which is where its death is reported. */
static void dispatch(Worker *wk, int32_t j)
{
    wk->job = j;
    if (write(wk->to, &j, sizeof j) != (ssize_t)sizeof j) {
        close(wk->to);
        wk->to = -1;
    }
}

/* The result pipe of wk ended without a result: the worker died (a crash
   in the checker, a signal). Its check is in the database whole or not at
   all; --resume tells which. */
static void died(Worker *wk, const HFile *files, const Job *jobs,
                 const HOpts *o)
{
    int ws = 0;
    const Job *jb = &jobs[wk->job];
    char how[64] = "exited";
    if (waitpid(wk->pid, &ws, 0) == wk->pid) {
        if (WIFSIGNALED(ws))
            snprintf(how, sizeof how, "was killed by signal %d",
                     WTERMSIG(ws));
        else if (WIFEXITED(ws))
            snprintf(how, sizeof how, "exited with status %d",
                     WEXITSTATUS(ws));
        wk->pid = 0;
    }
    fprintf(stderr, "gpmc suite: error: a worker %s while checking %s under "
            "%s; `--resume` runs the checks left\n", how, files[jb->file].path,
            lit_model_names[o->models[jb->model]]);
    wk->job = -1;
}

/* Runs jobs[0..n) on o->jobs workers; returns H_OK, or H_INTERNAL when a
   check or a worker failed (no new check is started after that; the
   others finish theirs). Each worker has its own result pipe, so the
   parent sees a worker die as the end of that pipe. */
static int run_parallel(const HFile *files, const Job *jobs, int n,
                        const HOpts *o, const char *dbpath, int64_t run_id,
                        Progress *pg)
{
    int nw = o->jobs < n ? o->jobs : n, next = 0, busy = 0, status = H_OK;
    Worker *ws = calloc((size_t)nw, sizeof *ws);
    struct pollfd *pfd = calloc((size_t)nw, sizeof *pfd);
    int *who = calloc((size_t)nw, sizeof *who);
    void (*sigpipe)(int) = signal(SIGPIPE, SIG_IGN);
    if (!ws || !pfd || !who) {
        status = H_INTERNAL;
        nw = 0;
    }
    fflush(stdout);
    fflush(stderr);
    for (int w = 0; w < nw; w++)
        if (spawn(ws, w, files, jobs, o, dbpath, run_id)) {
            status = H_INTERNAL;
            nw = w;
            break;
        }
    for (int w = 0; w < nw && next < n && status == H_OK; w++, busy++)
        dispatch(&ws[w], next++);
    while (busy) {
        int k = 0;
        for (int w = 0; w < nw; w++)
            if (ws[w].job >= 0) {
                pfd[k].fd = ws[w].from;
                pfd[k].events = POLLIN;
                who[k++] = w;
            }
        if (poll(pfd, (nfds_t)k, -1) < 0) {
            if (errno == EINTR)
                continue;
            status = H_INTERNAL;
            break;
        }
        for (int i = 0; i < k; i++) {
            Worker *wk = &ws[who[i]];
            Result r;
            ssize_t got;
            if (!pfd[i].revents)
                continue;
            got = read(wk->from, &r, sizeof r);
            if (got < 0 && errno == EINTR)
                continue;
            busy--;
            if (got != (ssize_t)sizeof r) {
                died(wk, files, jobs, o);
                status = H_INTERNAL;
                continue;
            }
            wk->job = -1;
            if (r.rc)
                status = r.rc;
            account(pg, &files[jobs[r.job].file], o->models[jobs[r.job].model],
                    r.passed && !r.rc);
            if (next < n && status != H_INTERNAL) {
                dispatch(wk, next++);
                busy++;
            }
        }
    }
    for (int w = 0; w < nw; w++) {
        int st;
        if (ws[w].to >= 0)
            close(ws[w].to);
        close(ws[w].from);
        if (ws[w].pid > 0 && waitpid(ws[w].pid, &st, 0) > 0 &&
            (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
            status = H_INTERNAL;
    }
    signal(SIGPIPE, sigpipe);
    free(ws);
    free(pfd);
    free(who);
    return status;
}

/* The default results/ is created on first use; err says why not. */
static int ensure_dir_of(const char *path, char *err, size_t len)
{
    char dir[4096], *slash;
    snprintf(dir, sizeof dir, "%s", path);
    slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = 0;
    if (mkdir(dir, 0777) && errno != EEXIST) {
        snprintf(err, len, "%.400s: cannot create directory: %s", dir,
                 strerror(errno));
        return -1;
    }
    return 0;
}

int h_cmd_suite(int argc, char **argv)
{
    HOpts o;
    Paths ps = {0};
    HFile *files;
    Job *jobs;
    int njobs = 0, status = H_OK, npending = 0;
    int8_t *bad;
    ResDb *db;
    int64_t run_id;
    char err[512], *args;
    const char *dbpath;
    Progress pg;
    int r = h_opts_parse(argc, argv, &o, HO_SUITE | HO_RUN | HO_DEFINE, "suite");
    if (!r && o.json) {
        fprintf(stderr, "gpmc suite: error: --json is an option of gpmc run "
                "(the suite writes to its database)\n");
        r = H_USAGE;
    }
    r = h_opts_done(&o, r, "suite", suite_help, "no input directory or file");
    if (r >= 0)
        return r;
    chk_options_share(&o.chk, o.jobs);
    for (int i = 0; i < o.nfiles; i++) {
        struct stat st;
        if (stat(o.files[i], &st)) {
            fprintf(stderr, "gpmc suite: error: %s: %s\n", o.files[i],
                    strerror(errno));
            free_paths(&ps);
            h_opts_free(&o);
            return H_USAGE;
        }
        if (S_ISDIR(st.st_mode)) {
            int first = ps.n;
            walk(&ps, o.files[i]);
            qsort(ps.v + first, (size_t)(ps.n - first), sizeof *ps.v, cmp_str);
        } else {
            add_path(&ps, o.files[i]);
        }
    }
    dbpath = o.db ? o.db : "results/gpmc.db";
    if (ensure_dir_of(dbpath, err, sizeof err) ||
        res_open(dbpath, RES_READWRITE, &db, err, sizeof err)) {
        fprintf(stderr, "gpmc suite: error: %s\n", err);
        free_paths(&ps);
        h_opts_free(&o);
        return H_USAGE;
    }
    memset(&pg, 0, sizeof pg);
    pg.tty = isatty(1);
    pg.t0 = now();
    args = h_argv_string("suite", argc, argv);
    if (res_run_begin(db, args ? args : "gpmc suite", GPMC_VERSION, &run_id)) {
        fprintf(stderr, "gpmc suite: error: %s\n", res_errmsg(db));
        res_close(db);
        free(args);
        free_paths(&ps);
        h_opts_free(&o);
        return H_INTERNAL;
    }
    free(args);
    files = calloc((size_t)ps.n + 1, sizeof *files);
    bad = calloc((size_t)ps.n + 1, 1);
    jobs = calloc((size_t)ps.n * LIT_NMODELS + 1, sizeof *jobs);
    for (int f = 0; f < ps.n; f++)
        if (h_file_load(ps.v[f], &o, &files[f]))
            bad[f] = 1;
    /* the deterministic list, its shard, and what --resume leaves */
    for (int f = 0, idx = 0; f < ps.n; f++)
        for (int m = 0; m < o.nmodels; m++, idx++) {
            char config[2048];
            int64_t nfail = 0;
            if (o.shard_n && idx % o.shard_n != o.shard_i - 1)
                continue;
            pg.total++;
            if (bad[f]) {
                pg.done++;
                pg.failed++;
                status = H_USAGE;
                continue;
            }
            if (o.resume) {
                h_config_string(files[f].p, &o, config, sizeof config);
                if (res_check_done(db, files[f].sha256,
                                   lit_model_names[o.models[m]], config,
                                   GPMC_VERSION) == 1 &&
                    !res_check_failures(db, files[f].sha256,
                                        lit_model_names[o.models[m]], config,
                                        GPMC_VERSION, &nfail)) {
                    pg.done++;
                    if (nfail)
                        pg.failed++;
                    else
                        pg.passed++;
                    continue;
                }
            }
            jobs[njobs].file = f;
            jobs[njobs].model = m;
            njobs++;
        }
    npending = njobs;
    if (o.jobs <= 1) {
        for (int j = 0; j < npending && status != H_INTERNAL; j++) {
            int passed = 0, rc;
            rc = h_check(&files[jobs[j].file], &o, o.models[jobs[j].model], db,
                         run_id, NULL, &passed);
            if (rc)
                status = rc;
            account(&pg, &files[jobs[j].file], o.models[jobs[j].model],
                    passed && !rc);
        }
    } else if (npending) {
        int rc;
        res_close(db);
        rc = run_parallel(files, jobs, npending, &o, dbpath, run_id, &pg);
        if (rc)
            status = rc;
        if (res_open(dbpath, RES_READWRITE, &db, err, sizeof err)) {
            fprintf(stderr, "gpmc suite: error: %s\n", err);
            db = NULL;
            status = H_INTERNAL;
        }
    }
    if (db) {
        res_run_end(db, run_id, status == H_INTERNAL ? "error" : "done");
        res_close(db);
    }
    if (pg.tty)
        printf("\n");
    printf("%d passed, %d failed\n", pg.passed, pg.failed);
    for (int f = 0; f < ps.n; f++)
        if (!bad[f])
            h_file_free(&files[f]);
    free_paths(&ps);
    free(files);
    free(bad);
    free(jobs);
    h_opts_free(&o);
    return status == H_OK && pg.failed ? H_FAIL : status;
}
