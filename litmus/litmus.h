/*
 * litmus — the gpmc litmus language (DESIGN.md section 2).
 *
 * Promises: lit_parse_file/lit_parse_string turn one .litmus file into a
 * checked, fully resolved LitProgram: every constant expression evaluated
 * (params, -D overrides), every memory operand resolved to a declaration with
 * a memory space, word address and cache line, every branch to an instruction
 * index, every condition to typed terms. Or they report every error of the
 * file, each as "file:line:col: error: message", and return nonzero.
 * lit_print writes the canonical form; parsing it again yields a program
 * equal to the first by lit_program_equal (source positions aside).
 * A LitProgram owns one arena and is freed at once by lit_program_free.
 * It depends on base/ only.
 */
#ifndef GPMC_LITMUS_H
#define GPMC_LITMUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/base.h"

/* ---- source positions ------------------------------------------------- */

typedef struct {
    int32_t line, col;                  /* 1-based; 0 when not from a file */
} LitPos;

/* ---- models (named in `expect`) ---------------------------------------- */

enum {
    LIT_STRICT, LIT_EPOCH, LIT_BEPOCH, LIT_SCOPED, LIT_BSCOPED, LIT_HW,
    LIT_NMODELS
};
extern const char *const lit_model_names[LIT_NMODELS];  /* "strict" … "hw" */
int lit_model_from_name(const char *name);              /* -1 when unknown */

/* ---- hierarchy / timing configuration (DESIGN section 4) --------------- */

typedef enum {
    LIT_CFG_PRESET,         /* 0 lin, 1 gope, 2 gpm: sets the keys below; it
                               comes first so that later keys override it */
    LIT_CFG_WPQ,            /* 0 durable, 1 volatile */
    LIT_CFG_LINE_BYTES,
    LIT_CFG_SMS,
    LIT_CFG_CORE_GHZ,
    LIT_CFG_L1_KB,
    LIT_CFG_L2_KB,
    LIT_CFG_L2_PARTITIONS,
    LIT_CFG_CONTROLLERS,
    LIT_CFG_MEM_GHZ,
    LIT_CFG_ICNT_GHZ,
    LIT_CFG_NVM_READ_NS,
    LIT_CFG_NVM_WRITE_NS,
    LIT_CFG_DRAM_READ_NS,
    LIT_CFG_DRAM_WRITE_NS,
    LIT_CFG_NVM_BANKS,
    LIT_CFG_WPQ_ENTRIES,
    LIT_CFG_WT_ACK,         /* 0 nvm, 1 wpq: when a write-through is acked */
    LIT_CFG_ROW_BYTES,      /* row buffer per bank */
    LIT_CFG_ROW_HIT_NS,     /* row-buffer hit: column access to data */
    LIT_CFG_BUS_BYTES,      /* controller data bus: bytes per mem cycle */
    LIT_CFG_WPQ_HIGH,       /* write-drain watermarks (queued writes) */
    LIT_CFG_WPQ_LOW,
    LIT_CFG_CTA_PER_SM,     /* occupancy limits */
    LIT_CFG_THREADS_PER_SM,
    LIT_NCONFIG
} LitConfigKey;

typedef struct {
    double val[LIT_NCONFIG];
    uint32_t set;                       /* bit k: key k given in the file */
} LitConfig;

void lit_config_defaults(LitConfig *c);
int lit_config_key(const char *name);   /* LitConfigKey or -1 */
const char *lit_config_name(int key);
/* Parse and range-check VALUE for KEY; 0 ok, else writes a message.
   `preset` sets every other key to that configuration's value (its own
   bits in `set` cleared: they print as the preset) and marks itself set. */
int lit_config_set(LitConfig *c, int key, const char *value, char *msg,
                   size_t msglen);
/* Canonical text of one value ("durable", "128", "1.8"). */
void lit_config_format(const LitConfig *c, int key, char *buf, size_t len);

/* ---- memory ------------------------------------------------------------ */

typedef enum { LIT_PM, LIT_DRAM, LIT_SHARED } LitSpace;

typedef struct {
    const char *name;
    uint8_t space;                      /* LitSpace */
    uint8_t is_array;
    int32_t size;                       /* words; 1 for a scalar */
    int64_t *init;                      /* size initial values */
    int32_t addr;                       /* first word in its space (shared:
                                           offset within one CTA's copy) */
    int32_t line;                       /* cache line of the first word */
    int32_t pin;                        /* `line N` pin, or -1 */
    LitPos pos;
} LitLoc;

/* ---- instructions ------------------------------------------------------ */

typedef enum {
    LIT_SR_TID, LIT_SR_CTAID, LIT_SR_NTID, LIT_SR_NCTAID, LIT_SR_GTID,
    LIT_SR_LANEID, LIT_SR_WARPID, LIT_NSREG
} LitSreg;

typedef enum { LIT_OPD_NONE, LIT_OPD_REG, LIT_OPD_SREG, LIT_OPD_IMM } LitOpdKind;

typedef struct {
    uint8_t kind;                       /* LitOpdKind */
    uint8_t reg;                        /* register number or LitSreg */
    int64_t imm;
} LitOperand;

/* name, name[K], name[S], name[S + K], name[S - K]: index = base + off,
   base.kind NONE for a constant index. */
typedef struct {
    int32_t loc;                        /* index into LitProgram.locs */
    LitOperand base;
    int64_t off;
} LitMem;

typedef enum {
    LIT_LD, LIT_ST, LIT_ST_WT,
    LIT_ATOM_ADD, LIT_ATOM_EXCH, LIT_ATOM_CAS,
    LIT_MOV,
    LIT_ADD, LIT_SUB, LIT_MUL, LIT_DIV, LIT_REM, LIT_AND, LIT_OR, LIT_XOR,
    LIT_SHL, LIT_SHR, LIT_MIN, LIT_MAX,
    LIT_BRA, LIT_BEQ, LIT_BNE, LIT_BLT, LIT_BLE, LIT_BGT, LIT_BGE,
    LIT_EXIT, LIT_ASSERT,
    LIT_CLWB, LIT_CLFLUSH, LIT_L2WB, LIT_PCOMMIT,
    LIT_SFENCE, LIT_MEMBAR_CTA, LIT_MEMBAR_SYS,
    LIT_PBAR_WI, LIT_PBAR_WG, LIT_PBAR_KR, LIT_PSYNC,
    LIT_BAR_SYNC, LIT_GRID_SYNC, LIT_NOP,
    LIT_NOPCODES
} LitOpcode;

typedef enum { LIT_CMP_EQ, LIT_CMP_NE, LIT_CMP_LT, LIT_CMP_LE, LIT_CMP_GT,
               LIT_CMP_GE } LitCmp;

/* Operand use by opcode:
     ld rD, M                 rd, m
     st/st.wt M, S            m, a
     atom.add/exch rD, M, S   rd, m, a
     atom.cas rD, M, C, S     rd, m, a = C, b = S
     mov rD, S                rd, a
     add … max rD, A, B       rd, a, b
     bra L                    target
     beq … bge A, B, L        a, b, target
     assert A OP B            a, cmp, b
     clwb/clflush M           m                                            */
typedef struct {                        /* small fields first: 80 bytes */
    uint8_t op;                         /* LitOpcode */
    uint8_t cmp;                        /* LitCmp, for assert */
    uint8_t rd;
    int32_t target;                     /* branch target; may equal ninstr */
    LitPos pos;
    LitOperand a, b;
    LitMem m;
} LitInstr;

typedef struct {
    const char *name;
    int32_t index;                      /* instruction the label precedes */
} LitLabel;

typedef struct {
    int32_t gtid;                       /* `thread G`, or -1 for an SPMD body */
    int32_t ninstr;
    LitInstr *code;
    int32_t nlabels;
    LitLabel *labels;
    LitPos pos;
} LitBody;

typedef struct {
    const char *name;
    int32_t grid, block, warp;          /* CTAs, threads per CTA, warp size */
    uint8_t warp_set;                   /* `warp W` written */
    uint8_t spmd;                       /* one body run by every thread */
    uint8_t recovery;                   /* defined inside recover { } */
    int32_t nbodies;
    LitBody *bodies;
    int32_t *body_of;                   /* grid*block entries: body index of
                                           each global thread, -1 idle */
    uint32_t regs_used;                 /* bit N: rN appears in the kernel */
    LitPos pos;
} LitKernel;

/* ---- conditions -------------------------------------------------------- */

/* No LitCond tree is more than LIT_MAX_DEPTH nodes high (the parser
   rejects deeper nesting and longer operator chains), so its consumers may
   recurse over it. Constant expressions nest at most as deep. */
#define LIT_MAX_DEPTH 256

typedef enum {
    LIT_C_INT,                          /* val */
    LIT_C_LOC,                          /* loc, index (scalar: 0) */
    LIT_C_REG,                          /* gtid, reg */
    LIT_C_ADD, LIT_C_SUB, LIT_C_MUL, LIT_C_NEG,       /* l, r (NEG: l) */
    LIT_C_EQ, LIT_C_NE, LIT_C_LT, LIT_C_LE, LIT_C_GT, LIT_C_GE,  /* l, r */
    LIT_C_NOT, LIT_C_AND, LIT_C_OR, LIT_C_IMP,        /* l, r (NOT: l) */
    LIT_C_ARREQ, LIT_C_ARRNE            /* loc == {vals[0..n-1]} */
} LitCondKind;

typedef struct LitCond {
    uint8_t kind;                       /* LitCondKind */
    int32_t loc, index;
    int32_t gtid;
    uint8_t reg;
    int64_t val;
    int32_t n;
    int64_t *vals;
    struct LitCond *l, *r;
    LitPos pos;
} LitCond;

typedef enum { LIT_FINAL, LIT_CRASH, LIT_RECOVERED, LIT_NOERROR } LitPhase;
typedef enum { LIT_EXISTS, LIT_NOT_EXISTS, LIT_FORALL } LitQuant;

extern const char *const lit_phase_names[4];   /* "final" … "noerror" */
extern const char *const lit_quant_names[3];   /* "exists" "~exists" "forall" */

typedef struct {
    uint8_t phase;                      /* LitPhase */
    uint8_t quant;                      /* LitQuant; unused for noerror */
    LitCond *cond;                      /* NULL for noerror */
    int8_t expect[LIT_NMODELS];         /* -1 none, 0 No, 1 Ok */
    const char *text;                   /* canonical "~exists (y == 1)" or
                                           "noerror" */
    LitPos pos;
} LitCheck;

/* ---- the program ------------------------------------------------------- */

typedef struct {
    const char *name;
    int64_t value;
    uint8_t overridden;                 /* set by -D */
    LitPos pos;
} LitParam;

typedef struct {
    const char *path;                   /* as given */
    const char *name;                   /* test name */
    const char *doc;                    /* quoted description or NULL */
    int32_t nparams;
    LitParam *params;
    LitConfig config;
    int32_t words_per_line;             /* line_bytes / 8 */
    int32_t nlocs;
    LitLoc *locs;                       /* declaration order */
    int32_t pm_words, dram_words;       /* sizes of the spaces, including
                                           layout gaps (whole lines) */
    int32_t shared_words;               /* one CTA's copy */
    int32_t nkernels;
    LitKernel *kernels;                 /* file order, recovery ones last */
    int32_t nmain;
    int32_t *main_seq;                  /* kernels launched by the program */
    uint8_t has_recover;
    int32_t nrecover;
    int32_t *recover_seq;               /* launches of recovery, in order
                                           (inline kernels and `run`) */
    int32_t nchecks;
    LitCheck *checks;
    BaseArena *arena;
} LitProgram;

/* ---- parsing ----------------------------------------------------------- */

typedef struct {
    const char *name;
    int64_t value;
} LitDefine;

typedef struct {
    const char *key, *value;
} LitConfigSet;

typedef struct {
    int ndefines;
    const LitDefine *defines;           /* -D NAME=V: override params */
    int nconfig;
    const LitConfigSet *config;         /* --config K=V: after the file's */
} LitOptions;

/* 0 and *out set on success; nonzero with every error appended to diag. */
int lit_parse_file(const char *path, const LitOptions *opt, LitProgram **out,
                   BaseDiag *diag);
int lit_parse_string(const char *path, const char *text, const LitOptions *opt,
                     LitProgram **out, BaseDiag *diag);
/* len bytes, NUL bytes included (each an invalid character). */
int lit_parse_bytes(const char *path, const char *text, size_t len,
                    const LitOptions *opt, LitProgram **out, BaseDiag *diag);
void lit_program_free(LitProgram *p);

/* Structural equality, ignoring source positions. */
int lit_program_equal(const LitProgram *a, const LitProgram *b);

/* ---- printing ---------------------------------------------------------- */

/* The canonical form; 0 ok, -1 when memory or the write failed (the text
   then stops short). */
int lit_print(FILE *f, const LitProgram *p);
/* One instruction as written in canonical form ("st x[r1 + 2], 1"), never
   empty; a condition likewise. 0, or -1 out of memory (buf then empty). */
int lit_format_instr(const LitProgram *p, const LitBody *b,
                     const LitInstr *in, char *buf, size_t len);
int lit_format_cond(const LitProgram *p, const LitCond *c, char *buf,
                    size_t len);

/* Arithmetic shared by constant folding and execution (DESIGN section 2):
   64-bit wraparound, C99 truncating division. 0 ok; nonzero for division by
   zero, INT64_MIN / -1 and shift counts outside 0..63, with a message. */
int lit_arith(int op, int64_t a, int64_t b, int64_t *out, const char **why);

#endif
