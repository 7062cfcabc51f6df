#!/bin/sh
# The command line's conventions: `--` ends the options; "did you mean" for
# a mistyped option, model or command; only regular files (or directories
# of .litmus files) are read, within a size bound, and anything else is
# refused at once with a clear error, never waited on.
. "$(dirname "$0")/lib.sh"
cd "$T"
cat >t.litmus <<'LIT'
test T "one store"
pm x = 0
kernel k grid 1 block 1 {
  st x, 1
}
check final forall (x == 1)
LIT

# -- ends the options: a file named like an option
cp t.litmus ./--model
expect_rc 0 "$GPMC" run --model strict -- --model
assert_grep "the file named --model is checked" '^Verdict T strict 0 Ok -$' out
expect_rc 0 "$GPMC" parse -- --model
assert_grep "parse -- FILE" '^test T ' out
echo "SELECT 1 AS one" >sql
expect_rc 2 "$GPMC" query --db nodb.db -- --csv
assert_grep "query -- takes --csv as the SQL" "No such file" err

# did you mean
expect_rc 2 "$GPMC" run t.litmus --modle strict
assert_grep "option" \
    '^gpmc run: error: unknown option --modle (did you mean --model?)$' err
expect_rc 2 "$GPMC" run t.litmus --model epcoh
assert_grep "model" \
    "^gpmc run: error: --model: unknown model 'epcoh' (did you mean epoch?)" err
expect_rc 2 "$GPMC" suite . --model strict,bscopd
assert_grep "second model of a list" \
    "^gpmc suite: error: --model: unknown model 'bscopd' (did you mean bscoped?)" err
expect_rc 2 "$GPMC" time t.litmus --jsno
assert_grep "time option" '(did you mean --json?)$' err
expect_rc 2 "$GPMC" report verdicts --cvs
assert_grep "report option" "unknown option '--cvs' (did you mean --csv?)$" err
expect_rc 2 "$GPMC" rnu t.litmus
assert_grep "command" "^gpmc: error: unknown command 'rnu' (did you mean run?)$" err
expect_rc 2 "$GPMC" run t.litmus --frobnicate
assert_grep "no suggestion when nothing is close" \
    '^gpmc run: error: unknown option --frobnicate$' err

# Only regular files: a directory (even one named *.litmus), a FIFO, a
# character device, a file over 4 MB; each refused at once, exit 2, the
# other files still checked.
mkdir d.litmus
expect_rc 2 "$GPMC" run d.litmus t.litmus --model strict
assert_eq "a directory" "$(cat err)" \
    "d.litmus: error: is a directory (gpmc run reads .litmus files; gpmc suite DIR checks a directory)"
assert_grep "the other file is checked" '^Verdict T strict 0 Ok -$' out
mkfifo f.litmus
expect_rc 2 timeout 30 "$GPMC" run f.litmus
assert_eq "a FIFO" "$(cat err)" "f.litmus: error: is a FIFO, not a regular file"
expect_rc 2 timeout 30 "$GPMC" run /dev/zero
assert_eq "a device" "$(cat err)" \
    "/dev/zero: error: is a character device, not a regular file"
expect_rc 2 timeout 30 "$GPMC" parse /dev/zero f.litmus
assert_grep "parse refuses a device too" '^/dev/zero: error: is a character device' err
{ cat t.litmus; head -c 4194304 /dev/zero | tr '\0' '\n'; } >big.litmus
expect_rc 2 "$GPMC" run big.litmus
assert_eq "a file over 4 MB" "$(cat err)" \
    "big.litmus: error: larger than the 4 MB a litmus file may have"
expect_rc 2 "$GPMC" time f.litmus
assert_grep "time refuses a FIFO" '^f\.litmus: error: is a FIFO' err
