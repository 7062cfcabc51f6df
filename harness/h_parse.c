/* gpmc parse: read litmus files and print their canonical form (the
   printer's fixed point), or every error of every file and exit 2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "litmus/litmus.h"

static const char usage[] =
    "usage: gpmc parse FILE... [-D NAME=V]... [--config KEY=V]...\n"
    "Prints each file in canonical form; on any error prints the errors\n"
    "and nothing else, and exits 2.\n";

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "gpmc parse: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
    return H_USAGE;
}

/* NAME=V with V an integer (decimal or 0x hex, optionally negative). */
static int define(const char *arg, LitDefine *d)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(eq + 1, &end, 0);
    if (*end || errno)
        return -1;
    d->name = strndup(arg, (size_t)(eq - arg));
    d->value = v;
    return d->name ? 0 : -1;
}

/* KEY=V */
static int config(const char *arg, LitConfigSet *c)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return -1;
    c->key = strndup(arg, (size_t)(eq - arg));
    c->value = eq + 1;
    return c->key ? 0 : -1;
}

/* The value of an option written "-D V", "-DV", "--config V" or
   "--config=V"; NULL when it is not that option. */
static const char *option(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n))
        return NULL;
    if (a[n] == '\0')
        return *i + 1 < argc ? argv[++*i] : "";
    if (name[1] == '-' && a[n] != '=')
        return NULL;
    return a + n + (a[n] == '=');
}

int h_cmd_parse(int argc, char **argv)
{
    LitDefine *defs = calloc((size_t)argc + 1, sizeof *defs);
    LitConfigSet *cfgs = calloc((size_t)argc + 1, sizeof *cfgs);
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    LitProgram **progs = calloc((size_t)argc + 1, sizeof *progs);
    LitOptions opt = {0, defs, 0, cfgs};
    int nfiles = 0, rc = H_OK;
    if (!defs || !cfgs || !files || !progs) {
        fprintf(stderr, "gpmc parse: error: out of memory\n");
        rc = H_INTERNAL;
        goto done;
    }
    for (int i = 0; i < argc && rc == H_OK; i++) {
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s", usage);
            goto done;
        } else if ((v = option(argc, argv, &i, "-D"))) {
            if (define(v, &defs[opt.ndefines]))
                rc = bad_usage("-D %s: expected NAME=INTEGER", v);
            else
                opt.ndefines++;
        } else if ((v = option(argc, argv, &i, "--config"))) {
            if (config(v, &cfgs[opt.nconfig]))
                rc = bad_usage("--config %s: expected KEY=VALUE", v);
            else
                opt.nconfig++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            rc = bad_usage("unknown option '%s'", argv[i]);
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if (rc == H_OK && nfiles == 0)
        rc = bad_usage("%s", "no input file");
    if (rc != H_OK)
        goto done;

    LitDiag diag;
    lit_diag_init(&diag);
    for (int i = 0; i < nfiles; i++)
        lit_parse_file(files[i], &opt, &progs[i], &diag);
    if (diag.nerrors) {
        fputs(diag.text ? diag.text : "", stderr);
        rc = H_USAGE;
    } else {
        for (int i = 0; i < nfiles; i++) {
            if (i)
                putchar('\n');
            lit_print(stdout, progs[i]);
        }
        if (fflush(stdout)) {
            fprintf(stderr, "gpmc parse: error: writing output: %s\n",
                    strerror(errno));
            rc = H_INTERNAL;
        }
    }
    lit_diag_free(&diag);
done:
    for (int i = 0; progs && i < nfiles; i++)
        lit_program_free(progs[i]);
    for (int i = 0; defs && i < opt.ndefines; i++)
        free((char *)defs[i].name);
    for (int i = 0; cfgs && i < opt.nconfig; i++)
        free((char *)cfgs[i].key);
    free(defs);
    free(cfgs);
    free(files);
    free(progs);
    return rc;
}
