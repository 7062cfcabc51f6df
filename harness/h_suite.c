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
    "                  [--max-memory SIZE] [--state auto|flat|tree]\n"
    "                  [--no-reduce] [--no-fuse] [--no-por] [--no-slice]\n"
    "Checks every .litmus file (directories are searched recursively) under\n"
    "every model into the results database (default results/gpmc.db) and\n"
    "prints `N passed, M failed`. --shard I/N runs the I-th of N deterministic\n"
    "slices (merge the shard databases with `gpmc merge`); --resume skips the\n"
    "checks already recorded as done for the same content, model, config and\n"
    "gpmc version.\n";

typedef struct {
    char **v;
    size_t n, cap;
    int failed;                         /* out of memory */
    int unreadable;                     /* directories or entries (reported) */
} Paths;

static void add_path(Paths *ps, const char *p)
{
    char *d = BASE_GROW(ps->v, ps->cap, ps->n + 1) ? NULL
                                                   : h_strndup(p, strlen(p));
    if (!d) {
        ps->failed = 1;
        return;
    }
    ps->v[ps->n++] = d;
}

static void free_paths(Paths *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        base_free(ps->v[i]);
    base_free(ps->v);
}

/* What cannot be listed is an error, never a directory skipped in
   silence (a suite that checked none of its files must not pass). */
static void unreadable(Paths *ps, const char *path, int err)
{
    fprintf(stderr, "gpmc suite: error: %s: cannot read: %s\n", path,
            strerror(err));
    ps->unreadable++;
}

/* The .litmus files under dir, recursively. Symbolic links to directories
   are not followed (no cycles); every other entry named *.litmus is taken,
   and h_file_load refuses what is not a regular file (a FIFO is never
   opened for reading). Paths are built whole, however long: one cut to a
   fixed buffer could name its own directory again and never end. */
static void walk(Paths *ps, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d) {
        unreadable(ps, dir, errno);
        return;
    }
    for (errno = 0; (e = readdir(d)); errno = 0) {
        struct stat st;
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        BaseStr path = {0};
        base_str_printf(&path, "%s/%s", dir, e->d_name);
        if (path.failed) {
            ps->failed = 1;
        } else if (lstat(path.s, &st)) {
            unreadable(ps, path.s, errno);
        } else if (S_ISDIR(st.st_mode)) {
            walk(ps, path.s);
        } else if (n > 7 && !strcmp(e->d_name + n - 7, ".litmus")) {
            add_path(ps, path.s);
        }
        base_str_free(&path);
    }
    if (errno)
        unreadable(ps, dir, errno);
    closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A check to run: a (file, model) and its entry in the list. */
typedef struct {
    int file, model;
    size_t entry;
} Job;

/* What a worker sends back for one job (shorter than PIPE_BUF). */
typedef struct {
    int32_t job, passed, refused, rc;
    int32_t skipped;                    /* not run: the suite was
                                           interrupted first */
    int64_t check_id;
    char why[160];
} Result;

/* The state of one (file, model) of the shard, in list order. */
enum { E_PENDING, E_DONE, E_SKIPPED };

typedef struct {
    int file, model;
    int state, passed, rc;
    int64_t check_id;
    char why[160];
} Entry;

/* Progress and the lines of the checks in list order: a check's line is
   printed once every check before it has one, so the output is the same
   for any --jobs. On a terminal, one line rewritten in place instead. */
typedef struct {
    Entry *e;
    size_t n, next;
    int total, done, passed, failed, skipped, tty;
    int refused;                        /* checks that cannot be run */
    const HFile *files;
    const HOpts *o;
    double t0;
} Progress;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_ready(Progress *pg)
{
    for (; pg->next < pg->n && pg->e[pg->next].state != E_PENDING;
         pg->next++) {
        const Entry *e = &pg->e[pg->next];
        if (pg->tty || e->state == E_SKIPPED)
            continue;
        printf("%s %s %s\n", e->passed ? "pass" : "FAIL",
               pg->files[e->file].path, lit_model_names[pg->o->models[e->model]]);
    }
    if (pg->tty) {
        double el = now() - pg->t0, rate = el > 0 ? pg->done / el : 0;
        printf("\r%d/%d checks, %.1f/s, %.0fs elapsed, ETA %.0fs, %d failed   ",
               pg->done, pg->total, rate, el,
               rate > 0 ? (pg->total - pg->done) / rate : 0.0, pg->failed);
    }
    fflush(stdout);
}

/* Entry i is finished. */
static void account(Progress *pg, size_t i, int passed, int rc,
                    int64_t check_id, const char *why)
{
    Entry *e = &pg->e[i];
    e->state = E_DONE;
    e->passed = passed && !rc;
    e->rc = rc;
    e->check_id = check_id;
    snprintf(e->why, sizeof e->why, "%s", why);
    pg->done++;
    if (e->passed)
        pg->passed++;
    else
        pg->failed++;
    print_ready(pg);
}

/* Before the summary: every failing check with its id and why. */
static void print_failures(const Progress *pg)
{
    int header = 0;
    for (size_t i = 0; i < pg->n; i++) {
        const Entry *e = &pg->e[i];
        if (e->passed || e->state == E_PENDING)
            continue;
        if (!header++)
            printf("failed checks (`gpmc show check ID` has the details):\n");
        printf("  %s %s", pg->files[e->file].path,
               lit_model_names[pg->o->models[e->model]]);
        if (e->check_id > 0)
            printf(" check %lld", (long long)e->check_id);
        printf(": %s\n", e->why);
    }
}

static void worker(int in, int out, int w, const HFile *files, const Job *jobs,
                   const HOpts *o, const char *dbpath, int64_t run_id)
{
    ResDb *db;
    char err[512];
    int32_t j;
    ssize_t got;
    h_interrupt_catch(0);
    if (res_open(dbpath, RES_READWRITE, &db, err, sizeof err)) {
        fprintf(stderr, "gpmc suite: worker %d: %s\n", w, err);
        _exit(H_INTERNAL);
    }
    while ((got = read(in, &j, sizeof j)) == (ssize_t)sizeof j ||
           (got < 0 && errno == EINTR)) {
        Result r;
        HCheckResult res;
        if (got < 0)
            continue;
        memset(&r, 0, sizeof r);
        r.job = j;
        /* A job sent as the interrupt came is handed back, not run. */
        r.skipped = chk_interrupted();
        if (!r.skipped)
            r.rc = h_check(&files[jobs[j].file], o, o->models[jobs[j].model],
                           db, run_id, NULL, &res);
        else
            memset(&res, 0, sizeof res);
        r.passed = res.passed;
        r.refused = res.refused;
        r.check_id = res.check_id;
        snprintf(r.why, sizeof r.why, "%s", res.why);
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
                 const HOpts *o, Progress *pg)
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
    account(pg, jb->entry, 0, H_INTERNAL, 0, "the worker checking it died");
    wk->job = -1;
}

/* Runs jobs[0..n) on o->jobs workers; returns H_OK, or the status of a
   check that failed (h_check: H_USAGE when the database is at fault) or
   H_INTERNAL when a worker did (no new check is started after that; the
   others finish theirs). Each worker has its own result pipe, so the
   parent sees a worker die as the end of that pipe. */
static int run_parallel(const HFile *files, const Job *jobs, int n,
                        const HOpts *o, const char *dbpath, int64_t run_id,
                        Progress *pg)
{
    int nw = o->jobs < n ? o->jobs : n, next = 0, busy = 0, status = H_OK;
    int forwarded = 0;
    Worker *ws = base_calloc((size_t)nw, sizeof *ws);
    struct pollfd *pfd = base_calloc((size_t)nw, sizeof *pfd);
    int *who = base_calloc((size_t)nw, sizeof *who);
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
        int pr = poll(pfd, (nfds_t)k, -1);
        /* A SIGINT to this process only (kill -INT) reaches the workers
           too; they stop their checks and keep them, incomplete. */
        if (chk_interrupted() && !forwarded) {
            forwarded = 1;
            for (int w = 0; w < nw; w++)
                if (ws[w].job >= 0 && ws[w].pid > 0)
                    kill(ws[w].pid, SIGINT);
        }
        if (pr < 0) {
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
                died(wk, files, jobs, o, pg);
                status = H_INTERNAL;
                continue;
            }
            wk->job = -1;
            if (r.rc)
                status = r.rc;
            r.why[sizeof r.why - 1] = '\0';
            pg->refused += r.refused != 0;
            if (!r.skipped)
                account(pg, jobs[r.job].entry, r.passed, r.rc, r.check_id,
                        r.why);
            if (next < n && status == H_OK && !chk_interrupted()) {
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
    base_free(ws);
    base_free(pfd);
    base_free(who);
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

/* The files of the arguments: a directory's .litmus files sorted, the
   others as given. H_USAGE when some argument, directory or entry cannot
   be read (each reported): nothing is checked then. */
static int collect(const HOpts *o, Paths *ps)
{
    for (int i = 0; i < o->nfiles; i++) {
        struct stat st;
        if (stat(o->files[i], &st)) {
            fprintf(stderr, "gpmc suite: error: %s: %s\n", o->files[i],
                    strerror(errno));
            return H_USAGE;
        }
        if (S_ISDIR(st.st_mode)) {
            size_t first = ps->n;
            walk(ps, o->files[i]);
            qsort(ps->v + first, ps->n - first, sizeof *ps->v, cmp_str);
        } else {
            add_path(ps, o->files[i]);
        }
    }
    if (ps->failed) {
        fprintf(stderr, "gpmc suite: error: out of memory\n");
        return H_INTERNAL;
    }
    return ps->unreadable ? H_USAGE : H_OK;
}

/* With --resume: a check already done for this content, model, config and
   gpmc version is skipped; a failing one still counts as failed (its id
   and why come from the database). 1 when skipped. */
static int resumed(ResDb *db, const HFile *f, const HOpts *o, int model,
                   Progress *pg, size_t i)
{
    char config[2048];
    int64_t nfail = 0, check_id = 0;
    h_config_string(f->p, o, config, sizeof config);
    if (res_check_done(db, f->sha256, lit_model_names[model], config,
                       GPMC_VERSION) != 1 ||
        res_check_failures(db, f->sha256, lit_model_names[model], config,
                           GPMC_VERSION, &nfail, &check_id))
        return 0;
    Entry *e = &pg->e[i];
    pg->done++;
    if (!nfail) {
        e->state = E_SKIPPED;
        e->passed = 1;
        pg->skipped++;
        return 1;
    }
    e->state = E_DONE;
    e->check_id = check_id;
    snprintf(e->why, sizeof e->why, "recorded by an earlier run: %lld"
             " failing result%s", (long long)nfail, nfail == 1 ? "" : "s");
    pg->failed++;
    return 1;
}

int h_cmd_suite(int argc, char **argv)
{
    HOpts o;
    Paths ps = {0};
    HFile *files = NULL;
    Job *jobs = NULL;
    int njobs = 0, status = H_OK;
    int8_t *bad = NULL;
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
    h_interrupt_catch(1);
    if ((r = collect(&o, &ps))) {
        free_paths(&ps);
        h_opts_free(&o);
        return r;
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
    pg.o = &o;
    args = h_argv_string("suite", argc, argv);
    if ((r = res_run_begin(db, args ? args : "gpmc suite", GPMC_VERSION,
                           &run_id))) {
        fprintf(stderr, "gpmc suite: error: %s\n", res_errmsg(db));
        res_close(db);
        base_free(args);
        free_paths(&ps);
        h_opts_free(&o);
        return H_RES_STATUS(r);
    }
    base_free(args);
    files = base_calloc(ps.n + 1, sizeof *files);
    bad = base_calloc(ps.n + 1, 1);
    jobs = base_calloc(ps.n * LIT_NMODELS + 1, sizeof *jobs);
    pg.e = base_calloc(ps.n * LIT_NMODELS + 1, sizeof *pg.e);
    if (!files || !bad || !jobs || !pg.e) {
        fprintf(stderr, "gpmc suite: error: out of memory\n");
        status = H_INTERNAL;
        ps.n = 0;
    }
    pg.files = files;
    for (size_t f = 0; f < ps.n; f++)
        if (h_file_load(ps.v[f], &o, &files[f]))
            bad[f] = 1;
    {
        const char **names = base_calloc(ps.n + 1, sizeof *names);
        for (size_t f = 0; names && f < ps.n; f++)
            names[f] = bad[f] ? NULL : files[f].p->name;
        if (names)
            h_warn_same_names("suite", names, (const char *const *)ps.v,
                              (int)ps.n);
        base_free(names);
    }
    /* the deterministic list, its shard, and what --resume leaves */
    for (size_t f = 0, idx = 0; f < ps.n; f++)
        for (int m = 0; m < o.nmodels; m++, idx++) {
            if (o.shard_n && idx % (size_t)o.shard_n != (size_t)o.shard_i - 1)
                continue;
            size_t i = pg.n++;
            pg.e[i].file = (int)f;
            pg.e[i].model = m;
            pg.total++;
            if (bad[f]) {
                account(&pg, i, 0, H_OK, 0, "cannot be read or parsed");
                status = H_USAGE;
                continue;
            }
            if (o.resume && resumed(db, &files[f], &o, o.models[m], &pg, i))
                continue;
            jobs[njobs].file = (int)f;
            jobs[njobs].model = m;
            jobs[njobs].entry = i;
            njobs++;
        }
    print_ready(&pg);
    if (o.jobs <= 1) {
        for (int j = 0, stop = 0; j < njobs && !stop && !chk_interrupted();
             j++) {
            HCheckResult res;
            int rc = h_check(&files[jobs[j].file], &o, o.models[jobs[j].model],
                             db, run_id, NULL, &res);
            if (rc)
                status = rc;
            stop = rc != H_OK;
            pg.refused += res.refused;
            account(&pg, jobs[j].entry, res.passed, rc, res.check_id,
                    rc ? "gpmc failed checking it" : res.why);
        }
    } else if (njobs) {
        int rc;
        res_close(db);
        rc = run_parallel(files, jobs, njobs, &o, dbpath, run_id, &pg);
        if (rc)
            status = rc;
        if (res_open(dbpath, RES_READWRITE, &db, err, sizeof err)) {
            fprintf(stderr, "gpmc suite: error: %s\n", err);
            db = NULL;
            status = H_INTERNAL;
        }
    }
    if (chk_interrupted() && status != H_INTERNAL)
        status = H_INTERRUPTED;
    if (db) {
        res_run_end(db, run_id, status == H_INTERNAL ? "error"
                                : status == H_INTERRUPTED ? "interrupted"
                                : "done");
        res_close(db);
    }
    if (pg.tty)
        printf("\n");
    print_failures(&pg);
    if (status == H_INTERRUPTED)
        fprintf(stderr, "gpmc suite: interrupted: the running checks are kept,"
                " incomplete; %d checks were not run (`--resume` runs"
                " them)\n", pg.total - pg.done);
    printf("%d passed, %d failed", pg.passed, pg.failed);
    if (o.resume)
        printf(", %d skipped (passed before)", pg.skipped);
    printf("\n");
    for (size_t f = 0; f < ps.n; f++)
        if (!bad[f])
            h_file_free(&files[f]);
    free_paths(&ps);
    base_free(files);
    base_free(bad);
    base_free(jobs);
    base_free(pg.e);
    h_opts_free(&o);
    if (status == H_OK && pg.refused)
        status = H_USAGE;
    return status == H_OK && pg.failed ? H_FAIL : status;
}
