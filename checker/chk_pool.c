/*
 * chk_pool.c — the explorer's threads: a pool that runs one job on every
 * thread at once, and the gate that lets one thread grow a shared table
 * while the others wait.
 *
 * The gate is Dekker-style over two sequentially consistent counters:
 * a thread inside announces itself in `active`, then checks `want`; a
 * thread that needs the table alone raises `want`, then waits for
 * `active` to drain. Either the entering thread sees `want` and backs
 * off, or the excluding thread sees it in `active` and waits. Threads
 * leave the gate only between states, so the wait is one state long.
 * The explorer arms the gate (nthreads > 1) only while several threads
 * run; otherwise it costs nothing.
 */
#include <sched.h>
#include <string.h>

#include "checker/checker_int.h"

void chk_gate_init(ChkGate *g, int nthreads)
{
    atomic_store(&g->active, 0);
    atomic_store(&g->want, 0);
    g->nthreads = nthreads;
    pthread_mutex_init(&g->mu, NULL);
}

void chk_gate_free(ChkGate *g)
{
    pthread_mutex_destroy(&g->mu);
}

void chk_gate_enter(ChkGate *g)
{
    if (g->nthreads <= 1)
        return;
    for (;;) {
        atomic_fetch_add(&g->active, 1);
        if (!atomic_load(&g->want))
            return;
        atomic_fetch_sub(&g->active, 1);
        while (atomic_load(&g->want))
            sched_yield();
    }
}

void chk_gate_leave(ChkGate *g)
{
    if (g->nthreads <= 1)
        return;
    atomic_fetch_sub(&g->active, 1);
}

void chk_gate_exclusive(ChkGate *g, void (*fn)(void *), void *arg)
{
    if (g->nthreads <= 1) {
        fn(arg);
        return;
    }
    atomic_fetch_sub(&g->active, 1);
    pthread_mutex_lock(&g->mu);
    atomic_store(&g->want, 1);
    while (atomic_load(&g->active))
        sched_yield();
    fn(arg);
    atomic_store(&g->want, 0);
    pthread_mutex_unlock(&g->mu);
    chk_gate_enter(g);
}

/* ---- the pool ------------------------------------------------------------ */

static void *worker_main(void *arg)
{
    ChkPoolThread *t = arg;
    ChkPool *pl = t->pool;
    unsigned seen = 0;
    for (;;) {
        void (*fn)(void *, int);
        void *ctx;
        pthread_mutex_lock(&pl->mu);
        while (pl->gen == seen && !pl->quit)
            pthread_cond_wait(&pl->go, &pl->mu);
        if (pl->quit) {
            pthread_mutex_unlock(&pl->mu);
            return NULL;
        }
        seen = pl->gen;
        fn = pl->fn;
        ctx = pl->ctx;
        pthread_mutex_unlock(&pl->mu);
        fn(ctx, t->index);
        pthread_mutex_lock(&pl->mu);
        if (--pl->running == 0)
            pthread_cond_signal(&pl->done);
        pthread_mutex_unlock(&pl->mu);
    }
}

int chk_pool_start(ChkPool *pl, int nthreads)
{
    memset(pl, 0, sizeof *pl);
    pl->nthreads = 1;
    pthread_mutex_init(&pl->mu, NULL);
    pthread_cond_init(&pl->go, NULL);
    pthread_cond_init(&pl->done, NULL);
    if (nthreads <= 1)
        return 0;
    pl->th = lit_calloc((size_t)nthreads, sizeof *pl->th);
    if (!pl->th)
        return -1;
    for (int i = 1; i < nthreads; i++) {
        pl->th[i].pool = pl;
        pl->th[i].index = i;
        if (pthread_create(&pl->th[i].tid, NULL, worker_main, &pl->th[i]))
            break;
        pl->nthreads = i + 1;
    }
    return 0;
}

void chk_pool_run(ChkPool *pl, void (*fn)(void *, int), void *ctx)
{
    if (pl->nthreads <= 1) {
        fn(ctx, 0);
        return;
    }
    pthread_mutex_lock(&pl->mu);
    pl->fn = fn;
    pl->ctx = ctx;
    pl->running = pl->nthreads - 1;
    pl->gen++;
    pthread_cond_broadcast(&pl->go);
    pthread_mutex_unlock(&pl->mu);
    fn(ctx, 0);
    pthread_mutex_lock(&pl->mu);
    while (pl->running)
        pthread_cond_wait(&pl->done, &pl->mu);
    pthread_mutex_unlock(&pl->mu);
}

void chk_pool_stop(ChkPool *pl)
{
    pthread_mutex_lock(&pl->mu);
    pl->quit = 1;
    pthread_cond_broadcast(&pl->go);
    pthread_mutex_unlock(&pl->mu);
    for (int i = 1; i < pl->nthreads; i++)
        pthread_join(pl->th[i].tid, NULL);
    lit_free(pl->th);
    pthread_cond_destroy(&pl->go);
    pthread_cond_destroy(&pl->done);
    pthread_mutex_destroy(&pl->mu);
    memset(pl, 0, sizeof *pl);
}
