/*
 * mdl_hw.h — private to model/: the hw persistency model, a GPU memory
 * hierarchy of L2 lines, write-through requests, memory controllers with
 * write-pending queues and NVM (DESIGN section 4; specs/hw.md is the long
 * form, with the argument that the two modes agree).
 *
 *   mdl_hw.c        the ops table, the layout of PM words into lines and
 *                   controllers, what both modes share (loads, visibility)
 *   mdl_hw_naive.c  --naive: the literal hardware state; every eviction,
 *                   request completion and queue drain is an explicit event
 *   mdl_hw_line.c   default mode: per line a log of the writes since a base
 *                   snapshot and the set of candidate "last write-back"
 *                   points; fences and barriers prune candidates in the step
 *   mdl_hw_frame.c  default mode, volatile WPQ: the per-controller history
 *                   of line summaries a crash may still observe
 *   mdl_hw_image.c  default mode: crash images, pending writes, inclusion
 *
 * Lines and controllers are dense: line l is the l-th PM line holding a
 * declared word, controller c the c-th controller owning such a line, both
 * in ascending order. Declared PM words are dense too (layout gaps are not
 * stored), and the words of one line are consecutive.
 *
 * REGION (from pm_off), both modes: VIS, the value loads see (L2), per
 * dense word. Then, default mode:
 *   BASE  per dense word: the line's contents at its log's base point
 *   LH    per line: log length m | W << 8
 *   LC    per line: candidate set C, bit j = "the last write-back of the
 *         line happened right after log entry j" (0 = the base point)
 *   CF    per controller, volatile only: the number of past frames
 *   then the logs of every line, in line order, two words per entry
 *   (dense word | kind << 32, value), then the past frames of every
 *   controller, in controller order, two words per line of the controller
 *   (m | W << 8, C).
 * Naive mode:
 *   NVM   per dense word: persistent memory
 *   DIRTY line bit set
 *   NWT   number of outstanding write-throughs
 *   QL    per controller, volatile only: entries | words << 16
 *   then the write-throughs, sorted by line and by age within a line (two
 *   words: dense word | (owner slot + 1) << 32, value), then each
 *   controller's queue, head first (header: dense line | HWQ_LINE or dense
 *   word | HWQ_WT, then the line's values or the word's value).
 *
 * THREAD WORDS (per slot of the launch). Default: per line p | wt << 8 (the
 * prune point of the thread's write-back requests, its last write-through),
 * then the line bit set "written since launch", then (volatile) one byte per
 * controller: the pcommit pointer. Naive: the line bit set of outstanding
 * write-back requests, "written since launch", then (volatile) one byte per
 * controller: queue entries ahead of the thread's pcommit.
 */
#ifndef GPMC_MDL_HW_H
#define GPMC_MDL_HW_H

#include "model/model_int.h"

#define HW_MAXLOG 64            /* entries in all logs (bit sets of slots) */
#define HW_MAXWT 64             /* outstanding write-throughs (naive) */
#define HW_MAXFRAMES 255        /* past frames per controller */
#define HW_VAR_WORDS 8192       /* variable part of the region */
#define HW_MAXEVENTS 128        /* mdl_successors asks for at most this */
#define HW_EV_JOIN (3u << 20)   /* default mode: a blocked join completes */

enum { HW_ST = 1, HW_WT = 2 };                  /* log entry kinds */
#define HWQ_LINE (1ull << 32)
#define HWQ_WT (2ull << 32)

typedef struct {
    int naive, vol;
    int32_t nw, nl, nc;                 /* dense words, lines, controllers */
    uint32_t nlw, npw;                  /* words of a line set; of the
                                           per-controller byte vector */
    int32_t *cword;                     /* dense word -> PM word address */
    int32_t *cidx;                      /* PM word -> dense word, -1 gap */
    int32_t *wline;                     /* dense word -> line */
    int32_t *lfirst, *lnw, *lno;        /* line -> first word, count, number */
    int32_t *lctl, *lpos;               /* line -> controller, index in it */
    int32_t *cfirst, *cnl, *cno;        /* controller -> first index into
                                           clines, count, number */
    int32_t *clines;                    /* lines grouped by controller */
    int32_t maxlnw;                     /* most words on one line */
    /* region offsets */
    uint32_t r_base, r_lh, r_lc, r_cf;  /* default */
    uint32_t r_nvm, r_dirty, r_nwt, r_ql;       /* naive */
    uint32_t r_fixed;
    /* thread word offsets */
    uint32_t t_pt, t_rq, t_wr, t_pc, t_stride;
    /* default-mode scratch */
    uint64_t *snap;                     /* 2 words per line: LH, LC */
    int16_t orig[HW_MAXLOG + 1];        /* slot -> slot before the step */
    int64_t *ca, *cb;                   /* line contents */
    uint16_t *pairs;                    /* image enumeration: (j, k) */
    uint64_t *phash;
    uint32_t *lslot;                    /* first slot of each line */
    uint32_t npairs_cap;
} Hw;

static inline Hw *hw_of(const Model *m)
{
    return m->mstate;
}

static inline uint32_t hw_tw(const MdlLaunch *L, int slot, uint32_t off)
{
    return L->mthr_off + (uint32_t)slot * L->mthr_stride + off;
}

static inline int hw_bit(const MdlState *s, uint32_t at, int i)
{
    return (int)((s->w[at + (uint32_t)i / 64] >> (i % 64)) & 1u);
}

static inline void hw_setbit(MdlState *s, uint32_t at, int i, int v)
{
    uint32_t k = at + (uint32_t)i / 64;
    uint64_t b = 1ull << (i % 64);
    mdl_set(s, k, v ? (s->w[k] | b) : (s->w[k] & ~b));
}

/* One byte of a per-controller byte vector. */
static inline int hw_byte(const MdlState *s, uint32_t at, int c)
{
    return (int)((s->w[at + (uint32_t)c / 8] >> (8 * (c % 8))) & 0xFFu);
}

static inline void hw_setbyte(MdlState *s, uint32_t at, int c, int v)
{
    uint32_t k = at + (uint32_t)c / 8;
    int sh = 8 * (c % 8);
    mdl_set(s, k, (s->w[k] & ~(0xFFull << sh)) | ((uint64_t)v << sh));
}

/* Opens n zero words at index at (the tail moves up) / closes n words at
   at (the tail moves down), keeping the hash and the zero tail. */
void mdl_hw_open(MdlState *s, uint32_t at, uint32_t n);
void mdl_hw_close(MdlState *s, uint32_t at, uint32_t n);
/* "line 0 (x = 1, y = 0)" into buf, from values v of the line's words. */
void mdl_hw_describe(const Model *m, int l, const int64_t *v, char *buf,
                     size_t len);
void mdl_hw_limit(MdlError *e, const char *what);

/* mdl_hw_naive.c */
void mdl_hw_naive_init(Model *m, MdlState *s, uint32_t pm_off);
int mdl_hw_naive_store(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                       int32_t dw, int64_t v, int op, MdlStepInfo *info,
                       MdlError *e);
int mdl_hw_naive_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                       const LitInstr *in, int32_t dw, MdlStepInfo *info);
int mdl_hw_naive_pbar(Model *m, MdlState *s, const MdlLaunch *L, int first,
                      int n, MdlStepInfo *info);
int mdl_hw_naive_join(Model *m, MdlState *s, const MdlLaunch *L);
int mdl_hw_naive_events(Model *m, const MdlState *s, const MdlLaunch *L,
                        uint32_t *codes, int max);
int mdl_hw_naive_event(Model *m, MdlState *s, const MdlLaunch *L,
                       uint32_t code, MdlStepInfo *info);

/* mdl_hw_line.c: the state of one line's summary */
typedef struct {
    int m, W;
    uint64_t C;
} HwLine;

/* One default-mode hook call (mdl_hw_line.c): its context, and what its
   end needs from its beginning. */
typedef struct {
    MdlState *s;
    const MdlLaunch *L;
    Hw *h;
    MdlStepInfo *info;
    MdlError *e;
    int drained;                        /* every WPQ drained in this call */
    int norig;                          /* entries of h->orig */
    int npre;                           /* slots before the step */
} HwStep;

void mdl_hw_line_init(Model *m, MdlState *s, uint32_t pm_off);
int mdl_hw_line_store(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                      int32_t dw, int64_t v, int op, MdlStepInfo *info,
                      MdlError *e);
int mdl_hw_line_instr(Model *m, MdlState *s, const MdlLaunch *L, int slot,
                      const LitInstr *in, int32_t dw, MdlStepInfo *info,
                      MdlError *e);
int mdl_hw_line_pbar(Model *m, MdlState *s, const MdlLaunch *L, int first,
                     int n, MdlStepInfo *info);
/* MDL_BLOCKED while a thread of L has a request outstanding; the join
   event then completes them all. */
int mdl_hw_line_join(Model *m, MdlState *s, const MdlLaunch *L);
int mdl_hw_line_join_event(Model *m, MdlState *s, const MdlLaunch *L,
                           MdlStepInfo *info);
HwLine mdl_hw_line_get(const Hw *h, const MdlState *s, uint32_t pm_off, int l);
void mdl_hw_line_put(const Hw *h, MdlState *s, uint32_t pm_off, int l,
                     const HwLine *ln);
int mdl_hw_line_nlog(const Hw *h, const MdlState *s, uint32_t pm_off);
/* Index of line l's first log entry in the state. */
uint32_t mdl_hw_line_log(const Hw *h, const MdlState *s, uint32_t pm_off,
                         int l);
/* Index of the last st entry at or before entry i of line l (0: none). */
int mdl_hw_line_last_st(const Hw *h, const MdlState *s, uint32_t pm_off,
                        int l, int i);

/* mdl_hw_frame.c */
uint32_t mdl_hw_frame_at(const Hw *h, const MdlState *s, uint32_t pm_off,
                         int c);
int mdl_hw_frame_count(const Hw *h, const MdlState *s, uint32_t pm_off,
                       int c);
/* Summary (m, W, C) of line l in past frame f of its controller. */
HwLine mdl_hw_frame_line(const Hw *h, const MdlState *s, uint32_t pm_off,
                         int f, int l);
void mdl_hw_frame_drop(HwStep *x, int c, int k);
void mdl_hw_frame_clear(HwStep *x);
int mdl_hw_frame_update(HwStep *x);
void mdl_hw_frame_shift(HwStep *x, int l, int g);
int mdl_hw_frame_min(HwStep *x, int l);

/* mdl_hw_image.c */
/* Contents of line l when its last write-back was right after entry j and
   its write-throughs up to entry k had completed. */
void mdl_hw_image_content(const Hw *h, const MdlState *s, uint32_t pm_off,
                          int l, int j, int k, int64_t *out);
/* Whether every line image of summary a is one of summary b (line l). */
int mdl_hw_image_subset(const Hw *h, const MdlState *s, uint32_t pm_off,
                        int l, const HwLine *a, const HwLine *b);
int mdl_hw_image_all(Model *m, const MdlState *s, uint32_t pm_off,
                     MdlImageFn fn, void *ctx);
int mdl_hw_image_pending(const Model *m, const MdlState *s, uint32_t pm_off,
                         MdlPending *out, int max);

#endif
