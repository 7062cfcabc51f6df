#!/bin/sh
# CUDA input (DESIGN section 7): a .cu file compiled by clang, its
# witness in CUDA lines; the PTX cache, read back without clang (a clang
# that fails and records being called stands in for it); a sibling .ptx
# whose header names the .cu's hash preferred, a stale one not; what the
# hash covers (the .cu and gpmc.cuh); clang missing; nothing written to
# the results database when compiling fails.
. "$(dirname "$0")/lib.sh"
need clang
cd "$T"
cat >k.cu <<'CU'
__global__ void update(unsigned *out, unsigned *undo, unsigned *open)
{
    unsigned i = threadIdx.x;
    undo[i] = out[i];
    __syncthreads();
    if (i == 0) {
        *open = 1;
        gpmc_clwb(open);
        __threadfence();
    }
    __syncthreads();
    out[i] = 10 + i;
    gpmc_clwb(&out[i]);
    __threadfence();
}

__global__ void recover(unsigned *out, unsigned *undo, unsigned *open)
{
    if (*open)
        out[threadIdx.x] = undo[threadIdx.x];
}
CU
cat >k.litmus <<'LIT'
test K
pm u32 out[2] = {1, 2}
pm u32 undo[2] = 0
pm u32 open = 0
kernel update grid 1 block 2 from "k.cu" update(out, undo, open)
recover {
    kernel recover grid 1 block 2 from "k.cu" recover(out, undo, open)
}
check recovered forall (out == {1, 2} || out == {10, 11})
LIT
cat >noclang <<SH
#!/bin/sh
echo "\$@" >>"$T/called"
echo "noclang: no clang here" >&2
exit 1
SH
chmod +x noclang
GPMC_CACHE=$T/cache
export GPMC_CACHE
unset GPMC_CLANG

# the first run compiles; the witness names the CUDA lines
expect_rc 1 "$GPMC" run k.litmus --model hw
grep -v '^Time ' "$T/out" >first
assert_grep verdict '^Verdict K hw 0 No' first
assert_grep "undo entry store at its CUDA line" \
    '^    [0-9]*\. update thread [01] k\.cu:4: st\.global\.u32 \[%rd[0-9]*\], %r[0-9]*;  -- undo\[[01]\] = [12]$' first
assert_grep "recovery at its CUDA line" \
    '^    [0-9]*\. recover thread [01] k\.cu:20: st\.global\.u32' first
n=$(ls cache | wc -l)
assert_eq "files in the cache" "$n" 1
ptx=$(ls cache/*.ptx)
head -n 1 "$ptx" >header
assert_grep "cache header" '^// gpmc: sha256 [0-9a-f]\{64\} from k\.cu$' header
hash=$(sed 's/^.* sha256 \([0-9a-f]*\) .*/\1/' header)
assert_eq "cache file name" "$ptx" "cache/$hash.ptx"

# the second run reads the cache: clang is not called
GPMC_CLANG=$T/noclang expect_rc 1 "$GPMC" run k.litmus --model hw
grep -v '^Time ' "$T/out" >second
assert_same "second run" second first
[ ! -e called ] || fail "clang was called with the PTX in the cache"

# a sibling .ptx with the matching header comes first, cache or not
cp "$ptx" k.ptx
rm -rf cache
GPMC_CLANG=$T/noclang expect_rc 1 "$GPMC" run k.litmus --model hw
grep -v '^Time ' "$T/out" >third
assert_same "run on the sibling .ptx" third first
[ ! -e called ] || fail "clang was called with a matching sibling .ptx"
[ ! -e cache ] || fail "the cache was written with a matching sibling .ptx"

# the .cu changes: the sibling is stale, clang is called, and its failure
# is an input error that writes nothing to the database
echo '// edited' >>k.cu
GPMC_CLANG=$T/noclang expect_rc 2 "$GPMC" run k.litmus --model hw --db r.db
[ -e called ] || fail "clang was not called for a changed .cu"
assert_grep "clang's failure" \
    "^k\.litmus:5:35: error: clang could not compile 'k\.cu':$" "$T/err"
assert_grep "clang's message" '^    noclang: no clang here$' "$T/err"
assert_grep "once per file" \
    "^k\\.litmus:7:40: error: 'k\\.cu' could not be compiled (the first error about it says why)$" \
    "$T/err"
assert_eq "clang runs" "$(wc -l <called)" 1
[ ! -e r.db ] || fail "the database was written"
[ ! -s "$T/out" ] || fail "a failed compile printed results: $(head -c 300 "$T/out")"
rm -f called

# gpmc.cuh is part of the hash
GPMC_CLANG= expect_rc 1 "$GPMC" run k.litmus --model hw
cp "$(dirname "$GPMC")/gpmc.cuh" my.cuh
echo '/* edited */' >>my.cuh
GPMC_CUH=$T/my.cuh GPMC_CLANG=$T/noclang expect_rc 2 "$GPMC" run k.litmus
[ -e called ] || fail "clang was not called for a changed gpmc.cuh"
GPMC_CLANG=$T/noclang expect_rc 1 "$GPMC" run k.litmus --model hw

# no clang: how to install it
mkdir empty
rm -rf cache
PATH=$T/empty expect_rc 2 "$GPMC" run k.litmus --model hw
assert_grep "clang missing" \
    "^k\.litmus:5:35: error: 'k\.cu' needs clang to compile CUDA to PTX, and there is none on PATH: install it (Debian, Ubuntu: apt-get install clang) or set GPMC_CLANG$" \
    "$T/err"
GPMC_CLANG=/nonexistent expect_rc 2 "$GPMC" run k.litmus --model hw
assert_grep "GPMC_CLANG missing" \
    "needs clang to compile CUDA to PTX, and GPMC_CLANG='/nonexistent' is not an executable$" \
    "$T/err"

# a test's content covers the PTX of its kernels: after the .cu changes,
# suite --resume checks it again instead of reusing the earlier result
unset GPMC_CLANG
sed 's/check recovered forall (out == {1, 2} || out == {10, 11})/check final forall (out == {10, 11})/' \
    k.litmus >f.litmus
expect_rc 0 "$GPMC" suite f.litmus --model hw --db s.db
expect_rc 0 "$GPMC" suite f.litmus --model hw --db s.db --resume
assert_grep "resumed" '^0 passed, 0 failed, 1 skipped (passed before)$' "$T/out"
echo '// edited again' >>k.cu
expect_rc 0 "$GPMC" suite f.litmus --model hw --db s.db --resume
assert_grep "resumed after an edit" '^1 passed, 0 failed, 0 skipped (passed before)$' "$T/out"
expect_rc 0 "$GPMC" query --db s.db --csv "SELECT count(DISTINCT sha256) FROM tests"
assert_eq "test contents" "$(tail -n 1 "$T/out")" 2
