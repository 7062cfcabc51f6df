/*
 * h_json.c — a small JSON reader for what gpmc itself writes (a witness's
 * witness_json, read back by `fix` and `tune` to find where an order is
 * missing). RFC 8259 values; numbers are kept as 64-bit integers (gpmc
 * writes no others; a fraction or exponent is refused), \u escapes outside
 * ASCII become '?'. Everything lives in one arena, freed at once.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"

typedef struct {
    const char *p, *end;
    BaseArena *a;
    int depth;
} Reader;

static void skip(Reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' ||
                             *r->p == '\r' || *r->p == '\t'))
        r->p++;
}

static int word(Reader *r, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n))
        return -1;
    r->p += n;
    return 0;
}

static char *string(Reader *r)
{
    BaseStr s = {0};
    r->p++;                             /* the opening quote */
    base_str_putn(&s, "", 0);
    while (r->p < r->end && *r->p != '"') {
        char c = *r->p++;
        if ((unsigned char)c < 0x20)
            goto bad;
        if (c == '\\') {
            if (r->p >= r->end)
                goto bad;
            c = *r->p++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                char hex[5];
                if (r->end - r->p < 4)
                    goto bad;
                memcpy(hex, r->p, 4);
                hex[4] = '\0';
                char *e;
                long v = strtol(hex, &e, 16);
                if (*e)
                    goto bad;
                r->p += 4;
                c = v > 0 && v < 0x80 ? (char)v : '?';
                break;
            }
            case '"': case '\\': case '/': break;
            default: goto bad;
            }
        }
        base_str_putn(&s, &c, 1);
    }
    if (r->p >= r->end || s.failed)
        goto bad;
    r->p++;
    char *out = base_arena_strndup(r->a, s.s, s.len);
    base_str_free(&s);
    return out;
bad:
    base_str_free(&s);
    return NULL;
}

static int value(Reader *r, HJson *v);

static int items(Reader *r, HJson *v, char close)
{
    int32_t cap = 0;
    r->p++;
    skip(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        return 0;
    }
    for (;;) {
        if (v->n == cap) {
            HJson *items = base_arena_grow(r->a, v->items, v->n, &cap,
                                           sizeof *v->items);
            if (!items)
                return -1;
            v->items = items;
        }
        HJson *x = &v->items[v->n];
        skip(r);
        if (close == '}') {
            if (r->p >= r->end || *r->p != '"' || !(x->key = string(r)))
                return -1;
            skip(r);
            if (r->p >= r->end || *r->p != ':')
                return -1;
            r->p++;
        }
        if (value(r, x))
            return -1;
        v->n++;
        skip(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == close) {
            r->p++;
            return 0;
        }
        return -1;
    }
}

static int value(Reader *r, HJson *v)
{
    skip(r);
    if (r->p >= r->end || ++r->depth > 64)
        return -1;
    int rc = 0;
    switch (*r->p) {
    case '{': v->type = HJ_OBJECT; rc = items(r, v, '}'); break;
    case '[': v->type = HJ_ARRAY; rc = items(r, v, ']'); break;
    case '"':
        v->type = HJ_STRING;
        rc = (v->str = string(r)) ? 0 : -1;
        break;
    case 't': v->type = HJ_BOOL; v->num = 1; rc = word(r, "true"); break;
    case 'f': v->type = HJ_BOOL; rc = word(r, "false"); break;
    case 'n': v->type = HJ_NULL; rc = word(r, "null"); break;
    default: {
        char *e;
        v->type = HJ_NUMBER;
        v->num = strtoll(r->p, &e, 10);
        if (e == r->p || e > r->end || (e < r->end && (*e == '.' ||
                                                       *e == 'e' ||
                                                       *e == 'E')))
            rc = -1;
        r->p = e;
    }
    }
    r->depth--;
    return rc;
}

HJson *h_json_parse(const char *text)
{
    BaseArena *a = base_arena_new();
    HJson *root = a ? base_arena_alloc(a, sizeof *root) : NULL;
    Reader r = {text, text + strlen(text), a, 0};
    if (!root || value(&r, root) || (skip(&r), r.p != r.end)) {
        base_arena_free(a);
        return NULL;
    }
    root->arena = a;
    return root;
}

void h_json_free(HJson *j)
{
    if (j)
        base_arena_free(j->arena);
}

const HJson *h_json_get(const HJson *obj, const char *key)
{
    if (!obj || obj->type != HJ_OBJECT)
        return NULL;
    for (int32_t i = 0; i < obj->n; i++)
        if (!strcmp(obj->items[i].key, key))
            return &obj->items[i];
    return NULL;
}

int64_t h_json_int(const HJson *obj, const char *key, int64_t dflt)
{
    const HJson *v = h_json_get(obj, key);
    return v && v->type == HJ_NUMBER ? v->num : dflt;
}

const char *h_json_str(const HJson *obj, const char *key)
{
    const HJson *v = h_json_get(obj, key);
    return v && v->type == HJ_STRING ? v->str : NULL;
}
