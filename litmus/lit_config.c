/* lit_config: the hierarchy and timing configuration keys (DESIGN section
   4): defaults, value syntax and ranges. One row per key: add a key by
   adding its LitConfigKey and a row here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus_int.h"

typedef enum {
    KIND_WORD,                          /* one of its words: 0, 1, … */
    KIND_LINE,                          /* power of two, 8..4096 */
    KIND_COUNT,                         /* integer, 1..MAX_COUNT */
    KIND_REAL                           /* number, > 0 and <= MAX_REAL */
} Kind;

enum { MAX_COUNT = 1 << 20, MAX_WORDS = 3 };
#define MAX_REAL 1e9

static const struct {
    const char *name;
    uint8_t kind;
    double def;
    const char *word[MAX_WORDS];        /* KIND_WORD: the values 0, 1, … */
} keys[LIT_NCONFIG] = {
    [LIT_CFG_PRESET] = {"preset", KIND_WORD, 0, {"lin", "gope", "gpm"}},
    [LIT_CFG_WPQ] = {"wpq", KIND_WORD, 0, {"durable", "volatile"}},
    [LIT_CFG_WT_ACK] = {"wt_ack", KIND_WORD, 0, {"nvm", "wpq"}},
    [LIT_CFG_LINE_BYTES] = {"line_bytes", KIND_LINE, 128},
    [LIT_CFG_SMS] = {"sms", KIND_COUNT, 20},
    [LIT_CFG_CORE_GHZ] = {"core_ghz", KIND_REAL, 1.8},
    [LIT_CFG_L1_KB] = {"l1_kb", KIND_COUNT, 24},
    [LIT_CFG_L2_KB] = {"l2_kb", KIND_COUNT, 2048},
    [LIT_CFG_L2_PARTITIONS] = {"l2_partitions", KIND_COUNT, 16},
    [LIT_CFG_CONTROLLERS] = {"controllers", KIND_COUNT, 8},
    [LIT_CFG_MEM_GHZ] = {"mem_ghz", KIND_REAL, 1.2},
    [LIT_CFG_ICNT_GHZ] = {"icnt_ghz", KIND_REAL, 1.4},
    [LIT_CFG_NVM_READ_NS] = {"nvm_read_ns", KIND_REAL, 160},
    [LIT_CFG_NVM_WRITE_NS] = {"nvm_write_ns", KIND_REAL, 480},
    [LIT_CFG_DRAM_READ_NS] = {"dram_read_ns", KIND_REAL, 160},
    [LIT_CFG_DRAM_WRITE_NS] = {"dram_write_ns", KIND_REAL, 160},
    [LIT_CFG_NVM_BANKS] = {"nvm_banks", KIND_COUNT, 16},
    [LIT_CFG_WPQ_ENTRIES] = {"wpq_entries", KIND_COUNT, 64},
    [LIT_CFG_ROW_BYTES] = {"row_bytes", KIND_COUNT, 2048},
    [LIT_CFG_ROW_HIT_NS] = {"row_hit_ns", KIND_REAL, 15},
    [LIT_CFG_BUS_BYTES] = {"bus_bytes", KIND_COUNT, 32},
    [LIT_CFG_WPQ_HIGH] = {"wpq_high", KIND_COUNT, 54},
    [LIT_CFG_WPQ_LOW] = {"wpq_low", KIND_COUNT, 32},
    [LIT_CFG_CTA_PER_SM] = {"cta_per_sm", KIND_COUNT, 32},
    [LIT_CFG_THREADS_PER_SM] = {"threads_per_sm", KIND_COUNT, 2048},
    [LIT_CFG_PM_PATH] = {"pm_path", KIND_WORD, 0, {"l2", "pcie"}},
    [LIT_CFG_PCIE_NS] = {"pcie_ns", KIND_REAL, 1000},
    [LIT_CFG_PCIE_GBPS] = {"pcie_gbps", KIND_REAL, 12},
};

/* The documents' machines (specs/timing.md, "Presets", cites every value):
   each row lists the keys whose value differs from the defaults, which are
   the `lin` machine. */
enum { MAX_PRESET_KEYS = 16 };
static const struct {
    int32_t n;
    struct {
        int8_t key;
        double val;
    } set[MAX_PRESET_KEYS];
} presets[MAX_WORDS] = {
    {1, {{LIT_CFG_WPQ, 1}}},
    {8, {{LIT_CFG_WT_ACK, 1}, {LIT_CFG_SMS, 4}, {LIT_CFG_CORE_GHZ, 1},
         {LIT_CFG_LINE_BYTES, 64}, {LIT_CFG_NVM_READ_NS, 75},
         {LIT_CFG_NVM_WRITE_NS, 250}, {LIT_CFG_DRAM_READ_NS, 25},
         {LIT_CFG_DRAM_WRITE_NS, 25}}},
    {7, {{LIT_CFG_WT_ACK, 1}, {LIT_CFG_CONTROLLERS, 8},
         {LIT_CFG_ROW_BYTES, 256}, {LIT_CFG_NVM_READ_NS, 305},
         {LIT_CFG_NVM_WRITE_NS, 1780}, {LIT_CFG_DRAM_READ_NS, 81},
         {LIT_CFG_PM_PATH, 1}}},
};

void lit_config_defaults(LitConfig *c)
{
    for (int k = 0; k < LIT_NCONFIG; k++)
        c->val[k] = keys[k].def;
    c->set = 0;
}

int lit_config_key(const char *name)
{
    for (int k = 0; k < LIT_NCONFIG; k++)
        if (!strcmp(name, keys[k].name))
            return k;
    return -1;
}

const char *lit_config_name(int key)
{
    return key >= 0 && key < LIT_NCONFIG ? keys[key].name : NULL;
}

/* A finite number written in full (decimal, or 0x for integers). */
static int number(const char *s, double *v)
{
    char *end;
    if (!*s || strchr(s, ' ') || strpbrk(s, "iInN"))
        return -1;                      /* no inf, nan, blanks */
    *v = strtod(s, &end);
    return *end || !isfinite(*v) ? -1 : 0;
}

/* "wpq must be durable or volatile", "preset must be lin, gope or gpm". */
static void words(int key, char *msg, size_t msglen, const char *value)
{
    int n = 0;
    size_t k;
    while (n < MAX_WORDS && keys[key].word[n])
        n++;
    k = (size_t)snprintf(msg, msglen, "%s must be ", keys[key].name);
    for (int w = 0; w < n && k < msglen; w++)
        k += (size_t)snprintf(msg + k, msglen - k, "%s%s",
                              w == 0 ? "" : w == n - 1 ? " or " : ", ",
                              keys[key].word[w]);
    if (k < msglen)
        snprintf(msg + k, msglen - k, ", got '%s'", value);
}

/* Every key but the preset takes the machine's value, as from the file. */
static void preset(LitConfig *c, int which)
{
    for (int k = 0; k < LIT_NCONFIG; k++)
        if (k != LIT_CFG_PRESET) {
            c->val[k] = keys[k].def;
            c->set &= ~(1u << k);
        }
    for (int i = 0; i < presets[which].n; i++)
        c->val[presets[which].set[i].key] = presets[which].set[i].val;
}

int lit_config_set(LitConfig *c, int key, const char *value, char *msg,
                   size_t msglen)
{
    double v = -1;
    const char *name = keys[key].name;
    switch (keys[key].kind) {
    case KIND_WORD:
        for (int w = 0; w < MAX_WORDS && keys[key].word[w]; w++)
            if (!strcmp(value, keys[key].word[w])) {
                v = w;
                break;
            }
        if (v >= 0)
            break;
        words(key, msg, msglen, value);
        return 1;
    case KIND_LINE:
        if (number(value, &v) || v < 8 || v > 4096 || v != floor(v) ||
            ((int)v & ((int)v - 1))) {
            snprintf(msg, msglen, "%s must be a power of two from 8 to 4096, "
                     "got '%s'", name, value);
            return 1;
        }
        break;
    case KIND_COUNT:
        if (number(value, &v) || v < 1 || v > MAX_COUNT || v != floor(v)) {
            snprintf(msg, msglen, "%s must be an integer from 1 to %d, got "
                     "'%s'", name, MAX_COUNT, value);
            return 1;
        }
        break;
    default:
        if (number(value, &v) || v <= 0 || v > MAX_REAL) {
            snprintf(msg, msglen, "%s must be a number > 0 and <= %g, got "
                     "'%s'", name, MAX_REAL, value);
            return 1;
        }
        break;
    }
    if (key == LIT_CFG_PRESET)
        preset(c, (int)v);
    c->val[key] = v;
    c->set |= 1u << key;
    return 0;
}

void lit_config_format(const LitConfig *c, int key, char *buf, size_t len)
{
    double v = c->val[key];
    if (keys[key].kind == KIND_WORD) {
        snprintf(buf, len, "%s", keys[key].word[(int)v]);
        return;
    }
    /* The fewest decimals that read back as the same double, without an
       exponent (a litmus file has none); %g only for absurdly small
       values. */
    for (int prec = 0; prec <= 30; prec++) {
        snprintf(buf, len, "%.*f", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, len, "%.17g", v);
}
