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
static const char *bad_line(const char *l, const char *end)
{
    const char *e = strstr(l, ": error: ");
    if (!e || e > end)
        return "a message without ': error: '";
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
    return p == l ? "a message without a path" : NULL;
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
        fuzz_well_formed("fuzz_ptx", &d, bad_line);
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
    fuzz_reparse("fuzz_ptx", test, p);
    fuzz_check_program(p);
    lit_program_free(p);
    return 0;
}
