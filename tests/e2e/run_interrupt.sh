#!/bin/sh
# SIGINT (issue 27), as SPIN's pan takes it: the running check stops and is
# kept, incomplete ("interrupted", verdicts Unknown), printed with its
# statistics; no other check starts; the run is marked `interrupted`; exit
# 130. Before, the finished checks were kept, the running one was lost
# without a word and the run stayed `running`. For run, suite and suite
# --jobs 2 (whose workers get the signal from their parent).
. "$(dirname "$0")/lib.sh"
cd "$T"
SB=$ROOT/tests/data/naive/sb.litmus
# 50,000 threads: the second level alone takes minutes.
cp "$ROOT/tests/data/e2e/wide.litmus" .
mkdir s
cp "$SB" s/a.litmus
cp wide.litmus s/b.litmus
cp wide.litmus s/c.litmus

# interrupt LOG PATTERN CMD...: starts CMD (stdout to LOG, stderr to
# LOG.err), sends it SIGINT once LOG matches PATTERN and a second has
# passed, and sets rc to its exit status.
interrupt() {
    log=$1 pat=$2
    shift 2
    "$@" >"$log" 2>"$log.err" &
    pid=$!
    end=$(($(date +%s) + 120))
    until grep -q "$pat" "$log"; do
        kill -0 $pid 2>/dev/null || fail "'$*' ended before it was interrupted"
        [ "$(date +%s)" -lt "$end" ] || fail "'$*' never printed '$pat'"
        sleep 0.1
    done
    sleep 1
    kill -INT $pid
    end=$(($(date +%s) + 60))
    while kill -0 $pid 2>/dev/null; do
        [ "$(date +%s)" -lt "$end" ] || {
            kill -KILL $pid
            fail "'$*' did not end within 60 s of SIGINT"
        }
        sleep 0.1
    done
    set +e
    wait $pid
    rc=$?
    set -e
    [ "$rc" != "$SAN_EXIT" ] ||
        fail "sanitizer report from '$*': $(head -c 2000 "$log.err")"
}

interrupt run.out '^Stored SB+pbar+sync strict' \
    "$GPMC" run "$SB" wide.litmus "$SB" --model strict --db r.db
assert_eq "run's exit status" "$rc" 130
assert_grep "the interrupted check's status" \
    '^Status incomplete: interrupted$' run.out
assert_grep "its verdict" '^Verdict Wide strict 0 Unknown -$' run.out
assert_grep "its statistics" '^Stats Wide strict states [1-9]' run.out
assert_grep "its cost" '^Cost Wide strict - (interrupted)$' run.out
assert_grep "the note" '^gpmc run: interrupted: the running check is kept' \
    run.out.err
assert_eq "checks printed" "$(grep -c '^Test ' run.out)" 2
assert_eq "the run" "$(q r.db "SELECT status, finished_at IS NOT NULL
                               FROM runs")" "interrupted,1"
q r.db "SELECT t.name, c.status, coalesce(c.error, '-'), r.verdict
        FROM checks c JOIN tests t USING (test_id)
        JOIN results r USING (check_id) WHERE r.cond_index = 0
        ORDER BY c.check_id" >got
printf '%s\n' 'SB+pbar+sync,done,-,Ok' 'Wide,incomplete,interrupted,Unknown' \
    >want
assert_same "the checks stored" got want
assert_eq "the stats stored" \
    "$(q r.db "SELECT states > 0 FROM checks WHERE error = 'interrupted'")" 1

for jobs in 1 2; do
    interrupt suite$jobs.out '^pass s/a.litmus epoch$' \
        "$GPMC" suite s --model strict,epoch --jobs $jobs --db s$jobs.db
    assert_eq "suite --jobs $jobs: exit status" "$rc" 130
    assert_grep "suite --jobs $jobs: the note" \
        '^gpmc suite: interrupted: the running checks are kept, incomplete; [0-9]* checks were not run' \
        suite$jobs.out.err
    assert_eq "suite --jobs $jobs: the run" \
        "$(q s$jobs.db "SELECT status FROM runs")" interrupted
    # b.litmus under strict was running (and, with two workers, under
    # epoch too); nothing else started; nothing is lost or left running
    q s$jobs.db "SELECT t.path, c.model, c.status, coalesce(c.error, '-')
                 FROM checks c JOIN tests t USING (test_id)
                 ORDER BY t.path, c.model" >got
    {
        echo 's/a.litmus,epoch,done,-'
        echo 's/a.litmus,strict,done,-'
        [ $jobs = 1 ] || echo 's/b.litmus,epoch,incomplete,interrupted'
        echo 's/b.litmus,strict,incomplete,interrupted'
    } >want
    assert_same "suite --jobs $jobs: the checks stored" got want
    assert_grep "suite --jobs $jobs: the failure" \
        '^  s/b.litmus strict check [0-9]*: cond 0: Unknown; incomplete: interrupted$' \
        suite$jobs.out
done
