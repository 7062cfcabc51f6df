/*
 * test_chk_naive.c — the optimised explorer agrees with the literal
 * semantics. For every .litmus file under litmus/suite (but papers/) and
 * tests/data/naive, and every model, the default and --naive modes must
 * finish, and give the same outcome lists, verdicts, runtime errors and
 * the same set of distinct crash images.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "tests/check_util.h"

static char **files;
static int nfiles, capfiles;

static void collect(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        char path[1024];
        struct stat st;
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st))
            continue;
        if (S_ISDIR(st.st_mode)) {
            /* litmus/suite/papers holds document-sized programs beyond the
             * naive explorer's default limits; tests/e2e/papers.sh compares
             * its small files with --naive. */
            if (strcmp(e->d_name, "papers"))
                collect(path);
        } else if (n > 7 && !strcmp(e->d_name + n - 7, ".litmus")) {
            if (nfiles == capfiles) {
                capfiles = capfiles ? capfiles * 2 : 64;
                files = realloc(files, (size_t)capfiles * sizeof *files);
            }
            files[nfiles++] = strdup(path);
        }
    }
    closedir(d);
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void compare(const char *path, const LitProgram *p, int m,
                    const ChkReport *a, const ChkReport *b)
{
    char what[1200];
    snprintf(what, sizeof what, "%s under %s", path, lit_model_names[m]);
    if (a->status != CHK_DONE || b->status != CHK_DONE) {
        print_error("%s: incomplete (%s / naive: %s)\n", what,
                    a->reason ? a->reason : "done",
                    b->reason ? b->reason : "done");
        fail();
    }
    assert_int_equal(a->noutcomes, b->noutcomes);
    for (int i = 0; i < a->noutcomes; i++) {
        assert_int_equal(a->outcomes[i].phase, b->outcomes[i].phase);
        assert_string_equal(a->outcomes[i].state, b->outcomes[i].state);
    }
    assert_int_equal(a->nresults, b->nresults);
    for (int i = 0; i < a->nresults; i++) {
        if (a->results[i].verdict != b->results[i].verdict) {
            print_error("%s: check %d: %s vs naive %s\n", what, i,
                        a->results[i].verdict ? "Ok" : "No",
                        b->results[i].verdict ? "Ok" : "No");
            fail();
        }
        assert_int_equal(a->results[i].positive, b->results[i].positive);
        assert_int_equal(a->results[i].negative, b->results[i].negative);
    }
    if (a->nerrors != b->nerrors) {
        print_error("%s: %d errors vs naive %d\n", what, a->nerrors,
                    b->nerrors);
        for (int i = 0; i < b->nerrors; i++)
            print_error("  naive: %s\n", b->errors[i]);
        fail();
    }
    for (int i = 0; i < a->nerrors; i++)
        assert_string_equal(a->errors[i], b->errors[i]);
    if (a->nimages != b->nimages) {
        print_error("%s: %d crash images vs naive %d\n", what, a->nimages,
                    b->nimages);
        fail();
    }
    for (int i = 0; i < a->nimages; i++)
        assert_string_equal(a->images[i], b->images[i]);
    (void)p;
}

static void test_suite_naive_agrees(void **state)
{
    int checked = 0;
    (void)state;
    collect("litmus/suite");
    collect("tests/data/naive");
    qsort(files, (size_t)nfiles, sizeof *files, cmp);
    for (int f = 0; f < nfiles; f++) {
        LitProgram *p = NULL;
        LitDiag d;
        lit_diag_init(&d);
        if (lit_parse_file(files[f], NULL, &p, &d)) {
            print_error("%s", d.text);
            fail();
        }
        lit_diag_free(&d);
        for (int m = 0; m < LIT_NMODELS; m++) {
            CuOpts dflt = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
            ChkReport *a = cu_run_opts(p, m, &dflt), *b;
            if (a->status == CHK_ERROR) {       /* model not available */
                chk_report_free(a);
                continue;
            }
            b = cu_run_opts(p, m, &naive);
            compare(files[f], p, m, a, b);
            checked++;
            chk_report_free(a);
            chk_report_free(b);
        }
        lit_program_free(p);
        free(files[f]);
    }
    free(files);
    print_message("naive and default agree on %d checks of %d files\n",
                  checked, nfiles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suite_naive_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
