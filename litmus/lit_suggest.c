/* lit_suggest: "did you mean" for the language's errors (as gcc and rustc
   offer): the nearest known word by edit distance (base_suggest), and for
   an instruction also what another language's spelling is called here
   (`fence`, `__syncthreads`, `store`). A message carries the hint in
   parentheses after its own text, so its first words stay what scripts
   and tests grep. */
#include <stdio.h>
#include <string.h>

#include "litmus/litmus_int.h"

/* Words of CUDA, PTX, x86 and C that a newcomer reaches for, and what
   says that here. Exact words only; near misses of our own spellings are
   found by distance. */
static const struct {
    const char *word, *ours;
} foreign[] = {
    {"fence", "sfence, membar.gl, membar.cta or membar.sys"},
    {"mfence", "sfence (= membar.gl)"},
    {"threadfence", "membar.gl"},
    {"__threadfence", "membar.gl"},
    {"__threadfence_block", "membar.cta"},
    {"__threadfence_system", "membar.sys"},
    {"syncthreads", "bar.sync"},
    {"__syncthreads", "bar.sync"},
    {"barrier", "bar.sync"},
    {"store", "st"},
    {"load", "ld"},
    {"jmp", "bra"},
    {"goto", "bra"},
    {"br", "bra"},
    {"ret", "exit"},
    {"return", "exit"},
    {"flush", "clwb or clflush"},
    {"persist", "pbar or psync"},
    {"cas", "atom.cas"},
    {"xchg", "atom.exch"},
    {"exch", "atom.exch"},
};

const char *lit_suggest_word(const char *name, size_t len,
                             const char *const *known, int n)
{
    char word[65];
    if (len >= sizeof word)
        return NULL;
    memcpy(word, name, len);
    word[len] = '\0';
    return base_suggest(word, known, n);
}

const char *lit_suggest_opcode(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof foreign / sizeof *foreign; i++)
        if (strlen(foreign[i].word) == len &&
            !memcmp(foreign[i].word, name, len))
            return foreign[i].ours;
    const char *known[LIT_NOPCODES + 8];
    int n = lit_opcode_spellings(known, LIT_NOPCODES + 8);
    return lit_suggest_word(name, len, known, n);
}

const char *lit_suggest_loc(LitParser *P, const char *name, size_t len)
{
    const char **known = lit_parse_alloc(P, ((size_t)P->nlocs + 1) *
                                                sizeof *known);
    for (int32_t i = 0; i < P->nlocs; i++)
        known[i] = P->locs[i].l.name;
    return lit_suggest_word(name, len, known, P->nlocs);
}

void lit_suggest_hint(char *buf, size_t n, const char *near)
{
    if (near)
        snprintf(buf, n, " (did you mean %s?)", near);
    else if (n)
        buf[0] = '\0';
}
