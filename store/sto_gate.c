/*
 * sto_gate.c — the gate that lets one thread grow a shared table while the
 * others wait.
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

#include "store/store.h"

void sto_gate_init(StoGate *g, int nthreads)
{
    assert(nthreads >= 1);
    atomic_store(&g->active, 0);
    atomic_store(&g->want, 0);
    g->nthreads = nthreads;
    pthread_mutex_init(&g->mu, NULL);
}

void sto_gate_free(StoGate *g)
{
    assert(!atomic_load(&g->want));     /* nobody excluding */
    pthread_mutex_destroy(&g->mu);
}

void sto_gate_enter(StoGate *g)
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

void sto_gate_leave(StoGate *g)
{
    if (g->nthreads <= 1)
        return;
    int was = atomic_fetch_sub(&g->active, 1);
    assert(was >= 1);                   /* it had entered */
    (void)was;
}

void sto_gate_exclusive(StoGate *g, void (*fn)(void *), void *arg)
{
    if (g->nthreads <= 1) {
        fn(arg);
        return;
    }
    int was = atomic_fetch_sub(&g->active, 1);
    assert(was >= 1);                   /* called from inside */
    (void)was;
    pthread_mutex_lock(&g->mu);
    atomic_store(&g->want, 1);
    /* Once `active` reads 0 we are alone, yet it may rise again for a
       moment: a thread entering now raises it, sees `want` and backs off
       without touching the table. So `active` is no invariant here. */
    while (atomic_load(&g->active))
        sched_yield();
    fn(arg);
    atomic_store(&g->want, 0);
    pthread_mutex_unlock(&g->mu);
    sto_gate_enter(g);
}
