/*
 * h_check.c — one file, one model: parse, check, print, store. Shared by
 * `run` and `suite` so that both record exactly the same rows.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/harness.h"

const char *h_file_kind(mode_t m)
{
    return S_ISDIR(m) ? "is a directory"
           : S_ISFIFO(m) ? "is a FIFO, not a regular file"
           : S_ISCHR(m) ? "is a character device, not a regular file"
           : S_ISBLK(m) ? "is a block device, not a regular file"
           : S_ISSOCK(m) ? "is a socket, not a regular file"
           : "is not a regular file";
}

/* The file is opened without blocking, so a FIFO is refused rather than
   waited on. */
char *h_file_read(const char *path, size_t *len, char *why, size_t wlen)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(why, wlen, "cannot read: %s", strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        snprintf(why, wlen, "%s", fstat(fd, &st) ? strerror(errno)
                 : S_ISDIR(st.st_mode)
                     ? "is a directory (gpmc run reads .litmus files;"
                       " gpmc suite DIR checks a directory)"
                     : h_file_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    BaseStr s = {0};
    char buf[65536];
    ssize_t n = 0;
    while (s.len <= H_MAX_FILE &&
           ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
        if (n > 0)
            base_str_putn(&s, buf, (size_t)n);
    int err = n < 0 ? errno : 0;
    close(fd);
    if (s.len > H_MAX_FILE || err || s.failed) {
        snprintf(why, wlen, "%s", s.len > H_MAX_FILE
                 ? "larger than the 4 MB a litmus file may have"
                 : err ? strerror(err) : "out of memory");
        base_str_free(&s);
        return NULL;
    }
    if (!s.s)
        base_str_putn(&s, "", 0);
    *len = s.len;
    return s.s;
}

void h_diag_print(const BaseDiag *d)
{
    fputs(d->text ? d->text : "", stderr);
    if (d->failed)
        fprintf(stderr, "gpmc: error: out of memory: %d errors, not all of"
                " them shown\n", d->nerrors);
}

int h_file_load(const char *path, const HOpts *o, HFile *f)
{
    LitOptions lo;
    BaseDiag d;
    char why[256];
    memset(f, 0, sizeof *f);
    f->path = path;
    f->source = h_file_read(path, &f->len, why, sizeof why);
    if (!f->source) {
        fprintf(stderr, "%s: error: %s\n", path, why);
        return H_USAGE;
    }
    base_sha256(f->source, f->len, f->sha256);
    h_lit_options(o, &lo);
    base_diag_init(&d);
    /* lit_parse_file reports a NUL byte where lit_parse_string would stop */
    if (memchr(f->source, 0, f->len) ? lit_parse_file(path, &lo, &f->p, &d)
                                     : lit_parse_string(path, f->source, &lo,
                                                        &f->p, &d)) {
        h_diag_print(&d);
        base_diag_free(&d);
        base_free(f->source);
        f->source = NULL;
        return H_USAGE;
    }
    base_diag_free(&d);
    if (f->p->nptx) {
        /* the PTX its kernels come from is part of the test's content
           (suite --resume, the tests table) */
        BaseStr s = {0};
        base_str_putn(&s, f->source, f->len);
        for (int32_t i = 0; i < f->p->nptx; i++)
            base_str_printf(&s, "\n%s", f->p->ptx[i]);
        if (s.failed) {
            base_str_free(&s);
            fprintf(stderr, "%s: error: out of memory\n", path);
            h_file_free(f);
            return H_USAGE;
        }
        base_sha256(s.s, s.len, f->sha256);
        base_str_free(&s);
    }
    return H_OK;
}

void h_file_free(HFile *f)
{
    lit_program_free(f->p);
    base_free(f->source);
    memset(f, 0, sizeof *f);
}

typedef struct {
    char key[64];
    char val[64];
} Kv;

static int cmp_kv(const void *a, const void *b)
{
    return strcmp(((const Kv *)a)->key, ((const Kv *)b)->key);
}

/* The -D overrides as key=value pairs. */
static int overrides(const LitProgram *p, Kv *kv, int max)
{
    int n = 0;
    for (int i = 0; i < p->nparams && n < max; i++)
        if (p->params[i].overridden) {
            snprintf(kv[n].key, sizeof kv[n].key, "%s", p->params[i].name);
            snprintf(kv[n].val, sizeof kv[n].val, "%lld",
                     (long long)p->params[i].value);
            n++;
        }
    return n;
}

/* Sorted by key and joined by ';': the canonical form. */
static void join(Kv *kv, int n, char *buf, size_t len)
{
    size_t k = 0;
    qsort(kv, (size_t)n, sizeof *kv, cmp_kv);
    buf[0] = 0;
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s=%s", i ? ";" : "",
                              kv[i].key, kv[i].val);
}

/* DESIGN section 5: every config key, every -D param, crash_depth and
   naive. */
void h_config_string(const LitProgram *p, const HOpts *o, char *buf,
                     size_t len)
{
    Kv kv[LIT_NCONFIG + 64 + 2];
    int n = 0;
    for (int i = 0; i < LIT_NCONFIG; i++) {
        snprintf(kv[n].key, sizeof kv[n].key, "%s", lit_config_name(i));
        lit_config_format(&p->config, i, kv[n].val, sizeof kv[n].val);
        n++;
    }
    n += overrides(p, kv + n, 64);
    snprintf(kv[n].key, sizeof kv[n].key, "crash_depth");
    snprintf(kv[n].val, sizeof kv[n].val, "%d", o->chk.crash_depth);
    n++;
    snprintf(kv[n].key, sizeof kv[n].key, "naive");
    snprintf(kv[n].val, sizeof kv[n].val, "%d", o->chk.naive);
    n++;
    join(kv, n, buf, len);
}

/* tests.params (specs/schema.md): the -D overrides, canonical, or ''. */
void h_params_string(const LitProgram *p, char *buf, size_t len)
{
    Kv kv[64];
    join(kv, overrides(p, kv, 64), buf, len);
}

static const char *vtext(int v)
{
    return v < 0 ? NULL : chk_verdict_names[v];
}

/* What names a check row: the test, the model and the config. */
static void check_base(const HFile *f, const HOpts *o, int model,
                       ResCheck *c, char *config, size_t clen, char *params,
                       size_t plen)
{
    h_config_string(f->p, o, config, clen);
    h_params_string(f->p, params, plen);
    memset(c, 0, sizeof *c);
    c->test.name = f->p->name;
    c->test.path = f->path;
    c->test.sha256 = f->sha256;
    c->test.source = f->source;
    c->test.params = params;
    c->model = lit_model_names[model];
    c->config = config;
    c->cycles = -1;
    c->nvm_writes = -1;
}

static void fill_costs(ResCheck *c, const TmCosts *costs, ResCost *cost)
{
    if (costs->status != TM_OK)
        return;
    c->cycles = costs->cycles;
    c->nvm_writes = costs->nvm_writes;
    for (int k = 0; k < TM_NCOSTS; k++) {
        cost[k].metric = tm_cost_names[k];
        cost[k].value = (double)tm_cost_value(costs, k);
    }
    c->ncosts = TM_NCOSTS;
    c->costs = cost;
}

static int write_check(ResDb *db, int64_t run_id, const HFile *f,
                       const ResCheck *c, int64_t *check_id)
{
    int rc = res_write_check(db, run_id, c, check_id);
    if (rc)
        fprintf(stderr, "gpmc: error: %s: %s\n", f->path, res_errmsg(db));
    return H_RES_STATUS(rc);
}

/* Writes the check; its id and its violations' ids go to ids. */
static int store(const HFile *f, const HOpts *o, const ChkReport *r,
                 const TmCosts *costs, ResDb *db, int64_t run_id,
                 HStored *ids)
{
    char config[2048], params[1024];
    ResCheck c;
    ResResult *res = base_calloc((size_t)r->nresults + 1, sizeof *res);
    ResOutcome *out = base_calloc((size_t)r->noutcomes + 1, sizeof *out);
    ResViolation *vio = base_calloc((size_t)r->nviolations + 1, sizeof *vio);
    ResCost cost[TM_NCOSTS];
    int rc;
    ids->violation_ids = base_calloc((size_t)r->nviolations + 1,
                                    sizeof *ids->violation_ids);
    if (!res || !out || !vio || !ids->violation_ids) {
        base_free(res);
        base_free(out);
        base_free(vio);
        fprintf(stderr, "gpmc: error: out of memory\n");
        return H_INTERNAL;
    }
    check_base(f, o, r->model, &c, config, sizeof config, params,
               sizeof params);
    c.status = chk_status_names[r->status];
    c.error = r->reason;
    c.states = r->states;
    c.transitions = r->transitions;
    c.crash_points = r->crash_points;
    c.crash_images = r->crash_images;
    c.recoveries = r->recoveries;
    c.elapsed_ms = (int64_t)(r->elapsed_ms + 0.5);
    c.peak_kb = r->peak_kb;
    fill_costs(&c, costs, cost);
    for (int i = 0; i < r->nresults; i++) {
        const ChkResult *x = &r->results[i];
        res[i].cond_index = x->cond_index;
        res[i].phase = lit_phase_names[x->phase];
        res[i].quant = x->phase == LIT_NOERROR ? NULL : lit_quant_names[x->quant];
        res[i].cond = x->phase == LIT_NOERROR ? NULL : x->cond;
        res[i].verdict = vtext(x->verdict);
        res[i].expected = vtext(x->expected);
        res[i].positive = x->positive;
        res[i].negative = x->negative;
    }
    for (int i = 0; i < r->noutcomes; i++) {
        out[i].phase = lit_phase_names[r->outcomes[i].phase];
        out[i].state = r->outcomes[i].state;
        out[i].count = r->outcomes[i].count;
    }
    for (int i = 0; i < r->nviolations; i++) {
        const ChkViolation *v = &r->violations[i];
        vio[i].cond_index = v->cond_index;
        vio[i].kind = chk_vkind_names[v->kind];
        vio[i].image = v->image;
        vio[i].witness = v->witness;
        vio[i].witness_json = v->witness_json;
        vio[i].depth = v->depth;
    }
    c.nresults = r->nresults;
    c.results = res;
    c.noutcomes = r->noutcomes;
    c.outcomes = out;
    c.nviolations = r->nviolations;
    c.violations = vio;
    rc = write_check(db, run_id, f, &c, &ids->check_id);
    if (!rc && res_violation_ids(db, ids->check_id, ids->violation_ids,
                                 r->nviolations) != r->nviolations) {
        fprintf(stderr, "gpmc: error: %s: %s\n", f->path, res_errmsg(db));
        rc = H_INTERNAL;
    }
    base_free(res);
    base_free(out);
    base_free(vio);
    return rc;
}

/* `gpmc time --db`: a check row that holds only the timed run's costs.
   Its config ends in `;time_only=1`, so it never stands for (or hides) an
   explored check of the same test, model and config. */
int h_store_costs(const HFile *f, const HOpts *o, int model,
                  const TmCosts *costs, ResDb *db, int64_t run_id)
{
    char config[2048], params[1024];
    size_t n;
    ResCheck c;
    ResCost cost[TM_NCOSTS];
    check_base(f, o, model, &c, config, sizeof config - 16, params,
               sizeof params);
    n = strlen(config);
    snprintf(config + n, sizeof config - n, ";time_only=1");
    c.status = costs->status == TM_OK ? "done"
               : costs->status == TM_LIMIT ? "incomplete" : "error";
    c.error = costs->status == TM_OK ? NULL : costs->error;
    fill_costs(&c, costs, cost);
    int64_t check_id;
    return write_check(db, run_id, f, &c, &check_id);
}

/* Each line of the checker's notes, on stderr, after the file's name. */
static void print_notes(const char *path, const char *notes)
{
    while (notes && *notes) {
        size_t n = strcspn(notes, "\n");
        fprintf(stderr, "%s: %.*s\n", path, (int)n, notes);
        notes += n + (notes[n] == '\n');
    }
}

int h_check(const HFile *f, const HOpts *o, int model, ResDb *db,
            int64_t run_id, FILE *out, HCheckResult *res)
{
    ChkOptions co = o->chk;
    ChkReport *r;
    TmCosts costs;
    HProgress pg;
    HStored ids = {0, NULL};
    char err[256];
    int rc = H_OK;
    co.model = model;
    memset(res, 0, sizeof *res);
    if (out && o->progress) {
        h_progress_start(&pg, f->p->name, lit_model_names[model]);
        co.progress = h_progress_report;
        co.progress_ctx = &pg;
    }
    if (chk_run(f->p, &co, &r, err, sizeof err)) {
        fprintf(stderr, "gpmc: internal error: %s: %s\n", f->path, err);
        return H_INTERNAL;
    }
    if (r->status == CHK_ERROR) {
        fprintf(stderr, "%s: error: %s: %s\n", f->path,
                lit_model_names[model], r->reason);
        res->refused = 1;
        snprintf(res->why, sizeof res->why, "cannot be checked: %s",
                 r->reason);
        chk_report_free(r);
        return H_OK;
    }
    if (out && o->progress)
        h_progress_end(&pg, r);
    /* Interrupted: the check is kept as it stands, not timed. */
    if (chk_interrupted()) {
        memset(&costs, 0, sizeof costs);
        costs.status = TM_LIMIT;
        snprintf(costs.error, sizeof costs.error, "interrupted");
    } else if (tm_run(f->p, model, H_CHECK_TIME_STEPS, &costs, err,
                      sizeof err)) {
        memset(&costs, 0, sizeof costs);
        costs.status = TM_ERROR;
        snprintf(costs.error, sizeof costs.error, "%.150s", err);
    }
    if (out)
        print_notes(f->path, r->notes);
    if (db)
        rc = store(f, o, r, &costs, db, run_id, &ids);
    if (out) {
        const HStored *stored = db && !rc ? &ids : NULL;
        if (o->json && h_print_json(out, f->p, r, &costs, stored)) {
            fprintf(stderr, "gpmc: error: %s: out of memory\n", f->path);
            rc = H_INTERNAL;
        } else if (!o->json)
            h_print_report(out, f->p, r, &costs, stored);
    }
    res->passed = h_report_passes(f->p, r);
    res->check_id = ids.check_id;
    h_failure_text(r, res->why, sizeof res->why);
    base_free(ids.violation_ids);
    chk_report_free(r);
    return rc;
}

char *h_argv_string(const char *cmd, int argc, char **argv)
{
    size_t n = 6 + strlen(cmd);
    char *s;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) + 1;
    s = base_malloc(n);
    if (!s)
        return NULL;
    strcpy(s, "gpmc ");
    strcat(s, cmd);
    for (int i = 0; i < argc; i++) {
        strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}
