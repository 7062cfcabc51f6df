/*
 * h_progress.c — progress of a long `gpmc run` on stderr, in the manner of
 * SPIN's pan: states explored, states per second, BFS depth, transitions,
 * memory and the time elapsed, at most about once a
 * second (the checker calls about once a second; a line is skipped when
 * the last one is younger than 0.9 s), then one summary line per check.
 * On a terminal the line is rewritten in place; elsewhere (--progress
 * into a file) each report is a line of its own. Two memory figures, one
 * word each: `peak` is the check's own (the most its state stores and
 * tables held at once, what --max-memory bounds and Stats and the
 * database's peak_kb report), `RSS` the process's peak resident set (what
 * the system saw: less while big blocks are untouched, more with the
 * program's other memory).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "harness/harness.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "812 kB", "12.3 MB", "1.2 GB". */
static void memory(int64_t kb, char *buf, size_t len)
{
    if (kb < 10000)
        snprintf(buf, len, "%lld kB", (long long)kb);
    else if (kb < 10000000)
        snprintf(buf, len, "%.1f MB", (double)kb / 1024.0);
    else
        snprintf(buf, len, "%.1f GB", (double)kb / (1024.0 * 1024.0));
}

static int64_t rss_kb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (int64_t)ru.ru_maxrss : 0;
}

/* A terminal that takes ANSI escapes: TERM set and not "dumb" (Emacs's
   shell and some CI logs are dumb terminals). */
static int ansi(void)
{
    const char *t = getenv("TERM");
    return t && *t && strcmp(t, "dumb");
}

void h_progress_start(HProgress *pg, const char *test, const char *model)
{
    pg->test = test;
    pg->model = model;
    pg->last = now();
    pg->tty = isatty(2);
    pg->ansi = pg->tty && ansi();
    pg->width = 0;
}

/* One progress line. On a terminal it overwrites the last one and stays
   open until the summary (last); what a longer line left is cleared with
   ESC [ K, or on a dumb terminal overwritten with blanks. */
static void emit(HProgress *pg, const char *text, int last)
{
    int n = (int)strlen(text);
    fprintf(stderr, "%sgpmc: %s %s: %s", pg->tty ? "\r" : "", pg->test,
            pg->model, text);
    if (pg->ansi)
        fputs("\033[K", stderr);
    else if (pg->tty && n < pg->width)
        fprintf(stderr, "%*s", pg->width - n, "");
    pg->width = n;
    if (last || !pg->tty)
        fputc('\n', stderr);
    fflush(stderr);
}

void h_progress_report(void *ctx, const ChkProgress *p)
{
    HProgress *pg = ctx;
    double t = now();
    char mem[32];
    if (t - pg->last < 0.9)
        return;
    pg->last = t;
    char rss[32];
    memory(p->peak_kb, mem, sizeof mem);
    memory(p->rss_kb, rss, sizeof rss);
    char line[512];
    snprintf(line, sizeof line, "%lld states, %.0f states/s, depth %lld, %lld"
             " transitions, peak %s, RSS %s, %.0f s", (long long)p->states,
             p->elapsed_s > 0 ? (double)p->states / p->elapsed_s : 0.0,
             (long long)p->depth, (long long)p->transitions, mem, rss,
             p->elapsed_s);
    emit(pg, line, 0);
}

void h_progress_end(HProgress *pg, const ChkReport *r)
{
    char mem[32], rss[32];
    double s = r->elapsed_ms / 1000.0;
    memory(r->peak_kb, mem, sizeof mem);
    memory(rss_kb(), rss, sizeof rss);
    BaseStr line = {0};
    base_str_printf(&line, "%s%s%s, %lld states, %.0f states/s, %lld"
                    " transitions, peak %s, RSS %s, %.2f s",
                    chk_status_names[r->status], r->reason ? ": " : "",
                    r->reason ? r->reason : "", (long long)r->states,
                    s > 0 ? (double)r->states / s : 0.0,
                    (long long)r->transitions, mem, rss, s);
    /* as pan's "memory usage for states": what the main program's states
       cost in the store, per state (with --state tree, the nodes shared
       among them) */
    if (r->store_states) {
        memory(r->store_bytes / 1024, mem, sizeof mem);
        base_str_printf(&line, "; store %s, %.1f B/state", mem,
                        (double)r->store_bytes / (double)r->store_states);
        if (r->store_nodes)
            base_str_printf(&line, ", %lld nodes",
                            (long long)r->store_nodes);
    }
    emit(pg, line.failed || !line.s ? "" : line.s, 1);
    base_str_free(&line);
}
