// Source: Lin, Alshboul, Solihin, Zhou, "Exploring Memory Persistency Models for
// GPUs" (PACT 2019), Figure 7(a), RECONSTRUCTED, not transcribed: the CUDA a GPU
// programmer would write for our reconstructions litmus/suite/papers/lin-fig7a.litmus
// (tx, undo) and lin-fig7a+fix.litmus (tx_fix, undo) (the figure's text was not
// available to us; specs/papers.md, "Provenance"). CTA-level durable transaction
// with an undo log: every thread logs its old value, __syncthreads(), thread 0
// sets the CTA's inTx flag, every thread updates its word in place,
// __syncthreads(), thread 0 clears the flag. Every PM store is made durable with
// the paper's strict mapping, store.wt + membar (__stwt + __threadfence).
// Recovery restores the log of a CTA whose flag is set.

__global__ void tx(int *data, int *log, int *inTx)
{
    int tid = threadIdx.x;
    int old = data[tid];
    __stwt(&log[tid], old);             // log[tid] = data[tid] (persist)
    __threadfence();
    __syncthreads();
    if (tid == 0) {
        __stwt(inTx, 1);                // inTx = 1 (persist)
        __threadfence();
    }
    __stwt(&data[tid], old + 1);        // data[tid] = new (persist)
    __threadfence();
    __syncthreads();
    if (tid == 0) {
        __stwt(inTx, 0);                // inTx = 0 (persist)
        __threadfence();
    }
}

// The fix: one __syncthreads() after the flag is set and fenced.
__global__ void tx_fix(int *data, int *log, int *inTx)
{
    int tid = threadIdx.x;
    int old = data[tid];
    __stwt(&log[tid], old);
    __threadfence();
    __syncthreads();
    if (tid == 0) {
        __stwt(inTx, 1);
        __threadfence();
    }
    __syncthreads();                    // the fix
    __stwt(&data[tid], old + 1);
    __threadfence();
    __syncthreads();
    if (tid == 0) {
        __stwt(inTx, 0);
        __threadfence();
    }
}

__global__ void undo(int *data, const int *log, int *inTx)
{
    int tid = threadIdx.x;
    if (*inTx == 0)
        return;
    __stwt(&data[tid], log[tid]);
    __threadfence();
    __syncthreads();
    if (tid == 0) {
        __stwt(inTx, 0);
        __threadfence();
    }
}
