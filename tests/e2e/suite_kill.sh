#!/bin/sh
# A suite killed with SIGKILL (the whole process group, parent and workers)
# leaves an intact database holding whole checks only; `--resume` finishes
# it, twice interrupted, and the result equals an uninterrupted run's.
# To leave time to interrupt it, the suite runs over two copies of the
# corpus (two_corpora in lib.sh).
. "$(dirname "$0")/lib.sh"
need setsid

nfiles=$(two_corpora "$T/corpus")
[ "$nfiles" -ge 20 ] || fail "only $nfiles files in the corpus"
total=$((nfiles * 6))

# The reference: one uninterrupted run.
try "$GPMC" suite "$T/corpus" --jobs 2 --db "$T/ref.db"
ref_rc=$rc
[ "$ref_rc" = 0 ] || [ "$ref_rc" = 1 ] ||
    fail "reference suite exited $ref_rc: $(head -c 600 "$T/err")"
ref_summary=$(tail -n 1 "$T/out")
n=$(q "$T/ref.db" "SELECT count(*) FROM checks")
assert_eq "checks of the reference run" "$n" "$total"
sound "$T/ref.db"
shapes_of "$T/ref.db" "$T/ref.shapes"
results_of "$T/ref.db" "$T/ref.results"
matrix "$T/ref.db" "$T/ref.matrix"

# Every done check has one results row per `check` line of its file.
q "$T/ref.db" "SELECT path, min(n), max(n) FROM (
                 SELECT t.path AS path, count(r.cond_index) AS n
                 FROM checks c JOIN tests t ON t.test_id = c.test_id
                 LEFT JOIN results r ON r.check_id = c.check_id
                 WHERE c.status = 'done' GROUP BY c.check_id)
               GROUP BY path ORDER BY path" >"$T/ref.nres"
[ -s "$T/ref.nres" ] || fail "the reference run has no done check"
cut -d, -f1 "$T/ref.nres" >"$T/paths"
conds_of $(cat "$T/paths") | paste -d, "$T/paths" - >"$T/want"
cut -d, -f1,3 "$T/ref.nres" >"$T/got.max"
cut -d, -f1,2 "$T/ref.nres" >"$T/got.min"
assert_same "results rows per done check (fewest)" "$T/got.min" "$T/want"
assert_same "results rows per done check (most)" "$T/got.max" "$T/want"

# killed DB N RUNNING: starts a suite (with the extra arguments in $resume)
# in its own process group, SIGKILLs the group once it has written N checks,
# and checks that the kill left whole checks only and RUNNING runs that
# never finished.
killed() {
    setsid "$GPMC" suite "$T/corpus" --jobs 2 --db "$1" $resume \
        >"$T/killed.out" 2>"$T/killed.err" &
    BG=$!
    # setsid makes the suite a group leader once it runs: wait for that
    i=0
    while [ "$(ps -o pgid= -p "$BG" | tr -d ' ')" != "$BG" ]; do
        i=$((i + 1))
        [ "$i" -lt 200 ] || fail "the suite did not get its own process group"
        sleep 0.01
    done
    wait_for "$T/killed.out" "$2" "$BG"
    kill -s KILL -- "-$BG" 2>/dev/null || true
    set +e
    wait "$BG" 2>/dev/null
    krc=$?
    set -e
    BG=""
    assert_eq "exit status of the killed suite" "$krc" 137
    sound "$1"
    shapes_of "$1" "$T/killed.shapes"
    # each check is whole: the same rows as the reference's check (a check
    # that ended in error is run again by --resume, hence -u)
    LC_ALL=C sort -u "$T/killed.shapes" |
        LC_ALL=C comm -23 - "$T/ref.shapes" >"$T/extra"
    [ ! -s "$T/extra" ] ||
        fail "checks that differ from the reference's (half-written?): $(head -5 "$T/extra")"
    once_done "$1"
    running=$(q "$1" "SELECT count(*) FROM runs
                      WHERE status = 'running' AND finished_at IS NULL")
    assert_eq "runs left running (the killed ones)" "$running" "$3"
}

# First kill: at an eighth of the checks.
resume=""
killed "$T/k.db" $((total / 8)) 1
n1=$(q "$T/k.db" "SELECT count(*) FROM checks")
[ "$n1" -ge $((total / 8)) ] && [ "$n1" -lt "$total" ] ||
    fail "the first kill did not land midway: $n1 of $total checks"

# Second kill: a resumed suite, halfway through what was left.
done1=$(q "$T/k.db" "SELECT count(*) FROM checks WHERE status = 'done'")
resume="--resume"
killed "$T/k.db" $(((total - done1) / 2)) 2
n2=$(q "$T/k.db" "SELECT count(DISTINCT test_id || ' ' || model) FROM checks")
[ "$n2" -lt "$total" ] ||
    fail "the second kill did not land midway: $n2 of $total checks covered"

# The last resume finishes: same exit status, summary, checks and verdicts.
try "$GPMC" suite "$T/corpus" --jobs 2 --resume --db "$T/k.db"
assert_eq "exit status of the resumed suite" "$rc" "$ref_rc"
# It checks what was left: the skipped checks (done and passing before)
# are counted apart, the recorded failures as failed.
summary=$(tail -n 1 "$T/out")
p=${summary%% passed*}
f=${summary#*, }
f=${f%% failed*}
s=${summary##*failed, }
s=${s%% skipped*}
assert_eq "summary of the resumed suite, skipped counted as passed" \
    "$((p + s)) passed, $f failed" "$ref_summary"
[ "$s" -gt 0 ] || fail "the resumed suite skipped nothing: $summary"
sound "$T/k.db"
covered "$T/k.db" "$total"
results_of "$T/k.db" "$T/k.results"
assert_same "results rows after kill and --resume" "$T/k.results" \
    "$T/ref.results"
matrix "$T/k.db" "$T/k.matrix"
assert_same "verdict_matrix after kill and --resume" "$T/k.matrix" \
    "$T/ref.matrix"
