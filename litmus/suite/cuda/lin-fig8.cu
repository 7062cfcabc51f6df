// Source: Lin, Alshboul, Solihin, Zhou, "Exploring Memory Persistency Models for
// GPUs" (PACT 2019), Figure 8, RECONSTRUCTED, not transcribed: the CUDA a GPU
// programmer would write for our reconstructions litmus/suite/papers/lin-fig8.litmus
// (loop), lin-fig8+fix1.litmus (loop_fix1) and lin-fig8+fix.litmus (loop_fix)
// (the figure's text was not available to us; specs/papers.md, "Provenance").
// Loop-level durable transaction over a PM shadow of a CTA's shared-memory state,
// built like Fig. 7(a) inside the loop: each iteration updates the state in
// shared memory, logs the PM shadow, thread 0 sets inTx, every thread overwrites
// its shadow word, __syncthreads(), thread 0 clears inTx; no barrier after the
// clear. Persist mapping: __stwt + __threadfence. Recovery copies the log back
// while inTx is set. Shared memory is not initialised in CUDA; gpmc's shared
// memory starts at 0 at each launch, which is what `acc` must start at.

#define BLOCK 2

__global__ void loop(int *shadow, int *log, int *inTx, int iters)
{
    __shared__ int acc[BLOCK];
    int tid = threadIdx.x;
    for (int i = 0; i < iters; i++) {
        acc[tid] += i + 1;              // the iteration's work (shared memory)
        __stwt(&log[tid], shadow[tid]); // log = shadow (persist)
        __threadfence();
        __syncthreads();
        if (tid == 0) {
            __stwt(inTx, 1);            // inTx = 1 (persist)
            __threadfence();
        }
        __stwt(&shadow[tid], acc[tid]); // shadow = acc (persist)
        __threadfence();
        __syncthreads();
        if (tid == 0) {
            __stwt(inTx, 0);            // inTx = 0 (persist)
            __threadfence();
        }
    }
}

// First hole closed: a __syncthreads() after inTx is set.
__global__ void loop_fix1(int *shadow, int *log, int *inTx, int iters)
{
    __shared__ int acc[BLOCK];
    int tid = threadIdx.x;
    for (int i = 0; i < iters; i++) {
        acc[tid] += i + 1;
        __stwt(&log[tid], shadow[tid]);
        __threadfence();
        __syncthreads();
        if (tid == 0) {
            __stwt(inTx, 1);
            __threadfence();
        }
        __syncthreads();                // fix 1
        __stwt(&shadow[tid], acc[tid]);
        __threadfence();
        __syncthreads();
        if (tid == 0) {
            __stwt(inTx, 0);
            __threadfence();
        }
    }
}

// Both holes closed: also a __syncthreads() after inTx is cleared.
__global__ void loop_fix(int *shadow, int *log, int *inTx, int iters)
{
    __shared__ int acc[BLOCK];
    int tid = threadIdx.x;
    for (int i = 0; i < iters; i++) {
        acc[tid] += i + 1;
        __stwt(&log[tid], shadow[tid]);
        __threadfence();
        __syncthreads();
        if (tid == 0) {
            __stwt(inTx, 1);
            __threadfence();
        }
        __syncthreads();                // fix 1
        __stwt(&shadow[tid], acc[tid]);
        __threadfence();
        __syncthreads();
        if (tid == 0) {
            __stwt(inTx, 0);
            __threadfence();
        }
        __syncthreads();                // fix 2
    }
}

__global__ void undo(int *shadow, const int *log, int *inTx)
{
    int tid = threadIdx.x;
    if (*inTx == 0)
        return;
    __stwt(&shadow[tid], log[tid]);
    __threadfence();
    __syncthreads();
    if (tid == 0) {
        __stwt(inTx, 0);
        __threadfence();
    }
}
