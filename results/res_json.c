/* A strict RFC 8259 reader for witness_json (into arena nodes). */
#include <stdlib.h>
#include <string.h>

#include "results/results_int.h"

#define MAX_DEPTH 64

typedef struct {
    ResArena *a;
    const char *s, *p;
    char *err;
    size_t errlen;
    int failed;
} Reader;

static ResJson *fail(Reader *r, const char *what)
{
    if (!r->failed)
        snprintf(r->err, r->errlen, "json: %s at offset %ld", what,
                 (long)(r->p - r->s));
    r->failed = 1;
    return NULL;
}

static void skip_ws(Reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
        r->p++;
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

static char *put_utf8(char *q, unsigned cp)
{
    if (cp < 0x80) {
        *q++ = (char)cp;
    } else if (cp < 0x800) {
        *q++ = (char)(0xC0 | cp >> 6);
        *q++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *q++ = (char)(0xE0 | cp >> 12);
        *q++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *q++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *q++ = (char)(0xF0 | cp >> 18);
        *q++ = (char)(0x80 | (cp >> 12 & 0x3F));
        *q++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *q++ = (char)(0x80 | (cp & 0x3F));
    }
    return q;
}

/* string = '"' { char | '\' escape } '"' */
static const char *parse_string(Reader *r)
{
    const char *start = ++r->p;
    while (*r->p != '"') {
        if ((unsigned char)*r->p < 0x20)
            return fail(r, "unterminated string"), NULL;
        if (*r->p == '\\' && r->p[1])
            r->p++;
        r->p++;
    }
    /* Every escape shrinks or keeps the length (\uXXXX: 6 bytes, at most 4
       out; a surrogate pair: 12 bytes, 4 out). */
    char *out = res_arena_alloc(r->a, (size_t)(r->p - start) + 1), *q = out;
    for (const char *p = start; p < r->p; p++) {
        if (*p != '\\') {
            *q++ = *p;
            continue;
        }
        unsigned cp, lo;
        switch (*++p) {
        case '"': case '\\': case '/': *q++ = *p; break;
        case 'b': *q++ = '\b'; break;
        case 'f': *q++ = '\f'; break;
        case 'n': *q++ = '\n'; break;
        case 'r': *q++ = '\r'; break;
        case 't': *q++ = '\t'; break;
        case 'u':
            if (hex4(p + 1, &cp))
                return fail(r, "bad \\u escape"), NULL;
            p += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && p[1] == '\\' && p[2] == 'u' &&
                !hex4(p + 3, &lo) && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            }
            q = put_utf8(q, cp);
            break;
        default:
            return fail(r, "bad escape"), NULL;
        }
    }
    *q = '\0';
    r->p++;
    return out;
}

static ResJson *parse_value(Reader *r, int depth);

/* array = '[' [ value { ',' value } ] ']'
   object = '{' [ string ':' value { ',' string ':' value } ] '}' */
static ResJson *parse_container(Reader *r, ResJson *v, int depth)
{
    char close = v->type == RES_JARR ? ']' : '}';
    ResJson **tail = &v->kids;
    r->p++;
    skip_ws(r);
    if (*r->p == close) {
        r->p++;
        return v;
    }
    for (;;) {
        const char *key = NULL;
        skip_ws(r);
        if (v->type == RES_JOBJ) {
            if (*r->p != '"')
                return fail(r, "expected a member name");
            if (!(key = parse_string(r)))
                return NULL;
            skip_ws(r);
            if (*r->p != ':')
                return fail(r, "expected ':'");
            r->p++;
        }
        ResJson *kid = parse_value(r, depth + 1);
        if (!kid)
            return NULL;
        kid->key = key;
        *tail = kid;
        tail = &kid->next;
        v->nkids++;
        skip_ws(r);
        if (*r->p == ',') {
            r->p++;
            continue;
        }
        if (*r->p != close)
            return fail(r, close == ']' ? "expected ',' or ']'"
                                        : "expected ',' or '}'");
        r->p++;
        return v;
    }
}

/* number = [ '-' ] int [ frac ] [ exp ] */
static ResJson *parse_number(Reader *r, ResJson *v)
{
    const char *p = r->p;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return fail(r, "unexpected character");
    if (*p == '.') {
        if (!(*++p >= '0' && *p <= '9'))
            return fail(r, "bad number");
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return fail(r, "bad number");
        while (*p >= '0' && *p <= '9')
            p++;
    }
    v->type = RES_JNUM;
    v->num = strtod(r->p, NULL);
    r->p = p;
    return v;
}

static int literal(Reader *r, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(r->p, word, n))
        return 0;
    r->p += n;
    return 1;
}

/* value = object | array | string | number | true | false | null */
static ResJson *parse_value(Reader *r, int depth)
{
    if (depth > MAX_DEPTH)
        return fail(r, "nested too deeply");
    skip_ws(r);
    ResJson *v = res_arena_alloc(r->a, sizeof *v);
    switch (*r->p) {
    case '{':
        v->type = RES_JOBJ;
        return parse_container(r, v, depth);
    case '[':
        v->type = RES_JARR;
        return parse_container(r, v, depth);
    case '"':
        v->type = RES_JSTR;
        return (v->str = parse_string(r)) ? v : NULL;
    default:
        if (literal(r, "true")) {
            v->type = RES_JBOOL;
            v->num = 1;
            return v;
        }
        if (literal(r, "false")) {
            v->type = RES_JBOOL;
            return v;
        }
        if (literal(r, "null"))
            return v;
        return parse_number(r, v);
    }
}

ResJson *res_json_parse(ResArena *a, const char *text, char *err,
                        size_t errlen)
{
    Reader r = {a, text, text, err, errlen, 0};
    ResJson *v = parse_value(&r, 0);
    if (!v)
        return NULL;
    skip_ws(&r);
    if (*r.p)
        return fail(&r, "trailing characters");
    return v;
}

const ResJson *res_json_get(const ResJson *obj, const char *key)
{
    if (!obj || obj->type != RES_JOBJ)
        return NULL;
    for (const ResJson *k = obj->kids; k; k = k->next)
        if (!strcmp(k->key, key))
            return k;
    return NULL;
}

int64_t res_json_int(const ResJson *obj, const char *key, int64_t def)
{
    const ResJson *v = res_json_get(obj, key);
    if (!v || v->type != RES_JNUM || !(v->num >= -9.0e18 && v->num <= 9.0e18))
        return def;
    return (int64_t)v->num;
}

const char *res_json_str(const ResJson *obj, const char *key)
{
    const ResJson *v = res_json_get(obj, key);
    return v && v->type == RES_JSTR ? v->str : NULL;
}
