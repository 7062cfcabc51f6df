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
    LIT_CFG_PM_PATH,        /* 0 l2, 1 pcie (DESIGN section 7) */
    LIT_CFG_PCIE_NS,        /* pcie: a PM write's round trip to host PM */
    LIT_CFG_PCIE_GBPS,      /* pcie: the link's write bandwidth */
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
    uint8_t elem;                       /* bytes per element: 1, 2, 4, 8
                                           (u8 … u64; default u64) */
    uint8_t ptx;                        /* a __shared__ variable of a PTX
                                           kernel: its `from` clause
                                           declares it, the printer leaves
                                           it out */
    int32_t size;                       /* elements; 1 for a scalar */
    int64_t *init;                      /* size initial values, each
                                           already of the element's type */
    int32_t addr;                       /* first word in its space: words
                                           are the elements of all
                                           locations, numbered densely in
                                           byte order (shared: within one
                                           CTA's copy) */
    int32_t line;                       /* cache line of the first element */
    int32_t pin;                        /* `line N` pin, or -1 */
    int64_t byte;                       /* byte offset of element 0 in its
                                           space (aligned to elem) */
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
    uint16_t reg;                       /* register number or LitSreg */
    int64_t imm;
} LitOperand;

/* A memory operand. Litmus: name, name[K], name[S], name[S + K],
   name[S - K]: element index = base + off, base.kind NONE for a constant
   index. PTX (loc LIT_MEM_ADDR): the byte address base + off, in the
   window `aspace` names, resolved when the step runs (lit_addr_*). */
#define LIT_MEM_ADDR (-1)
enum { LIT_AS_GENERIC, LIT_AS_SHARED };   /* LitMem.aspace */

typedef struct {
    int32_t loc;                        /* index into LitProgram.locs, or
                                           LIT_MEM_ADDR */
    uint8_t aspace;                     /* LIT_MEM_ADDR: the address window */
    LitOperand base;
    int64_t off;
} LitMem;

/* The opcodes. Everything an opcode is (its operands, what it reads,
   writes and orders) is its row in lit_opinfo (lit_opcode.c), so no code
   tests the order of this enum. The ones marked PTX have no litmus
   spelling: only the PTX front end emits them. */
typedef enum {
    LIT_LD, LIT_ST, LIT_ST_WT,
    LIT_ATOM_ADD, LIT_ATOM_EXCH, LIT_ATOM_CAS,
    LIT_ATOM_AND, LIT_ATOM_OR, LIT_ATOM_XOR, LIT_ATOM_MIN, LIT_ATOM_MAX,
    LIT_ATOM_INC, LIT_ATOM_DEC,                     /* PTX */
    LIT_MOV,
    LIT_ADD, LIT_SUB, LIT_MUL, LIT_DIV, LIT_REM, LIT_AND, LIT_OR, LIT_XOR,
    LIT_SHL, LIT_SHR, LIT_MIN, LIT_MAX,
    LIT_MULHI, LIT_SET, LIT_NOT, LIT_NEG, LIT_ABS, LIT_MAD, LIT_SELP, /* PTX */
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
extern const char *const lit_cmp_names[6];                /* "==" … ">=" */

/* Operand shapes (LitOpInfo.shape): how an instruction is written and
   which fields it uses.
     NONE     nop, exit, fences, barriers
     LD       ld rD, M                  rd, m
     ST       st/st.wt M, S             m, a
     ATOM     atom.add/exch rD, M, S    rd, m, a
     CAS      atom.cas rD, M, C, S      rd, m, a = C, b = S
     MOV      mov rD, S                 rd, a
     ALU      add … max rD, A, B        rd, a, b
     BRA      bra L                     target
     BCOND    beq … bge A, B, L         a, b, target
     ASSERT   assert A OP B             a, cmp, b
     MEM      clwb/clflush M            m
     UNARY    not/neg/abs rD, A         rd, a                (PTX)
     SET      set.CMP rD, A, B          rd, a, b, cmp        (PTX)
     TERN     mad rD, A, B, C           rd, a, b, c          (PTX)
              selp rD, A, B, C          rD = C ? A : B                    */
typedef enum {
    LIT_SH_NONE, LIT_SH_LD, LIT_SH_ST, LIT_SH_ATOM, LIT_SH_CAS, LIT_SH_MOV,
    LIT_SH_ALU, LIT_SH_BRA, LIT_SH_BCOND, LIT_SH_ASSERT, LIT_SH_MEM,
    LIT_SH_UNARY, LIT_SH_SET, LIT_SH_TERN
} LitShape;

/* Opcode properties (LitOpInfo.flags), as SQLite's OPFLG_* and Lua's
   luaP_opmodes: */
enum {
    LIT_OPF_MEM = 1 << 0,               /* has a memory operand m */
    LIT_OPF_READ = 1 << 1,              /* reads its word (ld, atomics) */
    LIT_OPF_WRITE = 1 << 2,             /* may write its word */
    LIT_OPF_ATOMIC = 1 << 3,            /* read-modify-write at L2 */
    LIT_OPF_SETS_RD = 1 << 4,           /* writes register rd */
    LIT_OPF_ALU = 1 << 5,               /* register-only arithmetic */
    LIT_OPF_BRANCH = 1 << 6,            /* may jump to target */
    LIT_OPF_COND = 1 << 7,              /* … when a cmp b (BCOND) */
    LIT_OPF_ENDS = 1 << 8,              /* the thread finishes (exit) */
    LIT_OPF_PERSIST = 1 << 9,           /* a persistency or hardware
                                           instruction (clwb … psync) */
    LIT_OPF_FLUSH = 1 << 10,            /* writes back the line of m */
    LIT_OPF_FENCE = 1 << 11,            /* waits for the thread's requests */
    LIT_OPF_PBAR = 1 << 12,             /* a persist barrier or psync: its
                                           rule is the policy's */
    LIT_OPF_BARRIER = 1 << 13,          /* an execution barrier, always
                                           collective */
    LIT_OPF_SCOPED = 1 << 14,           /* a scoped persist barrier,
                                           collective where the model says */
    LIT_OPF_GRID = 1 << 15,             /* its scope is the kernel (else the
                                           CTA) */
    LIT_OPF_PTX = 1 << 16               /* no litmus spelling */
};

typedef struct {
    const char *name;                   /* canonical spelling */
    uint8_t shape;                      /* LitShape */
    uint8_t alu;                        /* the LitOpcode of the arithmetic
                                           it computes (ALU ops: itself;
                                           atomics: what they store; a
                                           conditional branch: LIT_SET with
                                           cmp), else LIT_NOP */
    uint8_t cmp;                        /* LitCmp of a conditional branch */
    uint32_t flags;                     /* LIT_OPF_* */
} LitOpInfo;

extern const LitOpInfo lit_opinfo[LIT_NOPCODES];

static inline unsigned lit_opflags(int op)
{
    return lit_opinfo[op].flags;
}

/* Types of arithmetic and accesses: a width in bits (1 for a predicate)
   and a signedness. LIT_S64, the type of every litmus instruction, is 0,
   so a zeroed instruction has it. An operand is read as its instruction's
   source type (sty): truncated to the width and extended by the sign; a
   result is written as the destination type (ty), the same way. */
typedef enum {
    LIT_S64, LIT_S32, LIT_S16, LIT_S8, LIT_U64, LIT_U32, LIT_U16, LIT_U8,
    LIT_PRED, LIT_NTYPES
} LitType;

int lit_type_bits(int ty);              /* 64, 32, 16, 8, or 1 */
int lit_type_signed(int ty);
/* v as a value of type ty: truncated to its width and extended. */
int64_t lit_type_value(int ty, int64_t v);
/* The unsigned type of n bytes (1, 2, 4, 8). */
int lit_type_of_bytes(int n);

/* Elements of a PTX vector access (ld/st .v2 .v4): DESIGN section 7,
   "that many element accesses in one step". */
#define LIT_MAX_VEC 4

typedef struct {                        /* small fields first: 112 bytes */
    uint8_t op;                         /* LitOpcode */
    uint8_t cmp;                        /* LitCmp: assert, set */
    uint8_t ty, sty;                    /* LitType of the result and of the
                                           operands (LIT_S64 in litmus) */
    uint8_t gneg;                       /* the guard is negated (@!p) */
    uint8_t vec;                        /* ld/st: elements of a .v2/.v4
                                           access, at m, m + w, … for the
                                           width w of ty; 0: one */
    uint16_t vreg[LIT_MAX_VEC - 1];     /* registers of elements 1 … vec-1:
                                           ld's destinations, st's sources
                                           (element 0: rd, a) */
    uint16_t rd;                        /* destination register */
    uint16_t guard;                     /* guard register + 1 (@p), 0 none:
                                           a false guard makes the step a
                                           nop */
    int32_t target;                     /* branch target; may equal ninstr */
    LitPos pos;
    LitOperand a, b, c;
    LitMem m;
} LitInstr;

/* The arithmetic of an ALU instruction: op (LIT_ADD … LIT_SELP) over a, b,
   c read as sty, the result as ty; 0 ok, nonzero (with *why) for division
   by zero, INT64_MIN / -1 and shift counts outside 0..width-1. */
int lit_alu(const LitInstr *in, int64_t a, int64_t b, int64_t c,
            int64_t *out, const char **why);
/* What an atomic instruction stores, given the old value and its
   evaluated operands a and b (cas: compare a, swap b); 0 when it stores
   nothing (a failed cas), else 1 and *out. The caller truncates to the
   element's width. */
int lit_atomic(const LitInstr *in, int64_t old, int64_t a, int64_t b,
               int64_t *out);
/* a cmp b, as signed 64-bit integers or as type ty. */
int lit_compare(int cmp, int ty, int64_t a, int64_t b);
/* The registers an instruction reads (guard, operands, address), at most
   LIT_MAX_READS, into regs; returns how many. */
#define LIT_MAX_READS 6
int lit_instr_reads(const LitInstr *in, uint16_t *regs);
/* The registers it writes (rd; a vector load's every element), at most
   LIT_MAX_VEC, into regs; returns how many. */
int lit_instr_sets(const LitInstr *in, uint16_t *regs);
/* The elements an access touches: 1, or a vector's count. */
static inline int lit_instr_elems(const LitInstr *in)
{
    return in->vec ? in->vec : 1;
}

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
    /* A body lowered from PTX: the file its instructions' lines are in (the
       CUDA source of the .loc directives, else the PTX file) and each
       instruction as written there. NULL for a litmus body. */
    const char *file;
    const char **text;
} LitBody;

/* An argument of a PTX entry: a location's address, or a value. */
typedef struct {
    int32_t loc;                        /* location, or -1 */
    int64_t value;
} LitArg;

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
    int32_t nregs;                      /* registers are numbered below it */
    uint8_t *reg_used;                  /* nregs entries: rN appears */
    const char **reg_names;             /* nregs entries: a PTX kernel's
                                           register names ("%rd3"); NULL
                                           for litmus (rN) */
    /* `from "FILE" ENTRY(ARGS)` (DESIGN section 7): one SPMD body lowered
       from PTX; from is NULL for a litmus kernel. */
    const char *from;                   /* FILE as written */
    const char *entry;                  /* ENTRY as written */
    int32_t nargs;
    LitArg *args;
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
    LIT_C_EQ, LIT_C_NE, LIT_C_LT, LIT_C_LE, LIT_C_GT, LIT_C_GE,  /* l, r;
                                           in LitCmp's order */
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
    int32_t line_bytes;
    int32_t nlocs;
    LitLoc *locs;                       /* declaration order */
    int32_t pm_words, dram_words;       /* words (elements) of the spaces */
    int32_t shared_words;               /* one CTA's copy */
    int32_t *pm_line, *dram_line;       /* per word: its cache line */
    int32_t *shared_line;               /* … within one CTA's copy */
    int32_t pm_lines, dram_lines;       /* lines up to the last one used */
    int64_t shared_bytes;               /* one CTA's copy */
    int32_t nspace[3];                  /* locations of each space … */
    int32_t *space_locs[3];             /* … in byte order (lit_addr.c) */
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
    int32_t nptx;                       /* the PTX modules its kernels come
                                           from, in the order read: what the
                                           program means besides its own
                                           text (a result keyed by the test
                                           file's content must cover them) */
    const char *const *ptx;
    BaseArena *arena;
} LitProgram;

/* The cache line of word `word` of memory space `space`. */
static inline int32_t lit_line(const LitProgram *p, int space, int32_t word)
{
    const int32_t *t = space == LIT_PM     ? p->pm_line
                     : space == LIT_DRAM ? p->dram_line : p->shared_line;
    return t[word];
}

/* Generic addresses (DESIGN section 7): each memory space is a window of
   the 64-bit address space, and a location's address is its window's base
   plus its byte offset. A shared-window address (PTX `.shared`) is the
   byte offset into the CTA's shared memory. */
#define LIT_WINDOW_PM ((int64_t)1 << 44)
#define LIT_WINDOW_DRAM ((int64_t)2 << 44)
#define LIT_WINDOW_SHARED ((int64_t)3 << 44)
#define LIT_WINDOW_SIZE ((int64_t)1 << 44)

int64_t lit_loc_address(const LitProgram *p, int32_t loc);
/* The element an access of `bytes` bytes at address addr (in window
   aspace, LitMem.aspace) names: 0 with *loc and *index; -1 when it is not
   one whole element of that width, aligned, of one location. bytes 0: the
   element holding that byte, whatever its width (a flush names a line). */
int lit_addr_resolve(const LitProgram *p, int aspace, int64_t addr,
                     int bytes, int32_t *loc, int64_t *index);

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
/* The text a kernel's `.cu` file has for one parse instead of what is on
   disk (`gpmc fix` checks edited CUDA so). path as the parser names the
   file: the test's directory joined to FILE as written. It is compiled in
   a directory of its own, with the original directory on the include
   path. */
typedef struct {
    const char *path;
    const char *text;
    size_t len;
} LitSource;

/* lit_parse_bytes with the files of `sources` read from there. */
int lit_parse_sources(const char *path, const char *text, size_t len,
                      const LitOptions *opt, const LitSource *sources,
                      int nsources, LitProgram **out, BaseDiag *diag);
void lit_program_free(LitProgram *p);

/* Structural equality, ignoring source positions. */
int lit_program_equal(const LitProgram *a, const LitProgram *b);

/* ---- printing ---------------------------------------------------------- */

/* The canonical form; 0 ok, -1 when memory or the write failed (the text
   then stops short). */
int lit_print(FILE *f, const LitProgram *p);
/* Register r of kernel k as its program names it: "r3", "%rd3". */
const char *lit_reg_name(const LitKernel *k, int r, char *buf, size_t len);
/* One instruction as written in canonical form ("st x[r1 + 2], 1"), never
   empty; a condition likewise. 0, or -1 out of memory (buf then empty). */
int lit_format_instr(const LitProgram *p, const LitBody *b,
                     const LitInstr *in, char *buf, size_t len);
int lit_format_cond(const LitProgram *p, const LitCond *c, char *buf,
                    size_t len);

/* ---- source edits (lit_edit.c) ---------------------------------------- */

/* Bytes [at, at+len) of a text replaced by `text` (base_malloc'd; free with
   lit_edit_free). `gpmc fix` and `tune` propose edits as such, computed from
   the positions the parser recorded, and check the re-parsed result. */
typedef struct {
    int64_t at, len;
    const char *text;
} LitEdit;

/* BEFORE an instruction: after the labels that precede it (every path to it
   runs the new code); AFTER: before the next instruction's labels. */
enum { LIT_EDIT_BEFORE, LIT_EDIT_AFTER };

/* Each returns 0 with *e set, or -1 when pos is not an instruction of src
   (or, for CUDA, the line is no statement boundary). */
/* n instructions (litmus text, "pbar.wg", "clwb x[1]") before or after the
   instruction whose opcode is at pos: lines of their own, indented like it,
   where it has a line of its own, else `OP; ` inline. */
int lit_edit_insert(const char *src, size_t len, LitPos pos, int where,
                    const char *const *instrs, int n, LitEdit *e);
/* The opcode at pos, as written, replaced by op. */
int lit_edit_opcode(const char *src, size_t len, LitPos pos, const char *op,
                    LitEdit *e);
/* The instruction at pos removed (its line, when it has one of its own). */
int lit_edit_delete(const char *src, size_t len, LitPos pos, LitEdit *e);
/* The instruction at pos as written. */
int lit_edit_text(const char *src, size_t len, LitPos pos, char *buf,
                  size_t buflen);
/* CUDA: the statement `stmt` on a line of its own before or after 1-based
   line `line`, which must start (end) a statement. */
int lit_edit_cuda_insert(const char *src, size_t len, int32_t line,
                         int where, const char *stmt, LitEdit *e);
/* CUDA: the call `call(…)` on `line` renamed to repl, or removed with its
   `;` (and its line, when nothing else is on it) when repl is NULL. */
int lit_edit_cuda_call(const char *src, size_t len, int32_t line,
                       const char *call, const char *repl, LitEdit *e);
/* The text with n non-overlapping edits applied (base_malloc'd), or NULL
   when they overlap or memory ran out. Insertions at one offset keep the
   order given. */
char *lit_edit_apply(const char *src, size_t len, const LitEdit *edits,
                     int n, size_t *outlen);
void lit_edit_free(LitEdit *e);

/* Arithmetic shared by constant folding and execution (DESIGN section 2):
   64-bit wraparound, C99 truncating division. 0 ok; nonzero for division by
   zero, INT64_MIN / -1 and shift counts outside 0..63, with a message. */
int lit_arith(int op, int64_t a, int64_t b, int64_t *out, const char **why);

#endif
