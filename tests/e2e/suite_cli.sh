#!/bin/sh
# `gpmc suite`: its output off a terminal, its exit codes (a failing check,
# a file that does not parse, usage errors, a bad database), the default
# database, --resume with nothing left, and --jobs 1 versus --jobs 2.
. "$(dirname "$0")/lib.sh"
ABS=strict,epoch,bepoch,scoped,bscoped
cd "$T"
mkdir c
# Two unordered stores: only strict orders them (see run_cli.sh).
cat >c/t1.litmus <<'EOF'
test T1 "two unordered stores"
pm x = 0
pm y = 0
kernel k grid 1 block 1 {
  st x, 1
  st y, 1
}
check crash ~exists (y == 1 && x == 0) expect strict=ok epoch=no bepoch=no scoped=no bscoped=no
EOF
# The same with a wrong expectation for strict: 1 of its 5 checks fails.
sed 's/^test T1 /test T1F /; s/expect strict=ok/expect strict=no/' c/t1.litmus \
    >c/t1f.litmus

# One line per check (files sorted, models in the order given), the failing
# checks with their ids and why, then the summary.
expect_rc 1 "$GPMC" suite c --model $ABS --db s.db
cat >want <<'EOF'
pass c/t1.litmus strict
pass c/t1.litmus epoch
pass c/t1.litmus bepoch
pass c/t1.litmus scoped
pass c/t1.litmus bscoped
FAIL c/t1f.litmus strict
pass c/t1f.litmus epoch
pass c/t1f.litmus bepoch
pass c/t1f.litmus scoped
pass c/t1f.litmus bscoped
failed checks (`gpmc show check ID` has the details):
  c/t1f.litmus strict check 6: cond 0: Ok, expected No
9 passed, 1 failed
EOF
assert_same "suite output" out want
[ ! -s err ] || fail "suite wrote to stderr: $(head -3 err)"
assert_eq "checks" "$(q s.db "SELECT count(*) FROM checks")" 10
assert_eq "runs" "$(q s.db "SELECT count(*), status, argv FROM runs")" \
    "1,done,\"gpmc suite c --model $ABS --db s.db\""

# --resume with everything done: no new check; the checks done and passing
# are counted as skipped, not passed; the failing one stays failed, with
# its id.
expect_rc 1 "$GPMC" suite c --model $ABS --db s.db --resume
cat >want.resume <<'EOF'
FAIL c/t1f.litmus strict
failed checks (`gpmc show check ID` has the details):
  c/t1f.litmus strict check 6: recorded by an earlier run: 1 failing result
0 passed, 1 failed, 9 skipped (passed before)
EOF
assert_same "output of a resume with nothing left" out want.resume
assert_eq "checks after a resume with nothing left" \
    "$(q s.db "SELECT count(*) FROM checks")" 10

# --jobs 2 prints the same lines in the same order as --jobs 1 (each
# check's line once the checks before it have theirs), and records the
# same results. Only the check ids may differ: workers write their checks
# as they finish.
sed 's/ check [0-9]*:/ check ID:/' want >want.ids
for i in 1 2 3; do
    expect_rc 1 "$GPMC" suite c --model $ABS --jobs 2 --db j2.db
    sed 's/ check [0-9]*:/ check ID:/' out >out.ids
    assert_same "suite --jobs 2 output, run $i" out.ids want.ids
    id=$(sed -n 's/^  c\/t1f\.litmus strict check \([0-9]*\):.*/\1/p' out)
    assert_eq "the failing check's id" "$(q j2.db "SELECT c.model
        FROM checks c JOIN tests t USING (test_id)
        WHERE c.check_id = $id AND t.name = 'T1F'")" strict
    rm -f j2.db
done
expect_rc 1 "$GPMC" suite c --model $ABS --jobs 2 --db j2.db
results_of s.db j1.results
results_of j2.db j2.results
[ -s j1.results ] || fail "no results rows"
assert_same "results rows with --jobs 2" j2.results j1.results

# A file whose content changed is checked again by --resume; the done
# failing check of t1f.litmus still counts as failed.
echo "// changed" >>c/t1.litmus
expect_rc 1 "$GPMC" suite c --model strict --db s.db --resume
printf '%s\n' 'pass c/t1.litmus strict' 'FAIL c/t1f.litmus strict' \
    'failed checks (`gpmc show check ID` has the details):' \
    '  c/t1f.litmus strict check 6: recorded by an earlier run: 1 failing result' \
    '1 passed, 1 failed, 0 skipped (passed before)' >want.changed
assert_same "resume after t1.litmus changed" out want.changed
assert_eq "checks after t1.litmus changed" \
    "$(q s.db "SELECT count(*) FROM checks")" 11

# All pass: exit 0.
expect_rc 0 "$GPMC" suite c/t1.litmus --model $ABS --db ok.db
assert_eq "summary" "$(tail -n 1 out)" "5 passed, 0 failed"

# A file that does not parse: its errors, counted failed for every model,
# exit 2; the other files are still checked; nothing stored for it.
printf 'test B\npm x = 0\nkernel k grid 1 block 1 {\n  st y, 1\n}\n' >c/bad.litmus
expect_rc 2 "$GPMC" suite c --model $ABS --db b.db
assert_eq "stderr for a file that does not parse" "$(cat err)" \
    "$(printf 'c/bad.litmus:4:6: error: undefined location %sy%s\n    4 |   st y, 1\n      |      ^' "'" "'")"
assert_eq "summary with a file that does not parse" "$(tail -n 1 out)" \
    "9 passed, 6 failed"
assert_grep "the file that does not parse in the failing list" \
    '^  c/bad\.litmus bscoped: cannot be read or parsed$' out
assert_eq "tests stored" "$(q b.db "SELECT group_concat(name, ' ')
                                    FROM (SELECT name FROM tests ORDER BY name)")" \
    "T1 T1F"
expect_rc 2 "$GPMC" suite c --model $ABS --jobs 2 --db b2.db
assert_eq "summary with a file that does not parse, --jobs 2" \
    "$(tail -n 1 out)" "9 passed, 6 failed"
rm c/bad.litmus

# Not regular files: a FIFO named *.litmus is refused at once, never read
# (the suite would block on it), a directory named *.litmus is searched;
# both are said plainly.
mkfifo c/fifo.litmus
mkdir c/dir.litmus
cp c/t1.litmus c/dir.litmus/t1again.litmus
expect_rc 2 timeout 60 "$GPMC" suite c --model strict --db f.db
assert_eq "stderr for a FIFO" "$(cat err)" \
"c/fifo.litmus: error: is a FIFO, not a regular file
gpmc suite: warning: 2 files name their test 'T1': c/dir.litmus/t1again.litmus c/t1.litmus
gpmc suite: note: results are kept apart by file; the views, which carry no paths, have a row for each"
cat >want.fifo <<'EOF'
pass c/dir.litmus/t1again.litmus strict
FAIL c/fifo.litmus strict
pass c/t1.litmus strict
FAIL c/t1f.litmus strict
failed checks (`gpmc show check ID` has the details):
  c/fifo.litmus strict: cannot be read or parsed
  c/t1f.litmus strict check 3: cond 0: Ok, expected No
2 passed, 2 failed
EOF
assert_same "suite over a FIFO and a directory named *.litmus" out want.fifo
rm -r c/fifo.litmus c/dir.litmus

# The default database is results/gpmc.db, its directory created.
expect_rc 0 "$GPMC" suite c/t1.litmus --model strict
[ -f results/gpmc.db ] || fail "no results/gpmc.db"
assert_eq "checks in results/gpmc.db" \
    "$(q results/gpmc.db "SELECT count(*) FROM checks")" 1

# A database that is not one: exit 2, the file untouched.
echo "not a database" >text.db
expect_rc 2 "$GPMC" suite c --db text.db
assert_grep "not a database" '^gpmc suite: error: text\.db: not a gpmc results database' err
assert_eq "text.db after the refusal" "$(cat text.db)" "not a database"
expect_rc 2 "$GPMC" suite c --db nosuchdir/sub/x.db
assert_grep "database in a missing directory" \
    '^gpmc suite: error: nosuchdir/sub: cannot create directory: ' err

# Usage errors: exit 2, nothing on stdout, no database.
usage() {
    expect_rc 2 "$GPMC" suite "$@" --db u.db
    [ ! -s out ] || fail "'suite $*' printed on stdout: $(head -2 out)"
    assert_grep "'suite $*'" '^gpmc suite: error: ' err
    [ ! -e u.db ] || fail "'suite $*' created its database"
}
usage
usage nosuchdir
usage c --jobs 0
usage c --jobs 257
usage c --jobs x
usage c --shard 0/3
usage c --shard 4/3
usage c --shard 1/0
usage c --shard 1/3x
usage c --shard 1
usage c --model nosuchmodel
usage c --crash-depth 0
usage c --bogus
usage c --json
usage c --shard
