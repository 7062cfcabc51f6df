// Source: Lin, Alshboul, Solihin, Zhou, "Exploring Memory Persistency Models for
// GPUs" (PACT 2019), Figure 5(b), RECONSTRUCTED, not transcribed: the CUDA a GPU
// programmer would write for our reconstruction litmus/suite/papers/lin-fig5.litmus
// (the figure's text was not available to us; specs/papers.md, "Provenance").
// CTA-level epoch persistency: the CTA's threads end an epoch with
// __syncthreads(); thread 0 alone writes the L2 back (the figure's l2wb, scope 4)
// and waits for it (membar); a second __syncthreads() holds the CTA until then.

__global__ void epochs(int *out, int *flag)
{
    int tid = threadIdx.x;
    out[tid] = 1;                       // epoch 1
    __syncthreads();
    if (tid == 0) {
        gpmc_l2wb();                    // l2wb (scope 4 in the figure)
        __threadfence();                // membar: wait for the write-back
    }
    __syncthreads();
    if (tid == 0)
        *flag = 1;                      // epoch 2
}
