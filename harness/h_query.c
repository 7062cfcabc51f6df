/* The read side of the results store: `gpmc query`, `report`, `show` and
   `merge` (DESIGN section 6; the store is specs/schema.md). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "results/results.h"

#define DEFAULT_DB "results/gpmc.db"
#define QUERY_TIMEOUT 60                /* s; --timeout */
#define MERGE_TIMEOUT 600

static const char usage_query[] =
    "usage: gpmc query [--db F] [--csv|--json] [--timeout S] \"SELECT ...\""
    " | -\n"
    "Run one read-only SQL statement on the results database (default "
    DEFAULT_DB ");\n"
    "with -, read the statement from standard input. It stops after S\n"
    "seconds (default 60).\n";
static const char usage_report[] =
    "usage: gpmc report verdicts|unexpected|costs|disagreements|configs\n"
    "                   [--db F] [--csv|--json] [--status]\n"
    "       gpmc report html [--db F] [-o FILE] [--bench DIR] [--witnesses N]\n"
    "Print a report over the latest check of each test, model and config.\n"
    "--csv and --json name each config by its id (configs lists them) and\n"
    "give verdicts a row per model with its expectation and whether it\n"
    "passes.\n"
    "html writes one self-contained page (the runs it covers, the verdict\n"
    "matrix, the witnesses of what does not pass as SVG drawn by Graphviz's\n"
    "dot, at most N (default 50), cost charts, the configs, the bench's\n"
    "state-space growth from DIR, default bench/out) to FILE or standard\n"
    "output. With --status the exit status says whether the report has\n"
    "rows: 1 when it has (an unexpected verdict, a failed check, a\n"
    "disagreement), 0 when not.\n";
static const char usage_show[] =
    "usage: gpmc show violation ID | check ID [--db F] [--dot]\n"
    "Print a violation's witness, or a check's results, outcomes and\n"
    "violations; --dot prints the witness graphs in Graphviz DOT instead.\n";
static const char usage_merge[] =
    "usage: gpmc merge [--timeout S] OUT.db IN.db...\n"
    "Copy the inputs into OUT.db (created if needed) without duplicates;\n"
    "stop after S seconds (default 600).\n";

static int usage_error(const char *usage, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gpmc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fputs(usage, stderr);
    return H_USAGE;
}

static int res_status(int rc, const char *msg)
{
    if (rc == RES_OK)
        return H_OK;
    fprintf(stderr, "gpmc: error: %s\n", msg);
    return rc == RES_EINPUT ? H_USAGE : H_INTERNAL;
}

/* Options shared by the commands. A command accepts those whose pointer it
   passes; positionals are moved, in order, to the front of argv (pos). */
typedef struct {
    const char *cmd, *usage;
    const char **db;
    int *csv, *json, *dot;
    const char **output, **bench;
    double *timeout;
    int *status;
    int *witnesses;
    char **pos;
    int npos;
} Args;

/* "unknown option '--jsno' (did you mean --json?)" */
static int unknown_option(const Args *a, const char *s)
{
    const char *known[12];
    int n = 0;
    known[n++] = "--help";
    if (a->db)
        known[n++] = "--db";
    if (a->csv)
        known[n++] = "--csv";
    if (a->json)
        known[n++] = "--json";
    if (a->dot)
        known[n++] = "--dot";
    if (a->output)
        known[n++] = "-o";
    if (a->bench)
        known[n++] = "--bench";
    if (a->timeout)
        known[n++] = "--timeout";
    if (a->status)
        known[n++] = "--status";
    if (a->witnesses)
        known[n++] = "--witnesses";
    const char *near = h_suggest(s, known, n);
    if (near)
        return usage_error(a->usage, "%s: unknown option '%s' (did you mean"
                           " %s?)", a->cmd, s, near);
    return usage_error(a->usage, "%s: unknown option '%s'", a->cmd, s);
}

/* The value of option s at argv[*i] ("--db F", "--db=F"), or NULL after
   printing the error. */
static const char *value(const Args *a, int argc, char **argv, int *i,
                         const char *name)
{
    const char *s = argv[*i];
    size_t n = strlen(name);
    if (s[n] == '=')
        return s + n + 1;
    if (++*i == argc) {
        usage_error(a->usage, "%s: %s needs a value", a->cmd, name);
        return NULL;
    }
    return argv[*i];
}

static int is_opt(const char *s, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(s, name, n) && (s[n] == '\0' || (s[n] == '=' && n > 2));
}

/* 0: parsed; H_OK after --help (printed); H_USAGE after an error. */
static int parse_args(Args *a, int argc, char **argv, int *done)
{
    int dashdash = 0;
    *done = 0;
    a->pos = argv;
    for (int i = 0; i < argc; i++) {
        char *s = argv[i];
        if (dashdash || s[0] != '-' || !s[1]) {
            argv[a->npos++] = s;
        } else if (!strcmp(s, "--")) {
            dashdash = 1;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            fputs(a->usage, stdout);
            *done = 1;
            return H_OK;
        } else if (a->db && is_opt(s, "--db")) {
            if (!(*a->db = value(a, argc, argv, &i, "--db")))
                return H_USAGE;
        } else if (a->output && is_opt(s, "-o")) {
            if (!(*a->output = value(a, argc, argv, &i, "-o")))
                return H_USAGE;
        } else if (a->bench && is_opt(s, "--bench")) {
            if (!(*a->bench = value(a, argc, argv, &i, "--bench")))
                return H_USAGE;
        } else if (a->csv && !strcmp(s, "--csv")) {
            *a->csv = 1;
        } else if (a->json && !strcmp(s, "--json")) {
            *a->json = 1;
        } else if (a->dot && !strcmp(s, "--dot")) {
            *a->dot = 1;
        } else if (a->status && !strcmp(s, "--status")) {
            *a->status = 1;
        } else if (a->witnesses && is_opt(s, "--witnesses")) {
            const char *v = value(a, argc, argv, &i, "--witnesses");
            int64_t n;
            if (!v)
                return H_USAGE;
            if (h_parse_int(v, &n) || n < 0 || n > 100000)
                return usage_error(a->usage, "%s: --witnesses needs a number"
                                   " from 0 to 100000, got '%s'", a->cmd, v);
            *a->witnesses = (int)n;
        } else if (a->timeout && is_opt(s, "--timeout")) {
            const char *v = value(a, argc, argv, &i, "--timeout");
            char *end;
            if (!v)
                return H_USAGE;
            *a->timeout = strtod(v, &end);
            if (end == v || *end || !(*a->timeout > 0))
                return usage_error(a->usage, "%s: --timeout needs a positive "
                                   "number of seconds, got '%s'", a->cmd, v);
        } else {
            return unknown_option(a, s);
        }
    }
    return H_OK;
}

static int open_db(const char *path, ResDb **db)
{
    char err[1024];
    int rc = res_open(path, RES_READONLY, db, err, sizeof err);
    return rc ? res_status(rc, err) : H_OK;
}

/* Standard input, at most H_MAX_SQL bytes, as a string (base_malloc'd);
   NULL after printing the error. */
static char *read_stdin(void)
{
    BaseStr sql = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0 &&
           sql.len <= H_MAX_SQL)
        base_str_putn(&sql, buf, n);
    if (ferror(stdin) || sql.failed || sql.len > H_MAX_SQL) {
        fprintf(stderr, "gpmc: error: query: %s\n",
                ferror(stdin) ? "cannot read standard input"
                : sql.failed ? "out of memory"
                : "the SQL on standard input is longer than 1 MB");
        base_str_free(&sql);
        return NULL;
    }
    if (!sql.s)
        base_str_putn(&sql, "", 0);
    return sql.s;
}

int h_cmd_query(int argc, char **argv)
{
    const char *path = DEFAULT_DB;
    int csv = 0, json = 0, done;
    double timeout = QUERY_TIMEOUT;
    Args a = {"query", usage_query, &path, &csv, &json, NULL, NULL, NULL,
              &timeout, NULL, NULL, NULL, 0};
    int st = parse_args(&a, argc, argv, &done);
    if (st || done)
        return st;
    if (csv && json)
        return usage_error(usage_query, "query: --csv and --json exclude"
                                        " each other");
    if (a.npos != 1)
        return usage_error(usage_query, "query: expected one SQL statement,"
                                        " got %d arguments", a.npos);
    char *sql = strcmp(a.pos[0], "-") ? NULL : read_stdin();
    if (!strcmp(a.pos[0], "-") && !sql)
        return H_USAGE;
    ResDb *db;
    if ((st = open_db(path, &db))) {
        base_free(sql);
        return st;
    }
    res_time_limit(db, timeout);
    int rc = res_query(db, sql ? sql : a.pos[0],
                       csv ? RES_FMT_CSV : json ? RES_FMT_JSON : RES_FMT_TABLE,
                       stdout);
    st = res_status(rc, res_errmsg(db));
    res_close(db);
    base_free(sql);
    return st;
}

/* `report html`: the page to -o FILE (written whole, or not at all) or to
   standard output (no -o, or -o -). */
static int report_html(ResDb *db, const char *output, const char *bench,
                       int witnesses)
{
    /* --witnesses 0 draws none: max_witnesses -1 */
    ResHtmlOptions ho = {h_svg_render, NULL, bench,
                         witnesses < 0 ? 0 : witnesses ? witnesses : -1};
    char *page = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&page, &len);
    if (!mem) {
        fprintf(stderr, "gpmc: error: report: out of memory\n");
        return H_INTERNAL;
    }
    int rc = res_report_html(db, &ho, mem);
    int closed = fclose(mem);           /* EOF: the page did not fit */
    int st = res_status(rc, res_errmsg(db));
    if (!st && closed) {
        fprintf(stderr, "gpmc: error: report: out of memory\n");
        st = H_INTERNAL;
    }
    if (!st && output)
        st = h_write_file(output, page, len);
    else if (!st)
        fwrite(page, 1, len, stdout);
    free(page);
    return st;
}

/* "unknown report 'verdcts' (did you mean verdicts?)": word is one of
   known[0..n), else H_USAGE after saying so. */
static int known_word(const char *usage, const char *cmd, const char *what,
                      const char *word, const char *const *known, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(word, known[i]))
            return H_OK;
    const char *near = h_suggest(word, known, n);
    BaseStr list = {0};
    for (int i = 0; i < n; i++)
        base_str_printf(&list, "%s%s", i ? i == n - 1 ? " or " : ", " : "",
                        known[i]);
    if (near)
        usage_error(usage, "%s: unknown %s '%s' (did you mean %s?)", cmd,
                    what, word, near);
    else
        usage_error(usage, "%s: unknown %s '%s' (expected %s)", cmd, what,
                    word, list.s ? list.s : "");
    base_str_free(&list);
    return H_USAGE;
}

int h_cmd_report(int argc, char **argv)
{
    static const char *const reports[] = {
        "verdicts", "unexpected", "costs", "disagreements", "configs", "html",
    };
    const char *path = DEFAULT_DB, *output = NULL, *bench = "bench/out";
    int csv = 0, json = 0, status = 0, witnesses = -1, done;
    Args a = {"report", usage_report, &path, &csv, &json, NULL, &output,
              &bench, NULL, &status, &witnesses, NULL, 0};
    int st = parse_args(&a, argc, argv, &done);
    if (st || done)
        return st;
    if (a.npos != 1)
        return usage_error(usage_report, "report: expected one report name");
    if ((st = known_word(usage_report, "report", "report", a.pos[0], reports,
                         6)))
        return st;
    int html = !strcmp(a.pos[0], "html");
    if (csv && json)
        return usage_error(usage_report, "report: --csv and --json exclude"
                                         " each other");
    if (html && (csv || json))
        return usage_error(usage_report, "report html: --csv and --json are"
                                         " for the other reports");
    if (!html && output)
        return usage_error(usage_report, "report: -o is for report html");
    if (html && status)
        return usage_error(usage_report, "report html: --status is for the"
                                         " other reports");
    if (!html && witnesses >= 0)
        return usage_error(usage_report, "report: --witnesses is for report"
                                         " html");
    if (output && !strcmp(output, "-"))
        output = NULL;
    if (output && (st = h_output_check(output)))
        return st;
    ResDb *db;
    if ((st = open_db(path, &db)))
        return st;
    int64_t rows = 0;
    if (html)
        st = report_html(db, output, bench, witnesses);
    else
        st = res_status(res_report_rows(db, a.pos[0],
                                        csv ? RES_FMT_CSV
                                        : json ? RES_FMT_JSON : RES_FMT_TABLE,
                                        stdout, &rows),
                        res_errmsg(db));
    res_close(db);
    return st == H_OK && status && rows > 0 ? H_FAIL : st;
}

/* A positive decimal id, else -1. */
static int64_t parse_id(const char *s)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v <= 0 || s[0] == '+')
        return -1;
    return v;
}

int h_cmd_show(int argc, char **argv)
{
    const char *path = DEFAULT_DB;
    int dot = 0, done;
    Args a = {"show", usage_show, &path, NULL, NULL, &dot, NULL, NULL, NULL,
              NULL, NULL, NULL, 0};
    int st = parse_args(&a, argc, argv, &done);
    if (st || done)
        return st;
    static const char *const kinds[] = {"violation", "check"};
    if (a.npos != 2)
        return usage_error(usage_show, "show: expected 'violation ID' or"
                                       " 'check ID'");
    if ((st = known_word(usage_show, "show", "kind", a.pos[0], kinds, 2)))
        return st;
    int64_t id = parse_id(a.pos[1]);
    if (id < 0)
        return usage_error(usage_show, "show: bad id '%s'", a.pos[1]);
    ResDb *db;
    if ((st = open_db(path, &db)))
        return st;
    int rc = !strcmp(a.pos[0], "violation")
        ? res_show_violation(db, id, dot, stdout)
        : res_show_check(db, id, dot, stdout);
    st = res_status(rc, res_errmsg(db));
    res_close(db);
    return st;
}

int h_cmd_merge(int argc, char **argv)
{
    int done;
    double timeout = MERGE_TIMEOUT;
    Args a = {"merge", usage_merge, NULL, NULL, NULL, NULL, NULL, NULL,
              &timeout, NULL, NULL, NULL, 0};
    int st = parse_args(&a, argc, argv, &done);
    if (st || done)
        return st;
    if (a.npos < 2)
        return usage_error(usage_merge, "merge: expected OUT.db and at least"
                                        " one IN.db");
    char err[1024];
    int rc = res_merge(a.pos[0], (const char *const *)a.pos + 1, a.npos - 1,
                       timeout, err, sizeof err);
    return res_status(rc, err);
}
