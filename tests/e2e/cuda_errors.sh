#!/bin/sh
# CUDA code outside what gpmc models (DESIGN section 7) is an input error:
# exit 2, "FILE.cu:LINE[:COL]: error: …" naming the CUDA line, the
# instruction and the PTX line, nothing on standard output and nothing
# written to the results database. Floating point, a call that was not
# inlined, a stack array, a warp shuffle; and errors of the from clause.
. "$(dirname "$0")/lib.sh"
need clang
cd "$T"
GPMC_CACHE=$T/cache
export GPMC_CACHE
cat >e.cu <<'CU'
__global__ void fp(float *a)
{
    a[0] = a[1] * 2.5f;
}

__device__ __attribute__((noinline)) unsigned twice(unsigned x)
{
    return 2 * x;
}

__global__ void call(unsigned *a)
{
    a[0] = twice(a[1]);
}

__global__ void stack(unsigned *a, int n)
{
    volatile unsigned t[8];
    for (int i = 0; i < 8; i++)
        t[i] = a[i];
    a[0] = t[n];
}

__global__ void shuffle(unsigned *a)
{
    a[1] = __nvvm_shfl_idx_i32(a[0], 0, 31);
}
CU

# run LAUNCH PATTERN: the test launching LAUNCH fails with exit 2 and a
# first error line matching PATTERN, writing nothing
run() {
    printf 'test E\npm u32 a[8] = 0\nkernel k grid 1 block 1 from "e.cu" %s\n' \
        "$1" >e.litmus
    expect_rc 2 "$GPMC" run e.litmus --db r.db
    head -n 1 "$T/err" >first
    assert_grep "$1" "$2" first
    [ ! -s "$T/out" ] || fail "$1: output on stdout: $(head -c 300 "$T/out")"
    [ ! -e r.db ] || fail "$1: the database was written"
}
ptx='(PTX line [0-9]* of .*/cache/[0-9a-f]*\.ptx)$'
run 'fp(a)' "^e\\.cu:3:10: error: 'st\\.global\\.f32': floating point is not modelled (in entry _Z2fpPf) $ptx"
assert_eq "errors of fp" "$(wc -l <"$T/err")" 3
run 'call(a)' "^e\\.cu:13:12: error: a call that was not inlined: gpmc models one kernel body (mark device functions __forceinline__) (in entry _Z4callPj) $ptx"
assert_eq "errors of call" "$(wc -l <"$T/err")" 1
run 'stack(a, 1)' "^e\\.cu:20:14: error: local memory (a stack array, or a local variable whose address is taken) is not modelled: gpmc checks global, generic and shared memory (in entry _Z5stackPji) $ptx"
assert_eq "errors of stack" "$(wc -l <"$T/err")" 1
run 'shuffle(a)' "^e\\.cu:26:12: error: PTX instruction 'shfl\\.idx\\.b32' is not in the subset gpmc models (DESIGN section 7, specs/ptx\\.md) (in entry _Z7shufflePj) $ptx"

# the from clause
run 'stack(a)' "^e\\.litmus:3:42: error: entry 'stack' takes 2 arguments, 1 given$"
run 'stack(a, a)' "^e\\.litmus:3:46: error: argument 2 of 'stack' is a location (a 64-bit address); the parameter has 4 bytes$"
run 'none(a)' "^e\\.litmus:3:37: error: 'e\\.cu' has no entry 'none' (its entries: fp, call, stack, shuffle)$"
