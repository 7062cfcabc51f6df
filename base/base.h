/*
 * base — what every layer of gpmc uses: allocation, growable strings,
 * arenas, collected diagnostics, the memory budget of an exploration and
 * the word vector that states and store keys are made of.
 *
 * Promises: nothing here aborts or exits. ONE OUT-OF-MEMORY POLICY: every
 * allocation can fail, and failure is a value (NULL from an allocator, -1
 * from a grow), never a signal. An object that collects (BaseStr,
 * BaseDiag, BaseBudget) keeps the failure sticky in a field its owner reads
 * once, when it is done (as SQLite's StrAccum does), so that a long chain of
 * appends needs one test, not one per call; the owner turns it into an error
 * code (the parser: an error for the file; the checker: an `incomplete`
 * check). Arrays grow only through base_grow or base_budget_grow (Lua's
 * luaM_growvector); tests make the n-th allocation fail
 * (base_mem_fail_after) and check that every caller survives it.
 * This is the bottom layer: it depends on the C library only.
 */
#ifndef GPMC_BASE_H
#define GPMC_BASE_H

#include <assert.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* ---- memory: the one way to allocate (base_mem.c) ------------------------
 * Every heap allocation in gpmc goes through these, and every array grows
 * through base_grow, so that failure is handled the same way everywhere: a
 * NULL or -1 the caller turns into an error code (the checker: an
 * `incomplete` check), never abort() and never an unchecked pointer. */

void *base_malloc(size_t n);
void *base_calloc(size_t count, size_t size);
void *base_realloc(void *p, size_t n);
void base_free(void *p);
/* Makes room for `need` elements of `elem` bytes in the array whose address
   is arrp (a T **), capacity *cap, doubling from 8. 0 ok; -1 out of memory,
   the array left as it was. */
int base_grow(void *arrp, size_t *cap, size_t need, size_t elem);
#define BASE_GROW(arr, cap, need) base_grow(&(arr), &(cap), (need), sizeof *(arr))
/* Tests: the n-th allocation from now fails (n >= 1); 0 turns it off.
   Returns how many allocations were still to go before this call (0: the
   failure happened, or none was set). */
long base_mem_fail_after(long n);

/* A growable string. `failed` is set once an append ran out of memory; the
   text then stops short, and users check the flag before trusting it. */
typedef struct {
    char *s;                            /* NUL-terminated once written */
    size_t len, cap;
    int failed;
} BaseStr;

void base_str_printf(BaseStr *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void base_str_putn(BaseStr *s, const char *text, size_t n);
/* A JSON string literal, quotes included: control characters and the
   quote and backslash escaped, invalid UTF-8 replaced by U+FFFD. */
void base_str_json(BaseStr *s, const char *text);
/* The text into buf, truncated to fit; 0, or -1 (buf empty) when s
   failed. */
int base_str_copy(const BaseStr *s, char *buf, size_t len);
/* Empties s for reuse, keeping its buffer and its failure. */
void base_str_clear(BaseStr *s);
/* Cuts s back to its first len (<= s->len) bytes. */
void base_str_truncate(BaseStr *s, size_t len);
void base_str_free(BaseStr *s);

/* ---- arena: one per lifetime, freed at once ---------------------------- */

typedef struct BaseArena BaseArena;

BaseArena *base_arena_new(void);
void *base_arena_alloc(BaseArena *a, size_t n);          /* zeroed, 16-aligned */
char *base_arena_strdup(BaseArena *a, const char *s);
char *base_arena_strndup(BaseArena *a, const char *s, size_t n);
void base_arena_free(BaseArena *a);
/* Grow *arr (n used, *cap allocated, elements of elem bytes) inside the
   arena, doubling; arr is NULL (with *cap 0) or what the last call for
   this array returned. A small old block is abandoned to the arena, a big
   one resized in place. The new room is zeroed. NULL when out of memory
   (arr is then still valid). */
void *base_arena_grow(BaseArena *a, void *arr, int32_t n, int32_t *cap,
                     size_t elem);

/* ---- diagnostics ------------------------------------------------------- */


/* Collects "file:line:col: error: message" lines, in source order. A line
   that cannot be stored is lost, and `failed` says so (sticky): the owner
   that prints the text reports the loss instead of a silently short list
   (nerrors still counts every error). With `excerpt` set (by the owner,
   after base_diag_init), the writer puts under each such line the source
   line it names and a caret under the column, as gcc does: lines that
   start with a blank, so the first line of each message stays the one
   scripts grep. */
typedef struct {
    int nerrors;
    char *text;                         /* all messages, '\n'-terminated */
    size_t len, cap;
    int failed;
    int excerpt;
} BaseDiag;

void base_diag_init(BaseDiag *d);
void base_diag_free(BaseDiag *d);

/* Appends one preformatted line ("path: error: ...") to d. */
void base_diag_append(BaseDiag *d, const char *line);

/* ---- "did you mean" (base_suggest.c) ----------------------------------- */

/* The word of known[0..n) nearest to word by edit distance (insertions,
   deletions, substitutions and swaps of neighbours), if close: at most 2
   edits and fewer than half of word's characters; else NULL. */
const char *base_suggest(const char *word, const char *const *known, int n);

/* ---- memory budget (base_budget.c) ------------------------------------- */

enum { BASE_BUDGET_OK, BASE_BUDGET_OOM, BASE_BUDGET_OVER };

typedef struct {
    _Atomic int64_t used, peak;         /* bytes charged */
    int64_t limit;                      /* 0: none */
    _Atomic int failed;                 /* CHK_MEM_*: why a block was refused */
} BaseBudget;

void base_budget_init(BaseBudget *m, int64_t limit);
int64_t base_budget_default_limit(void);
/* A zeroed block charged to m; NULL (and m->failed set) when refused. */
void *base_budget_alloc(BaseBudget *m, size_t n);
void base_budget_free(BaseBudget *m, void *p);
void base_budget_fail(BaseBudget *m, int why);
/* BASE_GROW for charged blocks: room for `need` elements, doubling. */
int base_budget_grow(BaseBudget *m, void *arrp, size_t *cap, size_t need, size_t elem);
#define BASE_BUDGET_GROW(mem, arr, cap, need) \
    base_budget_grow((mem), &(arr), &(cap), (need), sizeof *(arr))

/* ---- hashing ------------------------------------------------------------ */

/* SHA-256 of len bytes, as 64 lowercase hex digits and a NUL. */
void base_sha256(const void *data, size_t len, char hex[65]);

/* ---- word vectors ------------------------------------------------------ */

/* A vector of 64-bit words w[0..len) with room for cap, the words from
   len to cap zero. A program state (model/, as MdlState) and a key of the
   state store (store/) are such vectors; the store reads one up to its len
   and takes the rest as zero. */
typedef struct {
    uint64_t *w;
    uint32_t len, cap;
} BaseVec;

/* The 64-bit finalizer of MurmurHash3: every bit of x moves every bit of
   the result. The tables' hashes all end in it. */
static inline uint64_t base_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
}

#endif
