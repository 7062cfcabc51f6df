// CUDA kernels compiled by clang for tests/test_lit_ptx.c (test_cuda_*):
// __shared__ memory per CTA, guarded stores, loops, vector accesses.

// Each CTA's threads swap their values through a __shared__ array and a
// __shared__ scalar set by thread 0: out[g] = 10 * cta + (1 - tid) + flag.
__global__ void swap(unsigned *out)
{
    __shared__ unsigned tile[2];
    __shared__ unsigned flag;
    unsigned t = threadIdx.x, c = blockIdx.x;
    tile[t] = 10 * c + t;
    if (t == 0)
        flag = 100;
    __syncthreads();
    out[c * blockDim.x + t] = tile[1 - t] + flag;
}

// Only the threads below n store.
__global__ void guarded(unsigned *out, int n, unsigned v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = v;
}

// A loop clang unrolls and a remainder loop: sum of a[0..n).
__global__ void sum(unsigned long long *out, const unsigned *a, int n)
{
    unsigned long long s = 0;
    for (int j = 0; j < n; j++)
        s += a[j];
    out[threadIdx.x] = s;
}

// Every thread adds 1 to *c n times.
__global__ void count(unsigned *c, int n)
{
    for (int j = 0; j < n; j++)
        atomicAdd(c, 1u);
}

// Aligned records: stored with st.v2 / st.v4, loaded with ld.v4.
struct __attribute__((aligned(8))) Pair { unsigned a, b; };
struct __attribute__((aligned(16))) Quad { unsigned a, b, c, d; };

__global__ void records(Pair *log, Quad *q, unsigned *out)
{
    int i = threadIdx.x;
    Pair p;
    p.a = i;
    p.b = i + 1;
    log[i] = p;
    Quad x = q[i];
    out[i] = x.a + x.b + x.c + x.d;
    Quad y = {x.d, x.c, x.b, x.a};
    q[i] = y;
}
