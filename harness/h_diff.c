/*
 * h_diff.c — a unified diff (`diff -u`, three lines of context) of two
 * texts, as `fix` and `tune` print their proposals: `patch -p0` applies
 * what they print. Common leading and trailing lines are set aside first;
 * the rest is aligned by a longest common subsequence, or, beyond
 * H_DIFF_CELLS cells, shown as one replaced block (still a correct diff).
 */
#include <string.h>

#include "harness/harness.h"

#define H_DIFF_CELLS (4 << 20)
#define CONTEXT 3

typedef struct {
    const char *s;
    size_t n;                           /* without the '\n' */
    int nl;                             /* ends in '\n' */
} Line;

static Line *split(const char *t, size_t len, size_t *count)
{
    size_t n = 0, cap = 0;
    Line *v = NULL;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(t + at, '\n', len - at);
        size_t e = nl ? (size_t)(nl - t) : len;
        if (n == cap && BASE_GROW(v, cap, n + 1)) {
            base_free(v);
            return NULL;
        }
        v[n++] = (Line){t + at, e - at, nl != NULL};
        at = e + (nl != NULL);
    }
    if (!v)
        v = base_malloc(sizeof *v);
    *count = n;
    return v;
}

static int same(const Line *a, const Line *b)
{
    return a->n == b->n && a->nl == b->nl && !memcmp(a->s, b->s, a->n);
}

/* ops: 0 keep (a and b), 1 delete (a), 2 insert (b), in order. */
static int script(const Line *a, size_t na, const Line *b, size_t nb,
                  unsigned char **ops, size_t *nops)
{
    size_t pre = 0, suf = 0, k = 0;
    while (pre < na && pre < nb && same(&a[pre], &b[pre]))
        pre++;
    while (suf < na - pre && suf < nb - pre &&
           same(&a[na - 1 - suf], &b[nb - 1 - suf]))
        suf++;
    size_t ma = na - pre - suf, mb = nb - pre - suf;
    unsigned char *o = base_malloc(na + nb + 1);
    if (!o)
        return -1;
    memset(o, 0, pre);
    k = pre;
    if (ma && mb && (ma + 1) * (mb + 1) <= H_DIFF_CELLS) {
        /* L[i][j]: LCS of a[pre+i..] and b[pre+j..] */
        uint32_t *L = base_calloc((ma + 1) * (mb + 1), sizeof *L);
        if (!L) {
            base_free(o);
            return -1;
        }
#define AT(i, j) L[(i) * (mb + 1) + (j)]
        for (size_t i = ma; i-- > 0;)
            for (size_t j = mb; j-- > 0;)
                AT(i, j) = same(&a[pre + i], &b[pre + j])
                               ? AT(i + 1, j + 1) + 1
                               : AT(i + 1, j) > AT(i, j + 1) ? AT(i + 1, j)
                                                             : AT(i, j + 1);
        size_t i = 0, j = 0;
        while (i < ma || j < mb) {
            if (i < ma && j < mb && same(&a[pre + i], &b[pre + j]))
                o[k++] = 0, i++, j++;
            else if (i < ma && (j == mb || AT(i + 1, j) >= AT(i, j + 1)))
                o[k++] = 1, i++;        /* deletions first, as diff -u */
            else
                o[k++] = 2, j++;
        }
#undef AT
        base_free(L);
    } else {
        memset(o + k, 1, ma);
        memset(o + k + ma, 2, mb);
        k += ma + mb;
    }
    memset(o + k, 0, suf);
    *ops = o;
    *nops = k + suf;
    return 0;
}

static void put(BaseStr *out, char mark, const Line *l)
{
    base_str_putn(out, &mark, 1);
    base_str_putn(out, l->s, l->n);
    base_str_putn(out, "\n", 1);
    if (!l->nl)
        base_str_printf(out, "\\ No newline at end of file\n");
}

/* `@@ -start,count` as diff -u writes it (an empty range names the line
   before it). */
static void range(BaseStr *out, char sign, size_t start, size_t count)
{
    base_str_printf(out, " %c%zu", sign, count ? start + 1 : start);
    if (count != 1)
        base_str_printf(out, ",%zu", count);
}

int h_diff(BaseStr *out, const char *aname, const char *bname, const char *a,
           size_t alen, const char *b, size_t blen)
{
    size_t na = 0, nb = 0, nops = 0;
    Line *la = split(a, alen, &na), *lb = split(b, blen, &nb);
    unsigned char *ops = NULL;
    if (!la || !lb || script(la, na, lb, nb, &ops, &nops)) {
        base_free(la);
        base_free(lb);
        return -1;
    }
    int any = 0;
    for (size_t k = 0; k < nops && !any; k++)
        any = ops[k] != 0;
    if (any)
        base_str_printf(out, "--- %s\n+++ %s\n", aname, bname);
    /* ia, ib: the lines of a and of b before op k */
    size_t k = 0, ia = 0, ib = 0;
    while (any && k < nops) {
        if (!ops[k]) {
            k++, ia++, ib++;
            continue;
        }
        /* a hunk: from CONTEXT lines before this change to CONTEXT after
           the last change that is at most 2*CONTEXT kept lines away */
        size_t back = ia < CONTEXT ? ia : CONTEXT;
        back = ib < back ? ib : back;
        size_t s = k - back, e = k, tail = 0;
        while (e < nops) {
            if (ops[e])
                tail = 0;
            else if (tail == 2 * CONTEXT)
                break;
            else
                tail++;
            e++;
        }
        if (tail > CONTEXT)
            e -= tail - CONTEXT;
        size_t ca = 0, cb = 0;
        for (size_t x = s; x < e; x++) {
            ca += ops[x] != 2;
            cb += ops[x] != 1;
        }
        base_str_printf(out, "@@");
        range(out, '-', ia - back, ca);
        range(out, '+', ib - back, cb);
        base_str_printf(out, " @@\n");
        size_t xa = ia - back, xb = ib - back;
        for (size_t x = s; x < e; x++) {
            if (ops[x] == 0)
                put(out, ' ', &la[xa++]), xb++;
            else if (ops[x] == 1)
                put(out, '-', &la[xa++]);
            else
                put(out, '+', &lb[xb++]);
        }
        ia = xa;
        ib = xb;
        k = e;
    }
    base_free(ops);
    base_free(la);
    base_free(lb);
    return out->failed ? -1 : 0;
}
