// Source: Pandey, Kamath, Basu, "GPM: Leveraging Persistent Memory from a GPU"
// (ASPLOS 2022), native persistence, BFS (GPMBench BFS), as the paper's artifact
// implements it: csl-iisc/GPM-ASPLOS22, GPMBench/native/BFS/src/kernel.cu at
// commit 0bde4698 (BFS_gpu) and GPMBench_LibGPM/native/BFS/src/main.cu at commit
// bd48f2a1 (the host loop and its recovery path), with libGPM's
// gpm_memcpy_nodrain (volatile stores) and gpm_drain (__threadfence_system)
// inlined. Written here from that code, reduced to the sizes of its
// transcription litmus/suite/papers/gpm-bfs.litmus (and gpm-bfs+fix.litmus: the
// _fix entry below).
//
// What differs from the artifact, and why:
// - One GPU thread: the frontier of a chain graph has one node. The head
//   counter, the local queue in shared memory, g.sync() and the overflow check
//   are left out; the local queue is a register. The graph is the chain
//   0 -> 1 -> 2 -> 3: node pid's one edge goes to pid + 1 (the artifact reads
//   graph_nodes_av/graph_edges_av).
// - gpmc.cuh has atomicMin, not atomicMin_system; with sequentially consistent
//   visibility the scope changes nothing.
// - The host code is kernels of one thread, launched in the loop's order:
//   host_step is the loop's tail after call_BFS_gpu, restart the recovery
//   path. BFS_gpu's scalar arguments (n_t, h_iter, cleanup) change from launch
//   to launch, which gpmc's constant arguments cannot, so the kernel reads them
//   from the host's variables (h_num_t, h_iter, cleanup, in host memory: dram).
//   Host CPU stores to PM are plain stores and pmem_persist is gpmc_clwb +
//   gpmc_sfence; a synchronous cudaMemcpy into PM (DMA, DDIO off) is __stwt +
//   __threadfence_system, as the transcription writes them.

#define INF 99
#define WHITE INF
#define BLACK 98
#define N 4                             // nodes; each queue half holds N

__global__ void BFS_gpu(int *cost, int *color, int *q, int *tail,
                        const int *h_iter, const int *h_num_t,
                        const int *cleanup)
{
    if (*h_num_t == 0)                  // host: while (h_num_t != 0)
        return;
    int iter_local = *h_iter;
    int n_t_local = *h_num_t;
    int *q1 = q + (iter_local % 2) * N;       // d_qin
    int *q2 = q + N - (iter_local % 2) * N;   // d_qout
    if (*cleanup) {
        for (int my_base = 0; my_base < n_t_local; my_base++) {
            int pid = q1[my_base];
            int id = pid + 1;           // pid's edge
            if (id < N && color[id] == iter_local)
                ((volatile int *)color)[id] = INF;
        }
    }
    int l_q2 = 0, tail_bin = 0;
    // Visit a node from the current frontier
    int pid = q1[0];
    int id = pid + 1;                   // pid's edge
    if (id < N) {
        int old_color = atomicMin(&color[id], iter_local);
        if (old_color > iter_local) {
            // Push to the queue
            l_q2 = id;
            tail_bin = 1;
        }
    }
    ((volatile int *)cost)[pid] = iter_local;       // gpm_memcpy_nodrain
    // Compute size of the output and allocate space in the global queue
    int shift = atomicAdd(tail, tail_bin);
    if (tail_bin)
        ((volatile int *)q2)[shift] = l_q2;         // gpm_memcpy_nodrain
    __threadfence_system();                         // gpm_drain()
}

// host: the loop's tail after call_BFS_gpu
__global__ void host_step(int *d_iter, int *d_num_t, int *d_tail, int *h_iter,
                          int *h_num_t, int *cleanup)
{
    if (*h_num_t == 0)                  // the loop has ended
        return;
    *cleanup = 0;
    (*d_iter)++;
    gpmc_clwb(d_iter);                  // pmem_persist(d_iter, sizeof(int))
    gpmc_sfence();
    int h_tail = *d_tail;               // cudaMemcpy(&h_tail, d_tail)
    int it = *d_iter;                   // cudaMemcpy(&h_iter, d_iter)
    *h_iter = it;
    *h_num_t = h_tail;
    __stwt(&d_num_t[it % 2], h_tail);   // cudaMemcpy(&d_num_t[h_iter % 2],
    __threadfence_system();             //   &h_num_t): DMA into PM
    *d_tail = 0;                        // h_tail = 0, copied before the call
}

// The fix: the new frontier's size is in PM before the counter that indexes it.
__global__ void host_step_fix(int *d_iter, int *d_num_t, int *d_tail,
                              int *h_iter, int *h_num_t, int *cleanup)
{
    if (*h_num_t == 0)
        return;
    *cleanup = 0;
    int h_tail = *d_tail;
    int it = *d_iter + 1;
    __stwt(&d_num_t[it % 2], h_tail);   // the frontier size first
    __threadfence_system();
    *d_iter = it;                       // then the iteration
    gpmc_clwb(d_iter);
    gpmc_sfence();
    *h_iter = it;
    *h_num_t = h_tail;
    *d_tail = 0;
}

// host, recovery: restart from the persisted iteration (or from scratch)
__global__ void restart(int *d_iter, int *d_num_t, int *cost, int *color, int *q,
                        int *h_iter, int *h_num_t, int *cleanup)
{
    if (*d_iter <= 2) {
        *d_iter = 0;                    // Init iter
        gpmc_clwb(d_iter);
        gpmc_sfence();
        // the first iteration on the CPU, then the cudaMemcpy of the reset
        // values: source 0, its neighbour 1 visited
        __stwt(&cost[0], 0);
        __stwt(&cost[1], INF);
        __stwt(&cost[2], INF);
        __stwt(&cost[3], INF);
        __stwt(&color[0], BLACK);
        __stwt(&color[1], BLACK);
        __stwt(&color[2], WHITE);
        __stwt(&color[3], WHITE);
        __stwt(&q[0], 0);
        __stwt(&q[N], 1);
        __stwt(d_iter, 1);
        __threadfence_system();
        *h_iter = 1;
        *h_num_t = 1;
    } else {
        int it = *d_iter;
        *h_iter = it;
        *h_num_t = d_num_t[it % 2];
        *cleanup = 1;
    }
}
