/*
 * test_chk_naive.c — the default mode agrees with the literal semantics.
 * For every .litmus file under litmus/suite (but papers/ and cuda/, whose
 * document-sized programs tests/e2e/papers.sh and cuda_pairs.sh compare with
 * --naive on their small files) and tests/data/naive and every
 * model, --naive and the default mode with each reduction alone, with all
 * of them and with none must finish and give the same outcome lists,
 * verdicts (positive and negative counts included), runtime errors and
 * set of distinct main-program crash images. With the projection
 * (CHK_R_SLICE) images hold the words no check observes at their initial
 * value, so the naive images are compared projected the same way.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "tests/check_util.h"
#include "model/model.h"
#include "tests/project.h"

static char **files;
static int nfiles;
static size_t capfiles;

/* Adds every .litmus file under dir; -1 when dir cannot be read. */
static int collect(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return -1;
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
            /* litmus/suite/papers and cuda hold document-sized programs
             * beyond the naive explorer's default limits;
             * tests/e2e/papers.sh and cuda_pairs.sh compare their small
             * files with --naive. */
            if (strcmp(e->d_name, "papers") && strcmp(e->d_name, "cuda"))
                assert_int_equal(collect(path), 0);
        } else if (n > 7 && !strcmp(e->d_name + n - 7, ".litmus")) {
            assert_int_equal(BASE_GROW(files, capfiles, (size_t)nfiles + 1), 0);
            files[nfiles] = base_malloc(strlen(path) + 1);
            assert_non_null(files[nfiles]);
            strcpy(files[nfiles++], path);
        }
    }
    closedir(d);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void compare(const char *what, const LitProgram *p, int model,
                    const ChkReport *a, const ChkReport *b, int sliced)
{
    char **img = NULL;
    int nimg;
    if (a->status != CHK_DONE || b->status != CHK_DONE) {
        print_error("%s: incomplete (%s / naive: %s)\n", what,
                    a->reason ? a->reason : "done",
                    b->reason ? b->reason : "done");
        fail();
    }
    for (int i = 0; i < a->noutcomes || i < b->noutcomes; i++)
        if (i >= a->noutcomes || i >= b->noutcomes ||
            a->outcomes[i].phase != b->outcomes[i].phase ||
            strcmp(a->outcomes[i].state, b->outcomes[i].state)) {
            print_error("%s: outcome %d: %s vs naive %s\n", what, i,
                        i < a->noutcomes ? a->outcomes[i].state : "none",
                        i < b->noutcomes ? b->outcomes[i].state : "none");
            fail();
        }
    assert_int_equal(a->nresults, b->nresults);
    for (int i = 0; i < a->nresults; i++) {
        if (a->results[i].verdict != b->results[i].verdict) {
            print_error("%s: check %d: %s vs naive %s\n", what, i,
                        cu_verdict_name(a->results[i].verdict),
                        cu_verdict_name(b->results[i].verdict));
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
    nimg = sliced ? project_images(p, model, b, &img) : b->nimages;
    assert_true(nimg >= 0);
    if (a->nimages != nimg) {
        print_error("%s: %d crash images vs naive %d\n", what, a->nimages,
                    nimg);
        fail();
    }
    for (int i = 0; i < a->nimages; i++)
        assert_string_equal(a->images[i], sliced ? img[i] : b->images[i]);
    for (int i = 0; sliced && i < nimg; i++)
        base_free(img[i]);
    base_free(img);
}

/* Each reduction alone, all of them, none. */
static const unsigned reductions[] = {
    CHK_R_ALL, CHK_R_FUSE, CHK_R_POR, CHK_R_SLICE, 0
};

static void test_suite_naive_agrees(void **state)
{
    int checked = 0;
    int64_t states[2] = {0, 0};
    (void)state;
    assert_int_equal(collect("litmus/suite"), 0);
    assert_int_equal(collect("tests/data/naive"), 0);
    assert_true(nfiles >= 100);
    qsort(files, (size_t)nfiles, sizeof *files, cmp);
    for (int f = 0; f < nfiles; f++) {
        LitProgram *p = NULL;
        BaseDiag d;
        base_diag_init(&d);
        if (lit_parse_file(files[f], NULL, &p, &d)) {
            print_error("%s", d.text);
            fail();
        }
        base_diag_free(&d);
        for (int m = 0; m < LIT_NMODELS; m++) {
            CuOpts opts = {0, 0, 1, 0, 0}, naive = {1, 0, 1, 0, 0};
            ChkReport *b = cu_run_opts(p, m, &naive);
            assert_int_not_equal(b->status, CHK_ERROR);
            for (size_t k = 0; k < sizeof reductions / sizeof *reductions;
                 k++) {
                ChkReport *a = cu_run_reduce(p, m, &opts, reductions[k]);
                char what[1200];
                snprintf(what, sizeof what, "%s under %s, reductions %u",
                         files[f], lit_model_names[m], reductions[k]);
                compare(what, p, m, a, b, (reductions[k] & CHK_R_SLICE) != 0);
                if (reductions[k] == CHK_R_ALL) {
                    states[0] += a->states;
                    states[1] += b->states;
                }
                checked++;
                chk_report_free(a);
            }
            chk_report_free(b);
        }
        lit_program_free(p);
        base_free(files[f]);
    }
    base_free(files);
    print_message("naive and default agree on %d checks of %d files "
                  "(%lld states, naive %lld)\n", checked, nfiles,
                  (long long)states[0], (long long)states[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suite_naive_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
