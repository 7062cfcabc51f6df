/*
 * chk_witness.c — shortest witnesses, rebuilt after the exploration.
 *
 * A witness is a chain of segments: the main-program path to a crash point
 * (BFS parent pointers of level 0), then for each crash the recovery path
 * on that crash's image, found by re-exploring the memoised recovery (the
 * exploration is deterministic, so the state numbers are the ones the memo
 * recorded). Each segment is replayed with mdl_apply to describe its steps;
 * pending stores get witness-wide numbers (#1, #2, …) as they are created,
 * and each crash lists which of them its image includes and lacks.
 */
#include <stdlib.h>
#include <string.h>

#include "checker/checker_int.h"

typedef BaseStr Buf;

#define put base_str_printf
#define put_json_str base_str_json

typedef struct {
    int level;                          /* 0 main, else recovery level */
    uint32_t img;                       /* recovery: the image it starts on */
    uint32_t target;                    /* last state of the segment */
    uint32_t err_step;                  /* failing step after it, or NONE */
    uint32_t crash_img;                 /* image of the crash after, or NONE */
} Seg;

#define MAXSEG 64

typedef struct {
    ChkRun *R;
    Buf text, steps, crashes, deps;
    MdlState a, b;                      /* replay */
    MdlState c, d;                      /* finding the steps */
    int32_t slotid[64];
    int nstores, nsteps, ncrashes;
    int broken;                         /* the replay went astray */
    int first_crash_after;
    char first_crash[512];
    char outcome[1024];                 /* the observation witnessed, or "" */
    char error[160];                    /* the runtime error, or "" */
} W;

static void image_text(const ChkRun *R, const int64_t *pm, Buf *b)
{
    int first = 1;
    for (int i = 0; i < R->p->nlocs; i++) {
        const LitLoc *l = &R->p->locs[i];
        if (l->space != LIT_PM)
            continue;
        for (int32_t j = 0; j < l->size; j++) {
            if (l->is_array)
                put(b, "%s%s[%d]=%lld", first ? "" : "; ", l->name, (int)j,
                    (long long)pm[l->addr + j]);
            else
                put(b, "%s%s=%lld", first ? "" : "; ", l->name,
                    (long long)pm[l->addr + j]);
            first = 0;
        }
    }
}

/* The memory word a step read and the one it wrote, for the reads-from
   edges of `gpmc show --dot` (specs/schema.md): "x", "a[1]", shared words
   with their CTA ("s[0]@cta1"), and the word's space. The instruction
   decoder says what the step's instruction reads and may write, on the
   state before it (w->a); a CAS wrote only if the value it read (its rd,
   in the state after it, w->b) was the one it compared with. */
typedef struct {
    char reads[80], writes[80];
    const char *space;
} Access;

static void step_access(W *w, uint32_t step, Access *ac)
{
    static const char *const spaces[] = {"pm", "dram", "shared"};
    ChkRun *R = w->R;
    MdlInstr di;
    char nm[64];
    memset(ac, 0, sizeof *ac);
    if ((step & MDL_STEP_EVENT) || mdl_decode(R->m, &w->a, (int)step, &di) ||
        di.space < 0 || di.space > LIT_SHARED || di.word < 0 ||
        !(di.flags & (MDL_I_READ | MDL_I_WRITE)))
        return;
    int rd = (di.flags & MDL_I_READ) != 0, wr = (di.flags & MDL_I_WRITE) != 0;
    if ((di.flags & MDL_I_READ) && wr) {    /* an atomic: did it store? */
        int64_t nv;
        wr = lit_atomic(di.in, mdl_reg(R->m, &w->b, di.gtid, di.in->rd),
                        di.a, di.b, &nv);
    }
    mdl_word_name(R->m, di.space, di.word, nm, sizeof nm);
    if (di.space == LIT_SHARED)
        snprintf(ac->reads, sizeof ac->reads, "%s@cta%d", nm, (int)di.cta);
    else
        snprintf(ac->reads, sizeof ac->reads, "%s", nm);
    memcpy(ac->writes, ac->reads, sizeof ac->writes);
    if (!rd)
        ac->reads[0] = '\0';
    if (!wr)
        ac->writes[0] = '\0';
    ac->space = spaces[di.space];
}

static void step_json(W *w, const MdlStepInfo *in, int level, int store,
                      const Access *ac)
{
    const char *kname = in->kernel >= 0 ? w->R->p->kernels[in->kernel].name
                                        : "";
    if (w->steps.len)
        put(&w->steps, ",");
    put(&w->steps, "{\"id\":%d,\"phase\":\"%s\",\"thread\":%d,\"kernel\":",
        w->nsteps, level ? "recovery" : "main", (int)in->gtid);
    put_json_str(&w->steps, kname);
    if (in->file) {
        put(&w->steps, ",\"file\":");
        put_json_str(&w->steps, in->file);
    }
    put(&w->steps, ",\"line\":%d,\"instr\":", (int)in->line);
    put_json_str(&w->steps, in->instr);
    put(&w->steps, ",\"effect\":");
    put_json_str(&w->steps, in->effect);
    if (store > 0)
        put(&w->steps, ",\"store\":%d", store);
    if (ac && ac->space) {
        put(&w->steps, ",\"space\":\"%s\"", ac->space);
        if (ac->reads[0]) {
            put(&w->steps, ",\"reads\":");
            put_json_str(&w->steps, ac->reads);
        }
        if (ac->writes[0]) {
            put(&w->steps, ",\"writes\":");
            put_json_str(&w->steps, ac->writes);
        }
    }
    put(&w->steps, "}");
}

/* stores: the first pending store the step created (0: none); a vector
   store creates in->ncreated, numbered from it. */
static void describe(W *w, const MdlStepInfo *in, int store)
{
    const ChkRun *R = w->R;
    put(&w->text, "  %d. ", w->nsteps + 1);
    if (in->gtid >= 0 && in->file)
        put(&w->text, "%s thread %d %s:%d: %s",
            R->p->kernels[in->kernel].name, (int)in->gtid, in->file,
            (int)in->line, in->instr);
    else if (in->gtid >= 0)
        put(&w->text, "%s thread %d line %d: %s",
            R->p->kernels[in->kernel].name, (int)in->gtid, (int)in->line,
            in->instr);
    else
        put(&w->text, "%s", in->instr);
    if (in->effect[0])
        put(&w->text, "  -- %s", in->effect);
    if (store > 0) {
        put(&w->text, " [");
        for (int k = 0; k < in->ncreated; k++)
            put(&w->text, "%s#%d", k ? " " : "", store + k);
        put(&w->text, "]");
    }
    put(&w->text, "\n");
}

/* Replays one step of w->a into w->b and swaps. Returns 0 ok. */
static int replay(W *w, uint32_t step, int level)
{
    ChkRun *R = w->R;
    MdlStepInfo in;
    MdlError e;
    MdlState t;
    Access ac;
    int store = 0, r = mdl_apply(R->m, &w->a, step, &w->b, &in, &e);
    if (r)
        return r;
    /* a step's text is never empty: empty, the model could not format
       its instruction (lit_format_instr out of memory) */
    if (!in.instr[0])
        chk_fail(R);
    step_access(w, step, &ac);
    if (in.removed) {
        int k = 0;
        for (int j = 0; j < 64; j++)
            if (!(in.removed & (1ull << j)))
                w->slotid[k++] = w->slotid[j];
        for (; k < 64; k++)
            w->slotid[k] = 0;
    }
    /* new stores, in the order they were inserted (each moves the slots
       at and above it up); then each one's dependencies, in the slots
       they have after the step */
    for (int k = 0; k < in.ncreated; k++) {
        int32_t c = in.created[k];
        if (c < 0 || c >= 64)
            continue;
        int id = ++w->nstores;
        store = store ? store : id;
        memmove(&w->slotid[c + 1], &w->slotid[c],
                (size_t)(63 - c) * sizeof *w->slotid);
        w->slotid[c] = id;
    }
    if (store) {
        MdlPending pend[64];
        int np = mdl_pending(R->m, &w->b, pend, 64);
        for (int i = 0; i < np; i++)
            if (w->slotid[i] >= store)
                for (int j = 0; j < np; j++)
                    if (pend[i].deps & (1ull << j)) {
                        if (w->deps.len)
                            put(&w->deps, ",");
                        put(&w->deps, "[%d,%d]", w->slotid[i], w->slotid[j]);
                    }
    }
    describe(w, &in, store);
    step_json(w, &in, level, store, &ac);
    w->nsteps++;
    t = w->a;
    w->a = w->b;
    w->b = t;
    return 0;
}

/* Replays one transition of the search: with fused steps, each of its
   instructions as a step of its own. */
static int replay_transition(W *w, uint32_t step, int level)
{
    int r = 0;
    for (int k = mdl_chain(w->R->m, &w->a, step); k > 0 && !r; k--)
        r = replay(w, step, level);
    return r;
}

typedef struct {
    const int64_t *want;
    uint32_t n;
    uint64_t included;
} Find;

static int find_image(void *ctx, const int64_t *pm, uint64_t included)
{
    Find *f = ctx;
    if (memcmp(pm, f->want, f->n * sizeof *f->want))
        return 0;
    f->included = included;
    return 1;
}

/* The crash after the current state, on image img. */
static void crash(W *w, uint32_t img, int ncrash)
{
    ChkRun *R = w->R;
    MdlPending pend[64];
    Find f;
    Buf inc = {0}, exc = {0};
    int np = mdl_pending(R->m, &w->a, pend, 64);
    chk_image_expand(R, img, R->img.full);
    f.want = R->img.full;
    f.n = (uint32_t)R->p->pm_words;
    f.included = 0;
    if (!mdl_images(R->m, &w->a, find_image, &f))
        w->broken = 1;                  /* the state has no such image */
    for (int j = 0; j < np && j < 64; j++) {
        char nm[64];
        Buf *b = (f.included & (1ull << j)) ? &inc : &exc;
        mdl_word_name(R->m, LIT_PM, pend[j].word, nm, sizeof nm);
        put(b, "%s#%d %s = %lld", b->len ? ", " : "", w->slotid[j], nm,
            (long long)pend[j].value);
    }
    put(&w->text, "crash %d after step %d", ncrash, w->nsteps);
    if (np) {
        put(&w->text, ": image includes %s; lacks %s", inc.len ? inc.s : "none",
            exc.len ? exc.s : "none");
    }
    put(&w->text, "\n  image: ");
    image_text(R, f.want, &w->text);
    put(&w->text, "\n");
    if (w->crashes.len)
        put(&w->crashes, ",");
    put(&w->crashes, "{\"after\":%d,\"included\":[", w->nsteps - 1);
    for (int j = 0, k = 0; j < np && j < 64; j++)
        if (f.included & (1ull << j))
            put(&w->crashes, "%s%d", k++ ? "," : "", w->slotid[j]);
    put(&w->crashes, "],\"excluded\":[");
    for (int j = 0, k = 0; j < np && j < 64; j++)
        if (!(f.included & (1ull << j)))
            put(&w->crashes, "%s%d", k++ ? "," : "", w->slotid[j]);
    put(&w->crashes, "]}");
    w->text.failed |= inc.failed | exc.failed;  /* finish reads it */
    base_str_free(&inc);
    base_str_free(&exc);
}

/* The steps from the root of level `level`'s space to target, found by
   re-expanding each state's parent; how many, or -1. */
static int collect_path(W *w, int level, uint32_t target, uint32_t *out,
                        int max)
{
    ChkLevel *L = &w->R->lvl[level];
    int n = 0;
    for (uint32_t s = target; s != 0 && s != CHK_NONE;
         s = chk_space_parent(&L->space, s))
        n++;
    if (n > max)
        return -1;
    for (uint32_t s = target, k = (uint32_t)n; s != 0 && s != CHK_NONE;
         s = chk_space_parent(&L->space, s))
        out[--k] = chk_space_step(&L->space, w->R->m, &L->cur,
                                  chk_space_parent(&L->space, s), s, &w->c,
                                  &w->d);
    return n;
}

/* Finds the memo entry for id (err or observation) of recovery (img, d). */
static const ChkBest *memo_entry(ChkRun *R, uint32_t img, int d, int err,
                                 uint32_t id)
{
    uint32_t mi = chk_recover(R, img, d, CHK_NONE);
    const ChkMemo *mm;
    const ChkBest *b;
    uint32_t n, lo = 0, hi;
    if (mi == CHK_NONE)
        return NULL;
    mm = &R->memo[mi];
    b = R->mbest + (err ? mm->err_first : mm->out_first);
    n = err ? mm->nerr : mm->nout;
    hi = n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (b[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && b[lo].id == id ? &b[lo] : NULL;
}

/* Plays the segments; the text and JSON end up in w. */
static void play(W *w, const Seg *seg, int nseg)
{
    ChkRun *R = w->R;
    uint32_t *path = base_malloc(((size_t)R->o.max_steps + 2) * sizeof *path);
    if (!path) {
        chk_fail(R);
        w->broken = 1;
        return;
    }
    for (int k = 0; k < nseg; k++) {
        const Seg *g = &seg[k];
        int n;
        if (g->level == 0) {
            mdl_init_main(R->m, &w->a);
            put(&w->text, "main program:\n");
        } else {
            chk_recover_space(R, g->img, R->o.crash_depth - g->level,
                              g->target);
            chk_image_expand(R, g->img, R->img.full);
            mdl_init_recovery(R->m, R->img.full, &w->a);
            put(&w->text, "recovery %d:\n", g->level);
        }
        memset(w->slotid, 0, sizeof w->slotid);
        n = collect_path(w, g->level, g->target, path,
                         (int)R->o.max_steps + 1);
        if (n < 0)
            w->broken = 1;
        for (int i = 0; i < n; i++)
            if (replay_transition(w, path[i], g->level)) {
                w->broken = 1;
                break;
            }
        if (g->err_step != CHK_NONE) {
            MdlStepInfo in;
            MdlError e;
            if (mdl_apply(R->m, &w->a, g->err_step, &w->b, &in, &e) == 1) {
                if (g->err_step != MDL_STEP_NONE) {
                    describe(w, &in, 0);
                    step_json(w, &in, g->level, 0, NULL);
                    w->nsteps++;
                }
                put(&w->text, "error: %s\n", e.msg);
                snprintf(w->error, sizeof w->error, "%s", e.msg);
            } else {
                w->broken = 1;
            }
        }
        if (g->crash_img != CHK_NONE)
            crash(w, g->crash_img, ++w->ncrashes);
    }
    base_free(path);
}

/* Fills v; returns the steps replayed, or -1 (ChkRun's witness
   functions). */
static int finish(W *w, ChkViolation *v, int kind)
{
    ChkRun *R = w->R;
    Buf js = {0};
    int steps = w->broken || R->failed ? -1 : w->nsteps;
    put(&js, "{\"kind\":\"%s\",\"steps\":[%s],\"crashes\":[%s]",
        chk_vkind_names[kind], w->steps.len ? w->steps.s : "",
        w->crashes.len ? w->crashes.s : "");
    if (w->crashes.len) {
        const char *c = w->crashes.s, *e = strchr(c, '}');
        put(&js, ",\"crash\":%.*s}", (int)(e - c), c);
    }
    put(&js, ",\"deps\":[%s]", w->deps.len ? w->deps.s : "");
    if (w->outcome[0]) {
        put(&js, ",\"outcome\":");
        put_json_str(&js, w->outcome);
    }
    if (w->error[0]) {
        put(&js, ",\"error\":");
        put_json_str(&js, w->error);
    }
    put(&js, "}");
    v->kind = kind;
    v->depth = w->ncrashes;
    v->witness = base_arena_strdup(R->arena, w->text.len ? w->text.s : "");
    v->witness_json = base_arena_strdup(R->arena, js.s ? js.s : "{}");
    /* a witness short of a line is no witness: the check ends incomplete
       and the report drops its violations (chk_run: build_report) */
    if (w->text.failed || w->steps.failed || w->crashes.failed ||
        w->deps.failed || js.failed || !v->witness || !v->witness_json)
        chk_fail(R);
    base_str_free(&js);
    base_str_free(&w->text);
    base_str_free(&w->steps);
    base_str_free(&w->crashes);
    base_str_free(&w->deps);
    base_free(w->a.w);
    base_free(w->b.w);
    base_free(w->c.w);
    base_free(w->d.w);
    return steps;
}

static int start(W *w, ChkRun *R)
{
    memset(w, 0, sizeof *w);
    w->R = R;
    w->a.cap = w->b.cap = w->c.cap = w->d.cap = mdl_max_words(R->m);
    w->a.w = base_calloc(w->a.cap, sizeof(uint64_t));
    w->b.w = base_calloc(w->b.cap, sizeof(uint64_t));
    w->c.w = base_calloc(w->c.cap, sizeof(uint64_t));
    w->d.w = base_calloc(w->d.cap, sizeof(uint64_t));
    if (w->a.w && w->b.w && w->c.w && w->d.w)
        return 0;
    base_free(w->a.w);
    base_free(w->b.w);
    base_free(w->c.w);
    base_free(w->d.w);
    chk_fail(R);                        /* the violation stays unbuilt */
    return -1;
}

/* Recovery segments from main image img towards observation (or error) id,
   appended to seg; returns the new count. */
static int recovery_segs(W *w, Seg *seg, int n, uint32_t img, int err,
                         uint32_t id)
{
    ChkRun *R = w->R;
    int d = R->o.crash_depth - 1;
    for (;;) {
        const ChkBest *b = n < MAXSEG && d >= 0
                               ? memo_entry(R, img, d, err, id) : NULL;
        Seg *g = &seg[n++];
        if (!b) {
            w->broken = 1;              /* the memo has lost the way */
            return n - 1;
        }
        g->level = R->o.crash_depth - d;
        g->img = img;
        g->target = b->state;
        g->err_step = b->via == VIA_ERROR ? b->aux : CHK_NONE;
        g->crash_img = b->via == VIA_NESTED ? b->aux : CHK_NONE;
        if (b->via != VIA_NESTED)
            break;
        img = b->aux;
        d--;
    }
    return n;
}

/* A main-program segment with no error and no crash after it. */
static void main_seg(Seg *seg)
{
    memset(seg, 0, MAXSEG * sizeof *seg);
    seg[0].err_step = CHK_NONE;
    seg[0].crash_img = CHK_NONE;
}

/* The main program to the first crash point with image img, then the
   recoveries towards observation (or error) id; returns the segments. */
static int through_recovery(W *w, Seg *seg, uint32_t img, int err,
                            uint32_t id)
{
    seg[0].target = w->R->img.img[img].state;
    seg[0].crash_img = img;
    return recovery_segs(w, seg, 1, img, err, id);
}

int chk_witness(ChkRun *R, ChkViolation *v, int ph, uint32_t o)
{
    W w;
    Seg seg[MAXSEG];
    int n = 1;
    if (start(&w, R))
        return -1;
    main_seg(seg);
    if (ph == LIT_RECOVERED) {
        n = through_recovery(&w, seg, R->outs[ph].o[o].aux, 0,
                             R->outs[ph].o[o].state);
    } else {
        seg[0].target = R->outs[ph].o[o].state;
        if (ph == LIT_CRASH)
            seg[0].crash_img = R->outs[ph].o[o].aux;
    }
    play(&w, seg, n);
    if (ph == LIT_CRASH) {
        put(&w.text, "outcome: ");
    } else {
        put(&w.text, "%s: ", ph == LIT_FINAL ? "final" : "recovered");
    }
    {
        char buf[1024];
        chk_outcome_text(R, ph, sto_table_key(&R->outs[ph].tab, o, NULL), buf,
                         sizeof buf);
        put(&w.text, "%s\n", buf);
        snprintf(w.outcome, sizeof w.outcome, "%s", buf);
        if (ph == LIT_CRASH) {
            Buf ib = {0};
            chk_image_expand(R, R->outs[ph].o[o].aux, R->img.full);
            image_text(R, R->img.full, &ib);
            v->image = base_arena_strdup(R->arena, ib.s ? ib.s : "");
            if (ib.failed || !v->image)
                chk_fail(R);
            base_str_free(&ib);
        }
    }
    return finish(&w, v, v->kind);
}

int chk_witness_error(ChkRun *R, ChkViolation *v, uint32_t err)
{
    W w;
    Seg seg[MAXSEG];
    int n = 1;
    if (start(&w, R))
        return -1;
    main_seg(seg);
    if (R->err[err].img == CHK_NONE) {
        seg[0].target = R->err[err].main_state;
        seg[0].err_step = R->err[err].main_step;
    } else {
        n = through_recovery(&w, seg, R->err[err].img, 1, err);
    }
    play(&w, seg, n);
    return finish(&w, v, CHK_V_ERROR);
}
