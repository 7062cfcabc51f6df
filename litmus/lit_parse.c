/* lit_parse: the statements of a litmus file (DESIGN section 2) and the
   helpers the other parser files share. Recursive descent, one token of
   lookahead; each parsing function starts with the rule it parses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus_int.h"

/* ---- shared helpers ---------------------------------------------------- */

void *lit_parse_alloc(LitParser *P, size_t n)
{
    void *p = base_arena_alloc(P->arena, n);
    if (!p)
        longjmp(*P->oom, 1);
    return p;
}

void *lit_parse_grow(LitParser *P, void *arr, int32_t n, int32_t *cap,
                     size_t elem)
{
    void *p = base_arena_grow(P->arena, arr, n, cap, elem);
    if (!p)
        longjmp(*P->oom, 1);
    return p;
}

char *lit_parse_strndup(LitParser *P, const char *s, size_t n)
{
    char *d = base_arena_strndup(P->arena, s, n);
    if (!d)
        longjmp(*P->oom, 1);
    return d;
}

static void verror(LitParser *P, LitPos pos, const char *fmt, va_list ap)
{
    if (lit_diag_verror(&P->errs, pos, fmt, ap))
        longjmp(*P->oom, 1);
}

void lit_parse_error(LitParser *P, LitPos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(P, pos, fmt, ap);
    va_end(ap);
}

_Noreturn void lit_parse_syntax(LitParser *P, LitPos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(P, pos, fmt, ap);
    va_end(ap);
    longjmp(*P->jb, 1);
}

_Noreturn void lit_parse_expected(LitParser *P, const char *what)
{
    if (P->tok.kind == LT_ERROR)
        longjmp(*P->jb, 1);
    char found[64];
    lit_lex_describe(&P->tok, found, sizeof found);
    lit_parse_syntax(P, P->tok.pos, "expected %s, found %s", what, found);
}

void lit_parse_advance(LitParser *P)
{
    for (;;) {
        lit_lex_next(&P->lx, &P->tok);
        if (P->tok.kind == LT_NL && P->nest > 0)
            continue;
        if (P->tok.kind == LT_ERROR)
            lit_parse_error(P, P->tok.pos, "%s", P->tok.msg);
        return;
    }
}

int lit_parse_accept(LitParser *P, int kind)
{
    if (P->tok.kind != kind)
        return 0;
    lit_parse_advance(P);
    return 1;
}

void lit_parse_expect(LitParser *P, int kind, const char *what)
{
    if (!lit_parse_accept(P, kind))
        lit_parse_expected(P, what);
}

void lit_parse_open(LitParser *P)
{
    P->nest++;
    lit_parse_advance(P);
}

void lit_parse_close(LitParser *P, int kind, const char *what)
{
    if (P->tok.kind != kind)
        lit_parse_expected(P, what);
    /* Leave the bracket before reading on, so a newline after it counts. */
    P->nest--;
    lit_parse_advance(P);
}

int lit_parse_at_end(LitParser *P)
{
    int k = P->tok.kind;
    return k == LT_NL || k == LT_SEMI || k == LT_RBRACE || k == LT_EOF;
}

int lit_parse_find_param(LitParser *P, const char *name, size_t len)
{
    int32_t i = lit_names_find(&P->param_names, name, len);
    return i >= 0 && P->params[i].bad != PARAM_HIDDEN ? i : -1;
}

int lit_parse_find_loc(LitParser *P, const char *name, size_t len)
{
    return lit_names_find(&P->loc_names, name, len);
}

void lit_parse_name(LitParser *P, LitNames *t, const char *name,
                    int32_t index)
{
    if (lit_names_add(t, P->arena, name, index))
        longjmp(*P->oom, 1);
}

/* ---- statement framework ----------------------------------------------- */

typedef void (*StmtFn)(LitParser *P, void *ctx);

/* Run one statement; -1 when it ended in a syntax error (reported). */
static int protect(LitParser *P, StmtFn fn, void *ctx)
{
    jmp_buf jb, *saved = P->jb;
    int depth = P->depth;
    P->jb = &jb;
    if (setjmp(jb)) {
        P->jb = saved;
        P->depth = depth;
        return -1;
    }
    fn(P, ctx);
    P->jb = saved;
    return 0;
}

static void skip_blank_statements(LitParser *P)
{
    while (P->tok.kind == LT_NL || P->tok.kind == LT_SEMI)
        lit_parse_advance(P);
}

/* After a syntax error: skip to the end of the statement, over any block
   it opened (a '{' that starts the next line belongs to it too: no
   statement starts with one), but not past the '}' of an enclosing
   block. */
static void sync(LitParser *P)
{
    int depth = 0;
    P->nest = 0;
    for (;;) {
        switch (P->tok.kind) {
        case LT_EOF:
            return;
        case LT_NL:
        case LT_SEMI:
            if (depth == 0) {
                skip_blank_statements(P);
                if (P->tok.kind != LT_LBRACE)
                    return;
                continue;
            }
            break;
        case LT_LBRACE:
            depth++;
            break;
        case LT_RBRACE:
            if (depth == 0 && P->blocks > 0)
                return;
            if (depth > 0)
                depth--;
            break;
        default:
            break;
        }
        lit_parse_advance(P);
    }
}

/* end := NEWLINE | ';' | before '}' | EOF */
static void end_statement(LitParser *P)
{
    if (P->tok.kind == LT_NL || P->tok.kind == LT_SEMI)
        lit_parse_advance(P);
    else if (P->tok.kind != LT_RBRACE && P->tok.kind != LT_EOF)
        lit_parse_expected(P, "end of statement");
}

/* A statement list closed by '}': the current token follows the '{'. */
static void stmt_block(LitParser *P, LitPos open, StmtFn fn, void *ctx)
{
    P->blocks++;
    for (;;) {
        skip_blank_statements(P);
        if (P->tok.kind == LT_RBRACE || P->tok.kind == LT_EOF || P->errs.full)
            break;
        if (protect(P, fn, ctx))
            sync(P);
    }
    P->blocks--;
    if (P->errs.full)
        return;
    if (P->tok.kind == LT_EOF)
        lit_parse_error(P, P->tok.pos, "missing '}' for the '{' at %d:%d",
                        open.line, open.col);
    else
        lit_parse_advance(P);
}

/* A name being declared: an identifier without dots, not a register. */
static const char *decl_name(LitParser *P, const char *what)
{
    LitToken t = P->tok;
    int64_t reg;
    if (t.kind != LT_IDENT)
        lit_parse_expected(P, what);
    if (memchr(t.text, '.', (size_t)t.len))
        lit_parse_syntax(P, t.pos, "invalid name '%.*s'", t.len, t.text);
    if (lit_lex_register(&t, &reg) == 0)
        lit_parse_syntax(P, t.pos, "'%.*s' is a register name", t.len, t.text);
    lit_parse_advance(P);
    return lit_parse_strndup(P, t.text, (size_t)t.len);
}

/* Params and locations share one namespace (both appear in conditions). */
static int name_taken(LitParser *P, const char *name, LitPos at)
{
    int i = lit_parse_find_param(P, name, strlen(name));
    LitPos first;
    if (i >= 0) {
        first = P->params[i].p.pos;
    } else {
        i = lit_parse_find_loc(P, name, strlen(name));
        if (i < 0)
            return 0;
        first = P->locs[i].l.pos;
    }
    lit_parse_error(P, at, "duplicate name '%s' (first declared at %d:%d)",
                    name, first.line, first.col);
    return 1;
}

/* A constant expression that must lie in [lo, hi]; LIT_BAD when not (an
   error names WHAT) or when it could not be computed. */
static int bounded(LitParser *P, const char *what, int64_t lo, int64_t hi,
                   int64_t *v)
{
    LitPos at = P->tok.pos;
    if (lit_arith_expr(P, v) != LIT_OK)
        return LIT_BAD;
    if (*v < lo) {
        lit_parse_error(P, at, "%s must be %s, got %lld", what,
                        lo == 1 ? "positive" : ">= 0", (long long)*v);
        return LIT_BAD;
    }
    if (*v > hi) {
        lit_parse_error(P, at, "%s is %lld; at most %lld is allowed", what,
                        (long long)*v, (long long)hi);
        return LIT_BAD;
    }
    return LIT_OK;
}

/* ---- test, param, config ----------------------------------------------- */

static char *unquote(LitParser *P, const LitToken *t)
{
    char *s = lit_parse_alloc(P, (size_t)t->len);
    size_t n = 0;
    for (int32_t i = 1; i < t->len - 1; i++) {
        if (t->text[i] == '\\')
            i++;
        s[n++] = t->text[i];
    }
    s[n] = '\0';
    return s;
}

/* test := 'test' WORD [STRING] */
static void st_test(LitParser *P)
{
    LitPos at = P->tok.pos;
    lit_lex_word(&P->lx, &P->tok);
    if (P->tok.kind == LT_ERROR)        /* as lit_parse_advance would */
        lit_parse_error(P, P->tok.pos, "%s", P->tok.msg);
    if (P->tok.kind != LT_WORD)
        lit_parse_expected(P, "a test name");
    LitToken name = P->tok;
    lit_parse_advance(P);
    const char *doc = NULL;
    if (P->tok.kind == LT_STRING) {
        doc = unquote(P, &P->tok);
        lit_parse_advance(P);
    }
    end_statement(P);
    if (P->seen_test) {
        lit_parse_error(P, at, "duplicate 'test' statement");
        return;
    }
    P->seen_test = 1;
    P->prog->name = lit_parse_strndup(P, name.text, (size_t)name.len);
    P->prog->doc = doc;
}

static void param_value(LitParser *P, void *ctx)
{
    LitParamX *x = ctx;
    lit_parse_expect(P, LT_ASSIGN, "'='");
    int st = lit_arith_expr(P, &x->p.value);
    end_statement(P);
    x->bad = st != LIT_OK;
}

/* param := 'param' NAME '=' expr */
static void st_param(LitParser *P)
{
    LitPos at = P->tok.pos;
    const char *name = decl_name(P, "a param name");
    if (name_taken(P, name, at)) {
        LitParamX dup = {{name, 0, 0, at}, PARAM_HIDDEN};
        param_value(P, &dup);
        return;
    }
    /* Declared at once, so that later uses stay silent when its statement
       fails; hidden from its own expression. */
    LitParamX *x = LIT_PUSH(P, P->params, P->nparams, P->capparams);
    *x = (LitParamX){{name, 0, 0, at}, PARAM_HIDDEN};
    lit_parse_name(P, &P->param_names, name, P->nparams - 1);
    if (protect(P, param_value, x)) {
        x->bad = 1;
        longjmp(*P->jb, 1);
    }
    /* -D NAME=V: the last one given wins. */
    for (int i = 0; i < P->opt->ndefines; i++) {
        if (strcmp(P->opt->defines[i].name, name))
            continue;
        P->define_used[i] = 1;
        x->p.value = P->opt->defines[i].value;
        x->p.overridden = 1;
    }
}

/* config := 'config' KEY '=' ['-'] (INT | DECIMAL | IDENT) */
static void st_config(LitParser *P)
{
    LitToken key = P->tok;
    if (key.kind != LT_IDENT)
        lit_parse_expected(P, "a config key");
    lit_parse_advance(P);
    lit_parse_expect(P, LT_ASSIGN, "'='");
    LitToken val = P->tok;
    const char *start = val.text;
    LitPos vat = val.pos;
    if (val.kind == LT_MINUS) {
        lit_parse_advance(P);
        val = P->tok;
    }
    if (val.kind != LT_INT && val.kind != LT_DECIMAL && val.kind != LT_IDENT)
        lit_parse_expected(P, "a config value");
    lit_parse_advance(P);
    end_statement(P);
    char *kname = lit_parse_strndup(P, key.text, (size_t)key.len);
    int k = lit_config_key(kname);
    if (k < 0) {
        lit_parse_error(P, key.pos, "unknown config key '%s'", kname);
        return;
    }
    if (P->config_pos[k].line) {
        lit_parse_error(P, key.pos, "duplicate config '%s' (first set at "
                        "%d:%d)", kname, P->config_pos[k].line,
                        P->config_pos[k].col);
        return;
    }
    /* A preset sets every key: after one, it would silently undo it. */
    for (int o = 0; k == LIT_CFG_PRESET && o < LIT_NCONFIG; o++)
        if (P->config_pos[o].line) {
            lit_parse_error(P, key.pos, "config preset must come before the "
                            "other config keys ('%s' set at %d:%d)",
                            lit_config_name(o), P->config_pos[o].line,
                            P->config_pos[o].col);
            return;
        }
    P->config_pos[k] = key.pos;
    char *text = lit_parse_strndup(P, start,
                                   (size_t)(val.text + val.len - start));
    char msg[256];
    if (lit_config_set(&P->prog->config, k, text, msg, sizeof msg))
        lit_parse_error(P, vat, "%s", msg);
}

/* ---- declarations ------------------------------------------------------ */

/* init := expr | '{' expr { ',' expr } '}' */
static void initializer(LitParser *P, LitLocX *x, int size_ok)
{
    LitLoc *l = &x->l;
    if (P->tok.kind != LT_LBRACE) {
        int64_t v;
        if (lit_arith_expr(P, &v) == LIT_OK && size_ok)
            for (int32_t i = 0; i < l->size; i++)
                l->init[i] = v;
        return;
    }
    LitPos at = P->tok.pos;
    lit_parse_open(P);
    int32_t n = 0;
    for (;;) {
        int64_t v;
        if (lit_arith_expr(P, &v) == LIT_OK && n < l->size)
            l->init[n] = v;
        if (n < INT32_MAX)
            n++;
        if (!lit_parse_accept(P, LT_COMMA))
            break;
    }
    lit_parse_close(P, LT_RBRACE, "',' or '}'");
    if (!l->is_array)
        lit_parse_error(P, at, "initializer list for scalar '%s'", l->name);
    else if (size_ok && n != l->size)
        lit_parse_error(P, at, "'%s' has %d elements, initializer has %d",
                        l->name, l->size, n);
}

/* The element type word before a location's name (u8 u16 u32 u64): its
   size in bytes; 8 when there is none. A type word followed by something
   other than a name is the name itself. */
static int elem_type(LitParser *P)
{
    static const char *const types[] = {"u8", "u16", "u32", "u64"};
    for (int k = 0; k < 4; k++) {
        if (!lit_lex_is(&P->tok, types[k]))
            continue;
        LitLexer ahead = P->lx;
        LitToken next;
        lit_lex_next(&ahead, &next);
        if (next.kind != LT_IDENT)
            return 8;
        lit_parse_advance(P);
        return 1 << k;
    }
    return 8;
}

/* decl := ('pm' | 'dram' | 'shared') [TYPE] NAME ['[' expr ']']
           ['=' init] ['line' expr]
   TYPE := 'u8' | 'u16' | 'u32' | 'u64' */
static void st_decl(LitParser *P, int space)
{
    int elem = elem_type(P);
    LitPos at = P->tok.pos;
    const char *name = decl_name(P, "a location name");
    int dup = name_taken(P, name, at);
    LitLocX tmp = {{.name = name, .space = (uint8_t)space,
                    .elem = (uint8_t)elem, .size = 1, .pin = -1, .pos = at},
                   0, {0, 0}};
    /* A duplicate is parsed for its errors into a record nobody sees. */
    LitLocX *x = dup ? &tmp : LIT_PUSH(P, P->locs, P->nlocs, P->caplocs);
    *x = tmp;
    if (!dup)
        lit_parse_name(P, &P->loc_names, name, P->nlocs - 1);
    int size_ok = 1;
    if (P->tok.kind == LT_LBRACK) {
        lit_parse_open(P);
        int64_t n;
        char what[96];
        snprintf(what, sizeof what, "size of '%s'", name);
        size_ok = bounded(P, what, 1, LIT_MAX_WORDS, &n) == LIT_OK;
        lit_parse_close(P, LT_RBRACK, "']'");
        x->l.is_array = 1;
        x->l.size = size_ok ? (int32_t)n : 1;
        x->bad = !size_ok;
    }
    x->l.init = lit_parse_alloc(P, (size_t)x->l.size * sizeof(int64_t));
    if (lit_parse_accept(P, LT_ASSIGN))
        initializer(P, x, size_ok);
    for (int32_t i = 0; i < x->l.size; i++)  /* as a store keeps it */
        x->l.init[i] = lit_type_value(lit_type_of_bytes(elem), x->l.init[i]);
    if (lit_lex_is(&P->tok, "line")) {
        LitPos lat = P->tok.pos;
        lit_parse_advance(P);
        int64_t line;
        if (bounded(P, "line", 0, LIT_MAX_SPACE, &line) == LIT_OK) {
            if (space == LIT_SHARED)
                lit_parse_error(P, lat, "shared '%s' cannot be pinned to a "
                                "line", name);
            else
                x->l.pin = (int32_t)line;
        }
        x->pin_pos = lat;
    }
    end_statement(P);
}

/* ---- kernels ----------------------------------------------------------- */

typedef struct {
    LitKernelX *kx;
    int32_t nthreads;                   /* 0 when grid/block are bad */
    int mode;                           /* 0 empty, 1 SPMD, 2 threads */
    int mixed;                          /* mixing reported */
    LitBodyBuild spmd;
    LitBody *bodies;                    /* thread bodies */
    int32_t nbodies, capbodies;
} KernelCtx;

enum { MODE_EMPTY, MODE_SPMD, MODE_THREADS };

/* Switch the kernel to MODE; 0 when that mixes the two kinds of body (the
   statement is then parsed for its own errors and dropped). */
static int set_mode(LitParser *P, KernelCtx *k, int mode, LitPos at)
{
    if (k->mode == MODE_EMPTY)
        k->mode = mode;
    if (k->mode == mode)
        return 1;
    if (!k->mixed)
        lit_parse_error(P, at, "kernel '%s' mixes 'thread' bodies with SPMD "
                        "instructions", k->kx->k.name);
    k->mixed = 1;
    return 0;
}

/* line := [LABEL ':'] [instr] */
static void body_line(LitParser *P, LitBodyBuild *b)
{
    LitToken first = P->tok;
    if (first.kind != LT_IDENT)
        lit_parse_expected(P, "an instruction");
    lit_parse_advance(P);
    if (P->tok.kind == LT_COLON) {
        lit_instr_label(P, b, &first);
        lit_parse_advance(P);
        if (lit_parse_at_end(P))
            return;
        first = P->tok;
        if (first.kind != LT_IDENT)
            lit_parse_expected(P, "an instruction");
        lit_parse_advance(P);
    }
    lit_instr_parse(P, b, &first);
}

static void thread_stmt(LitParser *P, void *ctx)
{
    if (lit_lex_is(&P->tok, "thread"))
        lit_parse_syntax(P, P->tok.pos, "'thread' bodies cannot be nested");
    body_line(P, ctx);
    end_statement(P);
}

/* thread := 'thread' expr '{' { line } '}' */
static void thread_body(LitParser *P, KernelCtx *k, LitPos at)
{
    int keep = set_mode(P, k, MODE_THREADS, at);
    LitPos gat = P->tok.pos;
    int64_t g;
    int ok = lit_arith_expr(P, &g) == LIT_OK && k->nthreads > 0;
    if (ok && (g < 0 || g >= k->nthreads)) {
        lit_parse_error(P, gat, "thread %lld does not exist: kernel '%s' has "
                        "%d threads", (long long)g, k->kx->k.name,
                        k->nthreads);
        ok = 0;
    }
    if (ok && k->kx->k.body_of[g] >= 0) {
        lit_parse_error(P, gat, "thread %lld listed twice in kernel '%s'",
                        (long long)g, k->kx->k.name);
        ok = 0;
    }
    LitPos open = P->tok.pos;
    lit_parse_expect(P, LT_LBRACE, "'{'");
    LitBodyBuild b = {0};
    stmt_block(P, open, thread_stmt, &b);
    if (!keep)
        return;
    LitBody *body = LIT_PUSH(P, k->bodies, k->nbodies, k->capbodies);
    lit_instr_finish(P, &b, body);
    body->gtid = ok ? (int32_t)g : -1;
    body->pos = at;
    k->kx->regs |= b.regs_used;
    if (ok)
        k->kx->k.body_of[g] = k->nbodies - 1;
}

/* A kernel's body line: `thread` always starts a thread body. */
static void kernel_stmt(LitParser *P, void *ctx)
{
    KernelCtx *k = ctx;
    LitPos at = P->tok.pos;
    if (lit_lex_is(&P->tok, "thread")) {
        lit_parse_advance(P);
        thread_body(P, k, at);
    } else {
        LitBodyBuild scratch = {0};
        body_line(P, set_mode(P, k, MODE_SPMD, at) ? &k->spmd : &scratch);
    }
    end_statement(P);
}

static int32_t kernel_threads(LitParser *P, LitKernel *k, LitPos at)
{
    int64_t n = (int64_t)k->grid * k->block;
    if (n > LIT_MAX_THREADS) {
        lit_parse_error(P, at, "kernel '%s' has %lld threads; at most %d are "
                        "allowed", k->name, (long long)n, LIT_MAX_THREADS);
        return 0;
    }
    if (P->threads + n > LIT_MAX_ALL_THREADS) {
        lit_parse_error(P, at, "kernel '%s' brings the file to %lld threads; "
                        "at most %d are allowed in all kernels together",
                        k->name, (long long)(P->threads + n),
                        LIT_MAX_ALL_THREADS);
        return 0;
    }
    P->threads += n;
    return (int32_t)n;
}

/* The directory part of the test file's path, for files named relative
   to it: "" or "dir/". */
static const char *test_dir(LitParser *P)
{
    const char *slash = strrchr(P->path, '/');
    return slash ? lit_parse_strndup(P, P->path, (size_t)(slash - P->path + 1))
                 : "";
}

/* from := 'from' STRING (NAME | STRING) '(' [arg {',' arg}] ')'
   arg  := LOCATION | expr */
static void from_clause(LitParser *P, LitKernelX *kx)
{
    LitKernel *k = &kx->k;
    LitPos fat = P->tok.pos;
    if (P->tok.kind != LT_STRING)
        lit_parse_expected(P, "a file name in quotes");
    const char *file = unquote(P, &P->tok);
    lit_parse_advance(P);
    LitPos eat = P->tok.pos;
    if (P->tok.kind != LT_IDENT && P->tok.kind != LT_STRING)
        lit_parse_expected(P, "an entry name");
    const char *entry = P->tok.kind == LT_STRING
                            ? unquote(P, &P->tok)
                            : lit_parse_strndup(P, P->tok.text,
                                                (size_t)P->tok.len);
    lit_parse_advance(P);
    LitPos aat = P->tok.pos;
    if (P->tok.kind != LT_LPAREN)
        lit_parse_expected(P, "'(' and the entry's arguments");
    lit_parse_open(P);
    int32_t cap = 0, capat = 0, nat = 0;
    LitPos *argat = NULL;               /* where each argument starts */
    while (P->tok.kind != LT_RPAREN) {
        LitArg *a = LIT_PUSH(P, k->args, k->nargs, cap);
        *LIT_PUSH(P, argat, nat, capat) = P->tok.pos;
        a->loc = -1;
        a->value = 0;
        int32_t loc = P->tok.kind == LT_IDENT
                          ? lit_parse_find_loc(P, P->tok.text,
                                               (size_t)P->tok.len)
                          : -1;
        if (loc >= 0) {
            if (P->locs[loc].l.space == LIT_SHARED)
                lit_parse_error(P, P->tok.pos, "shared '%s' has no address "
                                "outside a CTA: declare it __shared__ in the "
                                "kernel", P->locs[loc].l.name);
            a->loc = loc;
            lit_parse_advance(P);
        } else if (lit_arith_expr(P, &a->value) != LIT_OK) {
            kx->bad = 1;
        }
        if (!lit_parse_accept(P, LT_COMMA))
            break;
    }
    lit_parse_close(P, LT_RPAREN, "',' or ')'");
    k->from = file;
    k->entry = entry;
    const char *path = file;
    if (file[0] != '/') {
        const char *dir = test_dir(P);
        size_t n = strlen(dir) + strlen(file);
        char *full = lit_parse_alloc(P, n + 1);
        snprintf(full, n + 1, "%s%s", dir, file);
        path = full;
    }
    size_t len = strlen(path);
    const char *ptx = path;
    if (len > 3 && !strcmp(path + len - 3, ".cu")) {
        char err[512];
        for (int32_t i = 0; i < P->ncu_failed; i++)
            if (!strcmp(P->cu_failed[i], path)) {
                lit_parse_error(P, fat, "'%s' could not be compiled (the "
                                "first error about it says why)", file);
                return;
            }
        ptx = lit_cuda_ptx(P, path, err, sizeof err);
        if (!ptx) {
            lit_parse_error(P, fat, "%s", err);
            *LIT_PUSH(P, P->cu_failed, P->ncu_failed, P->capcu_failed) = path;
            return;
        }
    } else if (len <= 4 || strcmp(path + len - 4, ".ptx")) {
        lit_parse_error(P, fat, "'%s': a kernel comes from a .cu or a .ptx "
                        "file", file);
        return;
    }
    PtxModule *mod = lit_ptx_read(P, ptx, path, fat);
    if (!mod)
        return;
    const PtxEntry *e = lit_ptx_entry(P, mod, entry, eat);
    if (!e)
        return;
    if (e->nparams != k->nargs) {
        lit_parse_error(P, aat, "entry '%s' takes %d argument%s, %d given",
                        entry, e->nparams, e->nparams == 1 ? "" : "s",
                        k->nargs);
        return;
    }
    for (int32_t i = 0; i < k->nargs; i++) {
        int32_t bytes = e->params[i].bytes;
        const LitArg *a = &k->args[i];
        if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) {
            lit_parse_error(P, argat[i], "parameter %d of '%s' is not a "
                            "scalar", i + 1, entry);
            return;
        }
        if (a->loc >= 0 && bytes != 8) {
            lit_parse_error(P, argat[i], "argument %d of '%s' is a location "
                            "(a 64-bit address); the parameter has %d bytes",
                            i + 1, entry, bytes);
            return;
        }
        if (a->loc < 0 && bytes < 8) {
            int64_t lo = -((int64_t)1 << (8 * bytes - 1));
            int64_t hi = ((int64_t)1 << (8 * bytes)) - 1;
            if (a->value < lo || a->value > hi) {
                lit_parse_error(P, argat[i], "argument %d of '%s' (%lld) "
                                "does not fit its %d-byte parameter", i + 1,
                                entry, (long long)a->value, bytes);
                return;
            }
        }
    }
    lit_ptx_lower(P, kx, mod, e, k->args);
}

/* Main kernel i: i; recovery kernel j: -(j+1); none: INT32_MIN. */
static int find_kernel(LitParser *P, const char *name, size_t len)
{
    int32_t v = lit_names_find(&P->kernel_names, name, len);
    return v >= 0 ? v : v == -1 ? INT32_MIN : v + 1;
}

/* kernel := 'kernel' NAME 'grid' expr 'block' expr ['warp' expr]
             ( '{' ( { line } | { thread } ) '}' | from ) */
static void st_kernel(LitParser *P, int recovery)
{
    LitPos at = P->tok.pos;
    const char *name = decl_name(P, "a kernel name");
    int prior = find_kernel(P, name, strlen(name));
    if (prior != INT32_MIN) {
        LitKernel *f = prior >= 0 ? &P->mk[prior].k : &P->rk[-prior - 1].k;
        lit_parse_error(P, at, "duplicate kernel '%s' (first defined at "
                        "%d:%d)", name, f->pos.line, f->pos.col);
    }
    int32_t idx;
    LitKernelX *kx;
    if (recovery) {
        kx = LIT_PUSH(P, P->rk, P->nrk, P->caprk);
        idx = -P->nrk;
    } else {
        kx = LIT_PUSH(P, P->mk, P->nmk, P->capmk);
        idx = P->nmk - 1;
    }
    if (prior == INT32_MIN)             /* the table keeps the first */
        lit_parse_name(P, &P->kernel_names, name, idx >= 0 ? idx : idx - 1);
    memset(kx, 0, sizeof *kx);
    kx->bad = 1;
    LitKernel *k = &kx->k;
    k->name = name;
    k->pos = at;
    k->recovery = (uint8_t)recovery;
    k->warp = LIT_DEFAULT_WARP;
    if (recovery)
        *LIT_PUSH(P, P->rseq, P->nrseq, P->caprseq) = idx;

    int64_t grid = 1, block = 1, warp = LIT_DEFAULT_WARP;
    int ok = 1;
    LitPos gat = P->tok.pos;
    if (!lit_lex_is(&P->tok, "grid"))
        lit_parse_expected(P, "'grid'");
    lit_parse_advance(P);
    ok &= bounded(P, "grid", 1, LIT_MAX_THREADS, &grid) == LIT_OK;
    if (!lit_lex_is(&P->tok, "block"))
        lit_parse_expected(P, "'block'");
    lit_parse_advance(P);
    ok &= bounded(P, "block", 1, LIT_MAX_THREADS, &block) == LIT_OK;
    if (lit_lex_is(&P->tok, "warp")) {
        lit_parse_advance(P);
        k->warp_set = 1;
        if (bounded(P, "warp", 1, LIT_MAX_THREADS, &warp) != LIT_OK)
            warp = LIT_DEFAULT_WARP;
    }
    k->grid = (int32_t)grid;
    k->block = (int32_t)block;
    k->warp = (int32_t)warp;
    KernelCtx ctx = {0};
    ctx.kx = kx;
    if (ok && (ctx.nthreads = kernel_threads(P, k, gat)) > 0) {
        k->body_of = lit_parse_alloc(P, (size_t)ctx.nthreads * sizeof(int32_t));
        for (int32_t i = 0; i < ctx.nthreads; i++)
            k->body_of[i] = -1;
    }
    if (lit_lex_is(&P->tok, "from")) {
        lit_parse_advance(P);
        from_clause(P, kx);
        end_statement(P);
        for (int32_t i = 0; i < ctx.nthreads; i++)
            k->body_of[i] = 0;
        kx->bad = ctx.nthreads == 0 || !k->nbodies;
        return;
    }
    LitPos open = P->tok.pos;
    lit_parse_expect(P, LT_LBRACE, "'{'");
    stmt_block(P, open, kernel_stmt, &ctx);
    end_statement(P);

    if (ctx.mode == MODE_THREADS) {
        k->bodies = ctx.bodies;
        k->nbodies = ctx.nbodies;
    } else {
        k->spmd = 1;
        k->nbodies = 1;
        k->bodies = lit_parse_alloc(P, sizeof(LitBody));
        lit_instr_finish(P, &ctx.spmd, k->bodies);
        k->bodies->gtid = -1;
        k->bodies->pos = at;
        kx->regs |= ctx.spmd.regs_used;
        for (int32_t i = 0; i < ctx.nthreads; i++)
            k->body_of[i] = 0;
    }
    kx->bad = ctx.nthreads == 0;
}

/* ---- recover ----------------------------------------------------------- */

/* run := 'run' NAME */
static void st_run(LitParser *P)
{
    LitToken t = P->tok;
    if (t.kind != LT_IDENT)
        lit_parse_expected(P, "a kernel name");
    lit_parse_advance(P);
    end_statement(P);
    int i = find_kernel(P, t.text, (size_t)t.len);
    if (i == INT32_MIN)
        lit_parse_error(P, t.pos, "unknown kernel '%.*s'", t.len, t.text);
    else
        *LIT_PUSH(P, P->rseq, P->nrseq, P->caprseq) = i;
}

static void recover_stmt(LitParser *P, void *ctx)
{
    (void)ctx;
    if (lit_lex_is(&P->tok, "kernel")) {
        lit_parse_advance(P);
        st_kernel(P, 1);
    } else if (lit_lex_is(&P->tok, "run")) {
        lit_parse_advance(P);
        st_run(P);
    } else {
        lit_parse_expected(P, "'kernel' or 'run'");
    }
}

/* recover := 'recover' '{' { kernel | run } '}' */
static void st_recover(LitParser *P, LitPos at)
{
    if (P->recover_pos.line)
        lit_parse_error(P, at, "duplicate 'recover' block (first at %d:%d)",
                        P->recover_pos.line, P->recover_pos.col);
    else
        P->recover_pos = at;
    LitPos open = P->tok.pos;
    lit_parse_expect(P, LT_LBRACE, "'{'");
    stmt_block(P, open, recover_stmt, NULL);
    end_statement(P);
}

/* ---- checks ------------------------------------------------------------ */

/* expect := 'expect' MODEL '=' ('ok' | 'no') { MODEL '=' ('ok' | 'no') } */
static void expect_clause(LitParser *P, LitCheck *c)
{
    lit_parse_advance(P);
    if (lit_parse_at_end(P))
        lit_parse_expected(P, "MODEL=ok|no");
    while (!lit_parse_at_end(P)) {
        LitToken m = P->tok;
        if (m.kind != LT_IDENT)
            lit_parse_expected(P, "MODEL=ok|no");
        lit_parse_advance(P);
        lit_parse_expect(P, LT_ASSIGN, "'='");
        LitToken v = P->tok;
        if (v.kind != LT_IDENT)
            lit_parse_expected(P, "'ok' or 'no'");
        lit_parse_advance(P);
        char *mname = lit_parse_strndup(P, m.text, (size_t)m.len);
        int model = lit_model_from_name(mname);
        int val = lit_lex_is(&v, "ok") ? 1 : lit_lex_is(&v, "no") ? 0 : -1;
        if (model < 0)
            lit_parse_error(P, m.pos, "unknown model '%s' (expected strict, "
                            "epoch, bepoch, scoped, bscoped or hw)", mname);
        else if (val < 0)
            lit_parse_error(P, v.pos, "expected 'ok' or 'no' for model '%s', "
                            "found '%.*s'", mname, v.len, v.text);
        else if (c->expect[model] >= 0)
            lit_parse_error(P, m.pos, "duplicate expect for model '%s'",
                            mname);
        else
            c->expect[model] = (int8_t)val;
    }
}

/* check := 'check' ( 'noerror' | PHASE QUANT '(' cond ')' )
            [ expect ] { NEWLINE expect } */
static void st_check(LitParser *P, LitPos at)
{
    LitToken ph = P->tok;
    int phase = -1;
    for (int i = 0; i < 4; i++)
        if (lit_lex_is(&ph, lit_phase_names[i]))
            phase = i;
    if (phase < 0)
        lit_parse_expected(P, "a phase (final, crash, recovered or noerror)");
    lit_parse_advance(P);
    LitCheck c = {0};
    memset(c.expect, -1, sizeof c.expect);
    c.phase = (uint8_t)phase;
    c.pos = at;
    if (phase != LIT_NOERROR) {
        if (lit_parse_accept(P, LT_TILDE)) {
            if (!lit_lex_is(&P->tok, "exists"))
                lit_parse_expected(P, "'exists' after '~'");
            c.quant = LIT_NOT_EXISTS;
        } else if (lit_lex_is(&P->tok, "exists")) {
            c.quant = LIT_EXISTS;
        } else if (lit_lex_is(&P->tok, "forall")) {
            c.quant = LIT_FORALL;
        } else {
            lit_parse_expected(P, "a quantifier (exists, ~exists or forall)");
        }
        lit_parse_advance(P);
        c.cond = lit_cond_parse(P, phase);
    }
    for (;;) {
        if (lit_lex_is(&P->tok, "expect"))
            expect_clause(P, &c);
        if (P->tok.kind != LT_NL) {
            end_statement(P);
            break;
        }
        /* A line that starts with `expect` continues this check. */
        while (P->tok.kind == LT_NL)
            lit_parse_advance(P);
        if (!lit_lex_is(&P->tok, "expect"))
            break;
    }
    LitCheckX *x = LIT_PUSH(P, P->checks, P->nchecks, P->capchecks);
    x->c = c;
    x->phase_pos = ph.pos;
}

/* ---- file -------------------------------------------------------------- */

/* statement := test | param | config | decl | kernel | recover | check */
static void top_stmt(LitParser *P, void *ctx)
{
    int *first = ctx;
    LitToken t = P->tok;
    if (t.kind != LT_IDENT)
        lit_parse_expected(P, "a statement");
    if (*first && !lit_lex_is(&t, "test"))
        lit_parse_error(P, t.pos, "a test must start with 'test NAME'");
    *first = 0;
    if (lit_lex_is(&t, "test")) {
        st_test(P);                     /* reads the raw name after it */
        return;
    }
    if (lit_lex_is(&t, "expect"))
        lit_parse_syntax(P, t.pos, "'expect' must follow a 'check'");
    static const char *const words[] = {"param", "config", "pm", "dram",
                                        "shared", "kernel", "recover",
                                        "check"};
    int w = -1;
    for (int i = 0; i < 8; i++)
        if (lit_lex_is(&t, words[i]))
            w = i;
    if (w < 0)
        lit_parse_syntax(P, t.pos, "unknown statement '%.*s'", t.len, t.text);
    lit_parse_advance(P);
    switch (w) {
    case 0: st_param(P); break;
    case 1: st_config(P); break;
    case 2: st_decl(P, LIT_PM); break;
    case 3: st_decl(P, LIT_DRAM); break;
    case 4: st_decl(P, LIT_SHARED); break;
    case 5: st_kernel(P, 0); break;
    case 6: st_recover(P, t.pos); break;
    default: st_check(P, t.pos); break;
    }
}

static const LitOptions no_options = {0, NULL, 0, NULL};

static int read_failed(const char *path, const char *why, BaseDiag *diag)
{
    char line[1024];
    snprintf(line, sizeof line, "%s: error: %s", path, why);
    base_diag_append(diag, line);
    diag->nerrors++;
    return 1;
}

/* The file's statements, on a parser parse() has set up; 0 and *out set,
   or 1 with the errors in diag. */
static int parse_statements(LitParser *P, const char *text, size_t len,
                            LitProgram **out, BaseDiag *diag)
{
    BaseArena *a = P->arena;
    P->define_used = lit_parse_alloc(P, (size_t)P->opt->ndefines + 1);
    P->prog = lit_parse_alloc(P, sizeof(LitProgram));
    P->prog->arena = a;
    P->prog->path = lit_parse_strndup(P, P->path, strlen(P->path));
    lit_config_defaults(&P->prog->config);

    lit_lex_init(&P->lx, text, len);
    int first = 1;
    lit_parse_advance(P);
    for (;;) {
        skip_blank_statements(P);
        if (P->tok.kind == LT_EOF || P->errs.full)
            break;
        if (P->tok.kind == LT_RBRACE) {
            lit_parse_error(P, P->tok.pos, "unmatched '}'");
            lit_parse_advance(P);
            continue;
        }
        if (protect(P, top_stmt, &first))
            sync(P);
    }
    if (!P->seen_test && first)
        lit_parse_error(P, (LitPos){1, 1}, "a test must start with 'test "
                        "NAME'");
    if (!P->errs.full)
        lit_lower_finish(P);
    int nerr = P->errs.n;               /* the flush empties the list */
    lit_diag_flush(&P->errs, diag);
    if (nerr)
        return 1;
    *out = P->prog;
    return 0;
}

/* The parser's out-of-memory: every allocation of a parse (lit_parse_alloc
   and its siblings, the error list) that returns NULL longjmps to the
   setjmp here, and the whole file ends in one "out of memory" error: the
   parser's way of turning the NULL into its error code, which spares the
   recursive descent a test after each of its hundreds of allocations
   (base.h: the policy). Nothing this function holds changes after setjmp
   (-Wclobbered): the parse itself is parse_statements. */
static int parse(const char *path, const char *text, size_t len,
                 const LitOptions *opt, const LitSource *sources,
                 int nsources, LitProgram **out, BaseDiag *diag)
{
    *out = NULL;
    BaseArena *a = base_arena_new();
    LitParser *P = base_calloc(1, sizeof *P);
    if (!a || !P) {
        base_free(P);
        base_arena_free(a);
        return read_failed(path, "out of memory", diag);
    }
    jmp_buf oom;
    if (setjmp(oom)) {
        base_free(P);
        base_arena_free(a);
        return read_failed(path, "out of memory", diag);
    }
    P->oom = &oom;
    P->jb = &oom;
    P->path = path;
    P->arena = a;
    P->errs.arena = a;
    P->errs.path = path;
    P->opt = opt ? opt : &no_options;
    P->sources = sources;
    P->nsources = nsources;
    int rc = parse_statements(P, text, len, out, diag);
    base_free(P);
    if (rc)
        base_arena_free(a);
    return rc;
}

int lit_parse_string(const char *path, const char *text, const LitOptions *opt,
                     LitProgram **out, BaseDiag *diag)
{
    return parse(path, text, strlen(text), opt, NULL, 0, out, diag);
}

int lit_parse_bytes(const char *path, const char *text, size_t len,
                    const LitOptions *opt, LitProgram **out, BaseDiag *diag)
{
    return parse(path, text, len, opt, NULL, 0, out, diag);
}

int lit_parse_sources(const char *path, const char *text, size_t len,
                      const LitOptions *opt, const LitSource *sources,
                      int nsources, LitProgram **out, BaseDiag *diag)
{
    return parse(path, text, len, opt, sources, nsources, out, diag);
}

int lit_parse_file(const char *path, const LitOptions *opt, LitProgram **out,
                   BaseDiag *diag)
{
    char line[256];
    *out = NULL;
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int err = f ? 0 : errno;
    while (f && !err) {
        if (BASE_GROW(buf, cap, len + 4096)) {
            err = ENOMEM;
            break;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            if (ferror(f))
                err = errno ? errno : EIO;
            break;
        }
    }
    if (f)
        fclose(f);
    if (err) {
        base_free(buf);
        snprintf(line, sizeof line, "cannot read: %s", strerror(err));
        return read_failed(path, err == ENOMEM ? "out of memory" : line, diag);
    }
    int rc = parse(path, buf ? buf : "", len, opt, NULL, 0, out, diag);
    base_free(buf);
    return rc;
}

void lit_program_free(LitProgram *p)
{
    if (p)
        base_arena_free(p->arena);
}
