// Publish: every thread writes its element, then thread 0 sets the flag.
// No persist barrier: under scoped and hw the flag may persist before the
// elements (tests/e2e/fix_cuda.sh).
__global__ void pub(unsigned *data, unsigned *flag)
{
    data[threadIdx.x] = threadIdx.x + 1;
    __syncthreads();
    if (threadIdx.x == 0)
        *flag = 1;
}
