#!/bin/sh
# A livelock's witness is its lasso (issue 27: it was an empty witness,
# "condition -1", and an empty DOT graph): the path to a state from which
# no execution can end, then the cycle it is caught in, the same in the
# text of run and show, in --json ("cycle" by step id) and in show --dot
# (an edge from the cycle's last step back to its first). The check's
# final condition is vacuous.
. "$(dirname "$0")/lib.sh"
cat >"$T/spin.litmus" <<'LIT'
test SPIN "waits for a flag nobody sets"
pm x = 0
pm f = 0
kernel k grid 1 block 1 {
  st x, 1
top:
  ld r1, f
  beq r1, 0, top
}
check final forall (x == 1)
LIT
cat >"$T/want" <<'TXT'
main program:
  1. k thread 0 line 5: st x, 1  -- x = 1
cycle (repeats forever):
  2. k thread 0 line 7: ld r1, f  -- r1 = 0 (f)
  3. k thread 0 line 8: beq r1, 0, top  -- taken (0 == 0)
error: livelock: a reachable state from which no execution can terminate (steps 2 to 3 repeat forever)
TXT
expect_rc 1 "$GPMC" run "$T/spin.litmus" --model strict --db "$T/r.db"
sed -n '/^Witness error/,/^  error:/p' "$T/out" | tail -n +2 | sed 's/^  //' \
    >"$T/got"
assert_same "run's witness" "$T/got" "$T/want"
assert_grep "vacuous" "^Note SPIN strict 0 vacuous" "$T/out"
expect_rc 0 "$GPMC" show violation 1 --db "$T/r.db"
sed -n '/^witness:/,$p' "$T/out" | tail -n +2 >"$T/got"
assert_same "show's witness" "$T/got" "$T/want"
expect_rc 0 "$GPMC" show violation 1 --db "$T/r.db" --dot
assert_grep "the cycle's edge" \
    '^  s2 -> s1 \[style=bold, color=purple, fontcolor=purple, constraint=false, label="cycle: repeats forever"\];$' \
    "$T/out"
assert_grep "the error in the title" \
    'error: livelock: a reachable state from which no execution can terminate";$' \
    "$T/out"
n=$(grep -c '^ *s[0-9]* \[label=' "$T/out") || true
assert_eq "steps drawn" "$n" 3
expect_rc 1 "$GPMC" run "$T/spin.litmus" --model strict --json
python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))[0]["violations"][0]
w = v["witness_json"]
assert v["kind"] == "error" and v["cond_index"] == -1, v
assert w["cycle"] == {"from": 1, "to": 2}, w
assert [s["line"] for s in w["steps"]] == [5, 7, 8], w
assert w["error"].startswith("livelock: "), w' "$T/out" ||
    fail "run --json: $(cat "$T/out")"
