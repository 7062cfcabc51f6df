/*
 * chk_space.c — the state space of one breadth-first exploration: the
 * visited set (states numbered in discovery order, which is BFS order, so
 * the queue is the numbering itself), BFS-tree parent pointers for
 * witnesses, and the successor lists needed to find livelocks.
 */
#include <stdlib.h>
#include <string.h>

#include "checker/checker_int.h"

void chk_space_init(ChkSpace *sp)
{
    memset(sp, 0, sizeof *sp);
    chk_table_init(&sp->states);
}

void chk_space_free(ChkSpace *sp)
{
    chk_table_free(&sp->states);
    free(sp->parent);
    free(sp->step);
    free(sp->depth);
    chk_vec_free(&sp->eoff);
    chk_vec_free(&sp->edges);
    chk_space_init(sp);
}

void chk_space_reset(ChkSpace *sp)
{
    chk_table_reset(&sp->states);
    sp->eoff.n = 0;
    sp->edges.n = 0;
}

int chk_space_add(ChkSpace *sp, const MdlState *s, uint32_t parent,
                  uint32_t step, uint32_t depth, uint32_t *id)
{
    int r = chk_table_put(&sp->states, s->w, s->len, s->hash, id);
    if (r != 1)
        return r;
    if (*id >= sp->cap) {
        size_t nc = sp->cap ? sp->cap * 2 : 1024;
        uint32_t *a = realloc(sp->parent, nc * sizeof *a);
        if (!a)
            return -1;
        sp->parent = a;
        a = realloc(sp->step, nc * sizeof *a);
        if (!a)
            return -1;
        sp->step = a;
        a = realloc(sp->depth, nc * sizeof *a);
        if (!a)
            return -1;
        sp->depth = a;
        sp->cap = nc;
    }
    sp->parent[*id] = parent;
    sp->step[*id] = step;
    sp->depth[*id] = depth;
    return 1;
}

void chk_space_state(const ChkSpace *sp, uint32_t id, MdlState *out)
{
    uint32_t len;
    const uint64_t *w = chk_table_key(&sp->states, id, &len);
    memcpy(out->w, w, len * sizeof *w);
    if (out->len > len)
        memset(out->w + len, 0, (out->len - len) * sizeof *w);
    out->len = len;
    out->hash = sp->states.hash[id];
}

/* Backward reachability from the states marked in `ends` over the recorded
   successor lists (eoff has one entry per expanded state, plus one). */
uint32_t chk_space_livelock(ChkSpace *sp, const uint8_t *ends)
{
    uint32_t n = sp->states.n, *cnt, *rev, *queue, head = 0, tail = 0;
    uint8_t *fin;
    if (sp->eoff.n != (size_t)n + 1)
        return CHK_NONE;                /* not fully expanded */
    cnt = calloc((size_t)n + 1, sizeof *cnt);
    rev = malloc((sp->edges.n + 1) * sizeof *rev);
    queue = malloc(((size_t)n + 1) * sizeof *queue);
    fin = calloc((size_t)n + 1, 1);
    if (!cnt || !rev || !queue || !fin) {
        free(cnt);
        free(rev);
        free(queue);
        free(fin);
        return CHK_NONE;
    }
    for (size_t e = 0; e < sp->edges.n; e++)
        cnt[sp->edges.v[e] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        cnt[i + 1] += cnt[i];
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t e = sp->eoff.v[i]; e < sp->eoff.v[i + 1]; e++)
            rev[cnt[sp->edges.v[e]]++] = i;
    /* cnt[j] now ends j's predecessor list; it starts at cnt[j - 1] */
    for (uint32_t i = 0; i < n; i++)
        if (ends[i]) {
            fin[i] = 1;
            queue[tail++] = i;
        }
    while (head < tail) {
        uint32_t j = queue[head++], lo = j ? cnt[j - 1] : 0;
        for (uint32_t e = lo; e < cnt[j]; e++)
            if (!fin[rev[e]]) {
                fin[rev[e]] = 1;
                queue[tail++] = rev[e];
            }
    }
    head = CHK_NONE;
    for (uint32_t i = 0; i < n && head == CHK_NONE; i++)
        if (!fin[i])
            head = i;
    free(cnt);
    free(rev);
    free(queue);
    free(fin);
    return head;
}
