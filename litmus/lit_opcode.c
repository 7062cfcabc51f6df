/* lit_opcode: the instruction set: one property row per opcode (its
   spelling, operand shape, arithmetic and flags: what it reads, writes,
   orders and waits for), read by the parser, the printer, execution, the
   reductions and the timing layer alike; aliases, special registers and
   comparison operators. */
#include <string.h>

#include "litmus/litmus_int.h"

/* Flags shared by rows. */
#define MEMR (LIT_OPF_MEM | LIT_OPF_READ | LIT_OPF_SETS_RD)
#define MEMW (LIT_OPF_MEM | LIT_OPF_WRITE)
#define ATOM (LIT_OPF_MEM | LIT_OPF_READ | LIT_OPF_WRITE | LIT_OPF_ATOMIC | \
              LIT_OPF_SETS_RD)
#define ALU (LIT_OPF_ALU | LIT_OPF_SETS_RD)
#define BCOND (LIT_OPF_BRANCH | LIT_OPF_COND)
#define PTX LIT_OPF_PTX
#define HW LIT_OPF_PERSIST
#define FENCE (LIT_OPF_PERSIST | LIT_OPF_FENCE)
#define PBAR (LIT_OPF_PERSIST | LIT_OPF_PBAR)

const LitOpInfo lit_opinfo[LIT_NOPCODES] = {
    /* op              name           shape          alu           cmp          flags */
    [LIT_LD]        = {"ld",          LIT_SH_LD,     LIT_NOP,      0,           MEMR},
    [LIT_ST]        = {"st",          LIT_SH_ST,     LIT_NOP,      0,           MEMW},
    [LIT_ST_WT]     = {"st.wt",       LIT_SH_ST,     LIT_NOP,      0,           MEMW},
    [LIT_ATOM_ADD]  = {"atom.add",    LIT_SH_ATOM,   LIT_ADD,      0,           ATOM},
    [LIT_ATOM_EXCH] = {"atom.exch",   LIT_SH_ATOM,   LIT_MOV,      0,           ATOM},
    [LIT_ATOM_CAS]  = {"atom.cas",    LIT_SH_CAS,    LIT_MOV,      0,           ATOM},
    [LIT_ATOM_AND]  = {"atom.and",    LIT_SH_ATOM,   LIT_AND,      0,           ATOM | PTX},
    [LIT_ATOM_OR]   = {"atom.or",     LIT_SH_ATOM,   LIT_OR,       0,           ATOM | PTX},
    [LIT_ATOM_XOR]  = {"atom.xor",    LIT_SH_ATOM,   LIT_XOR,      0,           ATOM | PTX},
    [LIT_ATOM_MIN]  = {"atom.min",    LIT_SH_ATOM,   LIT_MIN,      0,           ATOM | PTX},
    [LIT_ATOM_MAX]  = {"atom.max",    LIT_SH_ATOM,   LIT_MAX,      0,           ATOM | PTX},
    [LIT_ATOM_INC]  = {"atom.inc",    LIT_SH_ATOM,   LIT_NOP,      0,           ATOM | PTX},
    [LIT_ATOM_DEC]  = {"atom.dec",    LIT_SH_ATOM,   LIT_NOP,      0,           ATOM | PTX},
    [LIT_MOV]       = {"mov",         LIT_SH_MOV,    LIT_MOV,      0,           ALU},
    [LIT_ADD]       = {"add",         LIT_SH_ALU,    LIT_ADD,      0,           ALU},
    [LIT_SUB]       = {"sub",         LIT_SH_ALU,    LIT_SUB,      0,           ALU},
    [LIT_MUL]       = {"mul",         LIT_SH_ALU,    LIT_MUL,      0,           ALU},
    [LIT_DIV]       = {"div",         LIT_SH_ALU,    LIT_DIV,      0,           ALU},
    [LIT_REM]       = {"rem",         LIT_SH_ALU,    LIT_REM,      0,           ALU},
    [LIT_AND]       = {"and",         LIT_SH_ALU,    LIT_AND,      0,           ALU},
    [LIT_OR]        = {"or",          LIT_SH_ALU,    LIT_OR,       0,           ALU},
    [LIT_XOR]       = {"xor",         LIT_SH_ALU,    LIT_XOR,      0,           ALU},
    [LIT_SHL]       = {"shl",         LIT_SH_ALU,    LIT_SHL,      0,           ALU},
    [LIT_SHR]       = {"shr",         LIT_SH_ALU,    LIT_SHR,      0,           ALU},
    [LIT_MIN]       = {"min",         LIT_SH_ALU,    LIT_MIN,      0,           ALU},
    [LIT_MAX]       = {"max",         LIT_SH_ALU,    LIT_MAX,      0,           ALU},
    [LIT_MULHI]     = {"mul.hi",      LIT_SH_ALU,    LIT_MULHI,    0,           ALU | PTX},
    [LIT_SET]       = {"set",         LIT_SH_SET,    LIT_SET,      0,           ALU | PTX},
    [LIT_NOT]       = {"not",         LIT_SH_UNARY,  LIT_NOT,      0,           ALU | PTX},
    [LIT_NEG]       = {"neg",         LIT_SH_UNARY,  LIT_NEG,      0,           ALU | PTX},
    [LIT_ABS]       = {"abs",         LIT_SH_UNARY,  LIT_ABS,      0,           ALU | PTX},
    [LIT_MAD]       = {"mad",         LIT_SH_TERN,   LIT_MAD,      0,           ALU | PTX},
    [LIT_SELP]      = {"selp",        LIT_SH_TERN,   LIT_SELP,     0,           ALU | PTX},
    [LIT_BRA]       = {"bra",         LIT_SH_BRA,    LIT_NOP,      0,           LIT_OPF_BRANCH},
    [LIT_BEQ]       = {"beq",         LIT_SH_BCOND,  LIT_SET,      LIT_CMP_EQ,  BCOND},
    [LIT_BNE]       = {"bne",         LIT_SH_BCOND,  LIT_SET,      LIT_CMP_NE,  BCOND},
    [LIT_BLT]       = {"blt",         LIT_SH_BCOND,  LIT_SET,      LIT_CMP_LT,  BCOND},
    [LIT_BLE]       = {"ble",         LIT_SH_BCOND,  LIT_SET,      LIT_CMP_LE,  BCOND},
    [LIT_BGT]       = {"bgt",         LIT_SH_BCOND,  LIT_SET,      LIT_CMP_GT,  BCOND},
    [LIT_BGE]       = {"bge",         LIT_SH_BCOND,  LIT_SET,      LIT_CMP_GE,  BCOND},
    [LIT_EXIT]      = {"exit",        LIT_SH_NONE,   LIT_NOP,      0,           LIT_OPF_ENDS},
    [LIT_ASSERT]    = {"assert",      LIT_SH_ASSERT, LIT_NOP,      0,           0},
    [LIT_CLWB]      = {"clwb",        LIT_SH_MEM,    LIT_NOP,      0,           LIT_OPF_MEM | HW | LIT_OPF_FLUSH},
    [LIT_CLFLUSH]   = {"clflush",     LIT_SH_MEM,    LIT_NOP,      0,           LIT_OPF_MEM | HW | LIT_OPF_FLUSH},
    [LIT_L2WB]      = {"l2wb",        LIT_SH_NONE,   LIT_NOP,      0,           HW},
    [LIT_PCOMMIT]   = {"pcommit",     LIT_SH_NONE,   LIT_NOP,      0,           HW},
    [LIT_SFENCE]    = {"sfence",      LIT_SH_NONE,   LIT_NOP,      0,           FENCE},
    [LIT_MEMBAR_CTA]= {"membar.cta",  LIT_SH_NONE,   LIT_NOP,      0,           FENCE},
    [LIT_MEMBAR_SYS]= {"membar.sys",  LIT_SH_NONE,   LIT_NOP,      0,           FENCE},
    [LIT_PBAR_WI]   = {"pbar",        LIT_SH_NONE,   LIT_NOP,      0,           PBAR},
    [LIT_PBAR_WG]   = {"pbar.wg",     LIT_SH_NONE,   LIT_NOP,      0,           PBAR | LIT_OPF_SCOPED},
    [LIT_PBAR_KR]   = {"pbar.kr",     LIT_SH_NONE,   LIT_NOP,      0,           PBAR | LIT_OPF_SCOPED | LIT_OPF_GRID},
    [LIT_PSYNC]     = {"psync",       LIT_SH_NONE,   LIT_NOP,      0,           PBAR},
    [LIT_BAR_SYNC]  = {"bar.sync",    LIT_SH_NONE,   LIT_NOP,      0,           LIT_OPF_BARRIER},
    [LIT_GRID_SYNC] = {"grid.sync",   LIT_SH_NONE,   LIT_NOP,      0,           LIT_OPF_BARRIER | LIT_OPF_GRID},
    [LIT_NOP]       = {"nop",         LIT_SH_NONE,   LIT_NOP,      0,           0},
};

static const struct {
    const char *name;
    uint8_t op;
} aliases[] = {
    {"membar.gl", LIT_SFENCE},
    {"pbar.wi", LIT_PBAR_WI},
};

static const char *const usage[] = {
    [LIT_SH_NONE] = "",
    [LIT_SH_LD] = " rD, M",
    [LIT_SH_ST] = " M, S",
    [LIT_SH_ATOM] = " rD, M, S",
    [LIT_SH_CAS] = " rD, M, C, S",
    [LIT_SH_MOV] = " rD, S",
    [LIT_SH_ALU] = " rD, A, B",
    [LIT_SH_BRA] = " L",
    [LIT_SH_BCOND] = " A, B, L",
    [LIT_SH_ASSERT] = " A OP B",
    [LIT_SH_MEM] = " M",
    [LIT_SH_UNARY] = " rD, A",
    [LIT_SH_SET] = " rD, A, B",
    [LIT_SH_TERN] = " rD, A, B, C",
};

const char *const lit_cmp_names[6] = {"==", "!=", "<", "<=", ">", ">="};

const char *const lit_sreg_names[LIT_NSREG] = {
    "%tid", "%ctaid", "%ntid", "%nctaid", "%gtid", "%laneid", "%warpid",
};

static int same(const char *name, size_t len, const char *word)
{
    return strlen(word) == len && !memcmp(name, word, len);
}

int lit_opcode_lookup(const char *name, size_t len)
{
    for (int op = 0; op < LIT_NOPCODES; op++)
        if (!(lit_opinfo[op].flags & LIT_OPF_PTX) &&
            same(name, len, lit_opinfo[op].name))
            return op;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (same(name, len, aliases[i].name))
            return aliases[i].op;
    return -1;
}

int lit_opcode_spellings(const char **out, int max)
{
    int n = 0;
    for (int op = 0; op < LIT_NOPCODES && n < max; op++)
        if (!(lit_opinfo[op].flags & LIT_OPF_PTX))
            out[n++] = lit_opinfo[op].name;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0] && n < max; i++)
        out[n++] = aliases[i].name;
    return n;
}

const char *lit_opcode_name(int op)
{
    return lit_opinfo[op].name;
}

int lit_opcode_shape(int op)
{
    return lit_opinfo[op].shape;
}

const char *lit_opcode_usage(int op)
{
    return usage[lit_opinfo[op].shape];
}

int lit_sreg_lookup(const char *name, size_t len)
{
    for (int s = 0; s < LIT_NSREG; s++)
        if (same(name, len, lit_sreg_names[s] + 1))
            return s;
    return -1;
}
