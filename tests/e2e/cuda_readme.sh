#!/bin/sh
# The README's "Checking CUDA code" is true: its undo.cu and undo.litmus,
# run as it says, print every line its output shows, in that order (a "…"
# line stands for lines left out; the peak memory and the time differ
# from run to run); with its fix applied, hw and strict say Ok and the
# other models No.
. "$(dirname "$0")/lib.sh"
need clang
GPMC_CACHE=$T/cache
export GPMC_CACHE

# block NAME: the fenced block after "<!-- readme: NAME -->"
block() {
    awk -v want="<!-- readme: $1 -->" '
        $0 == want { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$ROOT/README.md"
}
block undo.cu >"$T/undo.cu"
block undo.litmus >"$T/undo.litmus"
block output >"$T/want"
block fix >"$T/fix"
for f in undo.cu undo.litmus want fix; do
    [ -s "$T/$f" ] || fail "README has no '$f' block"
done
cd "$T"
expect_rc 1 "$GPMC" run undo.litmus --model hw
sed 's/ peak [0-9]*KB$//' "$T/out" >got
# every shown line in order: each must come after the one before it
n=0
while IFS= read -r line; do
    [ "$line" = "…" ] && continue
    line=$(printf '%s\n' "$line" | sed 's/ peak [0-9]*KB$//')
    at=$(tail -n "+$((n + 1))" got | grep -n -x -F -- "$line" | head -n 1 |
         cut -d: -f1)
    [ -n "$at" ] || fail "README output line not printed (in order): $line"
    n=$((n + at))
done <want
[ "$n" -gt 20 ] || fail "only $n lines of output compared"

# the fix: its first line is the line it follows in undo.cu
first=$(head -n 1 fix)
grep -q -x -F -- "$first" undo.cu || fail "the fix's first line is not in undo.cu"
awk -v first="$first" -v fixf=fix '
    $0 == first { while ((getline l < fixf) > 0) print l; next }
    { print }' undo.cu >fixed.cu
sed 's/"undo\.cu"/"fixed.cu"/g' undo.litmus >fixed.litmus
expect_rc 1 "$GPMC" run fixed.litmus --model all
grep '^Verdict ' "$T/out" >verdicts
cat >want_verdicts <<'V'
Verdict Undo strict 0 Ok -
Verdict Undo epoch 0 No -
Verdict Undo bepoch 0 No -
Verdict Undo scoped 0 No -
Verdict Undo bscoped 0 No -
Verdict Undo hw 0 Ok -
V
assert_same "verdicts of the fixed update" verdicts want_verdicts
