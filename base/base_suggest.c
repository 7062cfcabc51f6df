/*
 * base_suggest.c — "did you mean": the known word nearest to a mistyped one,
 * by optimal-string-alignment distance (insertions, deletions,
 * substitutions and swaps of two neighbours each cost 1, as git's and
 * cargo's suggestions do), offered only when it is close: at most 2 edits
 * and fewer than half the word's characters.
 */
#include <string.h>

#include "base/base.h"

enum { MAXLEN = 64 };

static int distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    int d[MAXLEN + 1][MAXLEN + 1];
    if (n > MAXLEN || m > MAXLEN)
        return MAXLEN;
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *base_suggest(const char *word, const char *const *known, int n)
{
    const char *best = NULL;
    int bd = 3, len = (int)strlen(word);
    for (int i = 0; i < n; i++) {
        int d = distance(word, known[i]);
        if (d < bd && 2 * d < len) {
            bd = d;
            best = known[i];
        }
    }
    return best;
}
