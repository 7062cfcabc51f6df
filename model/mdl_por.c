/*
 * mdl_por.c — partial-order reduction and the fusion of invisible steps
 * (specs/checker.md, "Reductions", proves both).
 *
 * CLASSES. What a step does to the crash images of its state:
 *   invisible  nothing (registers, dram, shared, loads, barriers that
 *              only order, stores to words no check observes);
 *   grow       adds a pending store and persists nothing: every image
 *              of the state before is an image of the state after;
 *   shrink     persists pending stores and adds none: every image after
 *              is an image before;
 *   visible    anything else (strict's stores, which persist at once;
 *              under hw, every PM write and hierarchy instruction).
 * Models that keep account (Model.fx_kept) say what each step did. For
 * hw, a step that leaves the region alone is invisible; with a durable WPQ
 * a PM write grows the images (it adds a last-write-back candidate to its
 * line's log and takes none away, and lines persist independently), and a
 * fence, pbar, psync or a release or join that completes requests and
 * writes lines back shrinks them (it only drops candidates and raises the
 * lines' write-through bounds); anything else that changes the region,
 * and everything with a volatile WPQ, is visible. tests/test_mdl_reduce.c
 * checks these inclusions on every step of generated programs.
 *
 * AMPLE SINGLETONS. Thread i's step b may be taken alone at s when
 *   C1  no other thread can, before i moves, execute a step that does
 *       not commute with b (footprints, mdl_access.c): none writes a
 *       word b touches, none writes or reads a word b writes, and when
 *       collective persist barriers persist at release (scoped, hw)
 *       and b may complete such a barrier (arriving at one, finishing),
 *       no other member of its group may arrive at one or finish;
 *   C2  b is invisible or grows; or b shrinks and no other thread can
 *       grow the images before i moves;
 *   C3  b is not a sticky backward jump (mdl_reduce.h: every cycle of
 *       states contains one, so every cycle of the reduced graph passes a
 *       state that is fully expanded);
 *   and b does not fail.
 *
 * FUSION. After a step of thread i, i's next steps run in the same
 * transition while each is invisible, commutes (C1), does not fail, jump
 * back, wait or finish: an ample singleton at a state that is then not
 * stored, since it has the crash images, errors and futures of the state
 * after it.
 */
#include <string.h>

#include "model/mdl_reduce.h"

/* Hierarchy instructions that complete the thread's (or the scope's)
   requests and write back its lines: fences, pbar, psync. */
static int settles(const MdlInstr *d)
{
    return (d->flags & MDL_I_PERSIST) && d->op != LIT_CLWB &&
           d->op != LIT_CLFLUSH && d->op != LIT_L2WB && d->op != LIT_PCOMMIT;
}

static int classify(const Model *m, const MdlInstr *d, const MdlState *a,
                    const MdlState *b)
{
    const MdlLaunch *La, *Lb;
    uint32_t na, nb;
    if (m->fx_kept) {
        if ((m->fx & MDL_FX_SET) ||
            (m->fx & (MDL_FX_GROW | MDL_FX_SHRINK)) ==
                (MDL_FX_GROW | MDL_FX_SHRINK))
            return CL_VISIBLE;
        if (m->fx & MDL_FX_GROW)
            return CL_GROW;
        return m->fx & MDL_FX_SHRINK ? CL_SHRINK : CL_INVISIBLE;
    }
    La = mdl_launch_of(m, a);
    Lb = mdl_launch_of(m, b);
    na = a->len - La->pm_off;
    nb = b->len - Lb->pm_off;
    if (na == nb && !memcmp(a->w + La->pm_off, b->w + Lb->pm_off,
                            na * sizeof *a->w))
        return CL_INVISIBLE;
    if (d->space == LIT_PM && (d->flags & MDL_I_WRITE))
        /* a last write may also complete a release or the join */
        return m->red->writes_grow && !(d->flags & MDL_I_ENDS) ? CL_GROW
                                                               : CL_VISIBLE;
    if (settles(d) || (d->flags & (MDL_I_WAITS | MDL_I_ENDS)))
        return m->red->writes_grow ? CL_SHRINK : CL_VISIBLE;
    return CL_VISIBLE;
}

/* Hierarchy models: whether thread j, whose footprint has flags fl and
   lines (h, nh), may act on what step d of slot i acts on: the line of a
   PM write or flush; the lines i may write or flush (a fence, pbar or
   psync with a durable WPQ, FP_SETTLE); every line (l2wb, and hierarchy
   instructions with a volatile WPQ). An arrival at a collective pbar, or
   finishing, may complete a group whose release writes back every line
   of the group: that acts on every line for a thread outside the group
   (same: j shares i's CTA); a member's steps all come before the release
   in either order. */
static int hier_conflict(Model *m, const MdlLaunch *L, int i,
                         const MdlInstr *d, int same, unsigned fl,
                         const uint32_t *h, uint32_t nh)
{
    unsigned own = 0;
    int releases = mdl_access_collective(m, L) &&
                   ((d->flags & MDL_I_ENDS) ||
                    ((d->flags & MDL_I_WAITS) && d->op == LIT_PBAR_WG));
    if (releases && !same && (nh || (fl & FP_HIER_ALL)))
        return 1;
    if ((d->flags & MDL_I_PERSIST) && !(d->flags & MDL_I_WAITS)) {
        if (d->op == LIT_CLWB || d->op == LIT_CLFLUSH)
            own = FP_FLUSH;
        else if (settles(d) && m->red->writes_grow)
            own = FP_SETTLE;
        else if (d->op != LIT_PCOMMIT || !m->red->writes_grow)
            own = FP_HIER_ALL;
    } else if (d->space == LIT_PM && (d->flags & MDL_I_WRITE)) {
        own = FP_FLUSH;
    }
    if (own == FP_HIER_ALL)
        return nh || (fl & FP_HIER_ALL);
    if (!own)
        return 0;
    if (fl & FP_HIER_ALL)
        return 1;
    if (own == FP_SETTLE) {
        uint32_t n;
        const uint32_t *mine = mdl_access_lines(m, L, i, &n);
        return !mine || mdl_access_meet(mine, n, h, nh);
    }
    return d->word >= 0 &&
           mdl_access_has(h, nh, (uint32_t)(d->word / m->p->words_per_line));
}

/* C1 for the decoded step d of slot i at s; *grow gets whether another
   thread may grow the images before i moves. Arrivals at barriers and
   finishing commute with each other as transitions (the one that
   completes a group releases it, whichever it is). Where a release
   persists, i's arrival or finish is not taken alone while another
   thread may finish with a step that writes memory, grows the images or
   acts on the hierarchy: that step could complete the group, and the
   state just before it, with its images, would be lost (specs/checker.md,
   "Barriers"). */
static int commutes(Model *m, const MdlState *s, const MdlLaunch *L, int i,
                    const MdlInstr *d, int *grow)
{
    unsigned all = 0;
    int arrives = m->pol->release.force && mdl_access_collective(m, L) &&
                  ((d->flags & MDL_I_ENDS) ||
                   ((d->flags & MDL_I_WAITS) && (d->flags & MDL_I_PERSIST)));
    int acc = d->word >= 0 && d->op <= LIT_ATOM_CAS;
    uint32_t id = acc ? mdl_access_id(m, L, i, d->space, d->word) : 0;
    for (int j = 0; j < L->nthreads; j++) {
        uint64_t h = s->w[L->thr_off + (uint32_t)j * L->thr_stride];
        const LitBody *b;
        const MdlFoot *f;
        int same = L->cta[j] == L->cta[i];
        uint32_t pc = TH_PC(h);
        if (j == i || TH_STATUS(h) == TS_DONE)
            continue;
        if (TH_STATUS(h) == TS_WAIT) {
            /* a barrier of i's own group cannot release before i moves */
            if (same || TH_KIND(h) == WK_GRID || TH_KIND(h) == WK_PKR)
                continue;
            pc++;
        }
        b = &m->p->kernels[L->kernel].bodies[L->body[j]];
        if (pc >= (uint32_t)b->ninstr) {
            /* finishes when released: may complete a collective pbar */
            unsigned fl = FP_ENDS;
            if (m->pol->hierarchy && mdl_access_collective(m, L))
                fl |= FP_HIER_ALL;
            if (m->pol->hierarchy &&
                hier_conflict(m, L, i, d, same, fl, NULL, 0))
                return 0;
            continue;
        }
        f = mdl_access_foot(m, L, j, pc, !same);
        if (!f)
            return 0;
        if (acc && (((d->flags & MDL_I_WRITE) &&
                     (mdl_access_has(f->r, f->nr, id) ||
                      mdl_access_has(f->w, f->nw, id))) ||
                    ((d->flags & MDL_I_READ) &&
                     mdl_access_has(f->w, f->nw, id))))
            return 0;
        if (m->pol->hierarchy &&
            hier_conflict(m, L, i, d, same, f->flags, f->h, f->nh))
            return 0;
        if (arrives && (f->flags & FP_ENDS_DIRTY))
            return 0;
        all |= f->flags;
    }
    *grow = (all & FP_GROW) != 0;
    return 1;
}

/* Runs the invisible steps of slot i that follow in s (FUSION above). */
static void fuse(Model *m, MdlState *s, const MdlLaunch *L0, int i, int *n)
{
    unsigned fx = m->fx;
    for (;;) {
        const MdlLaunch *L = mdl_launch_of(m, s);
        MdlInstr d;
        MdlError e;
        int grow;
        if (L != L0 || mdl_decode(m, s, i, &d) ||
            (d.flags & (MDL_I_BACK | MDL_I_ENDS | MDL_I_WAITS |
                        MDL_I_BOUNDS)) ||
            (d.op <= LIT_ATOM_CAS && !commutes(m, s, L, i, &d, &grow)))
            break;
        mdl_state_copy(&m->trial, s);
        m->fx = 0;
        if (mdl_exec_step(m, &m->trial, L, (uint32_t)i, NULL, NULL, &e) !=
                MDL_OK ||
            classify(m, &d, s, &m->trial) != CL_INVISIBLE)
            break;
        mdl_state_copy(s, &m->trial);
        (*n)++;
    }
    m->fx = fx;
}

/* Transition `step` of s into out (the step, then with MDL_FUSE the
   invisible steps of its thread after it); with d (the step decoded) also
   the class of the step itself into *cls. */
static int transition(Model *m, const MdlState *s, const MdlLaunch *L,
                      uint32_t step, const MdlInstr *d, MdlState *out,
                      MdlError *e, int *n, int *cls)
{
    int r;
    mdl_state_copy(out, s);
    m->fx = 0;
    r = mdl_exec_step(m, out, L, step, NULL, NULL, e);
    *n = 1;
    if (r != MDL_OK)
        return r;
    if (d)
        *cls = classify(m, d, s, out);
    if ((m->mode & MDL_FUSE) && !(step & MDL_STEP_EVENT))
        fuse(m, out, L, (int)step, n);
    return r;
}

int mdl_por_transition(Model *m, const MdlState *s, const MdlLaunch *L,
                       uint32_t step, MdlState *out, MdlError *e, int *n)
{
    return transition(m, s, L, step, NULL, out, e, n, NULL);
}

int mdl_por_class(Model *m, const MdlState *s, int i, MdlState *out)
{
    MdlInstr d;
    MdlError e;
    if (mdl_decode(m, s, i, &d))
        return -1;
    mdl_state_copy(out, s);
    m->fx = 0;
    if (mdl_exec_step(m, out, mdl_launch_of(m, s), (uint32_t)i, NULL, NULL,
                      &e) != MDL_OK)
        return -1;
    return classify(m, &d, s, out);
}

int mdl_por_ample(Model *m, const MdlState *s, const MdlLaunch *L,
                  MdlState *out)
{
    if (L->kernel < 0 || L->nthreads > MDL_RED_MAX_THREADS)
        return -1;
    for (int i = 0; i < L->nthreads; i++) {
        MdlInstr d;
        MdlError e;
        int grow, n, cl;
        if (mdl_decode(m, s, i, &d) ||
            ((d.flags & MDL_I_BACK) && mdl_access_sticky(m, L, i, d.pc)) ||
            !commutes(m, s, L, i, &d, &grow) ||
            transition(m, s, L, (uint32_t)i, &d, out, &e, &n, &cl) != MDL_OK)
            continue;
        if (cl == CL_INVISIBLE || cl == CL_GROW ||
            (cl == CL_SHRINK && !grow))
            return i;
    }
    return -1;
}
