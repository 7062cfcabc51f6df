/*
 * h_opts.c — the options shared by `run`, `suite` and `time`: models,
 * -D params, --config keys, exploration limits, the results database.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
    fprintf(stderr, "gpmc %s: error: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return H_USAGE;
}

int h_models_parse(const char *list, int *models, int *n)
{
    char buf[256], *tok, *save = NULL;
    *n = 0;
    if (!strcmp(list, "all")) {
        for (int m = 0; m < LIT_NMODELS; m++)
            models[(*n)++] = m;
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int m = lit_model_from_name(tok);
        if (m < 0)
            return -1;
        for (int i = 0; i < *n; i++)
            if (models[i] == m)
                m = -1;
        if (m >= 0)
            models[(*n)++] = m;
    }
    return *n ? 0 : -1;
}

/* A decimal or 0x-hexadecimal integer, optionally negative, as in the
   language (a leading 0 does not mean octal). */
int h_parse_int(const char *s, int64_t *v)
{
    char *end;
    long long x;
    const char *d = s + (*s == '-' || *s == '+');
    int hex = d[0] == '0' && (d[1] == 'x' || d[1] == 'X');
    if (!*d || *d == ' ' || *d == '-' || *d == '+')
        return -1;
    errno = 0;
    x = strtoll(s, &end, hex ? 16 : 10);
    if (*end || errno || end == s)
        return -1;
    *v = x;
    return 0;
}

/* --max-memory: a positive number of megabytes, or of kilo-, mega- or
   gigabytes with a K, M or G suffix; into kilobytes. */
static int parse_size_kb(const char *v, int64_t *kb)
{
    char num[32], *end;
    size_t n = strlen(v);
    int64_t x, unit = 1024;
    if (!n || n >= sizeof num)
        return -1;
    memcpy(num, v, n + 1);
    end = num + n - 1;
    if (*end == 'K' || *end == 'k')
        unit = 1;
    else if (*end == 'G' || *end == 'g')
        unit = 1024 * 1024;
    if (*end == 'K' || *end == 'k' || *end == 'M' || *end == 'm' ||
        *end == 'G' || *end == 'g')
        *end = 0;
    if (h_parse_int(num, &x) || x < 1 || x > INT64_MAX / unit / 1024)
        return -1;
    *kb = x * unit;
    return 0;
}

static int out_of_memory(const char *cmd)
{
    fprintf(stderr, "gpmc %s: error: out of memory\n", cmd);
    return H_INTERNAL;
}

char *h_strndup(const char *s, size_t n)
{
    char *d = base_malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

typedef struct {
    const char *name;
    unsigned allowed;                   /* 0: every command but parse */
} Opt;

/* The options that take a value, and the commands that accept them. */
static const Opt valued[] = {
    {"--model", 0}, {"--db", 0}, {"--config", HO_DEFINE},
    {"--crash-depth", HO_RUN}, {"--max-states", HO_RUN},
    {"--max-steps", HO_RUN}, {"--timeout", HO_RUN | HO_TIMEOUT},
    {"--jobs", HO_SUITE},
    {"--threads", HO_RUN}, {"--max-memory", HO_RUN},
    {"--state", HO_RUN}, {"--shard", HO_SUITE},
};

/* The options without a value (and -D, for the suggestions). */
static const Opt flags[] = {
    {"--help", HO_ANY}, {"--naive", HO_RUN}, {"--json", HO_RUN | HO_FORMAT},
    {"--csv", HO_FORMAT}, {"--resume", HO_SUITE}, {"--progress", HO_PROGRESS},
    {"--no-reduce", HO_RUN}, {"--no-fuse", HO_RUN}, {"--no-por", HO_RUN},
    {"--no-slice", HO_RUN}, {"-D", HO_DEFINE}, {"--quiet", HO_PROGRESS},
    {"-q", HO_PROGRESS},
};

static int accepts(const Opt *o, unsigned allowed)
{
    return o->allowed ? (o->allowed & allowed) != 0 : !(allowed & HO_PARSE);
}

static int has(const Opt *opts, size_t n, const char *a, unsigned allowed)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a, opts[i].name) && accepts(&opts[i], allowed))
            return 1;
    return 0;
}

static int takes_value(const char *a, unsigned allowed)
{
    return has(valued, sizeof valued / sizeof *valued, a, allowed);
}

static int is_flag(const char *a, unsigned allowed)
{
    return has(flags, sizeof flags / sizeof *flags, a, allowed);
}

/* "unknown option --modle (did you mean --model?)" */
static int unknown_option(const char *cmd, const char *a, unsigned allowed)
{
    const char *known[64];
    int n = 0;
    for (size_t i = 0; i < sizeof valued / sizeof *valued; i++)
        if (accepts(&valued[i], allowed))
            known[n++] = valued[i].name;
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        if (accepts(&flags[i], allowed))
            known[n++] = flags[i].name;
    const char *near = h_suggest(a, known, n);
    fprintf(stderr, "gpmc %s: error: unknown option %s", cmd, a);
    if (near)
        fprintf(stderr, " (did you mean %s?)", near);
    fprintf(stderr, "\n");
    return H_USAGE;
}

/* "--model: unknown model 'epcoh' (did you mean epoch?) …" */
static int unknown_model(const char *cmd, const char *list)
{
    char buf[256], *tok, *save = NULL;
    const char *known[LIT_NMODELS + 1], *bad = list, *near = NULL;
    for (int m = 0; m < LIT_NMODELS; m++)
        known[m] = lit_model_names[m];
    known[LIT_NMODELS] = "all";
    snprintf(buf, sizeof buf, "%s", list);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (lit_model_from_name(tok) < 0 && strcmp(tok, "all")) {
            bad = tok;
            near = h_suggest(tok, known, LIT_NMODELS + 1);
            break;
        }
    fprintf(stderr, "gpmc %s: error: --model: unknown model '%s'", cmd, bad);
    if (near)
        fprintf(stderr, " (did you mean %s?)", near);
    fprintf(stderr, "; the models are strict epoch bepoch scoped bscoped hw,"
            " or all\n");
    return H_USAGE;
}

/* --no-reduce and --no-fuse, --no-por, --no-slice: the reductions of the
   default mode a run leaves out (specs/checker.md). */
static int no_reduce(const char *a, unsigned *reduce)
{
    static const struct {
        const char *name;
        unsigned bits;
    } flags[] = {
        {"--no-reduce", CHK_R_ALL}, {"--no-fuse", CHK_R_FUSE},
        {"--no-por", CHK_R_POR}, {"--no-slice", CHK_R_SLICE},
    };
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        if (!strcmp(a, flags[i].name)) {
            *reduce &= ~flags[i].bits;
            return 1;
        }
    return 0;
}

int h_opts_parse(int argc, char **argv, HOpts *o, unsigned allowed,
                 const char *cmd)
{
    memset(o, 0, sizeof *o);
    chk_options_default(&o->chk);
    h_models_parse("all", o->models, &o->nmodels);
    o->db = NULL;
    o->files = base_calloc((size_t)argc + 1, sizeof *o->files);
    o->defines = base_calloc((size_t)argc + 1, sizeof *o->defines);
    o->config = base_calloc((size_t)argc + 1, sizeof *o->config);
    o->jobs = 1;
    if (!o->files || !o->defines || !o->config)
        return out_of_memory(cmd);
    for (int i = 0, dashdash = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char name[32];
        int64_t x;
        if (dashdash || a[0] != '-' || !a[1]) {
            o->files[o->nfiles++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {         /* the rest are files */
            dashdash = 1;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
            continue;
        }
        if ((allowed & HO_RUN) && !strcmp(a, "--naive")) {
            o->chk.naive = 1;
            continue;
        }
        if ((allowed & HO_RUN) && no_reduce(a, &o->chk.reduce))
            continue;
        if (is_flag(a, allowed) && !strcmp(a, "--json")) {
            o->json = 1;
            continue;
        }
        if (is_flag(a, allowed) && !strcmp(a, "--csv")) {
            o->csv = 1;
            continue;
        }
        if (is_flag(a, allowed) && !strcmp(a, "--progress")) {
            o->progress = 1;
            continue;
        }
        if (is_flag(a, allowed) && (!strcmp(a, "-q") ||
                                    !strcmp(a, "--quiet"))) {
            o->quiet = 1;
            continue;
        }
        if ((allowed & HO_SUITE) && !strcmp(a, "--resume")) {
            o->resume = 1;
            continue;
        }
        if (!strncmp(a, "-D", 2) && (allowed & HO_DEFINE)) {
            const char *d = a[2] ? a + 2 : v;
            char *eq;
            if (!a[2])
                i++;
            if (!d || !(eq = strchr(d, '=')) || eq == d)
                return usage_error(cmd, "-D expects NAME=VALUE, got '%s'",
                                   d ? d : "");
            if (h_parse_int(eq + 1, &x))
                return usage_error(cmd, "-D %s: the value must be an integer",
                                   d);
            if (!(o->defines[o->ndefines].name = h_strndup(d, (size_t)(eq - d))))
                return out_of_memory(cmd);
            o->defines[o->ndefines].value = x;
            o->ndefines++;
            continue;
        }
        {
            /* --name=value is --name value */
            const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
            if (eq) {
                size_t n = (size_t)(eq - a);
                if (n >= sizeof name)
                    return unknown_option(cmd, a, allowed);
                memcpy(name, a, n);
                name[n] = 0;
                a = name;
                v = eq + 1;
            }
            if (!takes_value(a, allowed))
                return unknown_option(cmd, a, allowed);
            if (!v)
                return usage_error(cmd, "option %s needs a value", a);
            if (!eq)
                i++;
        }
        if (!strcmp(a, "--model")) {
            if (h_models_parse(v, o->models, &o->nmodels))
                return unknown_model(cmd, v);
        } else if (!strcmp(a, "--db")) {
            /* SQLite opens "" and ":memory:" as private temporary
               databases: everything would be stored and lost at exit. */
            if (!*v || !strcmp(v, ":memory:"))
                return usage_error(cmd, "--db needs the name of a file, got"
                                   " '%s'", v);
            o->db = v;
        } else if (!strcmp(a, "--config") && (allowed & HO_DEFINE)) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v)
                return usage_error(cmd, "--config expects KEY=VALUE, got '%s'",
                                   v);
            if (!(o->config[o->nconfig].key = h_strndup(v, (size_t)(eq - v))))
                return out_of_memory(cmd);
            o->config[o->nconfig].value = eq + 1;
            o->nconfig++;
        } else if (!strcmp(a, "--crash-depth") && (allowed & HO_RUN)) {
            if (h_parse_int(v, &x) || x < 1 || x > 16)
                return usage_error(cmd, "--crash-depth must be 1..16, got '%s'",
                                   v);
            o->chk.crash_depth = (int)x;
        } else if (!strcmp(a, "--max-states") && (allowed & HO_RUN)) {
            if (h_parse_int(v, &x) || x < 1)
                return usage_error(cmd, "--max-states must be positive, got '%s'",
                                   v);
            o->chk.max_states = x;
        } else if (!strcmp(a, "--max-steps") && (allowed & HO_RUN)) {
            if (h_parse_int(v, &x) || x < 1)
                return usage_error(cmd, "--max-steps must be positive, got '%s'",
                                   v);
            o->chk.max_steps = x;
        } else if (!strcmp(a, "--timeout") && (allowed & (HO_RUN | HO_TIMEOUT))) {
            char *end;
            double t = strtod(v, &end);
            if (*end || !(t > 0))           /* NaN too */
                return usage_error(cmd, "--timeout must be a positive number "
                                   "of seconds, got '%s'", v);
            o->chk.timeout_s = t;
        } else if (!strcmp(a, "--threads") && (allowed & HO_RUN)) {
            if (h_parse_int(v, &x) || x < 1 || x > 256)
                return usage_error(cmd, "--threads must be 1..256, got '%s'",
                                   v);
            o->chk.threads = (int)x;
        } else if (!strcmp(a, "--max-memory") && (allowed & HO_RUN)) {
            if (parse_size_kb(v, &x))
                return usage_error(cmd, "--max-memory expects a size such as "
                                   "512M or 4G, got '%s'", v);
            o->chk.max_memory_kb = x;
        } else if (!strcmp(a, "--state") && (allowed & HO_RUN)) {
            int k = 0, n = (int)(sizeof chk_state_names /
                                 sizeof *chk_state_names);
            while (k < n && strcmp(v, chk_state_names[k]))
                k++;
            if (k == n)
                return usage_error(cmd, "--state must be auto, flat or tree, "
                                   "got '%s'", v);
            o->chk.state = k;
        } else if (!strcmp(a, "--jobs") && (allowed & HO_SUITE)) {
            if (h_parse_int(v, &x) || x < 1 || x > 256)
                return usage_error(cmd, "--jobs must be 1..256, got '%s'", v);
            o->jobs = (int)x;
        } else {                        /* --shard */
            int si, sn;
            char tail;
            if (sscanf(v, "%d/%d%c", &si, &sn, &tail) != 2 || sn < 1 ||
                si < 1 || si > sn)
                return usage_error(cmd, "--shard expects I/N with 1 <= I <= N, "
                                   "got '%s'", v);
            o->shard_i = si;
            o->shard_n = sn;
        }
    }
    return 0;
}

int h_opts_done(HOpts *o, int r, const char *cmd, const char *help,
                const char *missing)
{
    if (!r && !o->help && o->nfiles)
        return -1;
    if (!r && !o->help)
        fprintf(stderr, "gpmc %s: error: %s\n", cmd, missing);
    fputs(help, o->help && !r ? stdout : stderr);
    h_opts_free(o);
    return r ? r : o->help ? H_OK : H_USAGE;
}

void h_opts_free(HOpts *o)
{
    for (int i = 0; i < o->ndefines; i++)
        base_free((char *)o->defines[i].name);
    for (int i = 0; i < o->nconfig; i++)
        base_free((char *)o->config[i].key);
    base_free(o->files);
    base_free(o->defines);
    base_free(o->config);
}

void h_lit_options(const HOpts *o, LitOptions *lo)
{
    memset(lo, 0, sizeof *lo);
    lo->ndefines = o->ndefines;
    lo->defines = o->defines;
    lo->nconfig = o->nconfig;
    lo->config = o->config;
}
