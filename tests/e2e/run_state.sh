#!/bin/sh
# --state changes nothing a run reports: every file of litmus/suite under
# the six models prints the same bytes with the flat store and with the
# tree store (store/sto_flat.c, sto_tree.c), except the Time lines and
# the peak memory of the Stats lines, which are measurements. The suite
# holds programs whose vectors are short and long (hw), with recoveries,
# nested crashes, witnesses and errors: both stores must give every vector
# the same id in the same order for the reports to agree.
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

n=0
for f in $(find litmus/suite -name '*.litmus' | LC_ALL=C sort); do
    for st in flat tree; do
        try "$GPMC" run "$f" --model all --state "$st" --max-states 300000
        [ "$rc" -le 1 ] || fail "$f --state $st exited $rc: $(head -c 600 "$T/err")"
        grep -v '^Time ' "$T/out" | sed -E 's/ peak [0-9]+KB$/ peak -/' >"$T/$st"
    done
    assert_same "$f, the tree store against the flat one" "$T/tree" "$T/flat"
    n=$((n + 1))
done
[ "$n" -ge 150 ] || fail "only $n suite files"
