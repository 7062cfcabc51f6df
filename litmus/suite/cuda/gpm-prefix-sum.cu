// Source: Pandey, Kamath, Basu, "GPM: Leveraging Persistent Memory from a GPU"
// (ASPLOS 2022), native persistence, prefix sum (GPMBench PS), as the paper's
// artifact implements it: csl-iisc/GPM-ASPLOS22 at commit 83873851,
// GPMBench_LibGPM/native/PS/src/PS.cu (shfl_scan_test, uniform_add,
// shuffle_simple_test), with libGPM's gpm_memcpy_nodrain (volatile stores),
// gpm_drain and gpm_persist (__threadfence_system) from LibGPM/libgpm.cuh at
// f8e340d8, inlined. Written here from that code, reduced to the sizes of
// litmus/suite/papers/gpm-prefix-sum.litmus, its transcription.
//
// What differs from the artifact, and why:
// - The warp shuffle scan (__shfl_up_sync) is not in gpmc's PTX subset: the two
//   lanes exchange their values through shared memory and __syncthreads, and
//   lane t adds lanes 0..t. A block of two threads is one warp, so the
//   artifact's second, warp-sums level (all of whose branches are false for
//   blockDim < warpSize) is left out.
// - The first scan, shfl_scan_test(d_data, NULL, 32, d_partial_sums), touches
//   GPU memory only and computes the same values in every run: its output is
//   the initial value of d_data and d_partial (dram is re-initialised at every
//   recovery, as the re-run would recompute it).
// - cudaMemset(&pm_partial_sums[..], 0, ..) is host code: a DMA write into host
//   PM with DDIO off, which reaches the memory controller before the call
//   returns. It is the one-thread-per-word kernel pm_memset, a write-through
//   (__stwt) that the kernel's end completes, as the transcription writes it.

#define BLOCK 2                         // threads per block (one warp)

__global__ void pm_memset(int *p)
{
    __stwt(&p[threadIdx.x], 0);
}

__global__ void shfl_scan_test(int *data, int *pm_partial_sums, int width,
                               int *partial_sums)
{
    __shared__ int sums[BLOCK];         // stands for the shuffles
    int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    if (pm_partial_sums != 0) {
        // Check if partial sum already calculated for block pre-crash
        if (pm_partial_sums[(blockIdx.x + 1) * blockDim.x - 1] != 0)
            return;
    }
    int value = data[id];
    // the scan within the warp
    sums[threadIdx.x] = value;
    __syncthreads();
    value = 0;
#pragma unroll
    for (int i = 0; i < BLOCK; i++)
        if (i <= threadIdx.x)
            value += sums[i];
    // Now write out our result
    data[id] = value;
    // last thread has sum, write write out the block's sum
    if (partial_sums != 0 && threadIdx.x == blockDim.x - 1)
        partial_sums[blockIdx.x] = value;
    if (pm_partial_sums != 0) {
        if (threadIdx.x != blockDim.x - 1)
            ((volatile int *)pm_partial_sums)[id] = value;  // gpm_memcpy_nodrain
        __threadfence_system();                             // gpm_drain()
        __syncthreads();
        // Persist final partial sums
        if (threadIdx.x == blockDim.x - 1) {
            ((volatile int *)pm_partial_sums)[id] = value;  // gpm_memcpy:
            __threadfence_system();                         // store, persist
        }
    }
}

// Uniform add: add partial sums array
__global__ void uniform_add(int *data, int *pm_data, int *partial_sums, int len)
{
    __shared__ int buf;
    int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    if (pm_data[blockIdx.x * blockDim.x] != 0)
        return;
    if (id > len)
        return;
    if (threadIdx.x == 0) {
        if (blockIdx.x == 0)
            buf = 0;
        else
            buf = partial_sums[blockIdx.x - 1];
    }
    __syncthreads();
    data[id] += buf;
    if (threadIdx.x != 0) {
        ((volatile int *)pm_data)[id] = data[id];           // gpm_memcpy
        __threadfence_system();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ((volatile int *)pm_data)[id] = data[id];           // gpm_memcpy
        __threadfence_system();
    }
}
