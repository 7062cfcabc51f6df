/* The one table printer of gpmc (query, report, show, time): rows of cells
   collected first, then printed as a fixed-width text table, CSV (RFC 4180)
   or JSON (an array of objects). Text tables: a header, a rule, rows;
   columns two spaces apart, widths in characters (UTF-8 code points), no
   trailing blanks, control characters shown as \n \t \r \xHH, columns
   holding only numbers right-aligned, a cell wider than RES_TABLE_CELL_MAX
   clipped (its first characters and "..."; CSV and JSON give it whole),
   and the cells of note columns printed in full as an indented
   `header: value` line under their row. Every allocation is
   checked: a failed one marks the table, and printing it reports the
   failure instead of a table with holes. */
#include <string.h>

#include "results/results_int.h"

typedef struct {
    const char *text;                   /* NULL: SQL NULL */
    int kind;                           /* RES_CELL_* */
} Cell;

struct ResTable {
    BaseArena *a;
    int ncols, failed;
    const char **headers;
    unsigned char *numeric, *note;      /* per column */
    const char *null_text;
    Cell **rows;
    size_t nrows, cap;
};

ResTable *res_table_new(int ncols, const char *const *headers)
{
    ResTable *t = base_calloc(1, sizeof *t);
    assert(ncols >= 1);
    if (!t)
        return NULL;
    t->a = base_arena_new();
    t->ncols = ncols;
    t->null_text = "";
    if (t->a) {
        t->headers = base_arena_alloc(t->a, sizeof *t->headers *
                                               ((size_t)ncols + 1));
        t->numeric = base_arena_alloc(t->a, (size_t)ncols + 1);
        t->note = base_arena_alloc(t->a, (size_t)ncols + 1);
    }
    if (!t->a || !t->headers || !t->numeric || !t->note) {
        res_table_free(t);
        return NULL;
    }
    memset(t->numeric, 0, (size_t)ncols + 1);
    memset(t->note, 0, (size_t)ncols + 1);
    for (int i = 0; i < ncols; i++)
        t->headers[i] = res_table_strdup(t, headers[i]);
    if (t->failed) {
        res_table_free(t);
        return NULL;
    }
    return t;
}

void res_table_free(ResTable *t)
{
    if (!t)
        return;
    base_free(t->rows);
    base_arena_free(t->a);
    base_free(t);
}

void res_table_numeric(ResTable *t, int col)
{
    assert(col >= 0 && col < t->ncols);
    t->numeric[col] = 1;
}

void res_table_note(ResTable *t, int col)
{
    assert(col >= 0 && col < t->ncols);
    t->note[col] = 1;
}

void res_table_null_text(ResTable *t, const char *text)
{
    t->null_text = text;
}

int res_table_failed(const ResTable *t)
{
    return t->failed;
}

int res_table_rows(const ResTable *t)
{
    return (int)t->nrows;
}

char *res_table_strdup(ResTable *t, const char *s)
{
    char *d = base_arena_strdup(t->a, s ? s : "");
    if (!d) {
        t->failed = 1;
        return "";
    }
    return d;
}

char *res_table_printf(ResTable *t, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : base_arena_alloc(t->a, (size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    if (!s) {
        t->failed = 1;
        return "";
    }
    return s;
}

void res_table_add(ResTable *t, const char *const *cells, const int *kinds)
{
    if (BASE_GROW(t->rows, t->cap, t->nrows + 1)) {
        t->failed = 1;
        return;
    }
    Cell *row = base_arena_alloc(t->a, sizeof *row * (size_t)t->ncols);
    if (!row) {
        t->failed = 1;
        return;
    }
    assert(t->nrows < t->cap);
    for (int i = 0; i < t->ncols; i++) {
        row[i].kind = !cells[i] ? RES_CELL_NULL
                      : kinds ? kinds[i]
                      : t->numeric[i] ? RES_CELL_NUM : RES_CELL_TEXT;
        row[i].text = cells[i] ? res_table_strdup(t, cells[i]) : NULL;
    }
    t->rows[t->nrows++] = row;
}

/* ---- text -------------------------------------------------------------- */

/* The cell as the text table shows it: control characters escaped so a
   row stays one line. */
static void put_escaped_char(BaseStr *s, unsigned char c)
{
    if (c >= 0x20)
        base_str_putn(s, (const char *)&c, 1);
    else if (c == '\n')
        base_str_putn(s, "\\n", 2);
    else if (c == '\t')
        base_str_putn(s, "\\t", 2);
    else if (c == '\r')
        base_str_putn(s, "\\r", 2);
    else
        base_str_printf(s, "\\x%02x", c);
}

static void put_escaped(BaseStr *s, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        put_escaped_char(s, *p);
}

/* Width in characters of one escaped byte (0 for a continuation byte). */
static int char_width(unsigned char c)
{
    return c == '\n' || c == '\t' || c == '\r' ? 2
           : c < 0x20 ? 4 : (c & 0xC0) != 0x80;
}

/* Width in characters of the cell as put_clipped shows it: at most
   RES_TABLE_CELL_MAX, so that one long value (a test name of megabytes)
   cannot widen every row of its column. */
static int width(const char *text)
{
    int w = 0, kept = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        w += char_width(*p);
        if (w <= RES_TABLE_CELL_MAX - 3)
            kept = w;
        if (w > RES_TABLE_CELL_MAX)
            return kept + 3;
    }
    return w;
}

/* The escaped cell, clipped to its first characters that fit in
   RES_TABLE_CELL_MAX - 3 and "..." when it is wider than
   RES_TABLE_CELL_MAX. */
static void put_clipped(BaseStr *line, const char *text)
{
    size_t cut = line->len;
    int w = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        w += char_width(*p);
        if (w > RES_TABLE_CELL_MAX) {
            base_str_truncate(line, cut);
            base_str_putn(line, "...", 3);
            return;
        }
        put_escaped_char(line, *p);
        /* the end of the last character that leaves room for "..." */
        if (w <= RES_TABLE_CELL_MAX - 3 && (p[1] & 0xC0) != 0x80)
            cut = line->len;
    }
}

static const char *shown(const ResTable *t, const Cell *c)
{
    return c->text ? c->text : t->null_text;
}

/* Move the line, without trailing blanks, to the output text. */
static void put_line(BaseStr *line, BaseStr *out)
{
    size_t n = line->len;
    while (n && line->s[n - 1] == ' ')
        n--;
    base_str_putn(out, line->s ? line->s : "", n);
    base_str_putn(out, "\n", 1);
    out->failed |= line->failed;
    base_str_clear(line);
}

static void put_cell(BaseStr *line, const char *text, int w, int right,
                     int first)
{
    int pad = w - width(text);
    assert(pad >= 0);                   /* w is the column's widest cell */
    if (!first)
        base_str_putn(line, "  ", 2);
    if (right)
        base_str_printf(line, "%*s", pad, "");
    put_clipped(line, text);
    if (!right)
        base_str_printf(line, "%*s", pad, "");
}

static void print_text(const ResTable *t, BaseStr *out)
{
    int *w = base_calloc((size_t)t->ncols + 1, sizeof *w);
    char *right = base_calloc((size_t)t->ncols + 1, 1);
    if (!w || !right) {
        base_free(w);
        base_free(right);
        out->failed = 1;
        return;
    }
    /* Right-aligned: at least one number and no text. */
    for (int i = 0; i < t->ncols; i++) {
        int num = 0, text = 0;
        w[i] = width(t->headers[i]);
        for (size_t r = 0; r < t->nrows; r++) {
            const Cell *c = &t->rows[r][i];
            num |= c->kind == RES_CELL_NUM;
            text |= c->kind == RES_CELL_TEXT;
            if (width(shown(t, c)) > w[i])
                w[i] = width(shown(t, c));
        }
        right[i] = num && !text;
    }
    BaseStr line = {0};
    int first = 1;
    for (int i = 0; i < t->ncols; i++)
        if (!t->note[i]) {
            put_cell(&line, t->headers[i], w[i], right[i], first);
            first = 0;
        }
    put_line(&line, out);
    first = 1;
    for (int i = 0; i < t->ncols; i++)
        if (!t->note[i]) {
            if (!first)
                base_str_putn(&line, "  ", 2);
            for (int k = 0; k < w[i]; k++)
                base_str_putn(&line, "-", 1);
            first = 0;
        }
    put_line(&line, out);
    for (size_t r = 0; r < t->nrows; r++) {
        first = 1;
        for (int i = 0; i < t->ncols; i++)
            if (!t->note[i]) {
                put_cell(&line, shown(t, &t->rows[r][i]), w[i], right[i],
                         first);
                first = 0;
            }
        put_line(&line, out);
        for (int i = 0; i < t->ncols; i++)
            if (t->note[i] && t->rows[r][i].text) {
                base_str_printf(&line, "  %s: ", t->headers[i]);
                put_escaped(&line, t->rows[r][i].text);
                put_line(&line, out);
            }
    }
    base_str_free(&line);
    base_free(w);
    base_free(right);
}

/* ---- CSV and JSON -------------------------------------------------------- */

static void csv_field(const char *s, BaseStr *out)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        base_str_printf(out, "%s", s);
        return;
    }
    base_str_putn(out, "\"", 1);
    for (; *s; s++) {
        if (*s == '"')
            base_str_putn(out, "\"", 1);
        base_str_putn(out, s, 1);
    }
    base_str_putn(out, "\"", 1);
}

static void print_csv(const ResTable *t, BaseStr *out)
{
    for (int i = 0; i < t->ncols; i++) {
        if (i)
            base_str_putn(out, ",", 1);
        csv_field(t->headers[i], out);
    }
    base_str_putn(out, "\n", 1);
    for (size_t r = 0; r < t->nrows; r++) {
        for (int i = 0; i < t->ncols; i++) {
            if (i)
                base_str_putn(out, ",", 1);
            csv_field(t->rows[r][i].text, out);
        }
        base_str_putn(out, "\n", 1);
    }
}

static void print_json(const ResTable *t, BaseStr *s)
{
    base_str_putn(s, "[", 1);
    for (size_t r = 0; r < t->nrows; r++) {
        base_str_putn(s, r ? ",\n{" : "\n{", r ? 3 : 2);
        for (int i = 0; i < t->ncols; i++) {
            const Cell *c = &t->rows[r][i];
            if (i)
                base_str_putn(s, ",", 1);
            base_str_json(s, t->headers[i]);
            base_str_putn(s, ":", 1);
            assert((c->kind == RES_CELL_NULL) == !c->text);
            if (c->kind == RES_CELL_NULL)
                base_str_putn(s, "null", 4);
            else if (c->kind == RES_CELL_NUM)
                base_str_printf(s, "%s", c->text);
            else
                base_str_json(s, c->text);
        }
        base_str_putn(s, "}", 1);
    }
    base_str_printf(s, "%s]\n", t->nrows ? "\n" : "");
}

/* The whole output is built first, so a failure prints nothing. */
int res_table_print(const ResTable *t, int fmt, FILE *out)
{
    assert(fmt == RES_FMT_TABLE || fmt == RES_FMT_CSV || fmt == RES_FMT_JSON);
    if (t->failed)
        return RES_EINTERNAL;
    BaseStr s = {0};
    if (fmt == RES_FMT_CSV)
        print_csv(t, &s);
    else if (fmt == RES_FMT_JSON)
        print_json(t, &s);
    else
        print_text(t, &s);
    int rc = s.failed ? RES_EINTERNAL : RES_OK;
    if (!rc)
        fwrite(s.s, 1, s.len, out);
    base_str_free(&s);
    return rc;
}
