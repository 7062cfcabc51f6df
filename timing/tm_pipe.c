/*
 * tm_pipe.c — the in-order persist buffers: how strict persistency's
 * reference hardware persists every PM store without a round trip per
 * store (MdlPolicy.pipe = MDL_PIPE_INORDER; specs/timing.md, "Persist
 * pipelining").
 *
 * Each SM has one persist buffer. A PM store (and atomic) of a model whose
 * stores persist as they issue enters its SM's buffer as one entry per
 * line the warp writes, and its write-through request leaves for the
 * hierarchy at once: entries are in flight together (pipelined), each
 * controller writes its own in arrival order. An entry is persisted when
 * its write is acknowledged (in NVM with a volatile WPQ or wt_ack = nvm,
 * accepted by a durable WPQ otherwise); the buffer retires entries in the
 * order they entered, so a later persist is never counted before an
 * earlier one of the SM: persist order follows the SM's issue order, which
 * is strict's order for the SM's threads. The warp goes on after its store
 * issues; a store that finds its SM's buffer holding TM_PB_ENTRIES or
 * more entries does not issue, and its warp waits (a fence stall) until
 * one retires (tm_warp.c, pipe_full). So the latency of a
 * persist is hidden by the other warps, as long as the buffer and the
 * memory keep up; the memory's bandwidth is still paid in full. A fence
 * (sfence, membar) does not wait for buffered persists: the buffer already
 * keeps them in order. What forces a persist waits for the buffers: strict's
 * psync (force P) until every SM's buffer has retired every entry that
 * entered any buffer before it (a global entry number, pb_gseq), the
 * kernel's end (the join) until every request is done.
 *
 * Ours, not a document's: the buffer's size (TM_PB_ENTRIES, 256: eight
 * warp stores; specs/timing.md has the measurements), one buffer per SM, and that the order between SMs is not enforced by the
 * timing (the semantics decide what a crash may see; the cost of
 * cross-SM ordering through observed values is not modelled).
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
