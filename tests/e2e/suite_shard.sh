#!/bin/sh
# `gpmc suite --shard I/N` splits the checks into disjoint slices that cover
# the corpus; `gpmc merge` of the shard databases equals the unsharded run,
# and merging again changes nothing; shards run at the same time into one
# database equal it too.
. "$(dirname "$0")/lib.sh"

corpus=$ROOT/litmus/suite
nfiles=$(find "$corpus" -name '*.litmus' | wc -l)
total=$((nfiles * 6))

try "$GPMC" suite "$corpus" --jobs 2 --db "$T/full.db"
[ "$rc" = 0 ] || [ "$rc" = 1 ] ||
    fail "unsharded suite exited $rc: $(head -c 600 "$T/err")"
full_summary=$(tail -n 1 "$T/out")
n=$(q "$T/full.db" "SELECT count(*) FROM checks")
assert_eq "checks of the unsharded run" "$n" "$total"
pairs="SELECT t.path || ' ' || c.model FROM checks c
       JOIN tests t ON t.test_id = c.test_id"
q "$T/full.db" "$pairs" | LC_ALL=C sort >"$T/full.pairs"

# Shard 2 runs its checks in the parent (--jobs 1), the others in workers.
sum=0
passed=0
failed=0
for i in 1 2 3; do
    jobs=2
    [ "$i" = 2 ] && jobs=1
    try "$GPMC" suite "$corpus" --jobs $jobs --shard "$i/3" --db "$T/s$i.db"
    [ "$rc" = 0 ] || [ "$rc" = 1 ] ||
        fail "shard $i/3 exited $rc: $(head -c 600 "$T/err")"
    summary=$(tail -n 1 "$T/out")
    p=${summary%% passed*}
    f=${summary#*, }
    f=${f%% failed}
    passed=$((passed + p))
    failed=$((failed + f))
    n=$(q "$T/s$i.db" "SELECT count(*) FROM checks")
    # the (file, model) list is dealt round-robin: sizes differ by one at most
    [ "$n" -ge $((total / 3)) ] && [ "$n" -le $(((total + 2) / 3)) ] ||
        fail "shard $i/3 holds $n checks, expected $((total / 3)) to $(((total + 2) / 3))"
    sum=$((sum + n))
    q "$T/s$i.db" "$pairs" >>"$T/shard.pairs"
done
assert_eq "checks over the three shards" "$sum" "$total"
LC_ALL=C sort "$T/shard.pairs" | uniq -d >"$T/dups"
[ ! -s "$T/dups" ] || fail "checks in more than one shard: $(head -3 "$T/dups")"
LC_ALL=C sort "$T/shard.pairs" >"$T/shard.sorted"
assert_same "checks of the shards together" "$T/shard.sorted" "$T/full.pairs"
assert_eq "passed + failed over the shards" "$passed passed, $failed failed" \
    "$full_summary"

# Merged shards give the unsharded results and views.
expect_rc 0 "$GPMC" merge "$T/m.db" "$T/s1.db" "$T/s2.db" "$T/s3.db"
sound "$T/m.db"
n=$(q "$T/m.db" "SELECT count(*) FROM checks")
assert_eq "checks after merge" "$n" "$total"
n=$(q "$T/m.db" "SELECT count(*) FROM runs")
assert_eq "runs after merge" "$n" 3
matrix "$T/full.db" "$T/full.matrix"
matrix "$T/m.db" "$T/m.matrix"
assert_same "verdict_matrix of the merged shards" "$T/m.matrix" \
    "$T/full.matrix"
results_of "$T/full.db" "$T/full.results"
results_of "$T/m.db" "$T/m.results"
assert_same "results rows of the merged shards" "$T/m.results" \
    "$T/full.results"
for v in unexpected model_disagreements latest_checks; do
    q "$T/full.db" "SELECT * FROM $v" >"$T/full.$v"
    q "$T/m.db" "SELECT * FROM $v" >"$T/m.$v"
    assert_same "view $v of the merged shards" "$T/m.$v" "$T/full.$v"
done

# Merging again, in any order, adds nothing.
dump() {
    for tb in meta runs tests checks results outcomes violations costs; do
        echo "== $tb"
        q "$1" "SELECT * FROM $tb ORDER BY rowid"
    done
}
dump "$T/m.db" >"$T/m.dump1"
expect_rc 0 "$GPMC" merge "$T/m.db" "$T/s1.db" "$T/s2.db" "$T/s3.db"
dump "$T/m.db" >"$T/m.dump2"
assert_same "merged database after merging the same shards again" \
    "$T/m.dump2" "$T/m.dump1"
expect_rc 0 "$GPMC" merge "$T/m.db" "$T/s3.db" "$T/s1.db"
dump "$T/m.db" >"$T/m.dump3"
assert_same "merged database after merging shards 3 and 1 again" \
    "$T/m.dump3" "$T/m.dump1"

# Merging in another order gives the same views.
expect_rc 0 "$GPMC" merge "$T/m2.db" "$T/s3.db" "$T/s2.db" "$T/s1.db"
matrix "$T/m2.db" "$T/m2.matrix"
assert_same "verdict_matrix of the shards merged in reverse" "$T/m2.matrix" \
    "$T/full.matrix"

# Two suites writing one database at once (shards 1/2 and 2/2, four writer
# processes in all) record exactly the unsharded results.
"$GPMC" suite "$corpus" --jobs 2 --shard 1/2 --db "$T/c.db" \
    >"$T/c1.out" 2>"$T/c1.err" &
p1=$!
"$GPMC" suite "$corpus" --jobs 2 --shard 2/2 --db "$T/c.db" \
    >"$T/c2.out" 2>"$T/c2.err" &
p2=$!
for p in $p1 $p2; do
    set +e
    wait "$p"
    crc=$?
    set -e
    [ "$crc" = 0 ] || [ "$crc" = 1 ] ||
        fail "a concurrent shard exited $crc: $(cat "$T/c1.err" "$T/c2.err" | head -c 600)"
done
[ ! -s "$T/c1.err" ] && [ ! -s "$T/c2.err" ] ||
    fail "concurrent shards wrote errors: $(cat "$T/c1.err" "$T/c2.err" | head -c 600)"
sound "$T/c.db"
results_of "$T/c.db" "$T/c.results"
assert_same "results rows of two concurrent shards" "$T/c.results" \
    "$T/full.results"
matrix "$T/c.db" "$T/c.matrix"
assert_same "verdict_matrix of two concurrent shards" "$T/c.matrix" \
    "$T/full.matrix"
