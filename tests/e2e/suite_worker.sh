#!/bin/sh
# A suite worker that dies (here: SIGKILL to one worker only) makes the
# suite stop with exit status 3 and a message naming the check, instead of
# hanging; the database holds whole checks and --resume finishes the suite.
. "$(dirname "$0")/lib.sh"

nfiles=$(two_corpora "$T/corpus")
total=$((nfiles * 6))

"$GPMC" suite "$T/corpus" --jobs 2 --db "$T/w.db" >"$T/w.out" 2>"$T/w.err" &
pid=$!
BG=""
wait_for "$T/w.out" $((total / 8)) "$pid"
ps -o pid= --ppid "$pid" | tr -d ' ' >"$T/workers"
assert_eq "workers of the suite" "$(wc -l <"$T/workers")" 2
victim=$(head -n 1 "$T/workers")
kill -s KILL "$victim"

# The suite must end by itself: give it 60 s.
end=$(($(date +%s) + 60))
while kill -0 "$pid" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$end" ]; then
        kill -s KILL "$pid" $(cat "$T/workers") 2>/dev/null || true
        fail "the suite hung after worker $victim was killed"
    fi
    sleep 0.05
done
set +e
wait "$pid"
rc=$?
set -e
assert_eq "exit status after a worker died" "$rc" 3
# one error (the corpus's twin files also draw warnings about their names)
assert_eq "errors on stderr" "$(grep -c ': error: ' "$T/w.err")" 1
assert_eq "other lines on stderr" \
    "$(grep -v -c '^gpmc suite: \(error\|warning\|note\): ' "$T/w.err")" 0
assert_grep "message about the dead worker" \
    "^gpmc suite: error: a worker was killed by signal 9 while checking $T/corpus/[ab]/[a-z]*/[^ ]*\\.litmus under \\(strict\\|epoch\\|bepoch\\|scoped\\|bscoped\\|hw\\); \`--resume\` runs the checks left\$" \
    "$T/w.err"
n=$(q "$T/w.db" "SELECT count(*) FROM checks")
[ "$n" -lt "$total" ] || fail "the suite went on after its worker died: $n checks"
assert_eq "status of the run" "$(q "$T/w.db" "SELECT status FROM runs")" error
sound "$T/w.db"
# the other worker finished its check: whole checks only, one per line
nres=$(q "$T/w.db" "SELECT count(*) FROM checks c WHERE status = 'done' AND
    (SELECT count(*) FROM results r WHERE r.check_id = c.check_id) = 0")
assert_eq "done checks without results" "$nres" 0

try "$GPMC" suite "$T/corpus" --jobs 2 --resume --db "$T/w.db"
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "--resume exited $rc: $(head -c 600 "$T/err")"
covered "$T/w.db" "$total"
sound "$T/w.db"
