/*
 * harness — private header of the gpmc command line. Each command is one
 * h_cmd_* function taking the arguments after its name and returning the
 * process exit status (DESIGN section 6: 0 ok, 1 failed or incomplete
 * checks, 2 usage or input error, 3 internal error). Only gpmc.c exits.
 */
#ifndef GPMC_HARNESS_H
#define GPMC_HARNESS_H

#include <stdio.h>
#include <sys/types.h>

#include "checker/checker.h"
#include "litmus/litmus.h"
#include "model/model.h"
#include "timing/timing.h"
#include "results/results.h"

/* Thread steps of the timed run that every checked (file, model) gets
   (`gpmc time` allows TM_MAX_STEPS). */
#define H_CHECK_TIME_STEPS 1000000

#define GPMC_VERSION "0.1.0"

/* H_INTERRUPTED: SIGINT stopped a run or suite (128 + SIGINT, as a shell
   reports a process killed by it). */
enum { H_OK = 0, H_FAIL = 1, H_USAGE = 2, H_INTERNAL = 3, H_INTERRUPTED = 130 };

/* The exit status of a results-store error code: the database's fault
   (RES_EINPUT: corrupt, unwritable where it lies) is an input error. */
#define H_RES_STATUS(rc) \
    ((rc) == RES_OK ? H_OK : (rc) == RES_EINPUT ? H_USAGE : H_INTERNAL)

typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *synopsis;
} HCommand;

/* h_opts.c: options shared by run, suite and time. */
/* HO_PARSE: `parse`, which takes -D and --config but no --model/--db;
   HO_PROGRESS: `run`'s --progress and -q; HO_FORMAT: --csv/--json tables (time);
   HO_TIMEOUT: --timeout (run, suite, time). */
enum {
    HO_RUN = 1, HO_SUITE = 2, HO_DEFINE = 4, HO_PARSE = 8, HO_PROGRESS = 16,
    HO_FORMAT = 32, HO_TIMEOUT = 64, HO_ANY = 127
};

typedef struct {
    int models[LIT_NMODELS], nmodels;
    LitDefine *defines;
    int ndefines;
    LitConfigSet *config;
    int nconfig;
    ChkOptions chk;
    const char *db;
    int json, csv, progress, help, resume, jobs, shard_i, shard_n;
    int quiet;                          /* run -q: the summary only */
    const char **files;
    int nfiles;
} HOpts;

int h_opts_parse(int argc, char **argv, HOpts *o, unsigned allowed,
                 const char *cmd);
/* After h_opts_parse (result r): prints the help or the usage error of a
   command that takes files, frees o and returns the exit status; returns
   -1 when the command should go on. */
int h_opts_done(HOpts *o, int r, const char *cmd, const char *help,
                const char *missing);
void h_opts_free(HOpts *o);
int h_models_parse(const char *list, int *models, int *n);
/* The first n bytes of s as a string (base_malloc'd), or NULL. */
char *h_strndup(const char *s, size_t n);
/* The known word nearest to word, if close; else NULL (base_suggest). */
#define h_suggest base_suggest
int h_parse_int(const char *s, int64_t *v);
void h_lit_options(const HOpts *o, LitOptions *lo);

/* A check as stored: its id and its violations' ids (in report order). */
typedef struct {
    int64_t check_id;
    int64_t *violation_ids;
} HStored;

/* h_print.c: herd-style and JSON reports of one check. */
/* costs: the check's timed run, or NULL; ids: NULL when not stored. */
void h_print_report(FILE *f, const LitProgram *p, const ChkReport *r,
                    const TmCosts *costs, const HStored *ids);
/* 0, or -1 (nothing printed) when out of memory. */
int h_print_json(FILE *f, const LitProgram *p, const ChkReport *r,
                 const TmCosts *costs, const HStored *ids);
/* Why a check fails, briefly ("" when it passes). */
void h_failure_text(const ChkReport *r, char *buf, size_t len);
/* 1 when every result passes, the check is complete and no runtime error
   went unexpected. */
int h_report_passes(const LitProgram *p, const ChkReport *r);

/* h_check.c: one file, one model, shared by run and suite. */
typedef struct {
    const char *path;
    char *source;                       /* the file's bytes */
    size_t len;
    char sha256[65];                    /* of source, and of the PTX of
                                           its kernels (LitProgram.ptx) */
    LitProgram *p;
} HFile;

/* A litmus file is read only when it is a regular file of at most this
   many bytes (DESIGN section 6: bad input is refused, never waited on). */
#define H_MAX_FILE (4 << 20)

/* What a file of mode m that is not a regular file is, for an error
   ("is a FIFO, not a regular file"). */
const char *h_file_kind(mode_t m);
/* The name messages and the results give a file: "<stdin>" for "-". */
const char *h_file_name(const char *path);
/* The bytes of a regular file of at most H_MAX_FILE bytes, or of standard
   input for "-" (base_malloc'd, NUL-terminated), or NULL with the reason
   in why. */
char *h_file_read(const char *path, size_t *len, char *why, size_t wlen);
/* Reads and parses a file (diagnostics to stderr): H_OK or H_USAGE. */
int h_file_load(const char *path, const HOpts *o, HFile *f);
/* The parser's diagnostics to stderr, and a line saying so when some
   could not be kept (BaseDiag.failed). */
void h_diag_print(const BaseDiag *d);
void h_file_free(HFile *f);
void h_config_string(const LitProgram *p, const HOpts *o, char *buf,
                     size_t len);
/* tests.params: the -D overrides, canonical, or "". */
void h_params_string(const LitProgram *p, char *buf, size_t len);
/* What became of one check: whether it passes, its stored id (0 when not
   stored) and why it fails. refused: the program cannot be checked under
   this model (CHK_ERROR: its state is longer than gpmc holds), an input
   error like a file that does not parse: reported on stderr, nothing
   printed or stored. */
typedef struct {
    int passed, refused;
    int64_t check_id;
    char why[160];
} HCheckResult;

/* Checks f under model, stores it in db (if any), prints the report to
   out (if any; notes and, with o->progress, progress lines to stderr).
   H_OK, or the status of an error after which no check should follow
   (H_USAGE: the database is at fault; H_INTERNAL). */
int h_check(const HFile *f, const HOpts *o, int model, ResDb *db,
            int64_t run_id, FILE *out, HCheckResult *res);

/* h_interrupt.c: run and suite catch SIGINT (once: the first one, a
   second kills; else every one): the running check stops and is kept,
   incomplete, and chk_interrupted() tells the command to start no other
   check. */
void h_interrupt_catch(int once);

/* h_progress.c: SPIN-pan-like progress lines of one check on stderr. */
typedef struct {
    const char *test, *model;
    double last;                        /* when the last line was printed */
    int tty;                            /* rewrite one line in place */
    int ansi;                           /* ... clearing it with ESC [ K */
    int width;                          /* of the last line's text */
} HProgress;

void h_progress_start(HProgress *pg, const char *test, const char *model);
void h_progress_report(void *ctx, const ChkProgress *p);    /* ChkProgressFn */
void h_progress_end(HProgress *pg, const ChkReport *r);
/* `time --db`: a check row holding a timed run's costs only. */
int h_store_costs(const HFile *f, const HOpts *o, int model,
                  const TmCosts *costs, ResDb *db, int64_t run_id);
char *h_argv_string(const char *cmd, int argc, char **argv);
/* Warns on stderr about each test name that several files give their
   tests (names[i] of paths[i]; NULL: a file that did not parse): the
   results keep them apart by file, but a reader of the views, which carry
   no paths, should know. */
void h_warn_same_names(const char *cmd, const char *const *names,
                       const char *const *paths, int n);

/* h_run.c, h_suite.c */
int h_cmd_run(int argc, char **argv);
int h_cmd_suite(int argc, char **argv);

/* h_time.c */
int h_cmd_time(int argc, char **argv);

/* h_parse.c */
int h_cmd_parse(int, char **);

/* h_json.c: a JSON reader for what gpmc writes (witness_json). */
enum { HJ_NULL, HJ_BOOL, HJ_NUMBER, HJ_STRING, HJ_ARRAY, HJ_OBJECT };

typedef struct HJson {
    int type;                           /* HJ_* */
    int64_t num;                        /* NUMBER, BOOL */
    const char *str;                    /* STRING */
    const char *key;                    /* a member of an OBJECT: its name */
    int32_t n;                          /* ARRAY, OBJECT: items */
    struct HJson *items;
    BaseArena *arena;                   /* the root's: owns everything */
} HJson;

/* NULL when text is not one JSON value or memory ran out. */
HJson *h_json_parse(const char *text);
void h_json_free(HJson *j);
const HJson *h_json_get(const HJson *obj, const char *key);
int64_t h_json_int(const HJson *obj, const char *key, int64_t dflt);
const char *h_json_str(const HJson *obj, const char *key);

/* h_diff.c: a unified diff of a -> b appended to out (nothing when they
   are equal); 0, or -1 when memory ran out. */
int h_diff(BaseStr *out, const char *aname, const char *bname, const char *a,
           size_t alen, const char *b, size_t blen);

/* h_repair.c: what `fix` and `tune` share (specs/fix.md). A test is its
   file and the .cu files its kernels come from; a variant is those files
   with edits applied, re-parsed, and verified by a full check under every
   chosen model: it holds when every check's verdict is Ok (the `expect`
   lines are ignored: they may document the very bug being fixed), the
   check is complete and no runtime error goes unchecked. */
#define HR_MAX_FILES 16
#define HR_MAX_EDITS 64                 /* text edits of one proposal */

enum { HR_HOLDS, HR_FAILS, HR_UNKNOWN, HR_INVALID, HR_UNCHECKED };
extern const char *const h_repair_state_names[5];

typedef struct {
    int file;                           /* 0 the test, else a .cu */
    LitEdit e;
} HREdit;

/* One proposal: what changes, in words, and the text edits. */
typedef struct {
    int nedits;
    HREdit edits[HR_MAX_EDITS];
    char desc[512];
} HRChange;

typedef struct HRVariant {
    char *text[HR_MAX_FILES];           /* every file, edited or not */
    size_t len[HR_MAX_FILES];
    int32_t *lmap[HR_MAX_FILES];        /* its line L -> the original's
                                           (lmap[L-1]; 0: a new line) */
    int32_t nlines[HR_MAX_FILES];
    LitProgram *p;                      /* NULL once released */
    char *desc;                         /* the changes, one a line */
    int size;                           /* changes from the original */
    int seq;                            /* order of creation */
    char hash[65];                      /* of the canonical program */
    /* verification */
    int state;                          /* HR_* */
    int models_ok;                      /* models that held before the
                                           first that did not */
    int nfail;                          /* results not Ok, errors */
    int64_t negative;                   /* their negative states */
    int fail_model;                     /* LIT_* of the first failure */
    char *why;                          /* "check 0 (…) is No under hw" */
    char *witness;                      /* its witness (text), or NULL */
    char *witness_json;
    char *verdicts;                     /* "strict Ok Ok; hw Ok No" */
    int timed;                          /* cycles[] filled */
    int64_t cycles[LIT_NMODELS], total;
} HRVariant;

typedef struct {
    const char *cmd;                    /* "fix" or "tune" */
    const HFile *f;
    const HOpts *o;
    int nfiles;
    const char *path[HR_MAX_FILES];     /* as the parser names them */
    int from[HR_MAX_FILES];             /* the kernel whose `from` it is */
    HRVariant *orig;
    int64_t max_candidates, tried;
    double start, deadline;             /* deadline 0: none */
    int out_of_budget;                  /* a candidate went unverified */
    int progress;                       /* live progress lines */
    double last;
    const char *stage;
    int64_t stage_done, stage_total, found;
    char (*seen)[65];                   /* hashes of programs generated */
    size_t nseen, capseen;
    int nvariants;
} HRepair;

/* Reads the test's .cu files, builds and verifies the original: H_OK,
   H_USAGE (a file cannot be read) or H_INTERNAL. */
int h_repair_init(HRepair *R, const char *cmd, const HFile *f,
                  const HOpts *o, int64_t max_candidates);
void h_repair_free(HRepair *R);
/* What h_repair_args and h_repair_begin made, freed. */
void h_repair_end(HRepair *R, HFile *f, HOpts *o);
/* The variant `from` with one more change: NULL when memory ran out,
   the change does not apply, or the result repeats a program already
   generated (*dup set). The variant is parsed, not verified. */
HRVariant *h_repair_derive(HRepair *R, const HRVariant *from,
                           const HRChange *c, int *dup);
/* Verifies v (every model, or up to the first that fails when
   `all` is 0) and, when it holds, times it under every model. 0, or
   H_INTERNAL. Out of budget: v->state stays HR_UNCHECKED and
   R->out_of_budget is set. */
int h_repair_verify(HRepair *R, HRVariant *v, int all);
/* v's program parsed again (after h_repair_release): 0, or -1. */
int h_repair_build(HRepair *R, HRVariant *v);
/* Times v under every model (cycles[], total). 0, or H_INTERNAL. */
int h_repair_time(HRepair *R, HRVariant *v);
void h_repair_release(HRVariant *v);    /* its program */
void h_repair_variant_free(HRVariant *v);
/* The n variants of v, then v itself (fix's and tune's lists). */
void h_repair_variants_free(HRVariant **v, size_t n);
/* The kernel body's instructions come from a .cu file: its index in R,
   else 0 (a litmus body, or a .ptx one, which gets no edits). */
int h_repair_cuda_file(const HRepair *R, const LitProgram *p, int k,
                       int b);
/* The original line of line `line` of file `file` of v (0: new). */
int32_t h_repair_line(const HRVariant *v, int file, int32_t line);
/* The unified diff of v's files against the original. */
int h_repair_diff(const HRepair *R, const HRVariant *v, BaseStr *out);
/* The members of the group instruction (k, b, i) belongs to: in a kernel
   of per-thread bodies, the n-th persist barrier of each body changes with
   it when all have the same opcode (scoped barriers are collective); else
   itself. Members as (b, i) pairs; returns their number. */
int h_repair_group(const LitProgram *p, int k, int b, int i, int *mb,
                   int *mi, int max);
/* Progress: a stage's counts on stderr (live on a terminal); the last
   stage's final counts are printed when the next begins (stage NULL: no
   next). */
void h_repair_stage(HRepair *R, const char *stage, int64_t total);
void h_repair_tick(HRepair *R);
/* The budget is spent: candidates or time. */
int h_repair_exhausted(HRepair *R);
/* Writes the proposals of this run to the `proposals` table (created on
   first use; specs/schema.md): H_OK or H_INTERNAL. */
int h_repair_store(HRepair *R, int argc, char **argv, HRVariant **v,
                   const int *rank, int n);
/* Writes v's changed files in place (through temporary files). */
int h_repair_apply(const HRepair *R, const HRVariant *v);

/* The CUDA call (gpmc.cuh) for opcode op: its nth spelling, or NULL. */
const char *h_repair_cuda_call(int op, int nth);
void h_repair_change_free(HRChange *ch);
/* An option of fix or tune alone: a flag, or an integer in [min, max]. */
typedef struct {
    const char *name;
    int64_t *val;
    int64_t min, max;
    int flag;
} HROpt;

/* The arguments of fix or tune: their own options (opts) into their
   values, the rest parsed as run's; exactly one file, loaded. -1 when the
   command goes on with o and f set; else the exit status (usage, errors
   and --help printed, nothing left to free). */
int h_repair_args(const char *cmd, const char *help, int argc, char **argv,
                  const HROpt *opts, int nopts, HOpts *o, HFile *f);
/* h_repair_init, then the original checked under every model and timed,
   and the report's first lines ("Fix NAME (FILE) under …", its cycles). */
int h_repair_begin(HRepair *R, const char *cmd, const HFile *f,
                   const HOpts *o, int64_t max_candidates);
/* " strict 5040 hw 5036": v's cycles per model ("-" when not timed). */
void h_repair_print_cycles(const HRepair *R, const HRVariant *v);
/* Each line of text, after indent. */
void h_repair_print_indented(const char *text, const char *indent);

/* h_fix.c, h_tune.c */
int h_cmd_fix(int argc, char **argv);
int h_cmd_tune(int argc, char **argv);

/* h_html.c: Graphviz for `report html` (a ResSvgFn), and a file written
   whole or not at all (through a temporary file and rename). Only a
   regular file is replaced (a symbolic link's target, the link kept); a
   directory, device, FIFO or socket at path is refused (H_USAGE, the
   error printed), never renamed over. h_output_check says so before the
   work that makes the data. */
void h_svg_render(void *ctx, const char *const *dots, int n, char **svgs);
int h_output_check(const char *path);
int h_write_file(const char *path, const char *data, size_t len);

/* h_query.c: the read side of the results store. `query -` reads at most
   H_MAX_SQL bytes of SQL from standard input. */
#define H_MAX_SQL (1 << 20)
int h_cmd_query(int argc, char **argv);
int h_cmd_report(int argc, char **argv);
int h_cmd_show(int argc, char **argv);
int h_cmd_merge(int argc, char **argv);

#endif
