#!/bin/sh
# __syncthreads() in gpmc.cuh keeps shared-memory accesses on their side of
# the barrier. clang 14's builtin for it (llvm.nvvm.barrier0) let GVN, on
# GlobalsAA's word, load a __shared__ variable before the barrier: thread 0
# stores the broadcast value, the others read it early and print 0. This is
# the pattern of GPM's uniform_add (litmus/suite/cuda/gpm-prefix-sum.cu);
# with the builtin this test's final check is No. Needs clang.
. "$(dirname "$0")/lib.sh"
need clang
cat >"$T/bcast.cu" <<'CU'
__global__ void bcast(int *out, const int *in)
{
    __shared__ int buf;
    if (threadIdx.x == 0)
        buf = *in;
    __syncthreads();
    out[threadIdx.x] = buf;
}
CU
cat >"$T/bcast.litmus" <<'LIT'
test Bcast
dram u32 in = 7
pm u32 out[2] = 0
kernel k grid 1 block 2 from "bcast.cu" bcast(out, in)
check final forall (out == {7, 7})
LIT
export GPMC_CACHE="$T/cache"
expect_rc 0 "$GPMC" run "$T/bcast.litmus" --model strict
assert_grep "broadcast through shared memory" '^Verdict Bcast strict 0 Ok -$' "$T/out"
# the load of buf comes after the barrier in the PTX gpmc compiled
ptx=$(ls "$T"/cache/*.ptx)
awk '/bar.sync/ { b = 1 } /ld.shared/ { print (b ? "after" : "before") }' \
    "$ptx" >"$T/order"
assert_eq "ld.shared relative to bar.sync" "$(cat "$T/order")" "after"
