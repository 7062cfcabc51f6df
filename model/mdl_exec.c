/*
 * mdl_exec.c — instruction execution, barriers, kernel launches, and the
 * successor relation. Persistency is delegated to the model's MdlOps; the
 * state encoding is described in model_int.h.
 *
 * Visibility is sequentially consistent (DESIGN section 3): a step is one
 * instruction of one thread, executed atomically on the current state.
 * Collective barriers match by count: a thread that arrives waits with its
 * pc on the barrier; an instance releases when every thread of the CTA
 * (kernel) that has not exited waits at the same kind, which is the same as
 * matching the k-th arrivals because no thread can pass an instance before
 * it releases. Releases and kernel joins are folded into the step that
 * enables them: the skipped intermediate states have the same persistency
 * state, hence the same crash images, as the state before that step. A join
 * the model blocks (hw, waiting for requests to complete) instead leaves
 * the launch in place, all threads done, until a model event unblocks it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_int.h"

const char *const mdl_err_names[MDL_NERRKINDS] = {
    "bounds", "arith", "assert", "deadlock", "barrier-divergence",
    "livelock", "limit"
};

static const char *const wait_names[4] = {
    "bar.sync", "grid.sync", "pbar.wg", "pbar.kr"
};

/* Largest state gpmc agrees to explore (words), and to follow along one
   schedule (MDL_ONE: the timing layer keeps one state, not millions). */
#define MAX_STATE_WORDS (1u << 20)
#define MAX_ONE_WORDS (1u << 28)

/* Words at and beyond len are kept zero, so that growing a state by
   mdl_set starts from zero. */
void mdl_state_copy(MdlState *dst, const MdlState *src)
{
    memcpy(dst->w, src->w, src->len * sizeof *src->w);
    if (dst->len > src->len)
        memset(dst->w + src->len, 0,
               (dst->len - src->len) * sizeof *dst->w);
    dst->len = src->len;
}

void mdl_info_effect(MdlStepInfo *info, const char *fmt, ...)
{
    size_t n;
    va_list ap;
    if (!info)
        return;
    n = strlen(info->effect);
    if (n && n + 2 < sizeof info->effect) {
        memcpy(info->effect + n, "; ", 3);
        n += 2;
    }
    if (n >= sizeof info->effect - 1)
        return;
    va_start(ap, fmt);
    vsnprintf(info->effect + n, sizeof info->effect - n, fmt, ap);
    va_end(ap);
}

void mdl_note(Model *m, int id, const char *text)
{
    size_t n = strlen(m->notes);
    if (m->noted & (1 << id))
        return;
    m->noted |= 1 << id;
    snprintf(m->notes + n, sizeof m->notes - n, "%s\n", text);
}

void mdl_word_name(const Model *m, int space, int32_t word, char *buf,
                   size_t len)
{
    const LitProgram *p = m->p;
    for (int i = 0; i < p->nlocs; i++) {
        const LitLoc *l = &p->locs[i];
        if (l->space != space || word < l->addr || word >= l->addr + l->size)
            continue;
        if (l->is_array)
            snprintf(buf, len, "%s[%d]", l->name, (int)(word - l->addr));
        else
            snprintf(buf, len, "%s", l->name);
        return;
    }
    snprintf(buf, len, "word %d", (int)word);
}

/* ---- layout ----------------------------------------------------------- */

static int build_launch(Model *m, MdlLaunch *L, int32_t kernel, char *err,
                        size_t errlen)
{
    const LitProgram *p = m->p;
    uint32_t off = 1, mthr = m->ops->thread_words(m);
    uint32_t limit = (m->mode & MDL_ONE) ? MAX_ONE_WORDS : MAX_STATE_WORDS;
    memset(L, 0, sizeof *L);
    L->kernel = kernel;
    if (kernel >= 0) {
        const LitKernel *k = &p->kernels[kernel];
        int64_t total = (int64_t)k->grid * k->block;
        int32_t n = 0;
        for (int64_t g = 0; g < total; g++)
            n += k->body_of[g] >= 0;
        L->nthreads = n;
        L->ncta = k->grid;
        L->gtid = base_arena_alloc(m->arena, (size_t)(n + 1) * sizeof(int32_t));
        L->body = base_arena_alloc(m->arena, (size_t)(n + 1) * sizeof(int32_t));
        L->cta = base_arena_alloc(m->arena, (size_t)(n + 1) * sizeof(int32_t));
        L->cta_first = base_arena_alloc(m->arena, (size_t)k->grid * sizeof(int32_t));
        L->cta_count = base_arena_alloc(m->arena, (size_t)k->grid * sizeof(int32_t));
        n = 0;
        for (int64_t g = 0; g < total; g++) {
            int32_t c = (int32_t)(g / k->block);
            if (k->body_of[g] < 0)
                continue;
            if (!L->cta_count[c])
                L->cta_first[c] = n;
            L->cta_count[c]++;
            L->gtid[n] = (int32_t)g;
            L->body[n] = k->body_of[g];
            L->cta[n] = c;
            n++;
        }
        L->nregslot = k->nregs;
        L->regslot = base_arena_alloc(m->arena, ((size_t)k->nregs + 1) *
                                                sizeof *L->regslot);
        if (!L->regslot) {
            snprintf(err, errlen, "out of memory");
            return 1;
        }
        for (int32_t r = 0; r < k->nregs; r++)
            L->regslot[r] = k->reg_used[r] ? L->nregs++ : -1;
    }
    L->thr_off = off;
    L->thr_stride = 1 + (uint32_t)L->nregs;
    off += (uint32_t)L->nthreads * L->thr_stride;
    L->shared_off = off;
    off += (uint32_t)L->ncta * (uint32_t)p->shared_words;
    L->dram_off = off;
    off += (uint32_t)p->dram_words;
    L->mthr_off = off;
    L->mthr_stride = mthr;
    off += (uint32_t)L->nthreads * mthr;
    L->pm_off = off;
    off += m->ops->fixed_words(m);
    L->fixed_len = off;
    /* the layout of model_int.h, in order; a slot is a step code */
    assert(L->thr_off == 1 && L->shared_off >= L->thr_off &&
           L->dram_off >= L->shared_off && L->mthr_off >= L->dram_off &&
           L->pm_off >= L->mthr_off && L->fixed_len >= L->pm_off);
    assert((uint32_t)L->nthreads < MDL_STEP_EVENT);
    if ((uint64_t)off + m->ops->max_var_words > limit) {
        snprintf(err, errlen, "kernel %s: a state would need %llu words, "
                 "more than the %u a model allows: too large to %s",
                 kernel >= 0 ? p->kernels[kernel].name : "-",
                 (unsigned long long)off + m->ops->max_var_words, limit,
                 (m->mode & MDL_ONE) ? "run" : "explore");
        return 1;
    }
    if (off + m->ops->max_var_words > m->max_words)
        m->max_words = off + m->ops->max_var_words;
    return 0;
}

static int build_part(Model *m, int part, int32_t n, const int32_t *seq,
                      char *err, size_t errlen)
{
    if (n > HDR_LAUNCH_MAX) {
        snprintf(err, errlen, "%s launches %d kernels: at most %d can be "
                 "explored", part ? "recovery" : "the program", (int)n,
                 HDR_LAUNCH_MAX);
        return 1;
    }
    m->nlaunch[part] = n;
    m->launch[part] = base_arena_alloc(m->arena,
                                      (size_t)(n ? n : 1) * sizeof(MdlLaunch));
    if (!n)
        return build_launch(m, &m->launch[part][0], -1, err, errlen);
    for (int32_t i = 0; i < n; i++)
        if (build_launch(m, &m->launch[part][i], seq[i], err, errlen))
            return 1;
    return 0;
}

const MdlLaunch *mdl_launch_of(const Model *m, const MdlState *s)
{
    int part = HDR_PART(s->w[0]);
    int32_t idx = HDR_LAUNCH(s->w[0]), n = m->nlaunch[part];
    assert(idx <= n);
    if (!n)
        return &m->launch[part][0];
    return &m->launch[part][idx < n ? idx : n - 1];
}

int mdl_terminal(const Model *m, const MdlState *s)
{
    int part = HDR_PART(s->w[0]);
    return HDR_LAUNCH(s->w[0]) >= m->nlaunch[part];
}

/* ---- model lifetime ---------------------------------------------------- */

static void note_degraded(Model *m)
{
    const LitProgram *p = m->p;
    int scoped = 0;
    for (int k = 0; k < p->nkernels; k++)
        for (int b = 0; b < p->kernels[k].nbodies; b++) {
            const LitBody *bd = &p->kernels[k].bodies[b];
            for (int i = 0; i < bd->ninstr; i++)
                scoped |= (lit_opflags(bd->code[i].op) & LIT_OPF_SCOPED) != 0;
        }
    if (!scoped || m->pol->collective)
        return;
    if (m->pol->pbar.force || m->pol->pbar.order) {
        char text[128];
        snprintf(text, sizeof text, "note: %s has one thread-local barrier: "
                 "pbar.wg and pbar.kr act as pbar", m->pol->name);
        mdl_note(m, 0, text);
    } else {
        char text[128];
        snprintf(text, sizeof text, "note: %s persists in visibility order: "
                 "pbar.wg and pbar.kr have no effect", m->pol->name);
        mdl_note(m, 0, text);
    }
}

/* What exploring needs beside the state: a successor under construction,
   a trial step, a crash image. MDL_ONE makes the first when asked
   (mdl_successors) and never needs the others. */
static int explore_buffers(Model *m)
{
    m->succ.cap = m->max_words;
    m->succ.w = base_arena_alloc(m->arena, m->max_words * sizeof(uint64_t));
    m->trial.cap = m->max_words;
    m->trial.w = base_arena_alloc(m->arena, m->max_words * sizeof(uint64_t));
    m->img = base_arena_alloc(m->arena, ((size_t)m->p->pm_words + 1) *
                                        sizeof(int64_t));
    return !m->succ.w || !m->trial.w || !m->img ? -1 : 0;
}

Model *mdl_new(const LitProgram *p, int model, unsigned mode, char *err,
               size_t errlen)
{
    Model *m;
    BaseArena *a;
    if (model < 0 || model >= LIT_NMODELS) {
        snprintf(err, errlen, "unknown model %d", model);
        return NULL;
    }
    if (errlen)
        err[0] = 0;
    a = base_arena_new();
    if (!a) {
        snprintf(err, errlen, MDL_OOM);
        return NULL;
    }
    m = base_arena_alloc(a, sizeof *m);
    if (!m) {
        base_arena_free(a);
        snprintf(err, errlen, MDL_OOM);
        return NULL;
    }
    m->arena = a;
    m->p = p;
    m->vec_first = 1;
    m->kind = model;
    m->pol = mdl_policy(model);
    m->naive = (mode & MDL_NAIVE) != 0;
    m->mode = m->naive ? MDL_NAIVE : (mode & MDL_ONE) ? MDL_ONE : mode;
    m->ops = m->pol->ops;
    m->hw = mdl_hw_rules(m->pol, &p->config);
    if ((!m->naive && !(m->mode & MDL_ONE) && red_access_setup(m)) ||
        ((m->mode & MDL_SLICE) && red_slice_setup(m))) {
        snprintf(err, errlen, MDL_OOM);
        base_arena_free(a);
        return NULL;
    }
    m->init_pm = base_arena_alloc(a, ((size_t)p->pm_words + 1) *
                                    sizeof *m->init_pm);
    if (!m->init_pm) {
        snprintf(err, errlen, MDL_OOM);
        base_arena_free(a);
        return NULL;
    }
    for (int i = 0; i < p->nlocs; i++)
        if (p->locs[i].space == LIT_PM)
            for (int32_t j = 0; j < p->locs[i].size; j++)
                m->init_pm[p->locs[i].addr + j] = p->locs[i].init[j];
    if (m->ops->setup(m, err, errlen) ||
        build_part(m, 0, p->nmain, p->main_seq, err, errlen) ||
        build_part(m, 1, p->has_recover ? p->nrecover : 0, p->recover_seq,
                   err, errlen) ||
        (m->red && red_access_launches(m))) {
        if (!err[0])
            snprintf(err, errlen, MDL_OOM);
        base_arena_free(a);
        return NULL;
    }
    /* advance() keeps dram aside while it moves the region behind it */
    m->stash = base_arena_alloc(a, ((size_t)p->dram_words + 1) *
                                   sizeof *m->stash);
    if (m->red && !m->projected)
        m->observed = NULL;        /* the model keeps every word */
    if (!m->stash || (!(m->mode & MDL_ONE) && explore_buffers(m))) {
        snprintf(err, errlen, MDL_OOM);
        base_arena_free(a);
        return NULL;
    }
    note_degraded(m);
    return m;
}

void mdl_free(Model *m)
{
    if (m)
        base_arena_free(m->arena);
}

int mdl_confine_broken(const Model *m)
{
    return m->conf_broken;
}

uint32_t mdl_max_words(const Model *m)
{
    return m->max_words;
}

const char *mdl_notes(const Model *m)
{
    return m->notes;
}

/* ---- launches ----------------------------------------------------------- */

static const LitBody *body_of(const Model *m, const MdlLaunch *L, int slot)
{
    return &m->p->kernels[L->kernel].bodies[L->body[slot]];
}

/* Writes the fresh thread, shared and per-thread model words of launch L
   into s (whose other words are already in place) and sets its header. */
static void fresh_launch(const Model *m, MdlState *s, const MdlLaunch *L,
                         int part, int32_t idx)
{
    const LitProgram *p = m->p;
    s->w[0] = mdl_hdr_make(idx, part);
    for (int32_t i = 0; i < L->nthreads; i++) {
        uint32_t h = L->thr_off + (uint32_t)i * L->thr_stride;
        int empty = body_of(m, L, i)->ninstr == 0;
        s->w[h] = empty ? mdl_th_make(0, TS_DONE, 0) : 0;
        memset(&s->w[h + 1], 0, (size_t)L->nregs * sizeof(uint64_t));
    }
    memset(&s->w[L->shared_off], 0,
           (size_t)L->ncta * (size_t)p->shared_words * sizeof(uint64_t));
    for (int32_t c = 0; c < L->ncta; c++)
        for (int i = 0; i < p->nlocs; i++) {
            const LitLoc *l = &p->locs[i];
            if (l->space != LIT_SHARED)
                continue;
            for (int32_t j = 0; j < l->size; j++)
                s->w[L->shared_off + (uint32_t)c * (uint32_t)p->shared_words +
                     (uint32_t)(l->addr + j)] = (uint64_t)l->init[j];
        }
    memset(&s->w[L->mthr_off], 0,
           (size_t)L->nthreads * L->mthr_stride * sizeof(uint64_t));
}

/* The scans over a group of threads after a step (all_done, try_release)
   start at the thread that moved and wrap around: their outcome does not
   depend on where they start, and the thread after one that just finished
   is usually still running (in the timed run threads finish about in
   order), so the scan stops at once instead of passing every finished
   thread again. From thread 0, `gpmc time` of 10^5 one-thread CTAs took
   4 s and 10^6 about 7 min (quadratic in the threads). */
static int all_done(const MdlState *s, const MdlLaunch *L, int32_t from)
{
    for (int32_t k = 0, i = from; k < L->nthreads;
         k++, i = i + 1 < L->nthreads ? i + 1 : 0)
        if (TH_STATUS(s->w[L->thr_off + (uint32_t)i * L->thr_stride]) !=
            TS_DONE)
            return 0;
    return 1;
}

/* The implicit join at a kernel's end, and the launch of the next kernel
   (possibly several, when a kernel has nothing to run). from: the thread
   that moved last (where all_done starts). */
static void advance(Model *m, MdlState *s, MdlStepInfo *info, int32_t from)
{
    while (!mdl_terminal(m, s)) {
        const MdlLaunch *L = mdl_launch_of(m, s), *N;
        int part = HDR_PART(s->w[0]);
        int32_t idx = HDR_LAUNCH(s->w[0]) + 1;
        uint32_t var, len;
        size_t dw = (size_t)m->p->dram_words;
        if (L->kernel >= 0 && !all_done(s, L, from))
            return;
        if (L->kernel >= 0 && m->ops->join(m, s, L, info) == MDL_BLOCKED)
            return;
        if (idx >= m->nlaunch[part]) {
            mdl_set(s, 0, mdl_hdr_make(m->nlaunch[part], part));
            return;
        }
        /* In place: dram and the persistency region move to N's offsets
           (pm last in both layouts, so no other region is in its way), the
           rest is written fresh, and words past the new length are zero. */
        N = &m->launch[part][idx];
        var = s->len - L->pm_off;
        len = N->pm_off + var;
        assert(len <= s->cap);
        memcpy(m->stash, &s->w[L->dram_off], dw * sizeof(uint64_t));
        memmove(&s->w[N->pm_off], &s->w[L->pm_off], var * sizeof(uint64_t));
        if (len < s->len)
            memset(&s->w[len], 0, (s->len - len) * sizeof(uint64_t));
        memcpy(&s->w[N->dram_off], m->stash, dw * sizeof(uint64_t));
        fresh_launch(m, s, N, part, idx);
        s->len = len;
        from = 0;
        if (info)
            mdl_info_effect(info, "kernel %s ends; kernel %s starts",
                            m->p->kernels[L->kernel].name,
                            m->p->kernels[N->kernel].name);
    }
}

static void init_part(Model *m, int part, const int64_t *image, MdlState *out)
{
    const LitProgram *p = m->p;
    const MdlLaunch *L = &m->launch[part][0];
    for (int i = 0; i < p->nlocs; i++) {
        const LitLoc *l = &p->locs[i];
        if (l->space != LIT_DRAM)
            continue;
        for (int32_t j = 0; j < l->size; j++)
            out->w[L->dram_off + (uint32_t)(l->addr + j)] = (uint64_t)l->init[j];
    }
    fresh_launch(m, out, L, part, 0);
    out->len = L->fixed_len;
    m->ops->init(m, out, L->pm_off, image);
    if (!m->nlaunch[part])
        out->w[0] = mdl_hdr_make(0, part);
    if (m->nlaunch[part])
        advance(m, out, NULL, 0);
}

void mdl_init_main(Model *m, MdlState *out)
{
    memset(out->w, 0, m->max_words * sizeof(uint64_t));
    init_part(m, 0, m->init_pm, out);
}

void mdl_init_recovery(Model *m, const int64_t *pm_image, MdlState *out)
{
    memset(out->w, 0, m->max_words * sizeof(uint64_t));
    init_part(m, 1, pm_image, out);
}

/* ---- one thread step ---------------------------------------------------- */

typedef struct {
    Model *m;
    MdlState *s;
    const MdlLaunch *L;
    int slot;
    const MdlInstr *d;                  /* the decoded instruction */
    MdlStepInfo *info;
    MdlAccess *acc;
    MdlError *e;
} Exec;

static void set_reg(Exec *x, int r, int64_t v)
{
    mdl_set(x->s, x->L->thr_off + (uint32_t)x->slot * x->L->thr_stride + 1 +
                  (uint32_t)x->L->regslot[r], (uint64_t)v);
}

/* Register r as the program names it, for a step described (info). */
static const char *reg_name(const Exec *x, int r, char *buf, size_t len)
{
    if (!x->info)
        return "";
    return lit_reg_name(&x->m->p->kernels[x->L->kernel], r, buf, len);
}

/* A register's value as a witness shows it: in a PTX kernel a generic
   address is the element it points to ("&out[1]") or, inside none, hex;
   anything else in decimal. */
static const char *val_text(const Exec *x, int64_t v, char *buf, size_t len)
{
    const LitProgram *p = x->m->p;
    int32_t loc;
    int64_t idx;
    if (!x->info)
        return "";
    if (!p->kernels[x->L->kernel].reg_names || v < LIT_WINDOW_PM ||
        v >= LIT_WINDOW_SHARED + LIT_WINDOW_SIZE) {
        snprintf(buf, len, "%lld", (long long)v);
    } else if (!lit_addr_resolve(p, LIT_AS_GENERIC, v, 0, &loc, &idx) &&
               lit_loc_address(p, loc) + idx * p->locs[loc].elem == v) {
        if (p->locs[loc].is_array)
            snprintf(buf, len, "&%s[%lld]", p->locs[loc].name,
                     (long long)idx);
        else
            snprintf(buf, len, "&%s", p->locs[loc].name);
    } else {
        snprintf(buf, len, "0x%llx", (unsigned long long)v);
    }
    return buf;
}

static int fail(Exec *x, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(Exec *x, int kind, const char *fmt, ...)
{
    va_list ap;
    x->e->kind = kind;
    va_start(ap, fmt);
    vsnprintf(x->e->msg, sizeof x->e->msg, fmt, ap);
    va_end(ap);
    return MDL_FAILED;
}

/* The decoded memory operand, or the bounds error. */
static int resolve(Exec *x)
{
    const LitLoc *l;
    if (!(x->d->flags & MDL_I_BOUNDS))
        return MDL_OK;
    if (x->d->loc < 0) {
        /* what the address does point into, if anything */
        const LitProgram *p = x->m->p;
        char in[96] = "";
        int32_t loc;
        int64_t idx, a = x->d->index;
        if (!lit_addr_resolve(p, x->d->in->m.aspace, a, 0, &loc, &idx)) {
            int64_t start = lit_loc_address(p, loc) + idx * p->locs[loc].elem;
            if (x->d->in->m.aspace == LIT_AS_SHARED && a < LIT_WINDOW_SIZE)
                start -= LIT_WINDOW_SHARED;
            char nm[64];
            mdl_word_name(x->m, p->locs[loc].space,
                          p->locs[loc].addr + (int32_t)idx, nm, sizeof nm);
            snprintf(in, sizeof in, " (byte %lld of %s, a u%d element)",
                     (long long)(a - start), nm, 8 * p->locs[loc].elem);
        }
        return fail(x, MDL_E_BOUNDS, "address 0x%llx is not %s of a "
                    "location%s", (unsigned long long)a,
                    lit_opflags(x->d->op) & LIT_OPF_FLUSH
                        ? "a byte" : lit_type_bits(x->d->in->ty) == 64
                        ? "an aligned 8-byte element"
                        : lit_type_bits(x->d->in->ty) == 32
                        ? "an aligned 4-byte element"
                        : lit_type_bits(x->d->in->ty) == 16
                        ? "an aligned 2-byte element" : "a 1-byte element",
                    in);
    }
    l = &x->m->p->locs[x->d->loc];
    if (l->is_array)
        return fail(x, MDL_E_BOUNDS, "index %lld out of bounds for %s[%d]",
                    (long long)x->d->index, l->name, (int)l->size);
    return fail(x, MDL_E_BOUNDS, "index %lld out of bounds for scalar %s",
                (long long)x->d->index, l->name);
}

static uint32_t mem_index(const Exec *x, int32_t word)
{
    if (x->d->space == LIT_DRAM)
        return x->L->dram_off + (uint32_t)word;
    return x->L->shared_off +
           (uint32_t)x->L->cta[x->slot] * (uint32_t)x->m->p->shared_words +
           (uint32_t)word;
}

static int64_t mem_read(Exec *x, int32_t word)
{
    if (x->d->space == LIT_PM)
        return x->m->ops->load(x->m, x->s, x->L, x->slot, word, x->info);
    return (int64_t)x->s->w[mem_index(x, word)];
}

static int mem_write(Exec *x, int32_t word, int64_t v)
{
    if (x->d->space == LIT_PM)
        return x->m->ops->store(x->m, x->s, x->L, x->slot, word, v,
                                x->d->op, x->info, x->e);
    mdl_set(x->s, mem_index(x, word), (uint64_t)v);
    return MDL_OK;
}

/* A vector access (ld/st .v2 .v4, DESIGN section 7): its elements in
   order, each one element access, all in this one step. */
static int exec_vec(Exec *x)
{
    const MdlInstr *d = x->d;
    const LitInstr *in = d->in;
    int load = (lit_opflags(d->op) & LIT_OPF_READ) != 0;
    for (int k = 0; k < d->nelem; k++) {
        char nm[64], rn[16];
        int64_t v;
        if (x->info)
            mdl_word_name(x->m, d->space, d->words[k], nm, sizeof nm);
        if (load) {
            int reg = k ? in->vreg[k - 1] : in->rd;
            v = lit_type_value(in->ty, mem_read(x, d->words[k]));
            set_reg(x, reg, v);
            mdl_info_effect(x->info, "%s = %lld (%s)",
                            reg_name(x, reg, rn, sizeof rn), (long long)v, nm);
            continue;
        }
        v = mdl_store_value(x->m, d, d->va[k]);
        mdl_info_effect(x->info, "%s = %lld", nm, (long long)v);
        x->m->vec_first = k == 0;
        x->m->vec_more = k + 1 < d->nelem;
        int r = mem_write(x, d->words[k], v);
        x->m->vec_first = 1;
        x->m->vec_more = 0;
        if (r)
            return r;
    }
    return MDL_OK;
}

/* ld, st, st.wt and the atomics. An atomic computes what it stores with
   lit_atomic (a failed cas stores nothing: it is a load). */
static int exec_mem(Exec *x)
{
    const MdlInstr *d = x->d;
    const LitInstr *in = d->in;
    unsigned f = lit_opflags(d->op);
    char nm[64], rn[16];
    int64_t v, old, nv;
    int r = resolve(x);
    if (r)
        return r;
    if (d->nelem > 1)
        return exec_vec(x);
    if (x->info)
        mdl_word_name(x->m, d->space, d->word, nm, sizeof nm);
    if (!(f & LIT_OPF_READ)) {          /* st, st.wt */
        nv = mdl_store_value(x->m, d, d->a);
        mdl_info_effect(x->info, "%s = %lld", nm, (long long)nv);
        return mem_write(x, d->word, nv);
    }
    old = mem_read(x, d->word);
    v = lit_type_value(in->ty, old);
    set_reg(x, in->rd, v);
    if (!(f & LIT_OPF_WRITE)) {         /* ld */
        mdl_info_effect(x->info, "%s = %lld (%s)",
                        reg_name(x, in->rd, rn, sizeof rn), (long long)v, nm);
        return MDL_OK;
    }
    if (!lit_atomic(in, old, d->a, d->b, &nv)) {
        mdl_info_effect(x->info, "%s = %lld (%s); compare fails",
                        reg_name(x, in->rd, rn, sizeof rn),
                        (long long)v, nm);
        return MDL_OK;
    }
    nv = mdl_store_value(x->m, d, nv);
    mdl_info_effect(x->info, "%s = %lld; %s = %lld",
                    reg_name(x, in->rd, rn, sizeof rn), (long long)v,
                    nm, (long long)nv);
    return mem_write(x, d->word, nv);
}

static int wait_kind(int op)
{
    switch (op) {
    case LIT_BAR_SYNC: return WK_BAR;
    case LIT_GRID_SYNC: return WK_GRID;
    case LIT_PBAR_WG: return WK_PWG;
    default: return WK_PKR;
    }
}

/* Executes the next instruction of thread `slot` in x->s. */
static int thread_step(Exec *x)
{
    const MdlLaunch *L = x->L;
    uint32_t hi = L->thr_off + (uint32_t)x->slot * L->thr_stride;
    MdlInstr d;
    int status = TS_RUN, kind = 0, r = MDL_OK;
    unsigned f;
    int64_t v;
    const char *why;

    if (TH_STATUS(x->s->w[hi]) != TS_RUN)
        return MDL_NOSTEP;
    mdl_decode_at(x->m, x->s, L, x->slot, &d);
    x->d = &d;
    if ((x->m->mode & MDL_CONFINE) && d.word >= 0 &&
        d.in->m.loc == LIT_MEM_ADDR && d.op != LIT_NOP)
        red_access_check(x->m, L, x->slot, &d);
    x->e->gtid = d.gtid;
    x->e->kernel = L->kernel;
    x->e->line = d.line;
    x->e->file = body_of(x->m, L, x->slot)->file;
    if (x->acc) {
        x->acc->gtid = d.gtid;
        x->acc->op = d.op;
        x->acc->space = d.word >= 0 ? d.space : -1;
        x->acc->word = d.word;
        x->acc->cta = d.cta;
    }
    if (x->info) {
        x->info->gtid = d.gtid;
        x->info->kernel = L->kernel;
        x->info->line = d.line;
        x->info->file = body_of(x->m, L, x->slot)->file;
        lit_format_instr(x->m->p, body_of(x->m, L, x->slot), d.in,
                         x->info->instr, sizeof x->info->instr);
        if (d.in->guard) {              /* PTX's @p / @!p */
            char rn[16];
            const char *g = reg_name(x, d.in->guard - 1, rn, sizeof rn);
            if (d.op == LIT_NOP)
                mdl_info_effect(x->info, "not executed (%s is %s)", g,
                                d.in->gneg ? "true" : "false");
            else if (d.op == LIT_BRA)
                mdl_info_effect(x->info, "taken");
        }
    }
    f = lit_opflags(d.op);
    if (f & (LIT_OPF_READ | LIT_OPF_WRITE)) {
        r = exec_mem(x);
    } else if (f & LIT_OPF_ALU) {
        if (lit_alu(d.in, d.a, d.b, d.c, &v, &why)) {
            r = fail(x, MDL_E_ARITH, "%s (%lld, %lld)", why, (long long)d.a,
                     (long long)d.b);
        } else {
            set_reg(x, d.in->rd, v);
            char rn[16], vt[96];
            mdl_info_effect(x->info, "%s = %s",
                            reg_name(x, d.in->rd, rn, sizeof rn),
                            val_text(x, v, vt, sizeof vt));
        }
    } else if (f & LIT_OPF_COND) {
        int cmp = lit_opinfo[d.op].cmp;
        if (lit_compare(cmp, d.in->sty, d.a, d.b))
            mdl_info_effect(x->info, "taken (%lld %s %lld)", (long long)d.a,
                            lit_cmp_names[cmp], (long long)d.b);
        else
            mdl_info_effect(x->info, "not taken");
    } else if (d.op == LIT_ASSERT) {
        if (!lit_compare(d.in->cmp, d.in->sty, d.a, d.b))
            r = fail(x, MDL_E_ASSERT, "assertion failed (%lld %s %lld)",
                     (long long)d.a, lit_cmp_names[d.in->cmp], (long long)d.b);
    } else if (f & LIT_OPF_MEM) {       /* clwb, clflush */
        r = resolve(x);
        if (!r)
            r = x->m->ops->instr(x->m, x->s, L, x->slot, d.in,
                                 d.space == LIT_PM ? d.word : -1, x->info,
                                 x->e);
    } else if ((f & LIT_OPF_PERSIST) && !(d.flags & MDL_I_WAITS)) {
        r = x->m->ops->instr(x->m, x->s, L, x->slot, d.in, -1, x->info,
                             x->e);
    }                                   /* else bra, exit, nop, barriers */
    if (r)
        return r;
    if (d.flags & MDL_I_WAITS) {
        status = TS_WAIT;
        kind = wait_kind(d.op);
    } else if (d.flags & MDL_I_ENDS) {
        status = TS_DONE;
    }
    mdl_set(x->s, hi, mdl_th_make(d.next, status, kind));
    if (x->acc) {
        x->acc->waits = status == TS_WAIT;
        x->acc->done = status == TS_DONE;
    }
    return MDL_OK;
}

/* ---- barriers ------------------------------------------------------------ */

/* Releases group [first, first+n) if every thread that has not exited waits
   there at one kind among kinds (bit set). Returns 1 when it released. */
static int try_release(Model *m, MdlState *s, const MdlLaunch *L, int first,
                       int n, int from, unsigned kinds, MdlStepInfo *info)
{
    int kind = -1, waiting = 0;
    for (int k = 0, i = from; k < n;
         k++, i = i + 1 < first + n ? i + 1 : first) {
        uint64_t h = s->w[L->thr_off + (uint32_t)i * L->thr_stride];
        if (TH_STATUS(h) == TS_DONE)
            continue;
        if (TH_STATUS(h) != TS_WAIT)
            return 0;
        if (kind >= 0 && TH_KIND(h) != kind)
            return 0;
        kind = TH_KIND(h);
        waiting++;
    }
    if (!waiting || !(kinds & (1u << kind)))
        return 0;
    if (kind == WK_PWG || kind == WK_PKR) {
        int op = kind == WK_PWG ? LIT_PBAR_WG : LIT_PBAR_KR;
        if (m->ops->release(m, s, L, first, n, op, info) == MDL_BLOCKED)
            return 0;
    }
    for (int i = first; i < first + n; i++) {
        uint32_t hi = L->thr_off + (uint32_t)i * L->thr_stride;
        uint64_t h = s->w[hi];
        uint32_t next;
        const LitBody *b;
        if (TH_STATUS(h) != TS_WAIT)
            continue;
        b = body_of(m, L, i);
        next = TH_PC(h) + 1;
        mdl_set(s, hi, mdl_th_make(next, next >= (uint32_t)b->ninstr ? TS_DONE
                                                                 : TS_RUN, 0));
    }
    if (info) {
        if (kind == WK_BAR || kind == WK_PWG)
            mdl_info_effect(info, "%s of CTA %d releases", wait_names[kind],
                            (int)L->cta[first]);
        else
            mdl_info_effect(info, "%s releases", wait_names[kind]);
    }
    return 1;
}

static void release_all(Model *m, MdlState *s, const MdlLaunch *L,
                        MdlStepInfo *info)
{
    int again = 1;
    if (L->kernel < 0)
        return;
    while (again) {
        again = 0;
        for (int32_t c = 0; c < L->ncta; c++)
            if (L->cta_count[c])
                again |= try_release(m, s, L, L->cta_first[c],
                                     L->cta_count[c], L->cta_first[c],
                                     1u << WK_BAR | 1u << WK_PWG, info);
        again |= try_release(m, s, L, 0, L->nthreads, 0,
                             1u << WK_GRID | 1u << WK_PKR, info);
    }
}

/* Classifies a state where nothing can move. */
static void stuck(Model *m, const MdlState *s, const MdlLaunch *L, MdlError *e)
{
    const LitKernel *k = &m->p->kernels[L->kernel];
    int first_kind = -1;
    int32_t first_gtid = -1;
    memset(e, 0, sizeof *e);
    e->kernel = L->kernel;
    e->gtid = -1;
    for (int32_t c = 0; c <= L->ncta; c++) {
        /* c == ncta: the whole kernel */
        int first = c < L->ncta ? L->cta_first[c] : 0;
        int n = c < L->ncta ? L->cta_count[c] : L->nthreads;
        int kind = -1;
        int32_t g0 = -1;
        for (int i = first; i < first + n; i++) {
            uint64_t h = s->w[L->thr_off + (uint32_t)i * L->thr_stride];
            if (TH_STATUS(h) != TS_WAIT)
                continue;
            if (first_kind < 0) {
                first_kind = TH_KIND(h);
                first_gtid = L->gtid[i];
            }
            if (kind < 0) {
                kind = TH_KIND(h);
                g0 = L->gtid[i];
            } else if (TH_KIND(h) != kind) {
                e->kind = MDL_E_DIVERGENCE;
                e->gtid = g0;
                if (c < L->ncta)
                    snprintf(e->msg, sizeof e->msg,
                             "barrier divergence in CTA %d of %s: thread %d "
                             "waits at %s, thread %d at %s", (int)c, k->name,
                             (int)g0, wait_names[kind], (int)L->gtid[i],
                             wait_names[TH_KIND(h)]);
                else
                    snprintf(e->msg, sizeof e->msg,
                             "barrier divergence in %s: thread %d waits at "
                             "%s, thread %d at %s", k->name, (int)g0,
                             wait_names[kind], (int)L->gtid[i],
                             wait_names[TH_KIND(h)]);
                return;
            }
        }
    }
    e->kind = MDL_E_DEADLOCK;
    e->gtid = first_gtid;
    if (first_kind >= 0)
        snprintf(e->msg, sizeof e->msg,
                 "deadlock in %s: thread %d waits at %s and no thread can "
                 "move", k->name, (int)first_gtid, wait_names[first_kind]);
    else
        snprintf(e->msg, sizeof e->msg,
                 "deadlock in %s: no thread can move", k->name);
}

/* ---- successors ---------------------------------------------------------- */

/* After a step: releases and joins. A thread step can only complete the
   groups of the thread it moved (its CTA, the kernel), and only when that
   thread now waits or has finished; what those releases finish may
   complete any group, so a release falls back to the full pass. A model
   event (naive persists, hw request completions) may unblock anything. */
static void post_step(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                      MdlStepInfo *info)
{
    if (slot >= 0 && L->kernel >= 0) {
        uint64_t h = s->w[L->thr_off + (uint32_t)slot * L->thr_stride];
        int st = TH_STATUS(h), k = TH_KIND(h), c = L->cta[slot], rel = 0;
        if (st == TS_RUN)
            return;
        if (st == TS_DONE || k == WK_BAR || k == WK_PWG)
            rel |= try_release(m, s, L, L->cta_first[c], L->cta_count[c],
                               slot, 1u << WK_BAR | 1u << WK_PWG, info);
        if (st == TS_DONE || k == WK_GRID || k == WK_PKR)
            rel |= try_release(m, s, L, 0, L->nthreads, slot,
                               1u << WK_GRID | 1u << WK_PKR, info);
        if (rel)
            release_all(m, s, L, info);
        if (st != TS_DONE && !rel)
            return;
    } else {
        release_all(m, s, L, info);
    }
    advance(m, s, info, slot >= 0 ? slot : 0);
}

int mdl_exec_step(Model *m, MdlState *s, const MdlLaunch *L, uint32_t step,
                  MdlStepInfo *info, MdlAccess *acc, MdlError *e)
{
    int r;
    if (step & MDL_STEP_EVENT) {
        if (acc) {
            memset(acc, 0, sizeof *acc);
            acc->gtid = -1;
            acc->op = -1;
            acc->space = -1;
        }
        r = m->ops->event(m, s, L, step & ~MDL_STEP_EVENT, info);
    } else {
        Exec x;
        if (step >= (uint32_t)L->nthreads)
            return MDL_NOSTEP;
        x.m = m;
        x.s = s;
        x.L = L;
        x.slot = (int)step;
        x.info = info;
        x.acc = acc;
        x.e = e;
        r = thread_step(&x);
    }
    if (r == MDL_OK)
        post_step(m, s, L, step & MDL_STEP_EVENT ? -1 : (int)step, info);
    return r;
}

/* Runs step `step` of s into out. */
static int run_step(Model *m, const MdlState *s, const MdlLaunch *L,
                    uint32_t step, MdlState *out, MdlStepInfo *info,
                    MdlError *e)
{
    mdl_state_copy(out, s);
    return mdl_exec_step(m, out, L, step, info, NULL, e);
}

int mdl_step(Model *m, MdlState *s, uint32_t step, MdlAccess *acc,
             MdlError *e)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    int r;
    if (!(step & MDL_STEP_EVENT) && mdl_terminal(m, s))
        return -1;
    r = mdl_exec_step(m, s, L, step, NULL, acc, e);
    if (r == MDL_OK)
        return 0;
    return r == MDL_FAILED ? 1 : -1;
}

int mdl_thread_ready(const Model *m, const MdlState *s, int slot)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    if (mdl_terminal(m, s) || slot < 0 || slot >= L->nthreads)
        return 0;
    return TH_STATUS(s->w[L->thr_off + (uint32_t)slot * L->thr_stride]) ==
           TS_RUN;
}

void mdl_launch_view(const Model *m, const MdlState *s, MdlLaunchView *out)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    out->kernel = L->kernel;
    out->nthreads = L->nthreads;
    out->ncta = L->ncta;
    out->gtid = L->gtid;
    out->body = L->body;
    out->cta = L->cta;
    out->cta_first = L->cta_first;
    out->cta_count = L->cta_count;
}

uint32_t mdl_thread_pc(const Model *m, const MdlState *s, int slot)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    assert(slot >= 0 && slot < L->nthreads);
    return TH_PC(s->w[L->thr_off + (uint32_t)slot * L->thr_stride]);
}

int mdl_thread_done(const Model *m, const MdlState *s, int slot)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    if (slot < 0 || slot >= L->nthreads)
        return 0;
    return TH_STATUS(s->w[L->thr_off + (uint32_t)slot * L->thr_stride]) ==
           TS_DONE;
}

int mdl_launch_index(const Model *m, const MdlState *s)
{
    (void)m;
    return (int)HDR_LAUNCH(s->w[0]);
}

int mdl_successors(Model *m, const MdlState *s, MdlSuccFn succ, MdlErrFn err,
                   void *ctx)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    MdlState *out = &m->succ;
    MdlError e;
    uint32_t codes[128];
    int n = 0, moved = 0, nev, len;
    if (!out->w) {                      /* MDL_ONE: made when first asked */
        out->cap = m->max_words;
        out->w = base_arena_alloc(m->arena, m->max_words * sizeof *out->w);
        if (!out->w)
            return -1;
    }
    nev = m->ops->events(m, s, L, codes, 128);
    assert(nev >= 0 && nev <= 128);
    if (!mdl_terminal(m, s) && (m->mode & MDL_POR)) {
        int i = red_por_ample(m, s, L, codes, nev, out, &m->chain);
        if (i >= 0) {
            succ(ctx, (uint32_t)i, out);
            return 1;
        }
    }
    if (!mdl_terminal(m, s))
        for (int32_t i = 0; i < L->nthreads; i++) {
            int r;
            if (TH_STATUS(s->w[L->thr_off + (uint32_t)i * L->thr_stride]) !=
                TS_RUN)
                continue;
            r = red_por_transition(m, s, L, (uint32_t)i, out, &e, &len);
            m->chain = len;
            if (r == MDL_OK) {
                n++;
                if (succ(ctx, (uint32_t)i, out))
                    return n;
                moved = 1;
            } else if (r == MDL_FAILED) {
                err(ctx, (uint32_t)i, &e);
                moved = 1;
            }
        }
    m->chain = 1;
    for (int i = 0; i < nev; i++)
        if (run_step(m, s, L, MDL_STEP_EVENT | codes[i], out, NULL, &e) ==
            MDL_OK) {
            n++;
            if (succ(ctx, MDL_STEP_EVENT | codes[i], out))
                return n;
        }
    if (!moved && !nev && !mdl_terminal(m, s)) {
        stuck(m, s, L, &e);
        err(ctx, MDL_STEP_NONE, &e);
    }
    return n;
}

int mdl_succ_steps(const Model *m)
{
    return m->chain;
}

int mdl_chain(Model *m, const MdlState *s, uint32_t step)
{
    MdlError e;
    int n = 1;
    if (!(step & MDL_STEP_EVENT) && !mdl_terminal(m, s))
        red_por_transition(m, s, mdl_launch_of(m, s), step, &m->succ, &e, &n);
    return n;
}

int mdl_observed(const Model *m, int32_t word)
{
    return !m->projected || m->observed[word];
}

int mdl_lines_projected(const Model *m)
{
    return m->kept != NULL;
}

int mdl_apply(Model *m, const MdlState *s, uint32_t step, MdlState *out,
              MdlStepInfo *info, MdlError *e)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    int r;
    memset(info, 0, sizeof *info);
    info->gtid = -1;
    info->kernel = -1;
    if (step == MDL_STEP_NONE) {
        stuck(m, s, L, e);
        return 1;
    }
    if (!(step & MDL_STEP_EVENT) && mdl_terminal(m, s))
        return -1;
    r = run_step(m, s, L, step, out, info, e);
    if (r == MDL_OK)
        return 0;
    return r == MDL_FAILED ? 1 : -1;
}

/* ---- observation ----------------------------------------------------------- */

int mdl_images(Model *m, const MdlState *s, MdlImageFn fn, void *ctx)
{
    return m->ops->images(m, s, mdl_launch_of(m, s)->pm_off, fn, ctx);
}

uint32_t mdl_persist_key(const Model *m, const MdlState *s)
{
    return mdl_launch_of(m, s)->pm_off + m->key_skip;
}

void mdl_observe(const Model *m, const MdlState *s, int64_t *pm, int64_t *dram)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    if (pm)
        m->ops->visible(m, s, L->pm_off, pm);
    if (dram)
        for (int32_t i = 0; i < m->p->dram_words; i++)
            dram[i] = (int64_t)s->w[L->dram_off + (uint32_t)i];
}

uint32_t mdl_observable(const Model *m, const MdlState *s, uint64_t *out)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    memcpy(out, s->w, L->mthr_off * sizeof *out);
    m->ops->visible(m, s, L->pm_off, (int64_t *)(out + L->mthr_off));
    return L->mthr_off + (uint32_t)m->p->pm_words;
}

int64_t mdl_reg(const Model *m, const MdlState *s, int32_t gtid, int reg)
{
    const MdlLaunch *L = mdl_launch_of(m, s);
    int lo = 0, hi = L->nthreads - 1;
    if (reg < 0 || reg >= L->nregslot || L->regslot[reg] < 0)
        return 0;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (L->gtid[mid] == gtid)
            return (int64_t)s->w[L->thr_off + (uint32_t)mid * L->thr_stride +
                                 1 + (uint32_t)L->regslot[reg]];
        if (L->gtid[mid] < gtid)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

int mdl_pending(const Model *m, const MdlState *s, MdlPending *out, int max)
{
    return m->ops->pending(m, s, mdl_launch_of(m, s)->pm_off, out, max);
}
