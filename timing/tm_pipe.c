/*
 * tm_pipe.c — the in-order persist buffers: how strict persistency's
 * reference hardware persists every PM store without a round trip per
 * store (MdlPolicy.pipe = MDL_PIPE_INORDER). The design note is beside the
 * data, above TmSm in timing_int.h; specs/timing.md, "Persist pipelining",
 * has the measurements.
 */
#include <string.h>

#include "timing/timing_int.h"

/* Makes room for one more entry at the tail, compacting retired entries
   away once they are half of the arrays. */
static void room(Tm *t, TmSm *s)
{
    size_t used = (size_t)(s->pb_tail - s->pb_base);
    size_t dead = (size_t)(s->pb_head - s->pb_base);
    if (dead >= 64 && dead * 2 >= used) {
        size_t live = used - dead;
        memmove(s->pb_done, s->pb_done + dead, live * sizeof *s->pb_done);
        memmove(s->pb_gseq, s->pb_gseq + dead, live * sizeof *s->pb_gseq);
        s->pb_base = s->pb_head;
        used = live;
    }
    TM_GROW(t, s->pb_done, s->pb_cap, used + 1);
    TM_GROW(t, s->pb_gseq, s->pb_capg, used + 1);
}

void tm_pipe_push(Tm *t, int32_t sm, int32_t r)
{
    TmSm *s = &t->sm[sm];
    size_t i;
    room(t, s);
    i = (size_t)(s->pb_tail - s->pb_base);
    s->pb_done[i] = 0;
    s->pb_gseq[i] = t->pb_gseq++;
    t->rq[r].pbe = s->pb_tail++;
}

int tm_pipe_full(const Tm *t, int32_t sm)
{
    const TmSm *s = &t->sm[sm];
    return s->pb_tail - s->pb_head >= TM_PB_ENTRIES;
}

/* The global number of the SM's oldest entry not retired, or INT64_MAX. */
static int64_t oldest(const TmSm *s)
{
    return s->pb_head == s->pb_tail ? INT64_MAX
                                    : s->pb_gseq[s->pb_head - s->pb_base];
}

int tm_pipe_passed(const Tm *t, int64_t target)
{
    for (int32_t i = 0; i < t->nsm; i++)
        if (oldest(&t->sm[i]) < target)
            return 0;
    return 1;
}

/* Entry r->pbe is persisted: retire what is persisted at the head, in
   order, and wake the warps waiting for room or for the buffers. */
void tm_pipe_done(Tm *t, const TmReq *r)
{
    TmSm *s = &t->sm[r->sm];
    int64_t before = s->pb_head;
    assert(r->pbe >= s->pb_head && r->pbe < s->pb_tail);
    s->pb_done[r->pbe - s->pb_base] = 1;
    while (s->pb_head < s->pb_tail && s->pb_done[s->pb_head - s->pb_base])
        s->pb_head++;
    if (s->pb_head == before)
        return;
    if (!tm_pipe_full(t, r->sm)) {
        for (size_t i = 0; i < s->pb_full.n; i++)
            tm_wake(t, s->pb_full.v[i], t->now);
        s->pb_full.n = 0;
    }
    for (size_t i = 0; i < t->pipewait.n; i++)
        tm_wake(t, t->pipewait.v[i], t->now);
    t->pipewait.n = 0;
}

void tm_pipe_free(Tm *t)
{
    for (int32_t i = 0; t->sm && i < t->nsm; i++) {
        base_free(t->sm[i].pb_done);
        base_free(t->sm[i].pb_gseq);
        base_free(t->sm[i].pb_full.v);
    }
    base_free(t->pipewait.v);
}
