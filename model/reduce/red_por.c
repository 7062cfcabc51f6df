/*
 * red_por.c — partial-order reduction and the fusion of invisible steps
 * (specs/checker.md, "Reductions", proves both).
 *
 * CLASSES. What a step does to the crash images of its state:
 *   invisible  nothing (registers, dram, shared, loads, barriers that
 *              only order, stores to words no check observes);
 *   grow       every image of the state before is an image of the state
 *              after (an abstract model's store that persists nothing);
 *   shrink     every image after is an image before (persisting pending
 *              stores, adding none);
 *   visible    anything else (strict's stores, which persist at once).
 * The models say what each step did (Model.fx). Under hw (default mode),
 * whose crash images are the NVM its hardware events can reach from the
 * state (hw_closure.c): a PM write to a clean line grows (the line
 * gains one more write-back, of its new contents, and loses none), one to
 * a dirty line is visible (the write-back of its older contents is gone),
 * unless it leaves the line as it was; a pbar, psync or release that
 * completes, writes back or drains anything shrinks (it does what events
 * could); requests, fences, pcommit and joins leave the images alone; and
 * with the projection a step on a line the model keeps no state for only
 * writes what loads see. tests/test_red.c checks these inclusions
 * on every step of generated programs.
 *
 * AMPLE SINGLETONS. Thread i's step b may be taken alone at s when
 *   C1  no other thread can, before i moves, execute a step that does
 *       not commute with b (footprints, red_access.c): none writes a
 *       word b touches, none writes or reads a word b writes, under hw
 *       none acts on a line b acts on, and when collective persist
 *       barriers persist at release (scoped, hw) and b may complete such
 *       a barrier (arriving at one, finishing), no other member of its
 *       group may arrive at one or finish; and every model event enabled
 *       at s (hw's default mode: those some thread's next step needs)
 *       stays enabled after b and commutes with it (both orders reach the
 *       same state), so that b needs none of them itself;
 *   C2  b is invisible or grows; or b shrinks and no other thread can
 *       grow the images before i moves;
 *   C3  b is not a sticky backward jump (reduce.h: every cycle of
 *       states contains one, so every cycle of the reduced graph passes a
 *       state that is fully expanded);
 *   and b does not fail.
 *
 * FUSION. After a step of thread i, i's next steps run in the same
 * transition while each is invisible, commutes (C1, model events
 * included), does not fail, jump back, wait or finish: an ample singleton
 * at a state that is then not stored, since it has the crash images,
 * errors and futures of the state after it.
 */
#include <string.h>

#include "model/reduce/red_int.h"

/* The class (CL_*) of the step just executed, from what the model says it
   did (Model.fx). A model that does not say is assumed visible. */
static int classify(const Model *m)
{
    unsigned both = MDL_FX_GROW | MDL_FX_SHRINK;
    if (!m->fx_kept || (m->fx & MDL_FX_SET) || (m->fx & both) == both)
        return CL_VISIBLE;
    if (m->fx & MDL_FX_GROW)
        return CL_GROW;
    return m->fx & MDL_FX_SHRINK ? CL_SHRINK : CL_INVISIBLE;
}

/* What step d acts on in the model's lines (red_access_hier): nothing
   for a collective arrival (its release is hier_conflict's `releases`),
   nor for a write or flush of a word that is not PM or whose line the
   model keeps no state for. */
static unsigned hier_own(const Model *m, const MdlInstr *d)
{
    unsigned own;
    if (d->flags & MDL_I_WAITS)
        return 0;
    own = red_access_hier(m, d->op);
    if (own != FP_LINE)
        return own;
    for (int k = 0; d->space == LIT_PM && d->word >= 0 && k < d->nelem; k++)
        if (mdl_kept(m, (uint32_t)m->p->pm_line[d->words[k]]))
            return own;
    return 0;
}

/* Whether the line of a PM element of step d is in the lines (h, nh). */
static int lines_have(const Model *m, const MdlInstr *d, const uint32_t *h,
                      uint32_t nh)
{
    for (int k = 0; k < d->nelem; k++)
        if (red_access_has(h, nh, (uint32_t)m->p->pm_line[d->words[k]]))
            return 1;
    return 0;
}

/* Whether thread j, whose footprint has flags fl and lines (h, nh), may
   act on what step d of slot i acts on (own, from hier_own): the line of
   a PM write or flush (FP_LINE); the lines i may write or flush (a fence
   or thread-local settle with a durable WPQ, FP_SETTLE); every line
   (FP_HIER_ALL). Under a model whose rules are all empty nothing acts on
   lines. `releases`: d is an arrival at a collective pbar.wg, or
   finishing, that may complete a group whose release acts on lines
   (MdlRed.release): that acts on every line for a thread outside the
   group (same: j shares i's CTA); a member's steps all come before the
   release in either order. A quiet step (a PM write that left the
   hierarchy as it was: it wrote the value already in L2, and its line
   was dirty, or clean without write-throughs, with a durable WPQ) acts on
   no line as long as nobody issues a write-through to one: whatever the
   other threads and events do to its line, it stays a write of that same
   value to a line that is dirty or clean without write-throughs, which
   changes nothing but its own thread's written lines. */
static int hier_conflict(Model *m, const MdlLaunch *L, int i,
                         const MdlInstr *d, unsigned own, int releases,
                         int same, unsigned fl, const uint32_t *h,
                         uint32_t nh, int quiet)
{
    if (releases && !same && (nh || (fl & FP_HIER_ALL)))
        return 1;
    if (quiet)
        return (fl & FP_WT) != 0;
    if (own == FP_HIER_ALL)
        return nh || (fl & FP_HIER_ALL);
    if (!own)
        return 0;
    if (fl & FP_HIER_ALL)
        return 1;
    if (own == FP_SETTLE) {
        uint32_t n;
        const uint32_t *mine = red_access_lines(m, L, i, &n);
        return !mine || red_access_meet(mine, n, h, nh);
    }
    assert(own == FP_LINE);
    return lines_have(m, d, h, nh);
}

/* C1 for the decoded step d of slot i at s; *grow gets whether another
   thread may grow the images before i moves. Arrivals at barriers and
   finishing commute with each other as transitions (the one that
   completes a group releases it, whichever it is). Where a release
   persists, i's arrival or finish is not taken alone while another
   thread may finish with a step that writes memory, grows the images or
   acts on the hierarchy: that step could complete the group, and the
   state just before it, with its images, would be lost (specs/checker.md,
   "Barriers"). quiet: see hier_conflict. */
static int commutes(Model *m, const MdlState *s, const MdlLaunch *L, int i,
                    const MdlInstr *d, int quiet, int *grow)
{
    unsigned all = 0, own = hier_own(m, d);
    int arrives = m->pol->release.force && red_access_collective(m, L) &&
                  ((d->flags & MDL_I_ENDS) ||
                   ((d->flags & MDL_I_WAITS) && (d->flags & MDL_I_PERSIST)));
    /* an arrival at a collective pbar.wg, or finishing, whose group's
       release acts on lines */
    int releases = m->red->release && red_access_collective(m, L) &&
                   ((d->flags & MDL_I_ENDS) ||
                    ((d->flags & (MDL_I_WAITS | MDL_I_PERSIST | MDL_I_GRID))
                     == (MDL_I_WAITS | MDL_I_PERSIST)));
    int acc = d->word >= 0 &&
              (lit_opflags(d->op) & (LIT_OPF_READ | LIT_OPF_WRITE))
                  ? d->nelem : 0;
    uint32_t id[LIT_MAX_VEC];
    for (int k = 0; k < acc; k++)
        id[k] = red_access_id(m, L, i, d->space, d->words[k]);
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
            if (red_access_collective(m, L))
                fl |= m->red->release;
            if (hier_conflict(m, L, i, d, own, releases, same, fl, NULL, 0,
                              quiet))
                return 0;
            continue;
        }
        f = red_access_foot(m, L, j, pc, !same);
        if (!f)
            return 0;
        for (int k = 0; k < acc; k++)
            if (((d->flags & MDL_I_WRITE) &&
                 (red_access_has(f->r, f->nr, id[k]) ||
                  red_access_has(f->w, f->nw, id[k]))) ||
                ((d->flags & MDL_I_READ) &&
                 red_access_has(f->w, f->nw, id[k])))
                return 0;
        if (hier_conflict(m, L, i, d, own, releases, same, f->flags, f->h,
                          f->nh, quiet))
            return 0;
        if (arrives && (f->flags & FP_ENDS_DIRTY))
            return 0;
        all |= f->flags;
    }
    *grow = (all & FP_GROW) != 0;
    return 1;
}

/* C1 for model events: step i of s, executed alone into b, and every
   model event enabled at s (codes, nev) commute: the event is still
   enabled in b, and running it in b reaches the state that the step
   reaches after it. Events only ever run where they are needed; a step
   that needs one itself (a write to a dirty line the hw model keeps, whose
   older contents an event must capture first) does not commute with it. */
static int events_commute(Model *m, const MdlState *s, const MdlLaunch *L,
                          int i, const MdlState *b, const uint32_t *codes,
                          int nev)
{
    uint32_t after[128];
    MdlState *x = &m->red->ev[0], *y = &m->red->ev[1];
    MdlError e;
    unsigned fx = m->fx;
    int na, ok = 1;
    if (!nev)
        return 1;
    if (mdl_launch_of(m, b) != L)
        return 0;
    na = m->ops->events(m, b, L, after, 128);
    for (int k = 0; k < nev && ok; k++) {
        int found = 0;
        for (int j = 0; j < na && !found; j++)
            found = after[j] == codes[k];
        mdl_state_copy(x, b);
        mdl_state_copy(y, s);
        ok = found &&
             mdl_exec_step(m, x, L, MDL_STEP_EVENT | codes[k], NULL, NULL,
                           &e) == MDL_OK &&
             mdl_exec_step(m, y, L, MDL_STEP_EVENT | codes[k], NULL, NULL,
                           &e) == MDL_OK &&
             mdl_launch_of(m, y) == L &&
             mdl_exec_step(m, y, L, (uint32_t)i, NULL, NULL, &e) == MDL_OK &&
             x->len == y->len &&
             !memcmp(x->w, y->w, x->len * sizeof *x->w);
    }
    m->fx = fx;
    return ok;
}

/* Whether step d may turn out quiet (hier_conflict): a PM write that
   acts on lines, with a durable WPQ. */
static int may_be_quiet(const Model *m, const MdlInstr *d)
{
    return m->hw[d->op].write && m->red->durable &&
           d->space == LIT_PM;
}

/* C1 for step d of slot i, executed alone from s into out with class cl,
   given c, whether it commutes as an ordinary step with the other
   threads': if not, a write that changed nothing may still commute as a
   quiet one; and it must commute with the enabled model events. */
static int independent(Model *m, const MdlState *s, const MdlLaunch *L,
                       int i, const MdlInstr *d, int c, int cl,
                       const MdlState *out, const uint32_t *codes, int nev,
                       int *grow)
{
    return (c || (cl == CL_INVISIBLE && may_be_quiet(m, d) &&
                  commutes(m, s, L, i, d, 1, grow))) &&
           events_commute(m, s, L, i, out, codes, nev);
}

/* Runs the invisible steps of slot i that follow in s (FUSION above). */
static void fuse(Model *m, MdlState *s, const MdlLaunch *L0, int i, int *n)
{
    unsigned fx = m->fx;
    for (;;) {
        const MdlLaunch *L = mdl_launch_of(m, s);
        MdlInstr d;
        MdlError e;
        uint32_t codes[128];
        int grow, nev, c = 1;
        if (L != L0 || mdl_decode(m, s, i, &d) ||
            (d.flags & (MDL_I_BACK | MDL_I_ENDS | MDL_I_WAITS |
                        MDL_I_BOUNDS)))
            break;
        if ((lit_opflags(d.op) & (LIT_OPF_READ | LIT_OPF_WRITE)) ||
            mdl_hwrule_acts(&m->hw[d.op]))
            c = commutes(m, s, L, i, &d, 0, &grow);
        if (!c && !may_be_quiet(m, &d))
            break;
        mdl_state_copy(&m->trial, s);
        m->fx = 0;
        if (mdl_exec_step(m, &m->trial, L, (uint32_t)i, NULL, NULL, &e) !=
                MDL_OK ||
            classify(m) != CL_INVISIBLE)
            break;
        nev = m->ops->events(m, s, L, codes, 128);
        if (!independent(m, s, L, i, &d, c, CL_INVISIBLE, &m->trial, codes,
                         nev, &grow))
            break;
        mdl_state_copy(s, &m->trial);
        (*n)++;
    }
    m->fx = fx;
}

int red_por_transition(Model *m, const MdlState *s, const MdlLaunch *L,
                       uint32_t step, MdlState *out, MdlError *e, int *n)
{
    int r;
    mdl_state_copy(out, s);
    m->fx = 0;
    r = mdl_exec_step(m, out, L, step, NULL, NULL, e);
    *n = 1;
    if (r == MDL_OK && (m->mode & MDL_FUSE) && !(step & MDL_STEP_EVENT))
        fuse(m, out, L, (int)step, n);
    return r;
}

int red_por_class(Model *m, const MdlState *s, int i, MdlState *out)
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
    return classify(m);
}

int red_por_ample(Model *m, const MdlState *s, const MdlLaunch *L,
                  const uint32_t *codes, int nev, MdlState *out, int *n)
{
    if (L->kernel < 0 || L->nthreads > RED_MAX_THREADS)
        return -1;
    for (int i = 0; i < L->nthreads; i++) {
        MdlInstr d;
        MdlError e;
        int grow, cl, c;
        if (mdl_decode(m, s, i, &d) ||
            ((d.flags & MDL_I_BACK) && red_access_sticky(m, L, i, d.pc)))
            continue;
        c = commutes(m, s, L, i, &d, 0, &grow);
        if (!c && !may_be_quiet(m, &d))
            continue;
        mdl_state_copy(out, s);
        m->fx = 0;
        if (mdl_exec_step(m, out, L, (uint32_t)i, NULL, NULL, &e) != MDL_OK)
            continue;
        cl = classify(m);
        if (cl == CL_VISIBLE ||
            !independent(m, s, L, i, &d, c, cl, out, codes, nev, &grow) ||
            (cl == CL_SHRINK && grow))
            continue;
        *n = 1;
        if (m->mode & MDL_FUSE)
            fuse(m, out, L, i, n);
        return i;
    }
    return -1;
}
