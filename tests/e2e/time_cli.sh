#!/bin/sh
# gpmc time: the table (exact, for a lone store whose costs are derived in
# tests/test_tm_run.c), -D and --config, --db rows, runtime errors
# (exit 1, an error line), input errors (file:line:col, exit 2), usage.
set -eu
: "${GPMC:?set GPMC to the gpmc binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "time_cli: $*" >&2; exit 1; }

cat > "$tmp/lone.litmus" <<'LIT'
test lone
param N = 1
pm x[16*N] = 0
kernel k grid 1 block 1 {
  mov r0, 0
L:
  st x[r0], 1
  add r0, r0, 16
  blt r0, 16*N, L
}
LIT

# N = 1 under hw: mov at 0, the store at 1 acknowledged at 111 (the lone
# store of test_tm_run shifted by one cycle), four warp instructions.
# Under strict the store is written through its SM's persist buffer,
# acknowledged once in NVM (wt_ack = nvm) at 1281; the warp goes on (the
# add and blt at 2 and 3) and the join waits for the write: 1281.
"$GPMC" time "$tmp/lone.litmus" --model hw,strict > "$tmp/out" 2> "$tmp/err" ||
    fail "exit status $? on a good file"
cat > "$tmp/want" <<'OUT'
test  model   cycles  stall_fence  stall_pbar  stall_bar  stall_mem  nvm_writes  nvm_bytes  l2_writebacks  wpq_peak  end_writebacks  instructions
----  ------  ------  -----------  ----------  ---------  ---------  ----------  ---------  -------------  --------  --------------  ------------
lone  hw         111            0           0          0          0           1        128              0         0               1             4
lone  strict    1281            0           0          0          0           1          8              0         1               0             4
OUT
cmp -s "$tmp/out" "$tmp/want" || { diff "$tmp/want" "$tmp/out" >&2; fail "table differs"; }
[ ! -s "$tmp/err" ] || fail "unexpected stderr: $(cat "$tmp/err")"

# -D: three stores on three lines, three end writebacks under hw.
"$GPMC" time "$tmp/lone.litmus" --model hw -D N=3 > "$tmp/out"
awk 'NR == 3 { exit !($2 == "hw" && $12 == 3 && $8 == 3) }' "$tmp/out" ||
    fail "-D N=3 not applied: $(cat "$tmp/out")"

# --config: 64-byte lines carry 64 bytes per NVM write.
"$GPMC" time "$tmp/lone.litmus" --model hw --config line_bytes=64 > "$tmp/out"
awk 'NR == 3 { exit !($9 == 64) }' "$tmp/out" ||
    fail "--config line_bytes=64 not applied: $(cat "$tmp/out")"

# --db: the same table, and one time-only check row per model with the
# run's cycles, NVM writes and every cost metric.
"$GPMC" time "$tmp/lone.litmus" --model hw,strict --db "$tmp/x.db" > "$tmp/out" 2> "$tmp/err"
[ "$(wc -l < "$tmp/out")" -eq 4 ] || fail "--db changed the output"
[ ! -s "$tmp/err" ] || fail "--db wrote to stderr"
"$GPMC" query --db "$tmp/x.db" --csv "SELECT model, status, cycles, nvm_writes,
  substr(config, -12) AS tail,
  (SELECT count(*) FROM costs k WHERE k.check_id = c.check_id) AS ncosts,
  (SELECT count(*) FROM results r WHERE r.check_id = c.check_id) AS nresults
  FROM checks c ORDER BY model" > "$tmp/rows"
# the numbers the table printed (columns: test model cycles ... nvm_writes)
awk 'NR > 2 { printf "%s,done,%s,%s,;time_only=1,11,0\n", $2, $3, $8 }' "$tmp/out" |
  sort > "$tmp/want.body"
{ echo "model,status,cycles,nvm_writes,tail,ncosts,nresults"; cat "$tmp/want.body"; } > "$tmp/want"
cmp -s "$tmp/rows" "$tmp/want" || { diff "$tmp/want" "$tmp/rows"; fail "--db rows"; }

# A runtime error: the row, an error line under it, exit 1.
cat > "$tmp/err.litmus" <<'LIT'
test err
pm x = 0
kernel k grid 1 block 1 {
  ld r0, x
  assert r0 == 1
}
LIT
st=0
"$GPMC" time "$tmp/err.litmus" --model epoch > "$tmp/out" || st=$?
[ "$st" -eq 1 ] || fail "runtime error: exit $st, want 1"
grep -qx '  error: assert: assertion failed (0 == 1) (thread 0, line 5)' "$tmp/out" ||
    fail "no error line: $(cat "$tmp/out")"

# A bad file next to a good one: its errors on stderr, exit 2, the good
# file still timed.
printf 'test bad\npm x = 0\nkernel k grid 1 block 1 {\n  st y, 1\n}\n' > "$tmp/bad.litmus"
st=0
"$GPMC" time "$tmp/bad.litmus" "$tmp/lone.litmus" --model hw > "$tmp/out" 2> "$tmp/err" || st=$?
[ "$st" -eq 2 ] || fail "bad file: exit $st, want 2"
grep -q "^$tmp/bad.litmus:4:6: error: " "$tmp/err" || fail "no file:line:col error: $(cat "$tmp/err")"
grep -q '^lone  hw ' "$tmp/out" || fail "the good file was not timed"

# --csv and --json: the same table; a run that did not finish has its
# error in a column.
"$GPMC" time "$tmp/lone.litmus" "$tmp/err.litmus" --model hw --csv > "$tmp/out" || true
cat > "$tmp/want" <<'OUT'
test,model,cycles,stall_fence,stall_pbar,stall_bar,stall_mem,nvm_writes,nvm_bytes,l2_writebacks,wpq_peak,end_writebacks,instructions,error
lone,hw,111,0,0,0,0,1,128,0,0,1,4,
OUT
head -n 2 "$tmp/out" | cmp -s - "$tmp/want" || { diff "$tmp/want" "$tmp/out"; fail "--csv"; }
grep -q '^err,hw,.*,"assert: assertion failed (0 == 1) (thread 0, line 5)"$' "$tmp/out" ||
    fail "--csv error column: $(cat "$tmp/out")"
"$GPMC" time "$tmp/lone.litmus" --model hw,strict --json > "$tmp/out" ||
    fail "--json exit $?"
python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))
assert [(r["test"], r["model"], r["cycles"], r["error"]) for r in rows] == \
    [("lone", "hw", 111, None), ("lone", "strict", 1281, None)], rows' "$tmp/out" ||
    fail "--json: $(cat "$tmp/out")"
st=0; "$GPMC" time "$tmp/lone.litmus" --csv --json > /dev/null 2>&1 || st=$?
[ "$st" -eq 2 ] || fail "--csv --json accepted"

# Usage.
st=0; "$GPMC" time > /dev/null 2>&1 || st=$?
[ "$st" -eq 2 ] || fail "no file: exit $st"
st=0; "$GPMC" time --naive "$tmp/lone.litmus" > /dev/null 2>&1 || st=$?
[ "$st" -eq 2 ] || fail "--naive accepted"
st=0; "$GPMC" time --model nope "$tmp/lone.litmus" > /dev/null 2>&1 || st=$?
[ "$st" -eq 2 ] || fail "--model nope accepted"
"$GPMC" time --help | grep -q '^usage: gpmc time FILE' || fail "--help"
exit 0
