#!/bin/sh
# Two files that give their tests the same name (the corpus's papers/ and
# seeds/ did, and the suite said 954 passed where the report showed 942
# checks): suite and run warn, the results are kept apart by file, every
# report counts each file's checks, and a later run of one file replaces
# its own results only. The bundled corpus has no such names.
. "$(dirname "$0")/lib.sh"
cd "$T"

dups=$(grep -rh '^test ' "$ROOT/litmus/suite" | awk '{ print $2 }' | sort |
       uniq -d)
assert_eq "test names used twice in litmus/suite" "$dups" ""

mkdir a b
cat >a/t.litmus <<'LIT'
test T "one name, two files: this one holds"
pm x = 0
kernel k grid 1 block 1 { st x, 1 }
check final forall (x == 1)
LIT
cat >b/t.litmus <<'LIT'
test T "one name, two files: this one expects its failure"
pm x = 0
kernel k grid 1 block 1 { st x, 2 }
check final forall (x == 1) expect strict=no
LIT

expect_rc 0 "$GPMC" suite a b --model strict --db r.db
assert_eq "suite summary" "$(tail -n 1 out)" "2 passed, 0 failed"
assert_grep "the warning names both files" \
    "^gpmc suite: warning: 2 files name their test 'T': a/t.litmus b/t.litmus$" err
n=$(q r.db "SELECT count(*) FROM latest_checks")
assert_eq "latest checks: one per file" "$n" 2
n=$(q r.db "SELECT count(*) FROM verdict_matrix")
assert_eq "verdict_matrix rows: one per file" "$n" 2

expect_rc 0 "$GPMC" report verdicts --db r.db
assert_grep "first file's row" '^T \[1\]     0  final  Ok ' out
assert_grep "second file's row" '^T \[2\]     0  final  No ' out
assert_grep "summary counts both" '^2 rows, 2 verdicts: 2 pass' out
assert_grep "legend names the first file" '^  T \[1\]  a/t\.litmus  ' out
assert_grep "legend names the second file" '^  T \[2\]  b/t\.litmus  ' out
expect_rc 0 "$GPMC" report verdicts --db r.db --csv
assert_eq "--csv rows carry the path" "$(cut -d, -f1,2,7,8 out)" \
"test,path,verdict,expected
T,a/t.litmus,Ok,
T,b/t.litmus,No,No"

# A later run of a/t.litmus, now failing, replaces a's row only.
sed 's/st x, 1/st x, 3/' a/t.litmus >a/t.new && mv a/t.new a/t.litmus
expect_rc 1 "$GPMC" run a/t.litmus b/t.litmus --model strict --db r.db -q
assert_grep "run warns too" \
    "^gpmc run: warning: 2 files name their test 'T': a/t.litmus b/t.litmus$" err
assert_eq "run summary" "$(tail -n 1 out)" "1 passed, 1 failed"
expect_rc 0 "$GPMC" query --db r.db --csv \
    "SELECT verdict, expected FROM verdict_matrix"
assert_eq "the views after the rerun" "$(tail -n +2 out)" "No,
No,No"
expect_rc 1 "$GPMC" report unexpected --db r.db --status
assert_grep "unexpected: a's check only" '^T \[1\]  strict' out
n=$(grep -c '^T ' out)
assert_eq "unexpected rows" "$n" 1
