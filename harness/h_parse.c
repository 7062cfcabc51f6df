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

int h_cmd_parse(int argc, char **argv)
{
    HOpts o;
    LitOptions opt;
    BaseDiag diag;
    LitProgram **progs;
    int rc = h_opts_parse(argc, argv, &o, HO_DEFINE | HO_PARSE, "parse");
    rc = h_opts_done(&o, rc, "parse", usage, "no input file");
    if (rc >= 0)
        return rc;
    rc = H_OK;
    progs = base_calloc((size_t)o.nfiles + 1, sizeof *progs);
    if (!progs) {
        fprintf(stderr, "gpmc parse: error: out of memory\n");
        h_opts_free(&o);
        return H_INTERNAL;
    }
    h_lit_options(&o, &opt);
    base_diag_init(&diag);
    diag.excerpt = 1;
    int unread = 0;
    for (int i = 0; i < o.nfiles; i++) {
        /* Only regular files within the size bound (h_file_read). */
        char why[256], *text;
        size_t len;
        const char *name = h_file_name(o.files[i]);
        if (!(text = h_file_read(o.files[i], &len, why, sizeof why))) {
            fprintf(stderr, "%s: error: %s\n", name, why);
            unread = 1;
            continue;
        }
        lit_parse_bytes(name, text, len, &opt, &progs[i], &diag);
        base_free(text);
    }
    if (unread && !diag.nerrors) {
        rc = H_USAGE;
    } else if (diag.nerrors) {
        h_diag_print(&diag);
        rc = H_USAGE;
    } else {
        int bad = 0;
        for (int i = 0; i < o.nfiles && !bad; i++) {
            if (i)
                putchar('\n');
            bad = lit_print(stdout, progs[i]);
        }
        if (bad && !ferror(stdout)) {
            fprintf(stderr, "gpmc parse: error: out of memory\n");
            rc = H_INTERNAL;
        } else if (bad || fflush(stdout)) {
            fprintf(stderr, "gpmc parse: error: writing output: %s\n",
                    strerror(errno));
            rc = H_INTERNAL;
        }
    }
    base_diag_free(&diag);
    for (int i = 0; i < o.nfiles; i++)
        lit_program_free(progs[i]);
    base_free(progs);
    h_opts_free(&o);
    return rc;
}
