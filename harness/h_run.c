/*
 * h_run.c — `gpmc run FILE… [--model …] [-D N=V] [--config K=V]
 * [--crash-depth D] [--naive] [--json] [--max-states N] [--max-steps N]
 * [--timeout S] [--db F]`: check each file under each model and print the
 * herd-style report. Exit 0 when every check passes, 1 when one fails or is
 * incomplete, 2 on input errors (the other files are still checked).
 */
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"

static const char *run_help =
    "usage: gpmc run FILE... [--model M[,M...]|all] [-D NAME=V] "
    "[--config KEY=V]\n"
    "                [--crash-depth D] [--naive] [--json] [--max-states N]\n"
    "                [--max-steps N] [--timeout SECONDS] [--db F]\n"
    "Explores every execution of each file under each model, injects a crash\n"
    "at every reachable point, runs recovery on every crash image, and prints\n"
    "the distinct outcomes, verdicts, witnesses and statistics.\n";

int h_cmd_run(int argc, char **argv)
{
    HOpts o;
    LitOptions lo;
    int status = H_OK, first = 1;
    int r = h_opts_parse(argc, argv, &o, HO_RUN | HO_DEFINE, "run");
    if (r || o.help || !o.nfiles) {
        if (!r && !o.help)
            fprintf(stderr, "gpmc run: error: no input file\n");
        fputs(run_help, o.help && !r ? stdout : stderr);
        h_opts_free(&o);
        return r ? r : o.help ? H_OK : H_USAGE;
    }
    h_lit_options(&o, &lo);
    if (o.json)
        printf("[");
    for (int i = 0; i < o.nfiles; i++) {
        LitProgram *p = NULL;
        LitDiag d;
        lit_diag_init(&d);
        if (lit_parse_file(o.files[i], &lo, &p, &d)) {
            fputs(d.text ? d.text : "", stderr);
            lit_diag_free(&d);
            status = H_USAGE;
            continue;
        }
        lit_diag_free(&d);
        for (int k = 0; k < o.nmodels; k++) {
            ChkReport *rep;
            char err[256];
            o.chk.model = o.models[k];
            if (chk_run(p, &o.chk, &rep, err, sizeof err)) {
                fprintf(stderr, "gpmc: internal error: %s: %s\n", o.files[i],
                        err);
                lit_program_free(p);
                h_opts_free(&o);
                return H_INTERNAL;
            }
            if (rep->notes && *rep->notes)
                fputs(rep->notes, stderr);
            if (o.json) {
                printf("%s\n", first ? "" : ",");
                h_print_json(stdout, p, rep);
            } else {
                h_print_report(stdout, p, rep);
            }
            first = 0;
            if (!h_report_passes(p, rep) && status == H_OK)
                status = H_FAIL;
            chk_report_free(rep);
        }
        lit_program_free(p);
    }
    if (o.json)
        printf("\n]\n");
    h_opts_free(&o);
    return status;
}
