/* lit_opcode: the instruction set as written: names, aliases and operand
   shapes; special registers and comparison operators. */
#include <string.h>

#include "litmus/litmus_int.h"

static const struct {
    const char *name;
    uint8_t shape;
} info[LIT_NOPCODES] = {
    [LIT_LD] = {"ld", LIT_SH_LD},
    [LIT_ST] = {"st", LIT_SH_ST},
    [LIT_ST_WT] = {"st.wt", LIT_SH_ST},
    [LIT_ATOM_ADD] = {"atom.add", LIT_SH_ATOM},
    [LIT_ATOM_EXCH] = {"atom.exch", LIT_SH_ATOM},
    [LIT_ATOM_CAS] = {"atom.cas", LIT_SH_CAS},
    [LIT_MOV] = {"mov", LIT_SH_MOV},
    [LIT_ADD] = {"add", LIT_SH_ALU},
    [LIT_SUB] = {"sub", LIT_SH_ALU},
    [LIT_MUL] = {"mul", LIT_SH_ALU},
    [LIT_DIV] = {"div", LIT_SH_ALU},
    [LIT_REM] = {"rem", LIT_SH_ALU},
    [LIT_AND] = {"and", LIT_SH_ALU},
    [LIT_OR] = {"or", LIT_SH_ALU},
    [LIT_XOR] = {"xor", LIT_SH_ALU},
    [LIT_SHL] = {"shl", LIT_SH_ALU},
    [LIT_SHR] = {"shr", LIT_SH_ALU},
    [LIT_MIN] = {"min", LIT_SH_ALU},
    [LIT_MAX] = {"max", LIT_SH_ALU},
    [LIT_BRA] = {"bra", LIT_SH_BRA},
    [LIT_BEQ] = {"beq", LIT_SH_BCOND},
    [LIT_BNE] = {"bne", LIT_SH_BCOND},
    [LIT_BLT] = {"blt", LIT_SH_BCOND},
    [LIT_BLE] = {"ble", LIT_SH_BCOND},
    [LIT_BGT] = {"bgt", LIT_SH_BCOND},
    [LIT_BGE] = {"bge", LIT_SH_BCOND},
    [LIT_EXIT] = {"exit", LIT_SH_NONE},
    [LIT_ASSERT] = {"assert", LIT_SH_ASSERT},
    [LIT_CLWB] = {"clwb", LIT_SH_MEM},
    [LIT_CLFLUSH] = {"clflush", LIT_SH_MEM},
    [LIT_L2WB] = {"l2wb", LIT_SH_NONE},
    [LIT_PCOMMIT] = {"pcommit", LIT_SH_NONE},
    [LIT_SFENCE] = {"sfence", LIT_SH_NONE},
    [LIT_MEMBAR_CTA] = {"membar.cta", LIT_SH_NONE},
    [LIT_MEMBAR_SYS] = {"membar.sys", LIT_SH_NONE},
    [LIT_PBAR_WI] = {"pbar", LIT_SH_NONE},
    [LIT_PBAR_WG] = {"pbar.wg", LIT_SH_NONE},
    [LIT_PBAR_KR] = {"pbar.kr", LIT_SH_NONE},
    [LIT_PSYNC] = {"psync", LIT_SH_NONE},
    [LIT_BAR_SYNC] = {"bar.sync", LIT_SH_NONE},
    [LIT_GRID_SYNC] = {"grid.sync", LIT_SH_NONE},
    [LIT_NOP] = {"nop", LIT_SH_NONE},
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
        if (same(name, len, info[op].name))
            return op;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (same(name, len, aliases[i].name))
            return aliases[i].op;
    return -1;
}

const char *lit_opcode_name(int op)
{
    return info[op].name;
}

int lit_opcode_shape(int op)
{
    return info[op].shape;
}

const char *lit_opcode_usage(int op)
{
    return usage[info[op].shape];
}

int lit_sreg_lookup(const char *name, size_t len)
{
    for (int s = 0; s < LIT_NSREG; s++)
        if (same(name, len, lit_sreg_names[s] + 1))
            return s;
    return -1;
}
