// Source: Pandey, Kamath, Basu, "GPM: Leveraging Persistent Memory from a GPU"
// (ASPLOS 2022), double-buffered checkpointing (libGPM's gpmcp), as the paper's
// artifact implements it: csl-iisc/GPM-ASPLOS22 at commit f8e340d8,
// LibGPM/libgpmcp.cuh (gpmcp_checkpoint, checkpointKernel, gpmcp_restore,
// restoreKernel) and LibGPM/libgpm.cuh (gpm_memcpy_nodrain: volatile stores;
// gpm_persist: __threadfence_system). Written here from that code, reduced to the
// sizes of litmus/suite/papers/gpm-checkpoint.litmus, its transcription.
//
// What differs from the artifact, and why:
// - gpmcp_checkpoint and gpmcp_restore are host code: they read the persistent
//   index and pass the copy's address to the kernel. gpmc's kernel arguments are
//   constants, so that choice (`ind`) is made at the top of the kernel, by every
//   thread, from the same index; checkpointKernel then copies as the artifact's.
// - The host's `cp->index[p] ^= 1; pmem_persist(...)` (a CPU store, then a CPU
//   cache-line flush and drain) is the one-thread kernel flip: gpmc_clwb +
//   gpmc_sfence, as the transcription writes it.
// - One partition of one registered element of two 8-byte words; one block of
//   two threads (the artifact: 1024 threads, a loop over 8-byte chunks).

#include <stddef.h>                     // size_t

typedef unsigned long long DWORD;

// application iteration k: the GPU's working copy of the data (GPU memory)
__global__ void compute(DWORD *data, DWORD k)
{
    data[threadIdx.x] = k;
}

// gpmcp_checkpoint(cp, 0): choose the shadow copy, copy the data into it, persist
__global__ void checkpointKernel(const char *index, DWORD *cp, const DWORD *addr,
                                 size_t size)
{
    char ind = (*index != 0 ? 0 : 1);   // host: based on index move to working copy
    DWORD *start = cp + ind * size;
    size_t offset = blockDim.x * blockIdx.x + threadIdx.x;
    for (; offset < size; offset += blockDim.x * gridDim.x)
        ((volatile DWORD *)start)[offset] = addr[offset];   // gpm_memcpy_nodrain
    __threadfence_system();                                 // gpm_persist()
}

// host: cp->index[partition] ^= 1; pmem_persist(&cp->index[partition], 1)
__global__ void flip(char *index)
{
    *index ^= 1;
    gpmc_clwb(index);
    gpmc_sfence();
}

// gpmcp_restore(cp, 0): copy the current checkpoint back (restoreKernel)
__global__ void restoreKernel(const char *index, DWORD *addr, const DWORD *cp,
                              size_t size)
{
    char ind = (*index != 0 ? 1 : 0);   // host: based on index move to working copy
    const DWORD *start = cp + ind * size;
    size_t offset = blockDim.x * blockIdx.x + threadIdx.x;
    for (; offset < size; offset += blockDim.x * gridDim.x)
        ((volatile DWORD *)addr)[offset] = start[offset];
}
