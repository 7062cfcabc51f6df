/* The model columns of the verdict tables (report verdicts, report html):
   the six models in their order, then any other model the latest checks
   name, by name. */
#include <string.h>

#include "results/results_int.h"

static const char *const std_models[] = {
    "strict", "epoch", "bepoch", "scoped", "bscoped", "hw",
};

char *res_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = base_malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

static int add(ResDb *db, char ***v, size_t *n, size_t *cap, const char *m)
{
    char *d = BASE_GROW(*v, *cap, *n + 1) ? NULL : res_strdup(m);
    if (!d)
        return res_sql_fail(db, RES_EINTERNAL, "report: out of memory");
    (*v)[(*n)++] = d;
    return RES_OK;
}

int res_models(ResDb *db, char ***models, size_t *n)
{
    size_t cap = 0;
    int rc = RES_OK;
    *models = NULL;
    *n = 0;
    for (size_t i = 0; !rc && i < sizeof std_models / sizeof *std_models; i++)
        rc = add(db, models, n, &cap, std_models[i]);
    sqlite3_stmt *st;
    if (!rc)
        rc = res_sql_prepare(db, &st,
                             "SELECT DISTINCT c.model FROM " RES_LATEST_FROM
                             "WHERE " RES_MODEL_RANK("c.model") " = 6"
                             " ORDER BY 1", "");
    if (rc) {
        res_models_free(*models, *n);
        return rc;
    }
    int s;
    while ((s = res_sql_step(db, st)) > 0 &&
           !(rc = add(db, models, n, &cap, res_sql_text(st, 0))))
        ;
    sqlite3_finalize(st);
    if (!rc && s < 0)
        rc = -s;
    if (rc)
        res_models_free(*models, *n);
    return rc;
}

void res_models_free(char **models, size_t n)
{
    for (size_t i = 0; i < n; i++)
        base_free(models[i]);
    base_free(models);
}
