/*
 * gpmc.cuh — what a CUDA kernel checked by gpmc needs (DESIGN section 7).
 *
 * gpmc compiles a .cu file with clang and no CUDA toolkit
 * (-nocudainc -nocudalib), including this header first. It gives what
 * small CUDA programs use from the toolkit's headers, and the instructions
 * of the persistency documents' proposed hardware as functions. Every
 * function here is inlined and carries no debug information, so the lines
 * of a witness are the lines of your .cu file.
 */
#ifndef GPMC_CUH
#define GPMC_CUH

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __forceinline__ __inline__ __attribute__((always_inline))

#define __GPMC_FN static __device__ __forceinline__ __attribute__((nodebug))

/* threadIdx blockIdx blockDim gridDim: launches are one-dimensional, so
   .y and .z are 0 (indices) and 1 (sizes). */
#define __GPMC_DIM(type, X)                                                   \
    struct type {                                                             \
        __declspec(property(get = __x)) unsigned x;                           \
        __declspec(property(get = __y)) unsigned y;                           \
        __declspec(property(get = __z)) unsigned z;                           \
        static __device__ __attribute__((nodebug)) unsigned __x()             \
        { return X##_x(); }                                                   \
        static __device__ __attribute__((nodebug)) unsigned __y()             \
        { return X##_y(); }                                                   \
        static __device__ __attribute__((nodebug)) unsigned __z()             \
        { return X##_z(); }                                                   \
    }
__GPMC_DIM(__gpmc_tid, __nvvm_read_ptx_sreg_tid);
__GPMC_DIM(__gpmc_ctaid, __nvvm_read_ptx_sreg_ctaid);
__GPMC_DIM(__gpmc_ntid, __nvvm_read_ptx_sreg_ntid);
__GPMC_DIM(__gpmc_nctaid, __nvvm_read_ptx_sreg_nctaid);
extern const __device__ struct __gpmc_tid threadIdx;
extern const __device__ struct __gpmc_ctaid blockIdx;
extern const __device__ struct __gpmc_ntid blockDim;
extern const __device__ struct __gpmc_nctaid gridDim;
#undef __GPMC_DIM

/* __syncthreads and the fences are inline assembly with a memory
   clobber, not clang's builtins: clang 14's optimiser moves loads of a
   __shared__ variable across llvm.nvvm.barrier0, whose effect on memory
   other threads share its alias analysis does not see (intel/llvm#1258,
   llvm-project#59632), which would make gpmc check code the CUDA source
   does not mean (specs/ptx.md). */
__GPMC_FN void __gpmc_syncthreads(void)
{ asm volatile("bar.sync 0;" ::: "memory"); }
#define __syncthreads() __gpmc_syncthreads()
__GPMC_FN void __threadfence_block(void)
{ asm volatile("membar.cta;" ::: "memory"); }
__GPMC_FN void __threadfence(void)
{ asm volatile("membar.gl;" ::: "memory"); }
__GPMC_FN void __threadfence_system(void)
{ asm volatile("membar.sys;" ::: "memory"); }

/* Atomics for int, unsigned and unsigned long long. */
__GPMC_FN int atomicAdd(int *p, int v)
{ return __nvvm_atom_add_gen_i(p, v); }
__GPMC_FN unsigned atomicAdd(unsigned *p, unsigned v)
{ return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v); }
__GPMC_FN unsigned long long atomicAdd(unsigned long long *p,
                                       unsigned long long v)
{ return (unsigned long long)__nvvm_atom_add_gen_ll((long long *)p,
                                                   (long long)v); }
__GPMC_FN int atomicExch(int *p, int v)
{ return __nvvm_atom_xchg_gen_i(p, v); }
__GPMC_FN unsigned atomicExch(unsigned *p, unsigned v)
{ return (unsigned)__nvvm_atom_xchg_gen_i((int *)p, (int)v); }
__GPMC_FN unsigned long long atomicExch(unsigned long long *p,
                                        unsigned long long v)
{ return (unsigned long long)__nvvm_atom_xchg_gen_ll((long long *)p,
                                                    (long long)v); }
__GPMC_FN int atomicCAS(int *p, int c, int v)
{ return __nvvm_atom_cas_gen_i(p, c, v); }
__GPMC_FN unsigned atomicCAS(unsigned *p, unsigned c, unsigned v)
{ return (unsigned)__nvvm_atom_cas_gen_i((int *)p, (int)c, (int)v); }
__GPMC_FN unsigned long long atomicCAS(unsigned long long *p,
                                       unsigned long long c,
                                       unsigned long long v)
{ return (unsigned long long)__nvvm_atom_cas_gen_ll(
      (long long *)p, (long long)c, (long long)v); }
__GPMC_FN int atomicOr(int *p, int v) { return __nvvm_atom_or_gen_i(p, v); }
__GPMC_FN unsigned atomicOr(unsigned *p, unsigned v)
{ return (unsigned)__nvvm_atom_or_gen_i((int *)p, (int)v); }
__GPMC_FN unsigned long long atomicOr(unsigned long long *p,
                                      unsigned long long v)
{ return (unsigned long long)__nvvm_atom_or_gen_ll((long long *)p,
                                                  (long long)v); }
__GPMC_FN int atomicAnd(int *p, int v) { return __nvvm_atom_and_gen_i(p, v); }
__GPMC_FN unsigned atomicAnd(unsigned *p, unsigned v)
{ return (unsigned)__nvvm_atom_and_gen_i((int *)p, (int)v); }
__GPMC_FN unsigned long long atomicAnd(unsigned long long *p,
                                       unsigned long long v)
{ return (unsigned long long)__nvvm_atom_and_gen_ll((long long *)p,
                                                   (long long)v); }
__GPMC_FN int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
__GPMC_FN unsigned atomicMin(unsigned *p, unsigned v)
{ return __nvvm_atom_min_gen_ui(p, v); }
__GPMC_FN unsigned long long atomicMin(unsigned long long *p,
                                       unsigned long long v)
{ return __nvvm_atom_min_gen_ull(p, v); }
__GPMC_FN int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
__GPMC_FN unsigned atomicMax(unsigned *p, unsigned v)
{ return __nvvm_atom_max_gen_ui(p, v); }
__GPMC_FN unsigned long long atomicMax(unsigned long long *p,
                                       unsigned long long v)
{ return __nvvm_atom_max_gen_ull(p, v); }

/* A write-through store (st.global.wt). */
__GPMC_FN void __stwt(int *p, int v)
{ asm volatile("st.global.wt.s32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__GPMC_FN void __stwt(unsigned *p, unsigned v)
{ asm volatile("st.global.wt.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
__GPMC_FN void __stwt(long long *p, long long v)
{ asm volatile("st.global.wt.s64 [%0], %1;" :: "l"(p), "l"(v) : "memory"); }
__GPMC_FN void __stwt(unsigned long long *p, unsigned long long v)
{ asm volatile("st.global.wt.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory"); }

/* The documents' proposed instructions (DESIGN section 2). */
__GPMC_FN void gpmc_clwb(const volatile void *p)
{ asm volatile("clwb [%0];" :: "l"(p) : "memory"); }
__GPMC_FN void gpmc_clflush(const volatile void *p)
{ asm volatile("clflush [%0];" :: "l"(p) : "memory"); }
__GPMC_FN void gpmc_l2wb(void) { asm volatile("l2wb;" ::: "memory"); }
__GPMC_FN void gpmc_pcommit(void) { asm volatile("pcommit;" ::: "memory"); }
__GPMC_FN void gpmc_sfence(void) { asm volatile("sfence;" ::: "memory"); }
__GPMC_FN void gpmc_pbar_wi(void) { asm volatile("pbar.wi;" ::: "memory"); }
__GPMC_FN void gpmc_pbar_wg(void) { asm volatile("pbar.wg;" ::: "memory"); }
__GPMC_FN void gpmc_pbar_kr(void) { asm volatile("pbar.kr;" ::: "memory"); }
__GPMC_FN void gpmc_psync(void) { asm volatile("psync;" ::: "memory"); }
__GPMC_FN void gpmc_grid_sync(void) { asm volatile("grid.sync;" ::: "memory"); }

#undef __GPMC_FN
#endif
