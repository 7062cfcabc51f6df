/*
 * litmus_int — private header of the litmus front end: lexer, parser state,
 * error collection, opcode table and the helpers the parser files share.
 * Only the litmus sources and tests/test_lit_*.c include it.
 *
 * Flow: lit_parse_string → lit_lex (tokens) → lit_parse / lit_instr /
 * lit_cond / lit_arith (statements, resolved as they are read: params and
 * locations are declared before use, labels resolve at the end of a body)
 * → lit_lower_finish (-D and --config, layout, deferred checks, assembly of
 * the LitProgram). Syntax errors longjmp to the enclosing statement, which
 * skips to its end; semantic errors are recorded and parsing goes on.
 */
#ifndef GPMC_LITMUS_INT_H
#define GPMC_LITMUS_INT_H

#include <assert.h>
#include <setjmp.h>
#include <stdarg.h>

#include "litmus/litmus.h"

/* ---- limits ------------------------------------------------------------ */

enum {
    LIT_NREGS = 32,
    LIT_MAX_THREADS = 1 << 22,          /* per kernel (Parboil's lbm has
                                           2.16 M: `gpmc time`) */
    LIT_MAX_ALL_THREADS = 1 << 24,      /* all kernels of a file together
                                           (each has a body_of entry each) */
    LIT_MAX_WORDS = 1 << 26,            /* per declaration (lbm's grid of
                                           19-value cells: 43 M) */
    LIT_MAX_SPACE = 1 << 28,            /* words of one memory space */
    LIT_MAX_INSTRS = 1 << 20,           /* per body (the model's pc has 24
                                           bits) */
    LIT_MAX_ERRORS = 1000,              /* reported per file; then it stops */
    LIT_DEFAULT_WARP = 32
};

/* ---- error collection -------------------------------------------------- */

typedef struct {
    LitPos pos;                         /* line 0: about the whole file */
    int32_t seq;                        /* report order, to sort stably */
    char *msg;
    const char *path;                   /* another file's (PTX, CUDA), or
                                           NULL: the test file */
} LitErr;

typedef struct {
    BaseArena *arena;
    const char *path;
    LitErr *v;
    int32_t n, cap;
    int full;                           /* LIT_MAX_ERRORS reached: the rest
                                           are dropped, parsing stops */
    const char *src;                    /* the test file's text, for
                                           excerpts (BaseDiag.excerpt) */
    size_t srclen;
} LitErrs;

/* Record one error; messages are formatted like printf. 0 ok, -1 OOM. */
int lit_diag_error(LitErrs *e, LitPos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int lit_diag_verror(LitErrs *e, LitPos pos, const char *fmt, va_list ap);
/* The same, about file `path` rather than the test file. */
int lit_diag_verror_in(LitErrs *e, const char *path, LitPos pos,
                       const char *fmt, va_list ap);
int lit_diag_error_in(LitErrs *e, const char *path, LitPos pos,
                      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Sort by position (file-level first), drop exact repeats, append to d;
   then a last line when errors were dropped. */
void lit_diag_flush(LitErrs *e, BaseDiag *d);

/* ---- name tables (lit_names.c) ----------------------------------------- */

typedef struct {
    const char *name;                   /* NULL: free */
    int32_t index;
} LitNameSlot;

typedef struct {
    LitNameSlot *slots;
    int32_t n, cap;                     /* cap: 0 or a power of two */
} LitNames;

/* The index stored for the name s[0..n), or -1. */
int32_t lit_names_find(const LitNames *t, const char *s, size_t n);
/* Map NAME (kept, not copied) to INDEX, replacing any earlier index.
   0 ok, -1 out of memory. */
int lit_names_add(LitNames *t, BaseArena *a, const char *name, int32_t index);

/* ---- printing pieces (lit_print.c) ------------------------------------- */

void lit_print_int(BaseStr *s, int64_t v);       /* reads back as v */
void lit_print_cond(BaseStr *s, const LitProgram *p, const LitCond *c);
/* "QUANT (COND)" or "noerror" */
void lit_print_check_text(BaseStr *s, const LitProgram *p, const LitCheck *c);

/* ---- lexer ------------------------------------------------------------- */

typedef enum {
    LT_EOF, LT_NL, LT_IDENT, LT_INT, LT_DECIMAL, LT_STRING, LT_WORD,
    LT_ERROR,
    LT_LPAREN, LT_RPAREN, LT_LBRACK, LT_RBRACK, LT_LBRACE, LT_RBRACE,
    LT_COMMA, LT_COLON, LT_SEMI, LT_ASSIGN,
    LT_EQ, LT_NE, LT_LT, LT_LE, LT_GT, LT_GE,
    LT_PLUS, LT_MINUS, LT_STAR, LT_SLASH, LT_PERCENT,
    LT_NOT, LT_AND, LT_OR, LT_IMP, LT_TILDE,
    LT_NKINDS
} LitTokKind;

typedef struct {
    uint8_t kind;                       /* LitTokKind */
    const char *text;                   /* into the source */
    int32_t len;
    int64_t ival;                       /* LT_INT */
    const char *msg;                    /* LT_ERROR: what is wrong */
    LitPos pos;
} LitToken;

typedef struct {
    const char *p, *end;
    const char *bol;                    /* start of the current line */
    int32_t line;
    char msg[256];                      /* the last LT_ERROR's message */
} LitLexer;

void lit_lex_init(LitLexer *lx, const char *src, size_t len);
void lit_lex_next(LitLexer *lx, LitToken *t);
/* The next run of non-blank characters as one LT_WORD (the test name);
   an ordinary token when the line ends or a comment starts first. */
void lit_lex_word(LitLexer *lx, LitToken *t);
/* "'foo'", "end of line", "end of file", "'=='" — for messages. */
void lit_lex_describe(const LitToken *t, char *buf, size_t len);
int lit_lex_is(const LitToken *t, const char *word);   /* IDENT == word */
/* rN: 0 and *n set (N may exceed 31); -1 when t is not a register. */
int lit_lex_register(const LitToken *t, int64_t *n);

/* ---- opcodes ----------------------------------------------------------- */

extern const char *const lit_sreg_names[LIT_NSREG];       /* "%tid" … */
int lit_opcode_lookup(const char *name, size_t len);      /* -1 unknown */
const char *lit_opcode_name(int op);                      /* canonical */
/* Every spelling the litmus language accepts (aliases too) into out[0..max);
   how many. */
int lit_opcode_spellings(const char **out, int max);
int lit_opcode_shape(int op);                             /* LitShape */
const char *lit_opcode_usage(int op);                     /* "st M, S" */
int lit_sreg_lookup(const char *name, size_t len);        /* without '%' */

/* ---- PTX (DESIGN section 7) ---------------------------------------------
 *
 * lit_ptx.c reads a PTX module (what clang and nvcc emit) into tokens and
 * finds its entries, parameters, shared variables and .file names;
 * lit_ptx_lower.c lowers one entry to a kernel body; lit_cuda.c turns a
 * .cu file into PTX with clang, through a cache. */

enum { PT_EOF, PT_ID, PT_NUM, PT_STR, PT_PUNCT };

typedef struct {
    uint8_t kind;                       /* PT_* */
    uint8_t nl;                         /* a newline comes before it */
    int32_t len;
    int32_t line;                       /* in the PTX text */
    const char *text;
} PtxTok;

typedef struct {
    const char *name;
    int32_t bytes;                      /* .u64: 8 … */
} PtxParam;

typedef struct {
    const char *name;
    int32_t nparams;
    PtxParam *params;
    int32_t first, end;                 /* body tokens, braces excluded */
    int32_t line;
} PtxEntry;

typedef struct {                        /* a module-level .shared variable */
    const char *name;
    int32_t align, bytes;               /* bytes -1: no size gpmc can
                                           use (dynamic shared memory) */
} PtxShared;

typedef struct {
    const char *path;                   /* the PTX file read */
    const char *shown;                  /* the file messages name: the .cu
                                           it was compiled from, or path */
    char *text;
    PtxTok *tok;
    int32_t ntok, captok;
    PtxEntry *entries;
    int32_t nentries, capentries;
    PtxShared *shared;
    int32_t nshared, capshared;
    const char **files;                 /* .file N "name": files[N] */
    int32_t nfiles;
} PtxModule;

/* An address the layout decides (a location's address in an operand):
   applied once lit_layout has run. */
typedef struct {
    int64_t *slot;                      /* gets the address added */
    int32_t loc;                        /* a location, or (ptx) an index
                                           into LitParser.ptxlocs */
    uint8_t window;                     /* 1: the generic address; 0: the
                                           shared-window offset */
    uint8_t ptx;
} LitFixup;


/* ---- parser state ------------------------------------------------------ */

typedef struct {
    int32_t instr;                      /* branch instruction */
    const char *name;
    LitPos pos;
} LitLabelRef;

/* One body under construction. */
typedef struct {
    LitInstr *code;
    int32_t ninstr, capinstr;
    LitLabel *labels;
    int32_t nlabels, caplabels;
    LitPos *label_pos;                  /* parallel to labels */
    int32_t caplabel_pos;
    LitNames label_names;
    LitLabelRef *refs;
    int32_t nrefs, caprefs;
    uint32_t regs_used;
    uint8_t full;                       /* LIT_MAX_INSTRS reached (reported) */
} LitBodyBuild;

/* Declarations as the parser keeps them: the IR record and what only the
   parser needs. `bad`: its value is unusable after a reported error, so
   later uses stay silent instead of cascading. */
typedef struct { LitParam p; uint8_t bad; } LitParamX;
enum { PARAM_HIDDEN = 2 };              /* LitParamX.bad: being defined */
typedef struct { LitLoc l; uint8_t bad; LitPos pin_pos; } LitLocX;
typedef struct {
    LitKernel k;
    uint8_t bad;
    uint32_t regs;                      /* bit N: rN appears */
} LitKernelX;
typedef struct { LitCheck c; LitPos phase_pos; } LitCheckX;

/* A __shared__ variable of a lowered entry, one per kernel that uses it.
   They become locations after every declaration of the file, in the
   order of their kernels in the program (main, then recovery), so that
   the printed program, which leaves them out, declares them again in the
   same order. */
typedef struct {
    LitLocX x;
    uint8_t recovery;                   /* its kernel: P->mk or P->rk … */
    int32_t kernel;                     /* … index */
    int32_t loc;                        /* its location, once placed */
} LitPtxLoc;

typedef struct {
    const char *path;
    LitLexer lx;
    LitToken tok;                       /* current token */
    int nest;                           /* open ( and [: newlines are blank */
    int depth;                          /* open ( and unary - of a constant
                                           expression (LIT_MAX_DEPTH) */
    int blocks;                         /* open { } statement blocks */
    int nl_skipped;                     /* a newline was blank before tok */
    jmp_buf *jb;                        /* syntax error: back to statement */
    jmp_buf *oom;                       /* out of memory: abandon the file
                                           (lit_parse.c: parse(), how the
                                           parser turns a NULL into its
                                           error; base.h has the policy) */
    BaseArena *arena;                    /* the program's */
    LitErrs errs;
    const LitOptions *opt;
    const LitSource *sources;           /* lit_parse_sources' overrides */
    int nsources;
    uint8_t *define_used;

    int seen_test;
    int64_t threads;                    /* of the kernels so far */
    LitPos recover_pos;                 /* line 0: no recover block */
    LitPos config_pos[LIT_NCONFIG];     /* where the file set each key */

    LitProgram *prog;                   /* name, doc, config filled here */
    LitParamX *params;
    int32_t nparams, capparams;
    LitLocX *locs;
    int32_t nlocs, caplocs;
    LitNames param_names, loc_names;
    LitNames kernel_names;              /* main i: i; recovery j: -(j+2) */
    LitKernelX *mk, *rk;                /* main and recovery kernels */
    int32_t nmk, capmk, nrk, caprk;
    int32_t *rseq;                      /* recovery launches: main i is i,
                                           recovery j is -(j+1) */
    int32_t nrseq, caprseq;
    PtxModule **ptx;                    /* modules read so far, by path */
    int32_t nptx, capptx;
    const char **cu_failed;             /* .cu files clang failed on */
    int32_t ncu_failed, capcu_failed;
    LitFixup *fixups;
    int32_t nfixups, capfixups;
    LitPtxLoc *ptxlocs;
    int32_t nptxlocs, capptxlocs;
    LitCheckX *checks;
    int32_t nchecks, capchecks;
    /* Names a declaration statement may have declared had it not ended in
       a syntax error (`pm a = 0, b = 0`: b): their uses are not reported
       as undefined, one error is enough. in_decl: such a statement is
       being read. */
    LitNames skipped;
    int in_decl;
} LitParser;

/* Value status of a constant expression or name (not a syntax error). */
enum { LIT_OK = 0, LIT_BAD = 1 };

/* Shared parser helpers (lit_parse.c). */
void *lit_parse_alloc(LitParser *P, size_t n);
void *lit_parse_grow(LitParser *P, void *arr, int32_t n, int32_t *cap,
                     size_t elem);
#define LIT_PUSH(P, arr, n, cap) \
    ((n) == (cap) ? (void)((arr) = lit_parse_grow((P), (arr), (n), &(cap), \
                                                  sizeof *(arr))) \
                  : (void)0, \
     &(arr)[(n)++])
char *lit_parse_strndup(LitParser *P, const char *s, size_t n);
void lit_parse_advance(LitParser *P);
int lit_parse_accept(LitParser *P, int kind);
void lit_parse_expect(LitParser *P, int kind, const char *what);
void lit_parse_open(LitParser *P);      /* consume ( or [: nest++ */
void lit_parse_close(LitParser *P, int kind, const char *what);
int lit_parse_at_end(LitParser *P);     /* newline, ';', '}' or EOF */
void lit_parse_error(LitParser *P, LitPos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void lit_parse_syntax(LitParser *P, LitPos pos, const char *fmt,
                                ...) __attribute__((format(printf, 3, 4)));
/* Syntax error "expected WHAT, found <current token>"; silent when the
   current token is a lexical error, which was reported already. */
_Noreturn void lit_parse_expected(LitParser *P, const char *what);
int lit_parse_find_param(LitParser *P, const char *name, size_t len);
int lit_parse_find_loc(LitParser *P, const char *name, size_t len);
/* 1 when name was skipped in a declaration that failed (LitParser.skipped):
   its uses are then no errors of their own. */
int lit_parse_skipped(LitParser *P, const char *name, size_t len);
void lit_parse_name(LitParser *P, LitNames *t, const char *name,
                    int32_t index);     /* lit_names_add or out of memory */

/* ---- "did you mean" (lit_suggest.c) -------------------------------------- */

/* The nearest of known[0..n) to name[0..len) if close (base_suggest), or
   NULL. */
const char *lit_suggest_word(const char *name, size_t len,
                             const char *const *known, int n);
/* For an unknown instruction: what another language's word is called here
   ("fence": sfence, membar.*), or the nearest spelling; NULL. */
const char *lit_suggest_opcode(const char *name, size_t len);
/* The nearest location declared so far, or NULL. */
const char *lit_suggest_loc(LitParser *P, const char *name, size_t len);
/* buf = " (did you mean NEAR?)", or "" when near is NULL. */
void lit_suggest_hint(char *buf, size_t n, const char *near);

/* Constant expressions (lit_arith.c). LIT_OK and *v, or LIT_BAD. */
int lit_arith_expr(LitParser *P, int64_t *v);

/* Bodies (lit_instr.c): one instruction whose opcode token was read, one
   label, and the end of the body (branch targets, undefined labels). */
void lit_instr_parse(LitParser *P, LitBodyBuild *b, const LitToken *op);
void lit_instr_label(LitParser *P, LitBodyBuild *b, const LitToken *name);
void lit_instr_finish(LitParser *P, LitBodyBuild *b, LitBody *out);

/* '(' condition ')' (lit_cond.c); the phase decides which names it may
   use. */
LitCond *lit_cond_parse(LitParser *P, int phase);

/* ---- PTX: reading, lowering, compiling --------------------------------- */

/* Reads the PTX file at path (shown in messages as `shown`); NULL after
   reporting at `at` why not. The module lives in the parser's arena. */
PtxModule *lit_ptx_read(LitParser *P, const char *path, const char *shown,
                        LitPos at);
/* The entry named `name` (as written, or demangled), or NULL after
   reporting why not. */
const PtxEntry *lit_ptx_entry(LitParser *P, const PtxModule *mod,
                              const char *name, LitPos at);
/* Lowers entry e into kernel kx's one SPMD body with the arguments args
   (already checked against its parameters). */
void lit_ptx_lower(LitParser *P, LitKernelX *kx, PtxModule *mod,
                   const PtxEntry *e, const LitArg *args);
/* An error in a PTX module, at PTX line ptx_line or, when it has one, at
   CUDA position (file, line, col) of its .loc. */
void lit_ptx_error(LitParser *P, const PtxModule *mod, int32_t ptx_line,
                   const char *file, int32_t line, int32_t col,
                   const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* The PTX text of CUDA file cu (clang, cached): the path of a PTX file,
   or NULL with a message in err. */
const char *lit_cuda_ptx(LitParser *P, const char *cu, char *err,
                         size_t errlen);

/* After the last statement (lit_lower.c, lit_layout.c). */
void lit_lower_finish(LitParser *P);
void lit_layout(LitParser *P);

#endif
