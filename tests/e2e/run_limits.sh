#!/bin/sh
# Limits at the edges (issue 27): a state longer than the state store holds
# is refused as an input limit (exit 2, nothing stored), never an abort in
# the tree store; --timeout stops within one state's successors (a state of
# 50,000 successors kept a 2 s timeout waiting 47-65 s); `gpmc time` takes
# --timeout, is linear in the CTAs, refuses what the model layer cannot
# hold and configurations whose latencies would overflow its cycle count
# (exit 2, not 3 or undefined behaviour).
. "$(dirname "$0")/lib.sh"
need python3
cd "$T"

# cpu_s CMD...: runs CMD (output to out, err, its status to rc), prints
# the CPU seconds it used. Use it as s=$(cpu_s ...), then rc=$(cat rc).
cpu_s() {
    python3 - "$@" <<'PY'
import os, resource, subprocess, sys
with open("out", "wb") as o, open("err", "wb") as e:
    rc = subprocess.call(sys.argv[1:], stdout=o, stderr=e)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
open("rc", "w").write("%d\n" % rc)
print("%.2f" % (u.ru_utime + u.ru_stime))
PY
}

# 2^19 words and more: pm a[524288], grid 1000 block 1000 (strict), and
# grid 1000000 passed the model's size check and aborted in the tree store
# (an assertion, exit 134).
cat >array.litmus <<'LIT'
test BigArray "a PM array of 2^19 words"
pm a[524288] = 0
kernel k grid 1 block 1 { st a[0], 1 }
check crash forall (a[0] == 0 || a[0] == 1)
LIT
cat >threads.litmus <<'LIT'
test BigBlock "a million threads"
pm x = 0
kernel k grid 1000 block 1000 { nop }
check crash forall (x == 0)
LIT
cat >ctas.litmus <<'LIT'
test BigGrid "a million CTAs"
pm x = 0
kernel k grid 1000000 block 1 { nop }
check crash forall (x == 0)
LIT
for f in array threads ctas; do
    expect_rc 2 "$GPMC" run $f.litmus --model strict,hw --db big.db
    [ ! -s out ] || fail "run $f.litmus printed a report: $(head -c 300 out)"
    assert_grep "$f.litmus under strict" \
        "^$f.litmus: error: strict: a state would need [0-9]* words, more than the 524287 the state store holds: too large to explore\$" err
    assert_grep "$f.litmus under hw" \
        "^$f.litmus: error: hw: .*too large to explore\$" err
done
[ ! -e big.db ] || [ "$(q big.db "SELECT count(*) FROM checks")" = 0 ] ||
    fail "checks were stored for programs too large"
# --json: the refused check leaves no object (nor a stray comma)
expect_rc 2 "$GPMC" run array.litmus "$ROOT/tests/data/naive/sb.litmus" \
    --model strict,epoch --json
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert [c["model"] for c in d] == ["strict", "epoch"], d' out ||
    fail "run --json with refused checks: $(head -c 300 out)"
# in a suite: failed, with the reason, and exit 2; a good file still runs
mkdir s
cp array.litmus "$ROOT/tests/data/naive/sb.litmus" s/
expect_rc 2 "$GPMC" suite s --model strict --db s.db
assert_grep "suite: the good file" '^pass s/sb.litmus strict$' out
assert_grep "suite: the large one" '^FAIL s/array.litmus strict$' out
assert_grep "suite: why" '^  s/array.litmus strict: cannot be checked: a state would need' out
assert_eq "suite summary" "$(tail -n 1 out)" "1 passed, 1 failed"
# A state of 2,000,194 words: more than the 2^20 the checker explores (an
# input error), fewer than the 2^28 the timed run follows (MDL_ONE): a
# million one-instruction threads in 1000 CTAs, 32,000 warp instructions.
cat >regs.litmus <<'LIT'
test BigRegs "a million threads with a register each"
pm x = 0
kernel k grid 1000 block 1000 { mov r1, 1 }
check crash forall (x == 0)
LIT
expect_rc 2 "$GPMC" run regs.litmus --model strict
assert_grep "run of a state too large" \
    '^regs.litmus: error: strict: kernel k: a state would need 2000194 words, more than the 1048576 a model allows: too large to explore' err
expect_rc 0 "$GPMC" time regs.litmus --model strict
assert_grep "time of the same state" \
    '^BigRegs  strict     800 .* 32000$' out

# --timeout within one state: 50,000 threads, each a successor of the
# first state.
cp "$ROOT/tests/data/e2e/wide.litmus" .
for th in 1 2; do
    start=$(date +%s)
    expect_rc 1 "$GPMC" run wide.litmus --model strict --timeout 1 --threads $th
    took=$(($(date +%s) - start))
    [ "$took" -le 15 ] || fail "--timeout 1 --threads $th took $took s"
    assert_grep "the timeout, $th threads" '^Status incomplete: timeout (1s)$' out
    assert_grep "its verdict, $th threads" '^Verdict Wide strict 0 Unknown -$' out
done

# gpmc time --timeout: a loop that never ends stops at it, with the costs
# of what ran.
cat >spin.litmus <<'LIT'
test Spin "a loop that never ends"
pm x = 0
kernel k grid 1 block 1 {
L: add r1, r1, 1
   bra L
}
check crash forall (x == 0)
LIT
start=$(date +%s)
expect_rc 1 "$GPMC" time spin.litmus --model strict --timeout 0.5
[ $(($(date +%s) - start)) -le 10 ] || fail "time --timeout 0.5 took too long"
assert_grep "time --timeout" '^  error: timeout (0.5s)$' out
expect_rc 2 "$GPMC" time spin.litmus --timeout 0

# gpmc time is linear in the CTAs: 3 * 10^5 one-thread CTAs took about
# 40 s of CPU when every finished thread made the model scan the ones
# before it; now well under one.
sed 's/grid 1000000/grid 300000/' ctas.litmus >ctas3.litmus
s=$(cpu_s "$GPMC" time ctas3.litmus --model strict)
rc=$(cat rc)
[ "$rc" != "$SAN_EXIT" ] || fail "sanitizer report: $(head -c 2000 err)"
assert_eq "time of 3 * 10^5 CTAs: status" "$rc" 0
assert_eq "its instructions" "$(awk '$1 == "BigGrid" { print $NF }' out)" 300000
python3 -c "import sys; sys.exit(float(sys.argv[1]) > 8)" "$s" ||
    fail "time of 3 * 10^5 CTAs took $s s of CPU"

# Configurations whose latencies overflow the cycle count: refused by the
# timed run, in `time` (exit 2) as in `run` (the check stands, its cost is
# `-` with the reason).
SB=$ROOT/tests/data/naive/sb.litmus
for c in core_ghz=1e9 icnt_ghz=1e-9 mem_ghz=1e-9; do
    expect_rc 2 "$GPMC" time "$SB" --model strict --config $c
    assert_grep "time --config $c" \
        "^$SB: error: strict: config: .* core cycles; the timing model counts at most 4294967296\$" err
    expect_rc 0 "$GPMC" run "$SB" --model strict --config $c
    assert_grep "run --config $c" \
        '^Cost SB+pbar+sync strict - (config: .*the timing model counts at most 4294967296)$' out
done
expect_rc 0 "$GPMC" time "$SB" --model strict --config nvm_write_ns=1e9
