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
 * hw, a PM write grows the images when the WPQ is durable (a write adds a
 * last-write-back candidate to its line's log and takes none away, and
 * lines persist independently), and is visible otherwise; clwb and
 * clflush only mark the thread's request (invisible unless they change
 * the region); every other hierarchy instruction is visible.
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
    if (d->space == LIT_PM && (d->flags & MDL_I_WRITE))
        return m->red->writes_grow ? CL_GROW : CL_VISIBLE;
    if ((d->flags & MDL_I_PERSIST) && d->op != LIT_CLWB &&
        d->op != LIT_CLFLUSH)
        return CL_VISIBLE;
    La = mdl_launch_of(m, a);
    Lb = mdl_launch_of(m, b);
    na = a->len - La->pm_off;
    nb = b->len - Lb->pm_off;
    if (na != nb || memcmp(a->w + La->pm_off, b->w + Lb->pm_off,
                           na * sizeof *a->w))
        return CL_VISIBLE;
    return CL_INVISIBLE;
}

static int waits_in_group(uint64_t h, int same_cta, int kind)
{
    return TH_STATUS(h) == TS_WAIT && TH_KIND(h) == kind &&
           (same_cta || kind == WK_PKR);
}

/* Hierarchy models: whether footprint flags fl and lines (h, nh) touch
   what step d acts on (all lines: fences, barriers, finishing; or the
   line of a PM write or flush). */
static int hier_conflict(const Model *m, const MdlInstr *d, unsigned fl,
                         const uint32_t *h, uint32_t nh)
{
    int all = (d->flags & MDL_I_ENDS) ||
              ((d->flags & MDL_I_PERSIST) && d->op != LIT_CLWB &&
               d->op != LIT_CLFLUSH);
    int line = d->space == LIT_PM && d->word >= 0 &&
               ((d->flags & MDL_I_WRITE) || d->op == LIT_CLWB ||
                d->op == LIT_CLFLUSH);
    if (all)
        return nh || (fl & FP_HIER_ALL);
    return line && ((fl & FP_HIER_ALL) ||
                    mdl_access_has(h, nh, (uint32_t)(d->word /
                                                     m->p->words_per_line)));
}

/* C1 for the decoded step d of slot i at s; *grow gets whether another
   thread may grow the images before i moves. */
static int commutes(Model *m, const MdlState *s, const MdlLaunch *L, int i,
                    const MdlInstr *d, int *grow)
{
    unsigned cta = 0, grid = 0, all = 0;
    int cta_live = d->op == LIT_PBAR_WG && (d->flags & MDL_I_WAITS);
    int grid_live = d->op == LIT_PBAR_KR && (d->flags & MDL_I_WAITS);
    int acc = d->word >= 0 && d->op <= LIT_ATOM_CAS;
    uint32_t id = acc ? mdl_access_id(m, L, i, d->space, d->word) : 0;
    for (int j = 0; j < L->nthreads; j++) {
        uint64_t h = s->w[L->thr_off + (uint32_t)j * L->thr_stride];
        const LitBody *b;
        const MdlFoot *f;
        int same = L->cta[j] == L->cta[i];
        uint32_t pc = TH_PC(h);
        unsigned fl;
        if (j == i || TH_STATUS(h) == TS_DONE)
            continue;
        cta_live |= waits_in_group(h, same, WK_PWG);
        grid_live |= waits_in_group(h, same, WK_PKR);
        if (TH_STATUS(h) == TS_WAIT) {
            /* a barrier of i's own group cannot release before i moves */
            if (same || TH_KIND(h) == WK_GRID || TH_KIND(h) == WK_PKR)
                continue;
            pc++;
        }
        b = &m->p->kernels[L->kernel].bodies[L->body[j]];
        if (pc >= (uint32_t)b->ninstr) {
            fl = FP_ENDS | (m->pol->hierarchy ? FP_HIER_ALL : 0);
            if (m->pol->hierarchy && hier_conflict(m, d, fl, NULL, 0))
                return 0;               /* finishes when released */
        } else {
            f = mdl_access_foot(m, L, j, pc, !same);
            if (!f)
                return 0;
            if (acc && (((d->flags & MDL_I_WRITE) &&
                         (mdl_access_has(f->r, f->nr, id) ||
                          mdl_access_has(f->w, f->nw, id))) ||
                        ((d->flags & MDL_I_READ) &&
                         mdl_access_has(f->w, f->nw, id))))
                return 0;
            if (m->pol->hierarchy && hier_conflict(m, d, f->flags, f->h, f->nh))
                return 0;
            fl = f->flags;
        }
        if (same)
            cta |= fl;
        grid |= fl;
        all |= fl;
    }
    if (m->pol->release.force) {
        int ends = (d->flags & MDL_I_ENDS) != 0;
        int waits = (d->flags & MDL_I_WAITS) != 0;
        cta_live |= (cta & FP_PBAR_CTA) != 0;
        grid_live |= (grid & FP_PBAR_GRID) != 0;
        if (cta_live && (ends || (waits && d->op == LIT_PBAR_WG)) &&
            (cta & (FP_PBAR_CTA | FP_ENDS)))
            return 0;
        if (grid_live && (ends || (waits && d->op == LIT_PBAR_KR)) &&
            (grid & (FP_PBAR_GRID | FP_ENDS)))
            return 0;
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

int mdl_por_transition(Model *m, const MdlState *s, const MdlLaunch *L,
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
            mdl_por_transition(m, s, L, (uint32_t)i, out, &e, &n) != MDL_OK)
            continue;
        cl = classify(m, &d, s, out);
        if (cl == CL_INVISIBLE || cl == CL_GROW ||
            (cl == CL_SHRINK && !grow))
            return i;
    }
    return -1;
}
