/* base_diag: error messages collected as lines of text, handed to whoever
   prints them (the parser's are "path:line:col: error: message"). */
#include <string.h>

#include "base/base.h"

void base_diag_init(BaseDiag *d)
{
    memset(d, 0, sizeof *d);
}

void base_diag_free(BaseDiag *d)
{
    base_free(d->text);
    memset(d, 0, sizeof *d);
}

void base_diag_append(BaseDiag *d, const char *line)
{
    size_t n = strlen(line);
    assert(!d->text || (d->len < d->cap && d->text[d->len] == '\0'));
    if (base_grow(&d->text, &d->cap, d->len + n + 2, 1)) {
        d->failed = 1;
        return;
    }
    memcpy(d->text + d->len, line, n);
    d->len += n;
    if (n == 0 || line[n - 1] != '\n')
        d->text[d->len++] = '\n';
    d->text[d->len] = '\0';
    assert(d->len < d->cap && d->text[d->len - 1] == '\n');
}
