#!/bin/sh
# An incomplete check's verdict is Unknown unless a witness found before
# the limit decides it (DESIGN section 3), and Unknown never passes: in the
# Verdict lines, --json, results.verdict, the views, the reports, the exit
# status and the suite's count. Also the progress lines of a long run.
. "$(dirname "$0")/lib.sh"
need python3
cd "$T"

# Two threads of two stores; without the reductions (--no-reduce),
# --max-states 6 stores the first 6 states (the
# first two BFS levels and part of the third) and visits the levels it
# completed (specs/checker.md, Limits). Found before the limit: a crash
# image with a[0] = 1 (the example of check 2), one with a[0] = 1 alone
# (the counterexample of check 4) and one with a[0] = b[0] = 1 (the
# counterexample of check 1). Nothing decides the others.
cat >inc.litmus <<'LIT'
test INC "two threads store N values each; stopped by --max-states"
param N = 2
pm a[N] = 0
pm b[N] = 0
kernel k grid 1 block 2 {
  thread 0 {
    st a[0], 1
    st a[N-1], 2
  }
  thread 1 {
    st b[0], 1
    st b[N-1], 2
    pbar.wg
  }
}
check final forall (a[0] == 1 && b[N-1] == 2) expect strict=ok epoch=ok
check crash ~exists (a[0] == 1 && b[0] == 1) expect strict=no epoch=no bepoch=no
check crash exists (a[0] == 1)
check crash exists (a[0] == 3)
check crash ~exists (a[0] == 1)
check noerror
LIT
expect_rc 1 "$GPMC" run inc.litmus --model strict --no-reduce --max-states 6 --db u.db
cat >want <<'OUT'
Verdict INC strict 0 Unknown Ok
Verdict INC strict 1 No No
Verdict INC strict 2 Ok -
Verdict INC strict 3 Unknown -
Verdict INC strict 4 No -
Verdict INC strict 5 Unknown -
OUT
grep '^Verdict ' out >got
assert_same "Verdict lines of an incomplete check" got want
assert_grep "status line" '^Status incomplete: max-states (6) reached$' out
assert_grep "the Unknown line of check 0" '^Unknown$' out
assert_eq "results.verdict" "$(q u.db "SELECT group_concat(verdict, ' ')
    FROM (SELECT verdict FROM results ORDER BY cond_index)")" \
    "Unknown No Ok Unknown No Unknown"
assert_eq "unexpected view" "$(q u.db "SELECT group_concat(cond_index || verdict, ' ')
    FROM unexpected")" "0Unknown 3Unknown 4No 5Unknown"

# --json says the same
expect_rc 1 "$GPMC" run inc.litmus --model strict --no-reduce --max-states 6 --json
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
v = [r["verdict"] for r in d[0]["results"]]
assert d[0]["status"] == "incomplete", d[0]["status"]
assert v == ["Unknown", "No", "Ok", "Unknown", "No", "Unknown"], v' out ||
    fail "--json verdicts of an incomplete check"

# The same file run to the end decides everything (exit 1: check 4 is No
# with no expectation).
expect_rc 1 "$GPMC" run inc.litmus --model strict --db u.db
grep '^Verdict ' out >got
printf '%s\n' "Verdict INC strict 0 Ok Ok" "Verdict INC strict 1 No No" \
    "Verdict INC strict 2 Ok -" "Verdict INC strict 3 No -" \
    "Verdict INC strict 4 No -" "Verdict INC strict 5 Ok -" >want
assert_same "Verdict lines of the complete check" got want

# Reports (of the unreduced search, which the limit stops): the verdicts
# report marks and counts Unknown; unexpected lists
# it with the check's id.
expect_rc 1 "$GPMC" run inc.litmus --model epoch --max-states 6 --no-reduce --db r.db
expect_rc 0 "$GPMC" report verdicts --db r.db
assert_grep "Unknown marked" '^INC      0  final    -       Unknown!' out
assert_grep "summary counts Unknown" \
    '^6 rows, 6 verdicts: 2 pass, 4 unexpected (marked !), 3 Unknown$' out
expect_rc 0 "$GPMC" report unexpected --db r.db
id=$(q r.db "SELECT max(check_id) FROM checks")
assert_grep "unexpected lists the Unknown with its check" \
    "^INC   epoch     0  final    Unknown  Ok            $id  -\$" out

# suite counts an incomplete check as failed and says why
mkdir s
cp inc.litmus s/
expect_rc 1 "$GPMC" suite s --model strict --no-reduce --max-states 6 --db s.db
assert_grep "suite line" '^FAIL s/inc\.litmus strict$' out
assert_grep "suite says why" \
    '^  s/inc\.litmus strict check 1: cond 0: Unknown, expected Ok; cond 3: Unknown; cond 4: No; cond 5: Unknown; incomplete: max-states (6) reached$' out
assert_eq "suite summary" "$(tail -n 1 out)" "0 passed, 1 failed"

# A long check, stopped by --timeout, with --progress: pan-like lines about
# once a second on stderr (here at least one), then the summary line; the
# verdict that needs the whole state space is Unknown (the unreduced search:
# the reductions take this program in a hundred states).
expect_rc 1 "$GPMC" run "$ROOT/bench/barrier.litmus" --model strict \
    --no-reduce --max-states 100000000 -D N=8 -D R=3 --timeout 2.5 --progress
n=$(grep -c '^gpmc: bench-barrier strict: [0-9]* states, [0-9]* states/s, depth [0-9]*, [0-9]* transitions, peak [0-9.]* [kMG]B, RSS [0-9.]* [kMG]B, [0-9]* s$' err) || true
[ "$n" -ge 1 ] && [ "$n" -le 4 ] || fail "progress lines: $(cat err)"
assert_grep "summary line" \
    '^gpmc: bench-barrier strict: incomplete: timeout (2.5s), [0-9]* states, [0-9]* states/s, [0-9]* transitions, peak [0-9.]* [kMG]B, RSS [0-9.]* [kMG]B, [0-9.]* s; store [0-9.]* [kMG]B, [0-9.]* B/state$' err
assert_eq "stderr lines" "$(wc -l <err)" $((n + 1))
assert_grep "Unknown verdict" '^Verdict bench-barrier strict 0 Unknown -$' out
# a finished check's summary says what its states cost in the store (as
# pan's "memory usage for states"): the same on one thread and on two; the
# tree store also counts its nodes
for t in 1 2; do
    expect_rc 0 "$GPMC" run "$ROOT/bench/arith.litmus" --model strict \
        --no-reduce -D N=2 -D K=2 --threads $t --progress
    assert_grep "store figures, $t threads" \
        '^gpmc: bench-arith strict: done, 1709 states, .*, 2980 transitions, .*; store 116 kB, 69.5 B/state$' err
    expect_rc 0 "$GPMC" run "$ROOT/bench/arith.litmus" --model strict \
        --no-reduce -D N=2 -D K=2 --threads $t --progress --state tree
    assert_grep "tree store figures, $t threads" \
        '^gpmc: bench-arith strict: done, 1709 states, .*, 2980 transitions, .*; store 150 kB, 89.9 B/state, 86 nodes$' err
done
# --state auto (the default) takes the tree store where the model's vectors
# may be longer than 1024 words (hw's are), the flat one elsewhere
expect_rc 0 "$GPMC" run "$ROOT/litmus/suite/scale/P01.litmus" -D T=2 \
    --model hw --naive --progress
assert_grep "hw: the tree store" '; store [0-9.]* [kMG]B, [0-9.]* B/state, [0-9]* nodes$' err
expect_rc 0 "$GPMC" run "$ROOT/litmus/suite/scale/P01.litmus" -D T=2 \
    --model hw --naive --progress --state flat
assert_grep "hw, --state flat" '; store [0-9.]* [kMG]B, [0-9.]* B/state$' err
# without --progress and off a terminal: nothing on stderr
expect_rc 1 "$GPMC" run "$ROOT/bench/barrier.litmus" --model strict \
    --no-reduce --max-states 100000000 -D N=8 -D R=3 --timeout 1.5
[ ! -s err ] || fail "stderr without --progress: $(cat err)"

# --max-memory: the budget ends the check incomplete, with its row and an
# Unknown verdict (tests/test_base_budget.c sweeps failing allocations).
expect_rc 1 "$GPMC" run "$ROOT/bench/barrier.litmus" --model strict \
    --no-reduce --max-states 100000000 -D N=8 -D R=3 --max-memory 8M \
    --db m.db
assert_grep "memory status" '^Status incomplete: max-memory (8 MB) reached$' out
assert_grep "memory verdict" '^Verdict bench-barrier strict 0 Unknown -$' out
assert_eq "memory row" "$(q m.db "SELECT c.status || ' ' || r.verdict
    FROM checks c JOIN results r USING (check_id)")" "incomplete Unknown"

# A limit met inside a recovery: the witness of an error found before it is
# rebuilt by exploring that recovery again, as far as it went the first
# time. (The replay stopped at its first state, the check being
# incomplete already: the witness showed one step of the four and no error,
# or gpmc crashed on a parent link past the states replayed.)
cat >lim.litmus <<'LIT'
test LimWit "an error early in a recovery whose space passes --max-states"
pm x = 0
pm y[4] = 0
kernel k grid 1 block 1 {
  st x, 1
}
recover {
  kernel r grid 1 block 4 {
    st y[%tid], 1
    st y[%tid], 2
    ld r0, x
    assert r0 == 5
  }
}
check noerror
LIT
expect_rc 1 "$GPMC" run lim.litmus --model strict --naive --max-states 1000
assert_grep "recovery limit" '^Status incomplete: max-states (1000) reached$' out
assert_grep "decided by the error" '^Verdict LimWit strict 0 No -$' out
sed -n '/^Witness/,/^  error:/p' out >got
cat >want <<'OUT'
Witness error (2 crashes):
  main program:
  crash 1 after step 0
    image: x=0; y[0]=0; y[1]=0; y[2]=0; y[3]=0
  recovery 1:
  crash 2 after step 0
    image: x=0; y[0]=0; y[1]=0; y[2]=0; y[3]=0
  recovery 2:
    1. r thread 0 line 9: st y[%tid], 1  -- y[0] = 1 [#1]
    2. r thread 0 line 10: st y[%tid], 2  -- y[0] = 2 [#2]
    3. r thread 0 line 11: ld r0, x  -- r0 = 0 (x)
    4. r thread 0 line 12: assert r0 == 5
  error: assertion failed (0 == 5)
OUT
assert_same "witness of the error found before the limit" got want

# --timeout when the time goes into thousands of small recoveries (each far
# below the 1024 states at which an exploration used to look at the clock):
# Lin-CtaUndo under bepoch with 11 threads takes minutes; the check stops
# at the timeout, incomplete, with the counterexample of check 0 if it was
# found by then (within a second on this machine) and check 1 Unknown.
start=$(date +%s)
expect_rc 1 "$GPMC" run "$ROOT/litmus/suite/seeds/lin-cta-undo.litmus" \
    --model bepoch -D TPB=11 --threads 1 --max-states 100000000 --timeout 2
took=$(($(date +%s) - start))
[ "$took" -le 20 ] || fail "--timeout 2 took ${took} s"
assert_grep "timeout status" '^Status incomplete: timeout (2s)$' out
assert_grep "check 0: the counterexample, if found by then" \
    '^Verdict Lin-CtaUndo bepoch 0 \(No\|Unknown\) No$' out
assert_grep "the other check is Unknown" \
    '^Verdict Lin-CtaUndo bepoch 1 Unknown Ok$' out
