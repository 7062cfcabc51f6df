/*
 * chk_pool.c — the explorer's threads: a pool that runs one job on every
 * thread at once (the gate the store's tables use is store/sto_gate.c).
 */
#include <string.h>

#include "checker/checker_int.h"

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
        assert(pl->running > 0);
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
    pl->th = base_calloc((size_t)nthreads, sizeof *pl->th);
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
    assert(pl->running == 0);
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
    base_free(pl->th);
    pthread_cond_destroy(&pl->go);
    pthread_cond_destroy(&pl->done);
    pthread_mutex_destroy(&pl->mu);
    memset(pl, 0, sizeof *pl);
}
