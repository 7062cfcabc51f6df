// Source: Lin, Alshboul, Solihin, Zhou, "Exploring Memory Persistency Models for
// GPUs" (PACT 2019), Figure 6, RECONSTRUCTED, not transcribed: the CUDA a GPU
// programmer would write for our reconstructions litmus/suite/papers/lin-fig6.litmus
// and lin-fig6+fix.litmus (the figure's text was not available to us;
// specs/papers.md, "Provenance"). Kernel-level durable transaction driven by the
// host: the host copies the data to an undo log and sets inTx with cudaMemcpy,
// launches tx, ends the kernel-level epoch (l2wb + membar.sys at the boundary) and
// clears inTx; recovery copies the log back while inTx is set.
//
// Host code, as specs/papers.md writes it: each host step is a one-thread (or
// one-thread-per-word) kernel launched in program order. On Lin's GPU-attached
// NVM a cudaMemcpy's writes are cached in the L2 like a kernel's stores, so the
// copies are plain stores.

// cudaMemcpy(log, data, n, cudaMemcpyDeviceToDevice): one word per thread
__global__ void memcpy_d2d(int *dst, const int *src)
{
    dst[threadIdx.x] = src[threadIdx.x];
}

// cudaMemcpy(inTx, &v, sizeof(int), cudaMemcpyHostToDevice)
__global__ void set_flag(int *inTx, int v)
{
    *inTx = v;
}

// the transaction: every thread updates its word in place
__global__ void tx(int *data)
{
    int tid = threadIdx.x;
    data[tid] = data[tid] + 1;
}

// the kernel-level epoch boundary (Fig. 4): write the L2 back and wait
__global__ void epoch_boundary()
{
    gpmc_l2wb();
    __threadfence_system();
}

// recovery: if (inTx) cudaMemcpy(data, log)
__global__ void undo(int *data, const int *log, const int *inTx)
{
    if (*inTx)
        data[threadIdx.x] = log[threadIdx.x];
}
