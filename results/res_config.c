/* Configs in reports: the canonical config text ("key=value;…", sorted by
   key; DESIGN section 5) is some 400 characters, too long to repeat on
   every row. A report names a config by its id, the first 8 hex digits of
   the text's SHA-256 (the same config has the same id in every database),
   and shows a reader what sets it apart: the keys whose values differ
   from a reference config. */
#include <string.h>

#include "results/results_int.h"

void res_config_id(const char *config, char id[9])
{
    char hex[65];
    base_sha256(config, strlen(config), hex);
    memcpy(id, hex, 8);
    id[8] = '\0';
}

/* The pair at *p ("key=value", up to ';' or the end): its key's length,
   its whole length; *p moves past it and its ';'. 0 at the end. */
static size_t pair(const char **p, size_t *keylen)
{
    const char *s = *p;
    if (!*s)
        return 0;
    size_t n = strcspn(s, ";"), k = strcspn(s, "=");
    *keylen = k < n ? k : n;
    *p = s + n + (s[n] == ';');
    return n;
}

void res_config_diff(const char *ref, const char *config, BaseStr *out)
{
    const char *a = ref, *b = config;
    size_t ka = 0, kb = 0;
    const char *pa = a, *pb = b;
    size_t na = pair(&a, &ka), nb = pair(&b, &kb);
    int first = 1;
    /* Both lists are sorted by key: walk them together. */
    while (na || nb) {
        int c = !na ? 1 : !nb ? -1 : strncmp(pa, pb, ka < kb ? ka : kb);
        if (!c && na && nb && ka != kb)
            c = ka < kb ? -1 : 1;
        if (c < 0) {                    /* only the reference has it */
            base_str_printf(out, "%s-%.*s", first ? "" : ";", (int)ka, pa);
            first = 0;
            pa = a;
            na = pair(&a, &ka);
        } else if (c > 0) {             /* only config has it */
            base_str_printf(out, "%s%.*s", first ? "" : ";", (int)nb, pb);
            first = 0;
            pb = b;
            nb = pair(&b, &kb);
        } else {
            if (na != nb || memcmp(pa, pb, na)) {
                base_str_printf(out, "%s%.*s", first ? "" : ";", (int)nb, pb);
                first = 0;
            }
            pa = a;
            na = pair(&a, &ka);
            pb = b;
            nb = pair(&b, &kb);
        }
    }
}
