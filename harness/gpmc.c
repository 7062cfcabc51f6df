/* gpmc: command dispatch. The commands live one per file (h_<name>.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"

static const HCommand commands[] = {
    {"run", h_cmd_run, "run FILE... [--model M[,M...]|all] [-D NAME=V] "
                       "[--json] [--db F] ..."},
    {"suite", h_cmd_suite, "suite DIR|FILE... [--jobs N] [--db F] "
                           "[--shard I/N] [--resume] ..."},
    {"time", h_cmd_time, "time FILE... [--model M[,M...]|all] [-D NAME=V] "
                         "[--config KEY=V] [--db F] [--csv|--json]"},
    {"query", h_cmd_query, "query [--db F] [--csv|--json] \"SELECT ...\" | -"},
    {"report", h_cmd_report,
     "report verdicts|unexpected|costs|disagreements|html [--db F] ..."},
    {"show", h_cmd_show, "show violation ID | check ID [--db F] [--dot]"},
    {"merge", h_cmd_merge, "merge OUT.db IN.db..."},
    {"parse", h_cmd_parse, "parse FILE... [-D NAME=V] [--config KEY=V]"},
    {"fix", h_cmd_fix, "fix FILE [--model M[,M...]|all] [--max-size K] "
                       "[--apply N] ..."},
    {"tune", h_cmd_tune, "tune FILE [--model M[,M...]|all] [--exact N] ..."},
    {NULL, NULL, NULL}
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gpmc COMMAND [ARGS]\n\ncommands:\n");
    for (const HCommand *c = commands; c->name; c++)
        fprintf(f, "  %s\n", c->synopsis);
    fprintf(f, "\n`gpmc COMMAND --help` describes one command (all of its "
            "options),\n`gpmc --version` prints the version, `man gpmc` has "
            "the manual\n(`man ./gpmc.1` in the source tree).\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        exit(H_USAGE);
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        exit(H_OK);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("gpmc %s\n", GPMC_VERSION);
        exit(H_OK);
    }
    for (const HCommand *c = commands; c->name; c++)
        if (!strcmp(argv[1], c->name))
            exit(c->fn(argc - 2, argv + 2));
    const char *names[16];
    int n = 0;
    for (const HCommand *c = commands; c->name && n < 16; c++)
        names[n++] = c->name;
    const char *near = h_suggest(argv[1], names, n);
    fprintf(stderr, "gpmc: error: unknown command '%s'", argv[1]);
    if (near)
        fprintf(stderr, " (did you mean %s?)", near);
    fputc('\n', stderr);
    usage(stderr);
    exit(H_USAGE);
}
