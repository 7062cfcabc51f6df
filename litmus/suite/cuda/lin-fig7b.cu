// Source: Lin, Alshboul, Solihin, Zhou, "Exploring Memory Persistency Models for
// GPUs" (PACT 2019), Figure 7(b), RECONSTRUCTED, not transcribed: the CUDA a GPU
// programmer would write for our reconstruction litmus/suite/papers/lin-fig7b.litmus
// (the figure's text was not available to us; specs/papers.md, "Provenance").
// An idempotent CTA-level region: it does not overwrite its inputs, so it needs
// no undo log, only the flag; thread 0 sets the flag and the CTA waits for it
// (__syncthreads) before the outputs. Persist mapping: __stwt + __threadfence.
// Recovery re-executes every CTA whose flag is set.

__global__ void tx(const int *in, int *out, int *inTx)
{
    int tid = threadIdx.x;
    if (tid == 0) {
        __stwt(inTx, 1);                // inTx = 1 (persist)
        __threadfence();
    }
    __syncthreads();
    __stwt(&out[tid], in[tid] + 1);     // out = f(in) (persist)
    __threadfence();
    __syncthreads();
    if (tid == 0) {
        __stwt(inTx, 0);                // inTx = 0 (persist)
        __threadfence();
    }
}

__global__ void redo(const int *in, int *out, int *inTx)
{
    int tid = threadIdx.x;
    if (*inTx == 0)
        return;
    __stwt(&out[tid], in[tid] + 1);
    __threadfence();
    __syncthreads();
    if (tid == 0) {
        __stwt(inTx, 0);
        __threadfence();
    }
}
