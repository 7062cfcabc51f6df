/*
 * project.h — a --naive report's crash images as the default mode lists
 * them under the projection (MDL_SLICE): the PM words the model does not
 * observe at their initial value, sorted and distinct. Shared by
 * test_chk_naive and the fuzz_check target, which both compare the two.
 */
#ifndef GPMC_TESTS_PROJECT_H
#define GPMC_TESTS_PROJECT_H

#include <stdlib.h>
#include <string.h>

#include "checker/checker.h"
#include "litmus/litmus.h"
#include "model/model.h"

static int project_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int64_t project_init(const LitProgram *p, int32_t w)
{
    for (int l = 0; l < p->nlocs; l++)
        if (p->locs[l].space == LIT_PM && w >= p->locs[l].addr &&
            w < p->locs[l].addr + p->locs[l].size)
            return p->locs[l].init[w - p->locs[l].addr];
    return 0;
}

/* Sets *out to the projected images (base_free each and the vector) and
   returns how many, or -1 when out of memory or the model fails. */
static int project_images(const LitProgram *p, int model, const ChkReport *b,
                          char ***out)
{
    char err[256];
    Model *m = mdl_new(p, model, MDL_SLICE, err, sizeof err);
    char **v = base_calloc((size_t)b->nimages + 1, sizeof *v);
    int n = 0, k = 0, bad = !m || !v;
    for (int i = 0; !bad && i < b->nimages; i++) {
        BaseStr s = {0};
        const char *t = b->images[i];
        for (int32_t w = 0; *t && w < p->pm_words; w++) {
            size_t len = strcspn(t, " ");
            if (w)
                base_str_putn(&s, " ", 1);
            if (mdl_observed(m, w))
                base_str_putn(&s, t, len);
            else
                base_str_printf(&s, "%lld", (long long)project_init(p, w));
            t += len;
            t += strspn(t, " ");
        }
        v[n++] = s.s ? s.s : base_calloc(1, 1);
        bad = s.failed || !v[n - 1] || *t;
    }
    if (!bad) {
        qsort(v, (size_t)n, sizeof *v, project_cmp);
        for (int i = 0; i < n; i++)
            if (k && !strcmp(v[k - 1], v[i]))
                base_free(v[i]);
            else
                v[k++] = v[i];
    }
    mdl_free(m);
    if (bad) {
        for (int i = 0; i < n; i++)
            base_free(v[i]);
        base_free(v);
        return -1;
    }
    *out = v;
    return k;
}

#endif
