#!/bin/sh
# gpmc fix and tune on a kernel compiled from CUDA (DESIGN section 7): the
# edits go into the .cu by its source lines, as gpmc.cuh calls on lines of
# their own; every candidate is recompiled (clang, cached) and checked; the
# applied fix compiles and holds.
. "$(dirname "$0")/lib.sh"
need clang
GPMC_CACHE=$T/cache
export GPMC_CACHE
cp "$ROOT/tests/e2e/fix/pub.cu" "$ROOT/tests/e2e/fix/pub.litmus" "$T/"
cd "$T"

expect_rc 0 "$GPMC" fix pub.litmus --model scoped,hw --show 1
assert_grep "the original fails under scoped" \
    "^  fails: check 0 (crash ~exists (flag == 1 && (data\[0\] == 0 || data\[1\] == 0))) is No under scoped$" \
    "$T/out"
assert_grep "the witness names the .cu's lines" \
    "pub thread 0 pub.cu:9: st.global.u32 \[%rd1\], %r3;  -- flag = 1" "$T/out"
sed -n '/^Fix 1:/,/^(2 more/p' "$T/out" >"$T/fix1"
cat >"$T/want" <<'OUT'
Fix 1: 1 change, cycles scoped 251 hw 1510 (total 1761, +1515 against the original)
  insert `gpmc_pbar_wg();` before pub.cu:8
--- pub.cu
+++ pub.cu
@@ -5,6 +5,7 @@
 {
     data[threadIdx.x] = threadIdx.x + 1;
     __syncthreads();
+    gpmc_pbar_wg();
     if (threadIdx.x == 0)
         *flag = 1;
 }
(2 more fixes of size 1: --show 3 lists them)
OUT
assert_same "the CUDA fix" "$T/fix1" "$T/want"
grep '^Fixed \|^Search ' "$T/out" >"$T/lines"
cat >"$T/want" <<'OUT'
Fixed CUDA-Publish 1 1 1761
Fixed CUDA-Publish 2 1 1763
Fixed CUDA-Publish 3 1 1763
Search CUDA-Publish found 3 fixes of size 1 among 19 candidates
OUT
assert_same "the CUDA fixes" "$T/lines" "$T/want"
# no fix slips a statement under the if without braces (pub.cu:8)
expect_rc 0 "$GPMC" fix pub.litmus --model scoped,hw --show 3
assert_eq "insertions printed" "$(grep -c '^+    gpmc_pbar_w[ig]();$' "$T/out")" 3
awk '/if \(threadIdx.x == 0\)$/ { getline; if ($0 ~ /^\+/) bad = 1 }
     END { exit bad }' "$T/out" || fail "a statement inserted under the if"
expect_rc 0 "$GPMC" fix pub.litmus --model scoped,hw --apply 1
assert_same "the test file is not touched" pub.litmus \
    "$ROOT/tests/e2e/fix/pub.litmus"
grep -q '^    gpmc_pbar_wg();$' pub.cu || fail "--apply did not write pub.cu"
expect_rc 0 "$GPMC" run pub.litmus --model scoped,hw
assert_eq "the applied fix holds" "$(grep -c '^Verdict CUDA-Publish .* Ok -$' \
    "$T/out")" 2

# tune: a kernel-scope barrier where the CTA's is enough
sed 's/gpmc_pbar_wg/gpmc_pbar_kr/' pub.cu >kr.cu
sed 's/"pub.cu"/"kr.cu"/; s/CUDA-Publish/CUDA-Publish+kr/' pub.litmus >kr.litmus
expect_rc 0 "$GPMC" tune kr.litmus --model scoped,hw
grep '^Necessary \|^Tuned \|^[-+] ' "$T/out" >"$T/lines"
cat >"$T/want" <<'OUT'
-    gpmc_pbar_kr();
+    gpmc_pbar_wg();
Necessary CUDA-Publish+kr 8 pbar.wg pbar scoped
Tuned CUDA-Publish+kr 1 1761 1761 exact complete
OUT
assert_same "the CUDA tuning" "$T/lines" "$T/want"
