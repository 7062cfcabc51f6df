/* gpmc: command dispatch. The commands live one per file (h_<name>.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"

static const HCommand commands[] = {
    {"parse", h_cmd_parse, "parse FILE...   print the canonical form"},
    {"suite", h_cmd_suite, "suite DIR|FILE... [--model ...] [--jobs N] [--db F] "
                           "[--shard I/N] [--resume]"},
    {"run", h_cmd_run, "run FILE... [--model M,...|all] [-D N=V] "
                       "[--crash-depth D] [--naive] [--json] [--db F]"},
    {"query", h_cmd_query, "query [--db F] [--csv|--json] \"SELECT ...\""},
    {"report", h_cmd_report,
     "report verdicts|unexpected|costs|disagreements [--db F]"},
    {"show", h_cmd_show, "show violation ID | check ID [--db F] [--dot]"},
    {"merge", h_cmd_merge, "merge OUT.db IN.db..."},
    {NULL, NULL, NULL}
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gpmc COMMAND [ARGS]\n\ncommands:\n");
    for (const HCommand *c = commands; c->name; c++)
        fprintf(f, "  %s\n", c->synopsis);
    fprintf(f, "\n`gpmc COMMAND --help` describes one command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        exit(H_USAGE);
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
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
    fprintf(stderr, "gpmc: error: unknown command '%s'\n", argv[1]);
    usage(stderr);
    exit(H_USAGE);
}
