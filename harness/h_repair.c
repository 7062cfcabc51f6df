/*
 * h_repair.c — what `gpmc fix` and `gpmc tune` share (specs/fix.md): a
 * test as its files (the .litmus and the .cu files its kernels come from),
 * variants of them made by source edits and re-parsed, their verification
 * by full checks under every chosen model, their cost from the timing
 * model, the search's budget and progress, the proposals table, diffs and
 * --apply.
 *
 * A variant holds when, under every chosen model, the check is complete,
 * every `check` line's verdict is Ok, and no runtime error is reachable
 * unless a `check noerror` judges it. The `expect` lines play no part: a
 * test of a bug expects the bug (`expect hw=no`), and the point of `fix` is
 * a program where the claim holds.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/harness.h"

const char *const h_repair_state_names[5] = {
    "holds", "fails", "unknown", "invalid", "unchecked",
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int32_t count_lines(const char *t, size_t len)
{
    int32_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += t[i] == '\n';
    return n;
}

/* The .cu path as the parser names it: the test's directory joined to
   FILE as written (lit_parse.c, from_clause). */
static char *cuda_path(const char *test, const char *from)
{
    const char *slash = strrchr(test, '/');
    size_t d = from[0] == '/' || !slash ? 0 : (size_t)(slash - test + 1);
    size_t n = d + strlen(from);
    char *s = base_malloc(n + 1);
    if (s) {
        memcpy(s, test, d);
        strcpy(s + d, from);
    }
    return s;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

static const char *base_name(const char *s)
{
    const char *slash = strrchr(s, '/');
    return slash ? slash + 1 : s;
}

int h_repair_cuda_file(const HRepair *R, const LitProgram *p, int k, int b)
{
    const LitKernel *kn = &p->kernels[k];
    const char *file = kn->nbodies > b ? kn->bodies[b].file : NULL;
    if (!kn->from || !file || !ends_with(kn->from, ".cu") ||
        strcmp(base_name(file), base_name(kn->from)))
        return 0;
    for (int i = 1; i < R->nfiles; i++)
        if (R->from[i] == k)
            return i;
    return 0;
}

/* ---- variants ----------------------------------------------------------- */

void h_repair_release(HRVariant *v)
{
    lit_program_free(v->p);
    v->p = NULL;
}

void h_repair_variant_free(HRVariant *v)
{
    if (!v)
        return;
    h_repair_release(v);
    for (int i = 0; i < HR_MAX_FILES; i++) {
        base_free(v->text[i]);
        base_free(v->lmap[i]);
    }
    base_free(v->desc);
    base_free(v->why);
    base_free(v->witness);
    base_free(v->witness_json);
    base_free(v->verdicts);
    base_free(v);
}

void h_repair_variants_free(HRVariant **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h_repair_variant_free(v[i]);
    base_free(v);
}

/* Parses v's test text with its .cu texts; 0, or -1 with the errors on
   stderr (a change that does not parse is a bug of gpmc's edits). */
static int build(HRepair *R, HRVariant *v, int quiet)
{
    if (v->p)
        return 0;
    LitOptions lo;
    LitSource src[HR_MAX_FILES];
    BaseDiag d;
    int n = 0;
    for (int i = 1; i < R->nfiles; i++)
        src[n++] = (LitSource){R->path[i], v->text[i], v->len[i]};
    h_lit_options(R->o, &lo);
    base_diag_init(&d);
    int rc = lit_parse_sources(R->path[0], v->text[0], v->len[0], &lo, src,
                               n, &v->p, &d);
    if (rc && !quiet)
        fprintf(stderr, "gpmc %s: internal error: an edited program does not"
                " parse:\n%s", R->cmd, d.text ? d.text : "");
    base_diag_free(&d);
    return rc ? -1 : 0;
}

/* The canonical program and every .cu text: equal hashes, equal
   programs. */
static int program_hash(const HRVariant *v, int nfiles, char hash[65])
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return -1;
    int rc = lit_print(f, v->p);
    for (int i = 1; i < nfiles; i++) {
        fprintf(f, "\n// %d\n", i);
        fwrite(v->text[i], 1, v->len[i], f);
    }
    if (fclose(f) || rc) {
        free(buf);
        return -1;
    }
    base_sha256(buf, len, hash);
    free(buf);
    return 0;
}

/* 1 when hash was seen before, else records it (0); -1 out of memory. */
static int seen(HRepair *R, const char hash[65])
{
    for (size_t i = 0; i < R->nseen; i++)
        if (!memcmp(R->seen[i], hash, 65))
            return 1;
    if (R->nseen == R->capseen &&
        BASE_GROW(R->seen, R->capseen, R->nseen + 1))
        return -1;
    memcpy(R->seen[R->nseen++], hash, 65);
    return 0;
}

/* The line map after edits of one file. An edit spans old lines l0..l1
   (where it starts and ends): l0..l1-1 go, the rest of l1 stays, after the
   new lines the edit's text adds. */
static int32_t *remap(const int32_t *map, int32_t nlines, const char *old,
                      const HREdit *ed, int n, int file, int32_t *out_n)
{
    int32_t cap = nlines + 1;
    for (int i = 0; i < n; i++)
        if (ed[i].file == file)
            cap += count_lines(ed[i].e.text, strlen(ed[i].e.text));
    int32_t *m = base_malloc((size_t)cap * sizeof *m);
    uint8_t *gone = base_calloc((size_t)nlines + 1, 1);
    int32_t *add = base_calloc((size_t)nlines + 1, sizeof *add);
    if (!m || !gone || !add) {
        base_free(m);
        base_free(gone);
        base_free(add);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (ed[i].file != file)
            continue;
        int32_t l0 = count_lines(old, (size_t)ed[i].e.at) - 1;
        int32_t l1 = l0 + count_lines(old + ed[i].e.at,
                                      (size_t)ed[i].e.len) - 1;
        for (int32_t l = l0; l < l1 && l < nlines; l++)
            gone[l] = 1;
        if (l1 < nlines)
            add[l1] += count_lines(ed[i].e.text, strlen(ed[i].e.text)) - 1;
    }
    int32_t k = 0;
    for (int32_t l = 0; l < nlines; l++) {
        for (int32_t j = 0; j < add[l] && k < cap; j++)
            m[k++] = 0;
        if (!gone[l] && k < cap)
            m[k++] = map[l];
    }
    base_free(gone);
    base_free(add);
    *out_n = k;
    return m;
}

HRVariant *h_repair_derive(HRepair *R, const HRVariant *from,
                           const HRChange *c, int *dup)
{
    HRVariant *v = base_calloc(1, sizeof *v);
    *dup = 0;
    if (!v)
        return NULL;
    for (int i = 0; i < R->nfiles; i++) {
        LitEdit e[HR_MAX_EDITS];
        int n = 0;
        for (int k = 0; k < c->nedits; k++)
            if (c->edits[k].file == i)
                e[n++] = c->edits[k].e;
        v->text[i] = n ? lit_edit_apply(from->text[i], from->len[i], e, n,
                                        &v->len[i])
                       : h_strndup(from->text[i], from->len[i]);
        if (!n)
            v->len[i] = from->len[i];
        v->lmap[i] = remap(from->lmap[i], from->nlines[i], from->text[i],
                           c->edits, c->nedits, i, &v->nlines[i]);
        if (!v->text[i] || !v->lmap[i])
            goto fail;
    }
    BaseStr d = {0};
    base_str_printf(&d, "%s%s%s", from->desc ? from->desc : "",
                    from->desc && *from->desc ? "\n" : "", c->desc);
    v->desc = d.s;                      /* freed with v, even when short */
    if (d.failed)
        goto fail;
    v->size = from->size + 1;
    v->seq = R->nvariants++;
    v->state = HR_UNCHECKED;
    if (build(R, v, 0) || program_hash(v, R->nfiles, v->hash))
        goto fail;
    int s = seen(R, v->hash);
    if (s) {
        *dup = s > 0;
        goto fail;
    }
    return v;
fail:
    h_repair_variant_free(v);
    return NULL;
}

int32_t h_repair_line(const HRVariant *v, int file, int32_t line)
{
    return line >= 1 && line <= v->nlines[file] ? v->lmap[file][line - 1]
                                                 : 0;
}

int h_repair_build(HRepair *R, HRVariant *v)
{
    return build(R, v, 0);
}

/* ---- verification ------------------------------------------------------- */

/* A result holds: Ok (an Unknown never does). */
static int holds(const ChkResult *x)
{
    return x->verdict == CHK_OK;
}

/* The violation that shows why result k fails, or an error's. */
static const ChkViolation *violation_of(const ChkReport *r, int k)
{
    for (int i = 0; i < r->nviolations; i++)
        if (r->violations[i].cond_index == k)
            return &r->violations[i];
    return NULL;
}

/* Why v fails: the first failure, or a later one that has a witness when
   the first has none (a failed `exists` has no witness to guide). */
static void blame(HRVariant *v, BaseStr *why, const ChkViolation *w)
{
    if (why->failed || (v->why && (v->witness_json || !w))) {
        base_str_free(why);
        return;
    }
    base_free(v->why);
    base_free(v->witness);
    base_free(v->witness_json);
    v->why = why->s;
    v->witness = w ? h_strndup(w->witness, strlen(w->witness)) : NULL;
    v->witness_json = w && w->witness_json
                          ? h_strndup(w->witness_json, strlen(w->witness_json))
                          : NULL;
}

/* What r says about v: 1 when it holds. Why it fails is kept (for the
   guidance and the report). */
static int judge(HRVariant *v, const LitProgram *p, const ChkReport *r,
                 BaseStr *verdicts)
{
    int noerror = 0, ok = r->status == CHK_DONE;
    base_str_printf(verdicts, "%s%s", verdicts->len ? "; " : "",
                    lit_model_names[r->model]);
    for (int k = 0; k < r->nresults; k++) {
        const ChkResult *x = &r->results[k];
        BaseStr why = {0};
        base_str_printf(verdicts, " %s", chk_verdict_names[x->verdict]);
        noerror |= x->phase == LIT_NOERROR;
        if (holds(x))
            continue;
        ok = 0;
        v->nfail++;
        v->negative += x->negative;
        if (x->phase == LIT_NOERROR)
            base_str_printf(&why, "check %d (noerror)", k);
        else
            base_str_printf(&why, "check %d (%s %s)", k,
                            lit_phase_names[x->phase], p->checks[k].text);
        base_str_printf(&why, " is %s under %s",
                        chk_verdict_names[x->verdict],
                        lit_model_names[r->model]);
        if (r->status != CHK_DONE && r->reason)
            base_str_printf(&why, " (incomplete: %s)", r->reason);
        blame(v, &why, violation_of(r, k));
    }
    if (!noerror && r->nerrors) {
        BaseStr why = {0};
        ok = 0;
        v->nfail += r->nerrors;
        base_str_printf(&why, "a runtime error is reachable under %s: %s",
                        lit_model_names[r->model], r->errors[0]);
        blame(v, &why, violation_of(r, -1));
    }
    if (!ok && !v->why) {
        BaseStr why = {0};
        base_str_printf(&why, "the check under %s is incomplete: %s",
                        lit_model_names[r->model],
                        r->reason ? r->reason : "?");
        blame(v, &why, NULL);
    }
    return ok;
}

int h_repair_exhausted(HRepair *R)
{
    return R->tried >= R->max_candidates ||
           (R->deadline > 0 && now() >= R->deadline);
}

int h_repair_time(HRepair *R, HRVariant *v)
{
    if (v->timed)
        return H_OK;
    if (!v->p && build(R, v, 0))
        return H_INTERNAL;
    v->total = 0;
    for (int m = 0; m < R->o->nmodels; m++) {
        TmCosts c;
        char err[256];
        int model = R->o->models[m];
        if (tm_run(v->p, model, H_CHECK_TIME_STEPS, &c, err, sizeof err)) {
            fprintf(stderr, "gpmc %s: internal error: %s\n", R->cmd, err);
            return H_INTERNAL;
        }
        v->cycles[model] = c.status == TM_OK ? c.cycles : -1;
        v->total += c.status == TM_OK ? c.cycles : 0;
    }
    v->timed = 1;
    return H_OK;
}

int h_repair_verify(HRepair *R, HRVariant *v, int all)
{
    BaseStr verdicts = {0};
    int failed = 0, unknown = 0;
    if (v->state != HR_UNCHECKED)
        return H_OK;
    if (h_repair_exhausted(R)) {
        R->out_of_budget = 1;
        return H_OK;
    }
    if (!v->p && build(R, v, 0))
        return H_INTERNAL;
    R->tried++;
    for (int m = 0; m < R->o->nmodels && (all || !failed); m++) {
        ChkOptions co = R->o->chk;
        ChkReport *r;
        char err[256];
        co.model = R->o->models[m];
        co.progress = NULL;
        if (R->deadline > 0) {
            double left = R->deadline - now();
            co.timeout_s = left > 0.001 ? left : 0.001;
        }
        if (chk_run(v->p, &co, &r, err, sizeof err)) {
            fprintf(stderr, "gpmc %s: internal error: %s\n", R->cmd, err);
            base_str_free(&verdicts);
            return H_INTERNAL;
        }
        if (!judge(v, v->p, r, &verdicts)) {
            if (!failed)
                v->fail_model = co.model;
            failed = 1;
            unknown |= r->status != CHK_DONE;
        } else if (!failed) {
            v->models_ok++;
        }
        chk_report_free(r);
    }
    if (verdicts.failed) {
        fprintf(stderr, "gpmc %s: internal error: out of memory\n", R->cmd);
        return H_INTERNAL;
    }
    v->verdicts = verdicts.s;
    v->state = !failed ? HR_HOLDS : unknown && !v->witness ? HR_UNKNOWN
                                                            : HR_FAILS;
    if ((v->state == HR_HOLDS || all) && h_repair_time(R, v))
        return H_INTERNAL;
    if (v->state == HR_HOLDS)
        R->found++;
    R->stage_done++;
    h_repair_tick(R);
    return H_OK;
}

/* ---- progress ----------------------------------------------------------- */

static void progress_line(HRepair *R, int final)
{
    char of[32] = "";
    if (R->stage_total > 0)
        snprintf(of, sizeof of, " of %lld", (long long)R->stage_total);
    fprintf(stderr, "%sgpmc %s: %s: %lld%s candidates, %lld holding, "
            "%.1f s%s", R->progress && !final ? "\r" : "", R->cmd, R->stage,
            (long long)R->stage_done, of, (long long)R->found,
            now() - R->start, R->progress && !final ? "\033[K" : "\n");
}

void h_repair_stage(HRepair *R, const char *stage, int64_t total)
{
    if (R->stage && R->stage_done)
        progress_line(R, 1);
    R->stage = stage;
    R->stage_total = total;
    R->stage_done = 0;
}

void h_repair_tick(HRepair *R)
{
    double t = now();
    if (!R->progress || !R->stage || t - R->last < 1.0)
        return;
    R->last = t;
    progress_line(R, 0);
}

/* ---- the test and its original ------------------------------------------ */

int h_repair_init(HRepair *R, const char *cmd, const HFile *f,
                  const HOpts *o, int64_t max_candidates)
{
    memset(R, 0, sizeof *R);
    R->cmd = cmd;
    R->f = f;
    R->o = o;
    R->max_candidates = max_candidates;
    R->start = now();
    R->deadline = o->chk.timeout_s > 0 ? R->start + o->chk.timeout_s : 0;
    R->progress = o->progress;
    R->last = R->start;
    R->path[0] = f->path;
    R->nfiles = 1;
    HRVariant *v = base_calloc(1, sizeof *v);
    if (!v)
        goto oom;
    R->orig = v;
    v->text[0] = h_strndup(f->source, f->len);
    v->len[0] = f->len;
    if (!v->text[0])
        goto oom;
    for (int k = 0; k < f->p->nkernels; k++) {
        const LitKernel *kn = &f->p->kernels[k];
        int dupfile = 0;
        if (!kn->from || !ends_with(kn->from, ".cu"))
            continue;
        char *path = cuda_path(f->path, kn->from);
        if (!path)
            goto oom;
        for (int i = 1; i < R->nfiles; i++)
            dupfile |= !strcmp(R->path[i], path);
        if (dupfile || R->nfiles == HR_MAX_FILES) {
            base_free(path);            /* one copy of each file */
            continue;
        }
        char why[256];
        int i = R->nfiles;
        v->text[i] = h_file_read(path, &v->len[i], why, sizeof why);
        if (!v->text[i]) {
            fprintf(stderr, "%s: error: %s\n", path, why);
            base_free(path);
            return H_USAGE;
        }
        R->path[i] = path;
        R->from[i] = k;
        R->nfiles++;
    }
    for (int i = 0; i < R->nfiles; i++) {
        v->nlines[i] = count_lines(v->text[i], v->len[i]);
        v->lmap[i] = base_malloc((size_t)v->nlines[i] * sizeof *v->lmap[i]);
        if (!v->lmap[i])
            goto oom;
        for (int32_t l = 0; l < v->nlines[i]; l++)
            v->lmap[i][l] = l + 1;
    }
    v->desc = h_strndup("", 0);
    v->state = HR_UNCHECKED;
    v->seq = R->nvariants++;
    if (!v->desc || build(R, v, 0) || program_hash(v, R->nfiles, v->hash) ||
        seen(R, v->hash) < 0)
        goto oom;
    return H_OK;
oom:
    fprintf(stderr, "gpmc %s: internal error: out of memory\n", cmd);
    return H_INTERNAL;
}

void h_repair_end(HRepair *R, HFile *f, HOpts *o)
{
    if (R->f)
        h_repair_free(R);
    h_file_free(f);
    h_opts_free(o);
}

void h_repair_free(HRepair *R)
{
    h_repair_variant_free(R->orig);
    for (int i = 1; i < R->nfiles; i++)
        base_free((char *)R->path[i]);
    base_free(R->seen);
    memset(R, 0, sizeof *R);
}

/* ---- groups ------------------------------------------------------------- */

static int is_pbar(int op)
{
    return (lit_opflags(op) & LIT_OPF_PBAR) != 0;
}

/* The ordinal of instruction i among its body's persist barriers. */
static int pbar_ordinal(const LitBody *b, int i)
{
    int n = 0;
    for (int j = 0; j < i; j++)
        n += is_pbar(b->code[j].op);
    return n;
}

int h_repair_group(const LitProgram *p, int k, int b, int i, int *mb,
                   int *mi, int max)
{
    const LitKernel *kn = &p->kernels[k];
    int op = kn->bodies[b].code[i].op, n = 0;
    mb[n] = b;
    mi[n++] = i;
    if (kn->spmd || !is_pbar(op))
        return n;
    int want = pbar_ordinal(&kn->bodies[b], i);
    for (int bb = 0; bb < kn->nbodies && n < max; bb++) {
        const LitBody *body = &kn->bodies[bb];
        int ord = 0;
        if (bb == b)
            continue;
        for (int j = 0; j < body->ninstr; j++) {
            if (!is_pbar(body->code[j].op))
                continue;
            if (ord++ != want)
                continue;
            if (body->code[j].op != op)
                return 1;               /* not the same barrier: alone */
            mb[n] = bb;
            mi[n++] = j;
            break;
        }
    }
    return n;
}

/* ---- shared by fix and tune --------------------------------------------- */

/* The CUDA spelling of an instruction gpmc.cuh offers (DESIGN section 7). */
static const struct {
    int op;
    const char *call;
} cuda_calls[] = {
    {LIT_PBAR_WI, "gpmc_pbar_wi"}, {LIT_PBAR_WG, "gpmc_pbar_wg"},
    {LIT_PBAR_KR, "gpmc_pbar_kr"}, {LIT_PSYNC, "gpmc_psync"},
    {LIT_SFENCE, "gpmc_sfence"}, {LIT_SFENCE, "__threadfence"},
    {LIT_MEMBAR_CTA, "__threadfence_block"},
    {LIT_MEMBAR_SYS, "__threadfence_system"}, {LIT_PCOMMIT, "gpmc_pcommit"},
    {LIT_CLWB, "gpmc_clwb"}, {LIT_CLFLUSH, "gpmc_clflush"},
    {LIT_L2WB, "gpmc_l2wb"}, {LIT_BAR_SYNC, "__syncthreads"},
    {LIT_GRID_SYNC, "gpmc_grid_sync"},
};

const char *h_repair_cuda_call(int op, int nth)
{
    for (size_t i = 0; i < sizeof cuda_calls / sizeof *cuda_calls; i++)
        if (cuda_calls[i].op == op && nth-- == 0)
            return cuda_calls[i].call;
    return NULL;
}

void h_repair_change_free(HRChange *ch)
{
    for (int i = 0; i < ch->nedits; i++)
        lit_edit_free(&ch->edits[i].e);
    ch->nedits = 0;
}

/* Takes the command's own options out of argv: a flag is set to 1, a
   valued option must be an integer in its range. H_OK, or H_USAGE with a
   message. */
static int own_options(const char *cmd, int *argc, char **argv,
                       const HROpt *opts, int n)
{
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        const char *a = argv[i];
        int k = -1;
        size_t len = strcspn(a, "=");
        for (int j = 0; j < n && k < 0; j++)
            if (strlen(opts[j].name) == len &&
                !strncmp(a, opts[j].name, len) && (!opts[j].flag || !a[len]))
                k = j;
        if (!strcmp(a, "--")) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (k < 0) {
            argv[out++] = argv[i];
            continue;
        }
        if (opts[k].flag) {
            *opts[k].val = 1;
            continue;
        }
        const char *v = a[len] == '=' ? a + len + 1 : i + 1 < *argc
                                                           ? argv[++i] : NULL;
        int64_t x;
        if (!v || h_parse_int(v, &x) || x < opts[k].min || x > opts[k].max) {
            char range[64] = "a positive integer";
            if (opts[k].max < INT32_MAX)
                snprintf(range, sizeof range, "%lld..%lld",
                         (long long)opts[k].min, (long long)opts[k].max);
            fprintf(stderr, "gpmc %s: error: %s must be %s, got '%s'\n", cmd,
                    opts[k].name, range, v ? v : "");
            return H_USAGE;
        }
        *opts[k].val = x;
    }
    *argc = out;
    return H_OK;
}

int h_repair_args(const char *cmd, const char *help, int argc, char **argv,
                  const HROpt *opts, int nopts, HOpts *o, HFile *f)
{
    char **args = base_calloc((size_t)argc + 1, sizeof *args);
    int nargs = argc, r;
    if (!args) {
        fprintf(stderr, "gpmc %s: internal error: out of memory\n", cmd);
        return H_INTERNAL;
    }
    memcpy(args, argv, (size_t)argc * sizeof *args);
    if ((r = own_options(cmd, &nargs, args, opts, nopts))) {
        base_free(args);
        fputs(help, stderr);
        return r;
    }
    r = h_opts_parse(nargs, args, o, HO_RUN | HO_DEFINE | HO_PROGRESS, cmd);
    base_free(args);                    /* o keeps argv's strings only */
    if (!r && o->nfiles > 1) {
        fprintf(stderr, "gpmc %s: error: one file at a time\n", cmd);
        r = H_USAGE;
    }
    if (!r && o->json) {
        fprintf(stderr, "gpmc %s: error: --json is not supported (the "
                "proposals go to the database with --db)\n", cmd);
        r = H_USAGE;
    }
    r = h_opts_done(o, r, cmd, help, "no input file");
    if (r >= 0)
        return r;
    o->progress |= isatty(2);
    if (!o->chk.threads)
        o->chk.threads = 1;             /* many small checks */
    if ((r = h_file_load(o->files[0], o, f))) {
        h_opts_free(o);
        return r;
    }
    return -1;
}

int h_repair_begin(HRepair *R, const char *cmd, const HFile *f,
                   const HOpts *o, int64_t max_candidates)
{
    int rc = h_repair_init(R, cmd, f, o, max_candidates);
    if (rc)
        return rc;
    R->max_candidates++;                /* the original is not a candidate */
    if ((rc = h_repair_verify(R, R->orig, 1)))
        return rc;
    R->tried = 0;
    R->found = 0;
    R->max_candidates--;
    printf("%c%s %s (%s) under", cmd[0] - 'a' + 'A', cmd + 1, f->p->name,
           f->path);
    for (int m = 0; m < o->nmodels; m++)
        printf(" %s", lit_model_names[o->models[m]]);
    printf("\n  original cycles");
    h_repair_print_cycles(R, R->orig);
    printf(" (total %lld)\n", (long long)R->orig->total);
    return H_OK;
}

void h_repair_print_cycles(const HRepair *R, const HRVariant *v)
{
    for (int m = 0; m < R->o->nmodels; m++) {
        int model = R->o->models[m];
        if (v->cycles[model] >= 0)
            printf(" %s %lld", lit_model_names[model],
                   (long long)v->cycles[model]);
        else
            printf(" %s -", lit_model_names[model]);
    }
}

void h_repair_print_indented(const char *text, const char *indent)
{
    while (text && *text) {
        size_t n = strcspn(text, "\n");
        printf("%s%.*s\n", indent, (int)n, text);
        text += n + (text[n] == '\n');
    }
}

/* ---- output ------------------------------------------------------------- */

int h_repair_diff(const HRepair *R, const HRVariant *v, BaseStr *out)
{
    for (int i = 0; i < R->nfiles; i++)
        if (h_diff(out, R->path[i], R->path[i], R->orig->text[i],
                   R->orig->len[i], v->text[i], v->len[i]))
            return -1;
    return 0;
}

int h_repair_apply(const HRepair *R, const HRVariant *v)
{
    for (int i = 0; i < R->nfiles; i++) {
        if (v->len[i] == R->orig->len[i] &&
            !memcmp(v->text[i], R->orig->text[i], v->len[i]))
            continue;
        if (h_write_file(R->path[i], v->text[i], v->len[i])) {
            fprintf(stderr, "gpmc %s: error: cannot write %s\n", R->cmd,
                    R->path[i]);
            return H_USAGE;
        }
    }
    return H_OK;
}

int h_repair_store(HRepair *R, int argc, char **argv, HRVariant **v,
                   const int *rank, int n)
{
    char err[512], *args = h_argv_string(R->cmd, argc, argv);
    ResDb *db;
    int64_t run_id;
    int rc = H_OK;
    if (res_open(R->o->db, RES_READWRITE, &db, err, sizeof err)) {
        fprintf(stderr, "gpmc %s: error: %s\n", R->cmd, err);
        base_free(args);
        return H_USAGE;
    }
    if (res_run_begin(db, args ? args : R->cmd, GPMC_VERSION, &run_id)) {
        fprintf(stderr, "gpmc %s: error: %s\n", R->cmd, res_errmsg(db));
        res_close(db);
        base_free(args);
        return H_INTERNAL;
    }
    base_free(args);
    /* the original, checked as `run --db` would record it */
    for (int m = 0; m < R->o->nmodels && !rc; m++) {
        HCheckResult res;
        rc = h_check(R->f, R->o, R->o->models[m], db, run_id, NULL, &res);
    }
    ResProposal *p = base_calloc((size_t)n + 1, sizeof *p);
    BaseStr *diffs = base_calloc((size_t)n + 1, sizeof *diffs);
    if (!p || !diffs)
        rc = H_INTERNAL;
    BaseStr *whys = base_calloc((size_t)n + 1, sizeof *whys);
    if (!whys)
        rc = H_INTERNAL;
    for (int i = 0; !rc && i < n; i++) {
        if (h_repair_diff(R, v[i], &diffs[i]) || !diffs[i].s)
            base_str_putn(&diffs[i], "", 0);
        if (v[i]->state != HR_HOLDS && v[i]->why)
            base_str_printf(&whys[i], "%s%s%s", v[i]->why,
                            v[i]->witness ? "\n" : "",
                            v[i]->witness ? v[i]->witness : "");
        p[i] = (ResProposal){R->cmd, v[i]->seq, v[i]->size, v[i]->desc,
                             diffs[i].s ? diffs[i].s : "",
                             h_repair_state_names[v[i]->state], rank[i],
                             v[i]->timed ? v[i]->total : -1,
                             v[i]->verdicts ? v[i]->verdicts : "",
                             whys[i].s};
    }
    char params[1024];
    h_params_string(R->f->p, params, sizeof params);
    ResTest t = {R->f->p->name, R->f->path, R->f->sha256, R->f->source,
                 params};
    if (!rc && res_write_proposals(db, run_id, &t, p, n)) {
        fprintf(stderr, "gpmc %s: error: %s\n", R->cmd, res_errmsg(db));
        rc = H_INTERNAL;
    }
    for (int i = 0; i < n && diffs && whys; i++) {
        base_str_free(&diffs[i]);
        base_str_free(&whys[i]);
    }
    base_free(diffs);
    base_free(whys);
    base_free(p);
    res_run_end(db, run_id, rc ? "error" : "done");
    res_close(db);
    return rc;
}
