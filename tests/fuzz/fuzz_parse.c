/* fuzz_parse: the front end on any bytes (fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"
#include "tests/fuzz/fuzz.h"

static _Noreturn void fail(const char *who, const char *what,
                           const char *text)
{
    fprintf(stderr, "%s: %s\n%s\n", who, what, text ? text : "");
    abort();
}

static _Noreturn void broken(const char *what, const char *text)
{
    fail("fuzz_parse", what, text);
}

void fuzz_well_formed(const char *who, const BaseDiag *d,
                      const char *(*bad)(const char *l, const char *end))
{
    if (d->nerrors < 1 || !d->text)
        fail(who, "a failed parse without a message", NULL);
    int lines = 0;
    for (const char *l = d->text; *l; lines++) {
        const char *end = strchr(l, '\n');
        if (!end)
            fail(who, "a message without its newline", d->text);
        const char *what = bad(l, end);
        if (what)
            fail(who, what, d->text);
        l = end + 1;
    }
    if (lines != d->nerrors)
        fail(who, "nerrors differs from the messages", d->text);
}

/* Every diagnostic line is "f.litmus: error: …" or
   "f.litmus:LINE:COL: error: …" with LINE, COL >= 1. */
static const char *bad_line(const char *l, const char *end)
{
    (void)end;
    int line = 0, col = 0, n = 0;
    if (strncmp(l, "f.litmus: error: ", 17) &&
        !(sscanf(l, "f.litmus:%d:%d: error: %n", &line, &col, &n) == 2 &&
          n > 0 && line >= 1 && col >= 1))
        return "a malformed message";
    return NULL;
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

void fuzz_reparse(const char *who, const char *path, const LitProgram *p)
{
    char *text = fuzz_print(p);
    LitProgram *q = NULL;
    BaseDiag d;
    base_diag_init(&d);
    if (lit_parse_string(path, text, NULL, &q, &d))
        fail(who, "the printed program does not parse", d.text);
    base_diag_free(&d);
    if (!lit_program_equal(p, q) || !lit_program_equal(q, p))
        fail(who, "the printed program differs", text);
    char *again = fuzz_print(q);
    if (strcmp(text, again))
        fail(who, "printing is not a fixed point", again);
    /* the one-line formatter on every instruction */
    char buf[64];
    for (int32_t k = 0; k < p->nkernels; k++)
        for (int32_t b = 0; b < p->kernels[k].nbodies; b++) {
            const LitBody *body = &p->kernels[k].bodies[b];
            for (int32_t i = 0; i < body->ninstr; i++)
                lit_format_instr(p, body, &body->code[i], buf, sizeof buf);
        }
    free(again);
    free(text);
    lit_program_free(q);
}

int fuzz_parse(const uint8_t *data, size_t size)
{
    BaseDiag d;
    LitProgram *p = NULL;
    base_diag_init(&d);
    if (lit_parse_bytes("f.litmus", (const char *)data, size, NULL, &p, &d)) {
        fuzz_well_formed("fuzz_parse", &d, bad_line);
        base_diag_free(&d);
        return 0;
    }
    base_diag_free(&d);
    fuzz_reparse("fuzz_parse", "f.litmus", p);
    char buf[64];
    for (int32_t c = 0; c < p->nchecks; c++)
        if (p->checks[c].cond)
            lit_format_cond(p, p->checks[c].cond, buf, sizeof buf);
    lit_program_free(p);
    return 0;
}
