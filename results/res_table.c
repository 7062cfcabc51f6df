/* Fixed-width text tables: a header, a rule, rows; columns two spaces apart,
   widths in characters (UTF-8 code points), no trailing blanks. */
#include <string.h>

#include "results/results_int.h"

struct ResTable {
    ResArena *a;
    int ncols, nrows, cap;
    const char **headers;
    char *right;
    char ***rows;
};

ResTable *res_table_new(ResArena *a, int ncols, const char *const *headers)
{
    ResTable *t = res_arena_alloc(a, sizeof *t);
    t->a = a;
    t->ncols = ncols;
    t->headers = res_arena_alloc(a, sizeof *t->headers * (size_t)ncols);
    for (int i = 0; i < ncols; i++)
        t->headers[i] = res_arena_strdup(a, headers[i]);
    t->right = res_arena_alloc(a, (size_t)ncols);
    return t;
}

void res_table_right(ResTable *t, int col)
{
    t->right[col] = 1;
}

/* The cell as printed: control characters escaped so a row stays a line. */
static char *cell_text(ResArena *a, const char *s)
{
    if (!s)
        s = "";
    size_t n = 0;
    for (const char *p = s; *p; p++)
        n += (unsigned char)*p < 0x20 ? 4 : 1;
    char *out = res_arena_alloc(a, n + 1), *q = out;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x20)
            *q++ = (char)*p;
        else if (*p == '\n')
            q += sprintf(q, "\\n");
        else if (*p == '\t')
            q += sprintf(q, "\\t");
        else if (*p == '\r')
            q += sprintf(q, "\\r");
        else
            q += sprintf(q, "\\x%02x", *p);
    }
    *q = '\0';
    return out;
}

void res_table_add(ResTable *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        int cap = t->cap ? 2 * t->cap : 16;
        char ***rows = res_arena_alloc(t->a, sizeof *rows * (size_t)cap);
        if (t->nrows)
            memcpy(rows, t->rows, sizeof *rows * (size_t)t->nrows);
        t->rows = rows;
        t->cap = cap;
    }
    char **row = res_arena_alloc(t->a, sizeof *row * (size_t)t->ncols);
    for (int i = 0; i < t->ncols; i++)
        row[i] = cell_text(t->a, cells[i]);
    t->rows[t->nrows++] = row;
}

int res_table_rows(const ResTable *t)
{
    return t->nrows;
}

static int width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void print_row(const ResTable *t, const char *const *cells,
                      const int *w, FILE *out)
{
    size_t n = 1;
    for (int i = 0; i < t->ncols; i++)
        n += strlen(cells[i]) + (size_t)w[i] + 2;
    char *line = res_arena_alloc(t->a, n), *q = line;
    for (int i = 0; i < t->ncols; i++) {
        int pad = w[i] - width(cells[i]);
        if (i)
            q += sprintf(q, "  ");
        if (t->right[i])
            q += sprintf(q, "%*s", pad, "");
        q += sprintf(q, "%s", cells[i]);
        if (!t->right[i])
            q += sprintf(q, "%*s", pad, "");
    }
    while (q > line && q[-1] == ' ')
        q--;
    *q = '\0';
    fprintf(out, "%s\n", line);
}

void res_table_print(const ResTable *t, FILE *out)
{
    if (t->ncols == 0)
        return;
    int w[t->ncols];
    for (int i = 0; i < t->ncols; i++) {
        w[i] = width(t->headers[i]);
        for (int r = 0; r < t->nrows; r++)
            if (width(t->rows[r][i]) > w[i])
                w[i] = width(t->rows[r][i]);
    }
    print_row(t, t->headers, w, out);
    for (int i = 0; i < t->ncols; i++) {
        if (i)
            fputs("  ", out);
        for (int k = 0; k < w[i]; k++)
            fputc('-', out);
    }
    fputc('\n', out);
    for (int r = 0; r < t->nrows; r++)
        print_row(t, (const char *const *)t->rows[r], w, out);
}
