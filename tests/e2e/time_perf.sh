#!/bin/sh
# litmus/suite/perf: every workload meets its own `expect` lines under the
# models the checker offers (gpmc run exits 0), times without error under
# every model at its default size, and at a moderate size shows the
# orderings specs/timing.md reports: a kernel-scope barrier costs more than
# a CTA-scope one, undo logging writes more than twice the baseline's NVM
# lines while Recompute stays near it, logging a stencil costs more than
# re-executing it, and a write-through log skips the L2 writebacks.
set -eu
: "${GPMC:?set GPMC to the gpmc binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=litmus/suite/perf

fail() { echo "time_perf: $*" >&2; exit 1; }

# The checker's models: all six once hw exists.
models=strict,epoch,bepoch,scoped,bscoped
printf 'test probe\npm x = 0\nkernel k grid 1 block 1 {\n  st x, 1\n}\n' > "$tmp/probe.litmus"
if "$GPMC" run "$tmp/probe.litmus" --model hw > /dev/null 2>&1; then
    models=all
fi

n=0
for f in "$dir"/*.litmus; do
    "$GPMC" run "$f" --model "$models" > "$tmp/run" 2>&1 ||
        { grep '^Verdict' "$tmp/run" >&2; fail "$f: gpmc run fails its expectations"; }
    "$GPMC" time "$f" > "$tmp/time" || fail "$f: gpmc time exit $?"
    [ "$(wc -l < "$tmp/time")" -eq 8 ] || fail "$f: not six timed rows"
    n=$((n + 1))
done
[ "$n" -eq 15 ] || fail "$n perf workloads, want 15"

# Column of a metric for TEST and MODEL in a `gpmc time` table.
metric() {  # file test model column
    awk -v t="$2" -v m="$3" -v c="$4" '$1 == t && $2 == m { print $c }' "$1"
}

"$GPMC" time "$dir"/btree+*.litmus -D CTAS=8 -D TPB=64 -D LEVELS=3 -D WORK=4 \
    --model scoped > "$tmp/bt"
b=$(metric "$tmp/bt" BTREE+base scoped 3)
wg=$(metric "$tmp/bt" BTREE+wg scoped 3)
kr=$(metric "$tmp/bt" BTREE+kr scoped 3)
[ "$b" -lt "$wg" ] && [ "$wg" -lt "$kr" ] ||
    fail "BTREE scoped cycles base $b, wg $wg, kr $kr: want base < wg < kr"

"$GPMC" time "$dir"/mm+*.litmus -D N=16 -D RB=4 -D TILES=2 --model epoch > "$tmp/mm"
b=$(metric "$tmp/mm" MM+base epoch 8)
u=$(metric "$tmp/mm" MM+undo epoch 8)
r=$(metric "$tmp/mm" MM+recompute epoch 8)
[ "$u" -gt $((2 * b)) ] && [ "$r" -lt $((3 * b / 2)) ] && [ "$r" -ge "$b" ] ||
    fail "MM NVM writes base $b, undo $u, recompute $r"

"$GPMC" time "$dir"/lbm+undo.litmus "$dir"/lbm+idem.litmus -D CTAS=8 -D TPB=64 \
    -D CELLS=4 --model scoped > "$tmp/lbm"
u=$(metric "$tmp/lbm" LBM+undo scoped 3)
i=$(metric "$tmp/lbm" LBM+idem scoped 3)
[ "$u" -gt "$i" ] || fail "LBM scoped cycles undo $u, idem $i: want undo > idem"

"$GPMC" time "$dir"/undo+wt.litmus "$dir"/undo+clwb.litmus -D CTAS=8 -D TPB=64 \
    -D ITEMS=4 --model hw > "$tmp/undo"
w=$(metric "$tmp/undo" UNDO+wt hw 10)
c=$(metric "$tmp/undo" UNDO+clwb hw 10)
[ "$w" -lt "$c" ] || fail "UNDO L2 writebacks wt $w, clwb $c: want wt < clwb"
exit 0
