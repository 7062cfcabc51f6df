/* fuzz_ptx: the PTX front end on any bytes (fuzz.h). The input's first
   line is the entry and its arguments, the rest is f.ptx, written to a
   directory of this process; the test around it has a u32 and a u64 PM
   array (a, b) and a dram u32 array (d) to pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

static _Noreturn void broken(const char *what, const char *text)
{
    fprintf(stderr, "fuzz_ptx: %s\n%s\n", what, text ? text : "");
    abort();
}

/* Every diagnostic line is "PATH: error: …" or "PATH:LINE[:COL]: error:
   …", PATH not empty, LINE and COL >= 1. */
static void well_formed(const BaseDiag *d)
{
    if (d->nerrors < 1 || !d->text)
        broken("a failed parse without a message", NULL);
    int lines = 0;
    for (const char *l = d->text; *l; lines++) {
        const char *end = strchr(l, '\n');
        const char *e = strstr(l, ": error: ");
        if (!end)
            broken("a message without its newline", d->text);
        if (!e || e > end)
            broken("a message without ': error: '", d->text);
        /* back from ": error: " over ":COL" and ":LINE" */
        const char *p = e;
        for (int k = 0; k < 2; k++) {
            const char *q = p;
            while (q > l && q[-1] >= '0' && q[-1] <= '9')
                q--;
            if (q == p || q == l || q[-1] != ':' || *q == '0')
                break;
            p = q - 1;
        }
        if (p == l)
            broken("a message without a path", d->text);
        l = end + 1;
    }
    if (lines != d->nerrors)
        broken("nerrors differs from the messages", d->text);
}

static char dir[64];

static void remove_dir(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/f.ptx", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/t.litmus", dir);
    unlink(path);
    rmdir(dir);
}

/* A directory of this process, removed when it exits. */
static const char *work_dir(void)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/gpmc-fuzz-ptx-XXXXXX");
        if (!mkdtemp(dir))
            broken("cannot create the work directory", dir);
        atexit(remove_dir);
    }
    return dir;
}

static LitProgram *parse(const char *path, const char *text)
{
    BaseDiag d;
    LitProgram *p = NULL;
    base_diag_init(&d);
    if (lit_parse_string(path, text, NULL, &p, &d)) {
        well_formed(&d);
        base_diag_free(&d);
        return NULL;
    }
    base_diag_free(&d);
    return p;
}

int fuzz_ptx(const uint8_t *data, size_t size)
{
    const char *dir = work_dir();
    const uint8_t *nl = memchr(data, '\n', size);
    size_t n1 = nl ? (size_t)(nl - data) : size;
    char path[128], test[128];
    if (memchr(data, '\0', n1) || n1 > 200)
        return 0;                       /* the launch line is text */
    snprintf(path, sizeof path, "%s/f.ptx", dir);
    snprintf(test, sizeof test, "%s/t.litmus", dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        broken("cannot write f.ptx", path);
    if (nl && fwrite(nl + 1, 1, size - n1 - 1, f) != size - n1 - 1)
        broken("cannot write f.ptx", path);
    if (fclose(f))
        broken("cannot write f.ptx", path);
    BaseStr s = {0};
    base_str_printf(&s, "test F\npm u32 a[4] = 0\npm u64 b[2] = 0\n"
                    "dram u32 d[2] = 0\n"
                    "kernel k grid 1 block 2 from \"f.ptx\" %.*s\n"
                    "check final forall (a[0] >= 0 || b[1] == 1)\n"
                    "check crash ~exists (a[1] == 1 && b[0] == 0)\n",
                    (int)n1, (const char *)data);
    if (s.failed)
        abort();
    LitProgram *p = parse(test, s.s);
    base_str_free(&s);
    if (!p)
        return 0;
    char *text = fuzz_print(p);
    LitProgram *q = parse(test, text);
    if (!q)
        broken("the printed program does not parse", text);
    if (!lit_program_equal(p, q) || !lit_program_equal(q, p))
        broken("the printed program differs", text);
    char *again = fuzz_print(q);
    if (strcmp(text, again))
        broken("printing is not a fixed point", again);
    char buf[64];
    for (int32_t k = 0; k < p->nkernels; k++)
        for (int32_t b = 0; b < p->kernels[k].nbodies; b++) {
            const LitBody *body = &p->kernels[k].bodies[b];
            for (int32_t i = 0; i < body->ninstr; i++)
                lit_format_instr(p, body, &body->code[i], buf, sizeof buf);
        }
    fuzz_check_program(p);
    free(again);
    free(text);
    lit_program_free(q);
    lit_program_free(p);
    return 0;
}
