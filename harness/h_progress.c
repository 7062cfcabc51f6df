/*
 * h_progress.c — progress of a long `gpmc run` on stderr, in the manner of
 * SPIN's pan: states explored, states per second, BFS depth, transitions,
 * the process's peak memory and the time elapsed, at most about once a
 * second (the checker calls about once a second; a line is skipped when
 * the last one is younger than 0.9 s), then one summary line per check.
 * On a terminal the line is rewritten in place; elsewhere (--progress
 * into a file) each report is a line of its own.
 */
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

static int64_t peak_kb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (int64_t)ru.ru_maxrss : 0;
}

void h_progress_start(HProgress *pg, const char *test, const char *model)
{
    pg->test = test;
    pg->model = model;
    pg->last = now();
    pg->tty = isatty(2);
}

static void line_start(const HProgress *pg)
{
    fprintf(stderr, "%sgpmc: %s %s: ", pg->tty ? "\r" : "", pg->test,
            pg->model);
}

static void line_end(const HProgress *pg, int last)
{
    /* On a terminal: clear what a longer line left, and stay on the line
       until the summary. */
    fprintf(stderr, "%s%s", pg->tty ? "\033[K" : "", last || !pg->tty ? "\n"
                                                                        : "");
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
    memory(p->peak_kb, mem, sizeof mem);
    line_start(pg);
    fprintf(stderr, "%lld states, %.0f states/s, depth %lld, %lld transitions,"
            " peak %s, %.0f s", (long long)p->states,
            p->elapsed_s > 0 ? (double)p->states / p->elapsed_s : 0.0,
            (long long)p->depth, (long long)p->transitions, mem, p->elapsed_s);
    line_end(pg, 0);
}

void h_progress_end(HProgress *pg, const ChkReport *r)
{
    char mem[32];
    double s = r->elapsed_ms / 1000.0;
    memory(peak_kb(), mem, sizeof mem);
    line_start(pg);
    fprintf(stderr, "%s%s%s, %lld states, %.0f states/s, %lld transitions,"
            " peak %s, %.2f s", chk_status_names[r->status],
            r->reason ? ": " : "", r->reason ? r->reason : "",
            (long long)r->states, s > 0 ? (double)r->states / s : 0.0,
            (long long)r->transitions, mem, s);
    /* as pan's "memory usage for states": what the main program's states
       cost in the store, per state (with --state tree, the nodes shared
       among them) */
    if (r->store_states) {
        memory(r->store_bytes / 1024, mem, sizeof mem);
        fprintf(stderr, "; store %s, %.1f B/state", mem,
                (double)r->store_bytes / (double)r->store_states);
        if (r->store_nodes)
            fprintf(stderr, ", %lld nodes", (long long)r->store_nodes);
    }
    line_end(pg, 1);
}
