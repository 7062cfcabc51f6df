/*
 * lit_edit.c — edits of a test's source text and of a CUDA file a kernel
 * comes from, as `gpmc fix` and `gpmc tune` propose them (specs/fix.md).
 *
 * An edit replaces a byte range by new text. It is computed from the
 * positions the parser recorded (an instruction's opcode starts at its
 * LitPos; columns count bytes), so the edited file reads as a person would
 * write it: an instruction that has a line of its own gets a new line with
 * the same indentation, one written inline (`{ st x, 1; pbar }`) gets
 * `OP; ` beside it. The caller re-parses the result: what is proposed is
 * always a real program, never an IR patch.
 *
 * Where an insertion goes matters for labels: BEFORE an instruction means
 * after the labels that precede it (every path that reaches the instruction
 * runs the new one); AFTER an instruction means before the next one's
 * labels (only the path that falls through does).
 */
#include <ctype.h>
#include <string.h>

#include "litmus/litmus_int.h"

/* Byte offset of the start of 1-based line `line`, or -1. */
static int64_t line_start(const char *src, size_t len, int32_t line)
{
    size_t at = 0;
    for (int32_t l = 1; l < line; l++) {
        const char *nl = memchr(src + at, '\n', len - at);
        if (!nl)
            return -1;
        at = (size_t)(nl - src) + 1;
    }
    return (int64_t)at;
}

/* Offset of the end of the line that holds `at` (its '\n', or len). */
static size_t line_end(const char *src, size_t len, size_t at)
{
    const char *nl = memchr(src + at, '\n', len - at);
    return nl ? (size_t)(nl - src) : len;
}

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Where an instruction's text lies: [start, end), and its line [bol, eol). */
typedef struct {
    size_t bol, start, end, eol;
    int first;                          /* only blanks before it on its line */
    int alone;                          /* … and only blanks or a comment
                                           after it */
    int label;                          /* a `NAME:` before it on its line */
} Span;

/* An instruction's text ends at a newline, `;`, the `}` of its block or a
   comment; operands may hold `/` (constant expressions), never `//`. */
static int span_of(const char *src, size_t len, LitPos pos, Span *s)
{
    int64_t bol = pos.line > 0 ? line_start(src, len, pos.line) : -1;
    if (bol < 0 || pos.col < 1)
        return -1;
    s->bol = (size_t)bol;
    s->eol = line_end(src, len, s->bol);
    s->start = s->bol + (size_t)pos.col - 1;
    if (s->start >= s->eol)
        return -1;
    size_t e = s->start;
    while (e < s->eol && src[e] != ';' && src[e] != '}' &&
           !(src[e] == '/' && e + 1 < s->eol &&
             (src[e + 1] == '/' || src[e + 1] == '*')))
        e++;
    while (e > s->start && blank(src[e - 1]))
        e--;
    s->end = e;
    size_t k = s->bol;
    while (k < s->start && blank(src[k]))
        k++;
    s->first = k == s->start;
    s->label = 0;
    if (!s->first) {
        /* `L: op`: an identifier, blanks, ':' and blanks before it */
        size_t j = k;
        while (j < s->start && (isalnum((unsigned char)src[j]) ||
                                src[j] == '_' || src[j] == '.'))
            j++;
        while (j < s->start && blank(src[j]))
            j++;
        if (j > k && j < s->start && src[j] == ':') {
            j++;
            while (j < s->start && blank(src[j]))
                j++;
            s->label = j == s->start;
        }
    }
    k = s->end;
    while (k < s->eol && blank(src[k]))
        k++;
    s->alone = s->first &&
               (k == s->eol || (src[k] == '/' && k + 1 < s->eol &&
                                (src[k + 1] == '/' || src[k + 1] == '*')));
    return 0;
}

/* The blanks that begin the line at bol. */
static size_t indent_of(const char *src, size_t eol, size_t bol)
{
    size_t k = bol;
    while (k < eol && blank(src[k]) && src[k] != '\r')
        k++;
    return k - bol;
}

static int set(LitEdit *e, size_t at, size_t del, const BaseStr *t)
{
    if (t->failed)
        return -1;
    e->at = (int64_t)at;
    e->len = (int64_t)del;
    e->text = t->s;
    return 0;
}

int lit_edit_insert(const char *src, size_t len, LitPos pos, int where,
                    const char *const *instrs, int n, LitEdit *e)
{
    Span s;
    BaseStr t = {0};
    memset(e, 0, sizeof *e);
    if (span_of(src, len, pos, &s) || n < 1)
        return -1;
    size_t ind = indent_of(src, s.eol, s.bol);
    if (where == LIT_EDIT_BEFORE && (s.first || s.label)) {
        /* a line of its own, or `L: OP; op` when a label shares the line */
        if (s.first) {
            for (int i = 0; i < n; i++) {
                base_str_putn(&t, src + s.bol, ind);
                base_str_printf(&t, "%s\n", instrs[i]);
            }
            return set(e, s.bol, 0, &t);
        }
        for (int i = 0; i < n; i++)
            base_str_printf(&t, "%s; ", instrs[i]);
        return set(e, s.start, 0, &t);
    }
    if (where == LIT_EDIT_BEFORE) {
        for (int i = 0; i < n; i++)
            base_str_printf(&t, "%s; ", instrs[i]);
        return set(e, s.start, 0, &t);
    }
    size_t k = s.end;
    while (k < s.eol && blank(src[k]))
        k++;
    if (k == s.eol || src[k] == '/') {
        /* the last statement of its line: new lines after it */
        int last = s.eol == len;        /* no newline at the end of file */
        for (int i = 0; i < n; i++) {
            base_str_putn(&t, last ? "\n" : "", last);
            base_str_putn(&t, src + s.bol, ind);
            base_str_printf(&t, "%s%s", instrs[i], last ? "" : "\n");
        }
        return set(e, last ? len : s.eol + 1, 0, &t);
    }
    for (int i = 0; i < n; i++)
        base_str_printf(&t, "; %s", instrs[i]);
    return set(e, s.end, 0, &t);
}

/* The opcode as written: letters, digits and dots. */
static size_t mnemonic_len(const char *src, size_t from, size_t to)
{
    size_t k = from;
    while (k < to && (isalnum((unsigned char)src[k]) || src[k] == '.' ||
                      src[k] == '_'))
        k++;
    return k - from;
}

int lit_edit_opcode(const char *src, size_t len, LitPos pos, const char *op,
                    LitEdit *e)
{
    Span s;
    BaseStr t = {0};
    memset(e, 0, sizeof *e);
    if (span_of(src, len, pos, &s))
        return -1;
    size_t n = mnemonic_len(src, s.start, s.end);
    if (!n)
        return -1;
    base_str_printf(&t, "%s", op);
    return set(e, s.start, n, &t);
}

int lit_edit_delete(const char *src, size_t len, LitPos pos, LitEdit *e)
{
    Span s;
    BaseStr t = {0};
    memset(e, 0, sizeof *e);
    if (span_of(src, len, pos, &s))
        return -1;
    base_str_putn(&t, "", 0);
    if (s.alone)                        /* the whole line goes */
        return set(e, s.bol, (s.eol < len ? s.eol + 1 : len) - s.bol, &t);
    size_t k = s.end;
    while (k < s.eol && blank(src[k]))
        k++;
    if (k < s.eol && src[k] == ';') {   /* `op; ` */
        k++;
        while (k < s.eol && blank(src[k]))
            k++;
        return set(e, s.start, k - s.start, &t);
    }
    size_t b = s.start;                 /* `; op` before a `}` */
    while (b > s.bol && blank(src[b - 1]))
        b--;
    if (b > s.bol && src[b - 1] == ';')
        return set(e, b - 1, s.end - (b - 1), &t);
    return set(e, s.start, s.end - s.start, &t);
}

int lit_edit_text(const char *src, size_t len, LitPos pos, char *buf,
                  size_t buflen)
{
    Span s;
    if (span_of(src, len, pos, &s))
        return -1;
    snprintf(buf, buflen, "%.*s", (int)(s.end - s.start), src + s.start);
    return 0;
}

/* ---- CUDA, by line ------------------------------------------------------ */

/* The last character of the code of the line [bol, eol) before a `//`
   comment, blanks skipped; 0 when the line holds no code. */
static char code_last(const char *src, size_t bol, size_t eol)
{
    size_t e = eol;
    for (size_t k = bol; k + 1 < eol; k++)
        if (src[k] == '/' && src[k + 1] == '/') {
            e = k;
            break;
        }
    while (e > bol && (blank(src[e - 1]) || src[e - 1] == '\n'))
        e--;
    return e > bol ? src[e - 1] : 0;
}

static int starts_with_word(const char *src, size_t at, size_t eol,
                            const char *w)
{
    size_t n = strlen(w);
    return at + n <= eol && !memcmp(src + at, w, n) &&
           (at + n == eol || !(isalnum((unsigned char)src[at + n]) ||
                               src[at + n] == '_'));
}

/* Whether a statement may begin at the start of the line at bol: the code
   before it ends a statement or opens or closes a block, and the line
   itself does not continue an if (`else`) or open a block. */
static int boundary(const char *src, size_t len, size_t bol)
{
    size_t eol = line_end(src, len, bol);
    size_t k = bol + indent_of(src, eol, bol);
    if (k < eol && (src[k] == '{' || src[k] == '#' ||
                    starts_with_word(src, k, eol, "else")))
        return 0;
    size_t p = bol;
    while (p > 0) {
        size_t pb = p - 1;
        while (pb > 0 && src[pb - 1] != '\n')
            pb--;
        char c = code_last(src, pb, p - 1);
        size_t f = pb + indent_of(src, p - 1, pb);
        if (c && !(f < p - 1 && src[f] == '#'))
            return c == ';' || c == '{' || c == '}' || c == ':';
        if (c)                          /* a preprocessor line */
            return 1;
        p = pb;
    }
    return 1;
}

int lit_edit_cuda_insert(const char *src, size_t len, int32_t line,
                         int where, const char *stmt, LitEdit *e)
{
    BaseStr t = {0};
    memset(e, 0, sizeof *e);
    int64_t bol = line > 0 ? line_start(src, len, line) : -1;
    if (bol < 0)
        return -1;
    size_t eol = line_end(src, len, (size_t)bol);
    size_t at = (size_t)bol;
    if (where == LIT_EDIT_AFTER) {
        char c = code_last(src, (size_t)bol, eol);
        if (eol == len || (c != ';' && c != '{' && c != '}'))
            return -1;
        at = eol + 1;
        if (at < len && !boundary(src, len, at))
            return -1;
    } else if (!boundary(src, len, at)) {
        return -1;
    }
    base_str_putn(&t, src + bol, indent_of(src, eol, (size_t)bol));
    base_str_printf(&t, "%s\n", stmt);
    return set(e, at, 0, &t);
}

int lit_edit_cuda_call(const char *src, size_t len, int32_t line,
                       const char *call, const char *repl, LitEdit *e)
{
    BaseStr t = {0};
    memset(e, 0, sizeof *e);
    int64_t bol = line > 0 ? line_start(src, len, line) : -1;
    if (bol < 0)
        return -1;
    size_t eol = line_end(src, len, (size_t)bol), n = strlen(call);
    for (size_t k = (size_t)bol; k + n <= eol; k++) {
        if (memcmp(src + k, call, n) ||
            (k > (size_t)bol && (isalnum((unsigned char)src[k - 1]) ||
                                 src[k - 1] == '_')))
            continue;
        size_t p = k + n;
        while (p < eol && blank(src[p]))
            p++;
        if (p == eol || src[p] != '(')
            continue;
        if (repl) {
            base_str_printf(&t, "%s", repl);
            return set(e, k, n, &t);
        }
        int depth = 0;                  /* the call and its `;` go */
        for (; p < eol; p++) {
            depth += src[p] == '(';
            depth -= src[p] == ')';
            if (!depth)
                break;
        }
        if (p == eol)
            return -1;
        p++;
        while (p < eol && blank(src[p]))
            p++;
        if (p < eol && src[p] == ';')
            p++;
        while (p < eol && blank(src[p]))
            p++;
        base_str_putn(&t, "", 0);
        size_t first = (size_t)bol + indent_of(src, eol, (size_t)bol);
        if (k == first && (p == eol || code_last(src, p, eol) == 0))
            return set(e, (size_t)bol, (eol < len ? eol + 1 : len) -
                                           (size_t)bol, &t);
        return set(e, k, p - k, &t);
    }
    return -1;
}

/* ---- applying ----------------------------------------------------------- */

static int cmp_edit(const void *a, const void *b)
{
    const LitEdit *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at ? 1 : 0;
}

char *lit_edit_apply(const char *src, size_t len, const LitEdit *edits,
                     int n, size_t *outlen)
{
    LitEdit *e = base_malloc(((size_t)n + 1) * sizeof *e);
    BaseStr t = {0};
    size_t at = 0;
    if (!e)
        return NULL;
    memcpy(e, edits, (size_t)n * sizeof *e);
    /* a stable order for insertions at one offset: the order given */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && cmp_edit(&e[j - 1], &e[j]) > 0; j--) {
            LitEdit x = e[j];
            e[j] = e[j - 1];
            e[j - 1] = x;
        }
    for (int i = 0; i < n; i++) {
        if (e[i].at < (int64_t)at || e[i].at + e[i].len > (int64_t)len) {
            base_free(e);               /* overlapping edits */
            base_str_free(&t);
            return NULL;
        }
        base_str_putn(&t, src + at, (size_t)e[i].at - at);
        base_str_putn(&t, e[i].text, strlen(e[i].text));
        at = (size_t)(e[i].at + e[i].len);
    }
    base_str_putn(&t, src + at, len - at);
    base_free(e);
    if (t.failed) {
        base_str_free(&t);
        return NULL;
    }
    *outlen = t.len;
    return t.s;
}

void lit_edit_free(LitEdit *e)
{
    base_free((char *)e->text);
    e->text = NULL;
}
