#!/bin/sh
# Past one machine (issue 27): `suite --shard I/N` runs the I-th of N
# slices, `merge` combines the shard databases. Three shards run at once
# under GNU parallel, as the README shows (their runs overlap in time);
# together they hold every check once, and the merged database gives the
# same verdict matrix, byte for byte, as one suite run over the corpus.
# (suite_shard.sh checks the slices and merge on the whole corpus; this is
# the README's way to run them, on a corpus small enough to run twice.)
. "$(dirname "$0")/lib.sh"
need parallel
mkdir "$T/c"
# a corpus of its own: 15 of litmus/suite/models, under every model
for f in $(ls "$ROOT/litmus/suite/models"/*.litmus | sort | head -n 15); do
    cp "$f" "$T/c/"
done
cd "$T"
expect_rc 0 "$GPMC" suite c --model all --db one.db
total=$(q one.db "SELECT count(*) FROM checks")
assert_eq "checks of one run" "$total" 90

# the README's command line
expect_rc 0 parallel -j 3 --halt now,fail=1 \
    "$GPMC" suite c --model all --shard {}/3 --db shard{}.db ::: 1 2 3
n=0
for i in 1 2 3; do
    k=$(q "shard$i.db" "SELECT count(*) FROM checks")
    [ "$k" -gt 0 ] || fail "shard $i holds no check"
    n=$((n + k))
done
assert_eq "checks of the shards" "$n" "$total"
# concurrently: each shard started before any ended
last_start=$(for i in 1 2 3; do q "shard$i.db" "SELECT started_at FROM runs"; done |
    sort | tail -n 1)
first_end=$(for i in 1 2 3; do q "shard$i.db" "SELECT finished_at FROM runs"; done |
    sort | head -n 1)
[ "$last_start" \< "$first_end" ] ||
    fail "the shards ran one after another: last start $last_start, first end $first_end"

expect_rc 0 "$GPMC" merge all.db shard1.db shard2.db shard3.db
assert_eq "checks merged" "$(q all.db "SELECT count(*) FROM checks")" "$total"
for fmt in "" --csv; do
    expect_rc 0 "$GPMC" report verdicts --db one.db $fmt
    mv out want
    expect_rc 0 "$GPMC" report verdicts --db all.db $fmt
    assert_same "the merged matrix ($fmt)" out want
done
expect_rc 0 "$GPMC" report verdicts --db all.db
assert_grep "no failing verdict" ", 0 unexpected (marked !), 0 Unknown$" out
