/*
 * lit_ptx.c — reading a PTX module (DESIGN section 7): the text clang and
 * nvcc emit, as tokens, with its entries, their parameters, the module's
 * shared variables and the names of its .file directives. What an entry's
 * body means is lit_ptx_lower.c's business; this file only finds where
 * each body starts and ends.
 *
 * The module grammar it reads (PTX ISA 8.x, the parts compilers emit):
 *
 *   module  := { directive }
 *   directive := '.version' NUM | '.target' ID {',' ID} | '.address_size' NUM
 *             | '.file' NUM STR {',' NUM} | '.section' … '{' … '}'
 *             | {linkage} ('.entry' | '.func' [ret]) ID [params] {perf}
 *               ( body | ';' )
 *             | {linkage} state-space variable ';'
 *   params  := '(' [param {',' param}] ')'
 *   param   := '.param' {'.align' NUM} type ID ['[' NUM ']']
 *   body    := '{' { statement } '}'        (braces nest)
 *
 * Tokens: identifiers take letters, digits, `_ $ % .` and `::` (so
 * `%rd1`, `ld.global.u32`, `$L__BB0_2` and `ld.L1::evict_last` are one
 * token each); numbers are decimal, hex (0x), octal, binary (0b) and
 * float (0f/0d, rejected where used); strings are "…"; comments // and
 * / * * / are skipped. A directive without ';' ends at the end of its
 * line, so each token records
 * whether a newline came before it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus_int.h"

/* ---- errors ---------------------------------------------------------------- */

void lit_ptx_error(LitParser *P, const PtxModule *mod, int32_t ptx_line,
                   const char *file, int32_t line, int32_t col,
                   const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* a CUDA position when .loc gave one, and the PTX line always */
    if ((file && line > 0
             ? lit_diag_error_in(&P->errs, file, (LitPos){line, col},
                                 "%s (PTX line %d of %s)", msg, ptx_line,
                                 mod->path)
             : lit_diag_error_in(&P->errs, mod->path, (LitPos){ptx_line, 0},
                                 "%s", msg)))
        longjmp(*P->oom, 1);
}

/* ---- tokens ---------------------------------------------------------------- */

static int id_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%' ||
           c == '.';
}

/* Splits mod->text into tokens; 0 ok, -1 after reporting a bad byte. */
static int tokenize(LitParser *P, PtxModule *mod, LitPos at)
{
    const char *p = mod->text;
    int32_t line = 1;
    int nl = 1;
    for (;;) {
        PtxTok t = {PT_EOF, 0, 0, 0, p};
        while (*p) {
            if (*p == '\n') {
                line++;
                nl = 1;
                p++;
            } else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f') {
                p++;
            } else if (p[0] == '/' && p[1] == '/') {
                while (*p && *p != '\n')
                    p++;
            } else if (p[0] == '/' && p[1] == '*') {
                p += 2;
                while (*p && !(p[0] == '*' && p[1] == '/'))
                    line += *p++ == '\n';
                if (*p)
                    p += 2;
            } else {
                break;
            }
        }
        t.text = p;
        t.line = line;
        t.nl = (uint8_t)nl;
        nl = 0;
        if (!*p) {
            *LIT_PUSH(P, mod->tok, mod->ntok, mod->captok) = t;
            return 0;
        }
        if (*p == '"') {
            const char *s = p++;
            while (*p && *p != '"' && *p != '\n')
                p++;
            if (*p != '"') {
                lit_ptx_error(P, mod, line, NULL, 0, 0,
                              "unterminated string");
                return -1;
            }
            p++;
            t.kind = PT_STR;
            t.len = (int32_t)(p - s);
        } else if (*p >= '0' && *p <= '9') {
            const char *s = p;
            while (id_char((unsigned char)*p) && *p != '%' && *p != '$')
                p++;
            t.kind = PT_NUM;
            t.len = (int32_t)(p - s);
        } else if (id_char((unsigned char)*p)) {
            const char *s = p;
            /* "::" belongs to the name (ld.L1::evict_last) */
            while (id_char((unsigned char)*p) ||
                   (p[0] == ':' && p[1] == ':' && id_char((unsigned char)p[2])))
                p += *p == ':' ? 2 : 1;
            t.kind = PT_ID;
            t.len = (int32_t)(p - s);
        } else if (strchr(",;:[](){}<>@!+-|=", *p)) {
            t.kind = PT_PUNCT;
            t.len = 1;
            p++;
        } else {
            (void)at;
            lit_ptx_error(P, mod, line, NULL, 0, 0,
                          "unexpected character '%c' (0x%02x)",
                          *p >= 32 && *p < 127 ? *p : '?',
                          (unsigned char)*p);
            return -1;
        }
        *LIT_PUSH(P, mod->tok, mod->ntok, mod->captok) = t;
    }
}

static int is(const PtxTok *t, const char *s)
{
    size_t n = strlen(s);
    return (size_t)t->len == n && !memcmp(t->text, s, n);
}

static char *dup_tok(LitParser *P, const PtxTok *t)
{
    return lit_parse_strndup(P, t->text, (size_t)t->len);
}

static int64_t num_of(const PtxTok *t)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.*s", t->len < 31 ? t->len : 31, t->text);
    return strtoll(buf, NULL, 0);
}

/* ---- the module ---------------------------------------------------------- */

/* Index just past the matching close of the brace at i. */
static int32_t skip_braces(const PtxModule *mod, int32_t i)
{
    int depth = 0;
    for (; i < mod->ntok && mod->tok[i].kind != PT_EOF; i++) {
        if (is(&mod->tok[i], "{"))
            depth++;
        else if (is(&mod->tok[i], "}") && --depth == 0)
            return i + 1;
    }
    return i;
}

/* Index of the first token on a later line than token i. */
/* The token after i, but never past the final PT_EOF: a declaration
   cut short by the end of the file leaves its reader at the end, where
   every caller can still look at the token. */
static int32_t after(const PtxModule *mod, int32_t i)
{
    assert(mod->ntok >= 1 && mod->tok[mod->ntok - 1].kind == PT_EOF);
    return i + 1 < mod->ntok ? i + 1 : mod->ntok - 1;
}

static int32_t end_of_line(const PtxModule *mod, int32_t i)
{
    for (i++; i < mod->ntok && !mod->tok[i].nl && mod->tok[i].kind != PT_EOF;
         i++)
        ;
    return i;
}

/* The size in bytes a type name (.u64 .b32 .s8 .pred …) gives, or 0. */
static int32_t type_bytes(const PtxTok *t)
{
    if (t->len < 3 || t->text[0] != '.')
        return 0;
    if (is(t, ".pred"))
        return 1;
    if (!strchr("subf", t->text[1]))
        return 0;
    return (int32_t)(num_of(&(PtxTok){PT_NUM, 0, t->len - 2, 0, t->text + 2})
                     / 8);
}

/* params := '(' [param {',' param}] ')'; i at '('. */
static int32_t params(LitParser *P, PtxModule *mod, PtxEntry *e, int32_t i)
{
    int32_t cap = 0;
    i++;
    while (i < mod->ntok && !is(&mod->tok[i], ")") &&
           mod->tok[i].kind != PT_EOF) {
        int32_t bytes = 0;
        const PtxTok *name = NULL;
        for (; i < mod->ntok && !is(&mod->tok[i], ",") &&
               !is(&mod->tok[i], ")") && mod->tok[i].kind != PT_EOF;
             i++) {
            if (mod->tok[i].kind == PT_ID && type_bytes(&mod->tok[i]))
                bytes = type_bytes(&mod->tok[i]);
            else if (mod->tok[i].kind == PT_ID && mod->tok[i].text[0] != '.')
                name = &mod->tok[i];
            else if (is(&mod->tok[i], "["))
                bytes = -1;             /* an array parameter (by value) */
        }
        if (name) {
            PtxParam *pa = LIT_PUSH(P, e->params, e->nparams, cap);
            pa->name = dup_tok(P, name);
            pa->bytes = bytes;
        }
        if (is(&mod->tok[i], ","))
            i++;
    }
    return after(mod, i);
}

/* A module-level variable declaration; i at its state space. Shared ones
   are kept (the kernel's __shared__ arrays); others are left alone (an
   entry that uses one fails when it is lowered). */
static int32_t variable(LitParser *P, PtxModule *mod, int32_t i)
{
    int shared = is(&mod->tok[i], ".shared");
    int32_t align = 0, bytes = 0, count = 1;
    const PtxTok *name = NULL;
    for (i++; i < mod->ntok && !is(&mod->tok[i], ";") &&
              mod->tok[i].kind != PT_EOF; i++) {
        const PtxTok *t = &mod->tok[i];
        if (is(t, ".align") && i + 1 < mod->ntok) {
            align = (int32_t)num_of(&mod->tok[++i]);
        } else if (t->kind == PT_ID && type_bytes(t)) {
            bytes = type_bytes(t);
        } else if (t->kind == PT_ID && t->text[0] != '.' && !name) {
            name = t;
        } else if (is(t, "[") && i + 1 < mod->ntok &&
                   mod->tok[i + 1].kind == PT_NUM) {
            int64_t n = num_of(&mod->tok[++i]);
            count = n > 0 && n <= (1 << 28) / (count > 0 ? count : 1)
                        ? count * (int32_t)n : -1;
        } else if (is(t, "[")) {
            count = -1;                 /* extern __shared__ x[]: sized by
                                           the launch */
        } else if (is(t, "=")) {
            while (i + 1 < mod->ntok && !is(&mod->tok[i + 1], ";") &&
                   mod->tok[i + 1].kind != PT_EOF)
                i++;
        }
    }
    if (shared && name) {
        PtxShared *v = LIT_PUSH(P, mod->shared, mod->nshared, mod->capshared);
        v->name = dup_tok(P, name);
        v->align = align ? align : bytes;
        v->bytes = count > 0 && bytes > 0 ? bytes * count : -1;
    }
    return after(mod, i);
}

static void read_module(LitParser *P, PtxModule *mod)
{
    int32_t i = 0;
    while (i < mod->ntok && mod->tok[i].kind != PT_EOF) {
        const PtxTok *t = &mod->tok[i];
        if (is(t, ".file") && i + 2 < mod->ntok &&
            mod->tok[i + 1].kind == PT_NUM && mod->tok[i + 2].kind == PT_STR) {
            int64_t n = num_of(&mod->tok[i + 1]);
            if (n >= 0 && n < 4096) {
                if (n >= mod->nfiles) {
                    const char **f = lit_parse_alloc(P, (size_t)(n + 1) *
                                                        sizeof *f);
                    if (mod->nfiles)
                        memcpy(f, mod->files, (size_t)mod->nfiles * sizeof *f);
                    mod->files = f;
                    mod->nfiles = (int32_t)n + 1;
                }
                mod->files[n] = lit_parse_strndup(
                    P, mod->tok[i + 2].text + 1,
                    (size_t)mod->tok[i + 2].len - 2);
            }
            i = end_of_line(mod, i);
        } else if (is(t, ".section")) {
            while (i < mod->ntok && !is(&mod->tok[i], "{") &&
                   mod->tok[i].kind != PT_EOF)
                i++;
            i = skip_braces(mod, i);
        } else if (is(t, ".entry") || is(t, ".func")) {
            int entry = is(t, ".entry");
            PtxEntry e = {0};
            i++;
            if (!entry && is(&mod->tok[i], "("))       /* return value */
                i = params(P, mod, &e, i);
            memset(&e, 0, sizeof e);
            if (mod->tok[i].kind != PT_ID) {
                lit_ptx_error(P, mod, mod->tok[i].line, NULL, 0, 0,
                              "expected a function name");
                return;
            }
            e.name = dup_tok(P, &mod->tok[i]);
            e.line = mod->tok[i].line;
            i++;
            if (is(&mod->tok[i], "("))
                i = params(P, mod, &e, i);
            while (i < mod->ntok && !is(&mod->tok[i], "{") &&
                   !is(&mod->tok[i], ";") && mod->tok[i].kind != PT_EOF)
                i++;                    /* .maxntid and friends */
            if (is(&mod->tok[i], "{")) {
                e.first = i + 1;
                i = skip_braces(mod, i);
                e.end = i - 1;
                /* clang demotes a __shared__ variable declared in a kernel
                   into the function that uses it: the same per-CTA array,
                   declared in the body under its mangled global name */
                for (int32_t k = e.first; k < e.end; k++)
                    if (is(&mod->tok[k], ".shared"))
                        k = variable(P, mod, k) - 1;
                if (entry)
                    *LIT_PUSH(P, mod->entries, mod->nentries,
                              mod->capentries) = e;
            } else {
                i++;
            }
        } else if (is(t, ".shared") || is(t, ".global") || is(t, ".const") ||
                   is(t, ".local")) {
            i = variable(P, mod, i);
        } else if (t->kind == PT_ID && t->text[0] == '.' &&
                   (is(t, ".version") || is(t, ".target") ||
                    is(t, ".address_size") || is(t, ".pragma"))) {
            i = end_of_line(mod, i);
        } else {
            i++;                        /* .visible, .extern, .weak, ';' */
        }
    }
}

PtxModule *lit_ptx_read(LitParser *P, const char *path, const char *shown,
                        LitPos at)
{
    for (int32_t k = 0; k < P->nptx; k++)
        if (!strcmp(P->ptx[k]->path, path))
            return P->ptx[k];
    FILE *f = fopen(path, "rb");
    if (!f) {
        lit_parse_error(P, at, "cannot read '%s': %s", shown,
                        strerror(errno));
        return NULL;
    }
    BaseStr s = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        base_str_putn(&s, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad || s.failed) {
        base_str_free(&s);
        lit_parse_error(P, at, "cannot read '%s'", shown);
        return NULL;
    }
    PtxModule *mod = lit_parse_alloc(P, sizeof *mod);
    mod->path = lit_parse_strndup(P, path, strlen(path));
    mod->shown = lit_parse_strndup(P, shown, strlen(shown));
    mod->text = lit_parse_strndup(P, s.s ? s.s : "", s.len);
    n = s.len;
    base_str_free(&s);
    if (strlen(mod->text) != n) {
        lit_parse_error(P, at, "'%s' holds a NUL byte: not PTX text", shown);
        return NULL;
    }
    if (tokenize(P, mod, at))
        return NULL;
    read_module(P, mod);
    *LIT_PUSH(P, P->ptx, P->nptx, P->capptx) = mod;
    return mod;
}

/* ---- entries ---------------------------------------------------------------- */

/* The demangled function name of an Itanium-mangled symbol (`_Z3fooPi` →
   "foo", `_ZN2ns3barEv` → "ns::bar") into buf; the symbol itself when it
   is not mangled. */
static void demangle(const char *sym, char *buf, size_t len)
{
    const char *p = sym + 2;
    size_t n = 0;
    int nested;
    if (strncmp(sym, "_Z", 2)) {
        snprintf(buf, len, "%s", sym);
        return;
    }
    nested = *p == 'N';
    p += nested;
    buf[0] = '\0';
    while (*p >= '0' && *p <= '9') {
        long k = strtol(p, (char **)&p, 10);
        if (k <= 0 || (size_t)k > strlen(p))
            break;
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%.*s",
                              n ? "::" : "", (int)k, p);
        p += k;
        if (!nested)
            break;
    }
}

const PtxEntry *lit_ptx_entry(LitParser *P, const PtxModule *mod,
                              const char *name, LitPos at)
{
    const PtxEntry *found = NULL;
    int matches = 0;
    for (int32_t i = 0; i < mod->nentries; i++)
        if (!strcmp(mod->entries[i].name, name))
            return &mod->entries[i];
    for (int32_t i = 0; i < mod->nentries; i++) {
        char d[256];
        demangle(mod->entries[i].name, d, sizeof d);
        if (!strcmp(d, name)) {
            found = &mod->entries[i];
            matches++;
        }
    }
    if (matches == 1)
        return found;
    if (matches > 1) {
        lit_parse_error(P, at, "'%s' names %d entries of '%s' (overloads): "
                        "give the mangled name", name, matches, mod->shown);
        return NULL;
    }
    BaseStr s = {0};
    for (int32_t i = 0; i < mod->nentries; i++) {
        char d[256];
        demangle(mod->entries[i].name, d, sizeof d);
        base_str_printf(&s, "%s%s", i ? ", " : "", d);
    }
    lit_parse_error(P, at, "'%s' has no entry '%s' (its entries: %s)",
                    mod->shown, name, s.s ? s.s : "none");
    base_str_free(&s);
    return NULL;
}
