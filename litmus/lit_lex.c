/* lit_lex: tokens of the litmus language. Newlines are tokens (they end
   statements); the parser decides where they are blank. A block comment
   that spans lines counts as one newline. Columns count bytes from 1. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "litmus/litmus_int.h"

void lit_lex_init(LitLexer *lx, const char *src, size_t len)
{
    lx->p = src;
    lx->end = src + len;
    lx->bol = src;
    lx->line = 1;
}

static LitPos here(const LitLexer *lx, const char *at)
{
    return (LitPos){lx->line, (int32_t)(at - lx->bol) + 1};
}

static void newline(LitLexer *lx, const char *after)
{
    lx->line++;
    lx->bol = after;
}

static int is_ident_start(int c)
{
    return isalpha(c) || c == '_';
}

static int is_ident(int c)
{
    return isalnum(c) || c == '_';
}

static void make(LitToken *t, int kind, const char *start, const char *end,
                 LitPos pos)
{
    t->kind = (uint8_t)kind;
    t->text = start;
    t->len = (int32_t)(end - start);
    t->ival = 0;
    t->msg = NULL;
    t->pos = pos;
}

/* A lexical error; quote=1 appends the offending text to msg, control
   bytes as \xNN so that a message stays one line. */
static void fail(LitLexer *lx, LitToken *t, const char *start, const char *msg,
                 LitPos pos, int quote)
{
    make(t, LT_ERROR, start, lx->p, pos);
    t->msg = lx->msg;
    int n = snprintf(lx->msg, sizeof lx->msg, "%s", msg);
    if (!quote)
        return;
    char text[4 * 40 + 1];
    size_t k = 0;
    for (int32_t i = 0; i < t->len && i < 40; i++) {
        unsigned char c = (unsigned char)start[i];
        if (c < 0x20 || c == 0x7f)
            k += (size_t)snprintf(text + k, sizeof text - k, "\\x%02x", c);
        else
            text[k++] = (char)c;
    }
    text[k] = '\0';
    snprintf(lx->msg + n, sizeof lx->msg - (size_t)n, " '%s%s'", text,
             t->len > 40 ? "..." : "");
}

/* Blanks and comments before a token. Returns 1 when a block comment
   crossed a line (a newline token is due at *nl_pos). */
static int skip_blank(LitLexer *lx, LitToken *t, LitPos *nl_pos)
{
    for (;;) {
        const char *p = lx->p;
        if (p < lx->end && (*p == ' ' || *p == '\t' || *p == '\r' ||
                            *p == '\f' || *p == '\v')) {
            lx->p++;
        } else if (p + 1 < lx->end && p[0] == '/' && p[1] == '/') {
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
        } else if (p + 1 < lx->end && p[0] == '/' && p[1] == '*') {
            LitPos start = here(lx, p);
            int crossed = 0;
            lx->p += 2;
            for (;;) {
                if (lx->p >= lx->end) {
                    fail(lx, t, p, "unterminated comment", start, 0);
                    return -1;
                }
                if (lx->p + 1 < lx->end && lx->p[0] == '*' && lx->p[1] == '/') {
                    lx->p += 2;
                    break;
                }
                if (*lx->p == '\n') {
                    crossed = 1;
                    newline(lx, lx->p + 1);
                }
                lx->p++;
            }
            if (crossed) {
                *nl_pos = start;
                return 1;
            }
        } else {
            return 0;
        }
    }
}

static void number(LitLexer *lx, LitToken *t)
{
    const char *s = lx->p;
    LitPos pos = here(lx, s);
    uint64_t v = 0;
    int overflow = 0;
    if (s + 1 < lx->end && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        lx->p += 2;
        int digits = 0;
        while (lx->p < lx->end && isxdigit((unsigned char)*lx->p)) {
            int c = tolower((unsigned char)*lx->p);
            int d = isdigit(c) ? c - '0' : c - 'a' + 10;
            if (v >> 60)
                overflow = 1;
            v = v << 4 | (uint64_t)d;
            digits++;
            lx->p++;
        }
        /* Hex gives the 64 bits of a two's-complement value. */
        if (!digits || (lx->p < lx->end && is_ident(*lx->p))) {
            while (lx->p < lx->end && is_ident(*lx->p))
                lx->p++;
            fail(lx, t, s, "invalid number", pos, 1);
            return;
        }
        make(t, LT_INT, s, lx->p, pos);
        t->ival = (int64_t)v;
        if (overflow)
            fail(lx, t, s, "integer constant out of range", pos, 1);
        return;
    }
    /* Decimal too is read modulo 2^64 (DESIGN section 2): up to 2^64-1,
       so -9223372036854775808 is INT64_MIN. */
    while (lx->p < lx->end && isdigit((unsigned char)*lx->p)) {
        uint64_t d = (uint64_t)(*lx->p - '0');
        if (v > (UINT64_MAX - d) / 10)
            overflow = 1;
        v = v * 10 + d;
        lx->p++;
    }
    int kind = LT_INT;
    if (lx->p + 1 < lx->end && lx->p[0] == '.' &&
        isdigit((unsigned char)lx->p[1])) {
        kind = LT_DECIMAL;
        lx->p++;
        while (lx->p < lx->end && isdigit((unsigned char)*lx->p))
            lx->p++;
    }
    if (lx->p < lx->end && (is_ident(*lx->p) || *lx->p == '.')) {
        while (lx->p < lx->end && (is_ident(*lx->p) || *lx->p == '.'))
            lx->p++;
        fail(lx, t, s, "invalid number", pos, 1);
        return;
    }
    make(t, kind, s, lx->p, pos);
    if (kind == LT_INT) {
        t->ival = (int64_t)v;
        if (overflow)
            fail(lx, t, s, "integer constant out of range", pos, 1);
    }
}

/* A control byte (NUL included) cannot be part of a name or string: it
   would not survive printing (a NUL ends a C string). Tab is blank. */
static int is_control(int c)
{
    return (c < 0x20 && c != '\t') || c == 0x7f;
}

static void string(LitLexer *lx, LitToken *t)
{
    const char *s = lx->p;
    LitPos pos = here(lx, s);
    lx->p++;
    while (lx->p < lx->end && *lx->p != '"' && *lx->p != '\n') {
        if (is_control((unsigned char)*lx->p) && *lx->p != '\r') {
            LitPos at = here(lx, lx->p);
            lx->p++;
            fail(lx, t, lx->p - 1, "invalid character in string", at, 1);
            while (lx->p < lx->end && *lx->p != '\n')
                lx->p++;
            return;
        }
        if (*lx->p == '\\') {
            if (lx->p + 1 >= lx->end || (lx->p[1] != '"' && lx->p[1] != '\\')) {
                lx->p++;
                fail(lx, t, s, "invalid escape in string (only \\\" and \\\\)",
                     pos, 0);
                while (lx->p < lx->end && *lx->p != '\n')
                    lx->p++;
                return;
            }
            lx->p++;
        }
        lx->p++;
    }
    if (lx->p >= lx->end || *lx->p != '"') {
        fail(lx, t, s, "unterminated string", pos, 0);
        return;
    }
    lx->p++;
    make(t, LT_STRING, s, lx->p, pos);
}

static const struct {
    const char *text;
    int kind;
} punct[] = {
    /* two-character forms first */
    {"==", LT_EQ}, {"!=", LT_NE}, {"<=", LT_LE}, {">=", LT_GE},
    {"&&", LT_AND}, {"||", LT_OR}, {"->", LT_IMP},
    {"(", LT_LPAREN}, {")", LT_RPAREN}, {"[", LT_LBRACK}, {"]", LT_RBRACK},
    {"{", LT_LBRACE}, {"}", LT_RBRACE}, {",", LT_COMMA}, {":", LT_COLON},
    {";", LT_SEMI}, {"=", LT_ASSIGN}, {"<", LT_LT}, {">", LT_GT},
    {"+", LT_PLUS}, {"-", LT_MINUS}, {"*", LT_STAR}, {"/", LT_SLASH},
    {"%", LT_PERCENT}, {"!", LT_NOT}, {"~", LT_TILDE},
};

void lit_lex_next(LitLexer *lx, LitToken *t)
{
    LitPos nl_pos;
    int r = skip_blank(lx, t, &nl_pos);
    if (r < 0)
        return;
    if (r > 0) {
        make(t, LT_NL, lx->p, lx->p, nl_pos);
        return;
    }
    const char *s = lx->p;
    LitPos pos = here(lx, s);
    if (s >= lx->end) {
        make(t, LT_EOF, s, s, pos);
        return;
    }
    int c = (unsigned char)*s;
    if (c == '\n') {
        lx->p++;
        make(t, LT_NL, s, lx->p, pos);
        newline(lx, lx->p);
        return;
    }
    if (is_ident_start(c)) {
        /* Dotted words are opcodes: st.wt, atom.cas, bar.sync. */
        while (lx->p < lx->end && is_ident(*lx->p))
            lx->p++;
        while (lx->p + 1 < lx->end && lx->p[0] == '.' && is_ident(lx->p[1])) {
            lx->p++;
            while (lx->p < lx->end && is_ident(*lx->p))
                lx->p++;
        }
        make(t, LT_IDENT, s, lx->p, pos);
        return;
    }
    if (isdigit(c)) {
        number(lx, t);
        return;
    }
    if (c == '"') {
        string(lx, t);
        return;
    }
    for (size_t i = 0; i < sizeof punct / sizeof punct[0]; i++) {
        size_t n = strlen(punct[i].text);
        if ((size_t)(lx->end - s) >= n && !memcmp(s, punct[i].text, n)) {
            lx->p += n;
            make(t, punct[i].kind, s, lx->p, pos);
            return;
        }
    }
    lx->p++;
    if (c == '#') {
        /* A comment in another language's style: the rest of the line is
           taken as one, so the words in it cause no more errors. */
        while (lx->p < lx->end && *lx->p != '\n')
            lx->p++;
        fail(lx, t, s, "invalid character '#' (comments are // ... and "
             "/* ... */)", pos, 0);
        return;
    }
    while (c >= 0xc0 && lx->p < lx->end && (*lx->p & 0xc0) == 0x80)
        lx->p++;                        /* one UTF-8 character, one error */
    fail(lx, t, s, "invalid character", pos, 1);
}

void lit_lex_word(LitLexer *lx, LitToken *t)
{
    while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t'))
        lx->p++;
    const char *s = lx->p;
    if (s >= lx->end || isspace((unsigned char)*s) ||
        is_control((unsigned char)*s) ||
        (s + 1 < lx->end && s[0] == '/' && (s[1] == '/' || s[1] == '*'))) {
        lit_lex_next(lx, t);
        return;
    }
    while (lx->p < lx->end && !isspace((unsigned char)*lx->p) &&
           !is_control((unsigned char)*lx->p))
        lx->p++;
    make(t, LT_WORD, s, lx->p, here(lx, s));
}

void lit_lex_describe(const LitToken *t, char *buf, size_t len)
{
    switch (t->kind) {
    case LT_EOF:
        snprintf(buf, len, "end of file");
        return;
    case LT_NL:
        snprintf(buf, len, "end of line");
        return;
    default:
        break;
    }
    int n = t->len > 40 ? 40 : t->len;
    snprintf(buf, len, "'%.*s%s'", n, t->text, t->len > 40 ? "..." : "");
}

int lit_lex_is(const LitToken *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == LT_IDENT && (size_t)t->len == n &&
           !memcmp(t->text, word, n);
}

int lit_lex_register(const LitToken *t, int64_t *n)
{
    if (t->kind != LT_IDENT || t->len < 2 || t->text[0] != 'r')
        return -1;
    int64_t v = 0;
    for (int32_t i = 1; i < t->len; i++) {
        if (!isdigit((unsigned char)t->text[i]))
            return -1;
        if (v < 1000000)
            v = v * 10 + (t->text[i] - '0');
    }
    *n = v;
    return 0;
}
