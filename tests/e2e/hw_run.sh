#!/bin/sh
# gpmc run --model hw: every hw corpus test (litmus/suite/hw, tests/data/hw)
# meets its expectations and prints the same Verdict lines with --naive;
# --config wpq=volatile changes what a flush guarantees; the default-mode
# statistics of the measurement test are stable; a hw witness names the
# line writes its crash image lacks.
set -eu
: "${GPMC:?set GPMC to the gpmc binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "hw_run: $*" >&2; exit 1; }

n=0
for f in litmus/suite/hw/*.litmus tests/data/hw/*.litmus; do
    [ -e "$f" ] || continue
    "$GPMC" run "$f" --model hw > "$tmp/a" 2> "$tmp/err" ||
        fail "$f: exit $? under hw: $(grep '^Verdict' "$tmp/a" | tr '\n' ' ')"
    "$GPMC" run "$f" --model hw --naive > "$tmp/b" 2> "$tmp/err" ||
        fail "$f: exit $? under hw --naive"
    grep '^Verdict' "$tmp/a" > "$tmp/va"
    grep '^Verdict' "$tmp/b" > "$tmp/vb"
    [ -s "$tmp/va" ] || fail "$f: no Verdict line"
    cmp -s "$tmp/va" "$tmp/vb" || fail "$f: --naive verdicts differ"
    n=$((n + 1))
done
[ "$n" -ge 30 ] || fail "only $n hw tests found"

# clwb; sfence makes x durable with the default durable WPQ, not with a
# volatile one (x's line waits in its controller's queue).
f=litmus/suite/hw/HW+clwb+sfence.litmus
"$GPMC" run "$f" --model hw > "$tmp/out" || fail "$f: durable WPQ"
grep -q '^Verdict HW+clwb+sfence hw 0 Ok Ok$' "$tmp/out" ||
    fail "$f: durable verdict"
set +e
"$GPMC" run "$f" --model hw --config wpq=volatile > "$tmp/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "$f: wpq=volatile exited $rc, not 1"
grep -q '^Verdict HW+clwb+sfence hw 0 No Ok$' "$tmp/out" ||
    fail "$f: volatile verdict"

# The measurement test: exact default-mode statistics.
f=tests/data/hw/big/HW+ckpt+kr4.litmus
"$GPMC" run "$f" --model hw > "$tmp/out" || fail "$f: exit $?"
grep -q '^Stats HW+ckpt+kr4 hw states 35590 transitions 63032 crash-points 27395 images 257 recoveries 514 ' \
    "$tmp/out" || fail "$f: statistics: $(grep '^Stats' "$tmp/out")"

# A witness under hw: the crash image lacks x's line write.
f=litmus/suite/hw/HW+clwb+nosfence.litmus
"$GPMC" run "$f" --model hw > "$tmp/out" || fail "$f: exit $?"
grep -q 'image includes #2 f = 1; lacks #1 x = 1$' "$tmp/out" ||
    fail "$f: witness"
