/* fuzz_parse: the front end on any bytes (fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"
#include "tests/fuzz/fuzz.h"

static _Noreturn void broken(const char *what, const char *text)
{
    fprintf(stderr, "fuzz_parse: %s\n%s\n", what, text ? text : "");
    abort();
}

/* Every diagnostic line is "f.litmus: error: …" or
   "f.litmus:LINE:COL: error: …" with LINE, COL >= 1. */
static void well_formed(const BaseDiag *d)
{
    if (d->nerrors < 1 || !d->text)
        broken("a failed parse without a message", NULL);
    int lines = 0;
    for (const char *l = d->text; *l; lines++) {
        const char *end = strchr(l, '\n');
        if (!end)
            broken("a message without its newline", d->text);
        int line = 0, col = 0, n = 0;
        if (strncmp(l, "f.litmus: error: ", 17) &&
            !(sscanf(l, "f.litmus:%d:%d: error: %n", &line, &col, &n) == 2 &&
              n > 0 && line >= 1 && col >= 1))
            broken("a malformed message", d->text);
        l = end + 1;
    }
    if (lines != d->nerrors)
        broken("nerrors differs from the messages", d->text);
}

char *fuzz_print(const LitProgram *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f || lit_print(f, p))
        broken("lit_print failed", NULL);
    fclose(f);
    return buf;
}

int fuzz_parse(const uint8_t *data, size_t size)
{
    BaseDiag d;
    LitProgram *p = NULL;
    base_diag_init(&d);
    if (lit_parse_bytes("f.litmus", (const char *)data, size, NULL, &p, &d)) {
        well_formed(&d);
        base_diag_free(&d);
        return 0;
    }
    base_diag_free(&d);
    char *text = fuzz_print(p);
    LitProgram *q = NULL;
    base_diag_init(&d);
    if (lit_parse_string("f.litmus", text, NULL, &q, &d))
        broken("the printed program does not parse", d.text);
    base_diag_free(&d);
    if (!lit_program_equal(p, q) || !lit_program_equal(q, p))
        broken("the printed program differs", text);
    char *again = fuzz_print(q);
    if (strcmp(text, again))
        broken("printing is not a fixed point", again);
    /* the one-line formatters on everything */
    char buf[64];
    for (int32_t k = 0; k < p->nkernels; k++)
        for (int32_t b = 0; b < p->kernels[k].nbodies; b++) {
            const LitBody *body = &p->kernels[k].bodies[b];
            for (int32_t i = 0; i < body->ninstr; i++)
                lit_format_instr(p, body, &body->code[i], buf, sizeof buf);
        }
    for (int32_t c = 0; c < p->nchecks; c++)
        if (p->checks[c].cond)
            lit_format_cond(p, p->checks[c].cond, buf, sizeof buf);
    free(again);
    free(text);
    lit_program_free(q);
    lit_program_free(p);
    return 0;
}
