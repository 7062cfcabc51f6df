#!/bin/sh
# The front end's limits (specs/litmus.md section 13) through the command
# line: conditions as deep as the parser accepts are checked with the right
# verdicts (the checker recurses over them too); one level deeper, or a
# flood of bad lines, is exit 2 with the exact message, never a crash.
. "$(dirname "$0")/lib.sh"

# gen FILE CHECK: a one-thread test storing x = 1, with the condition CHECK
gen() {
    printf 'test deep\npm x\nkernel k grid 1 block 1 { st x, 1 }\n%s\n' \
        "$2" >"$1"
}
# rep N TEXT SEP: TEXT N times joined by SEP
rep() {
    awk -v n="$1" -v t="$2" -v s="$3" 'BEGIN {
        for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? s : ""), t }'
}

# 255 conjuncts, 254 negations, 256 parentheses, a 255-long '->' chain,
# 253 minus signs (x == -x, false for x = 1): deep conditions the parser
# takes, each with a known verdict.
gen "$T/and.litmus" "check final forall ($(rep 255 'x == 1' ' && '))"
gen "$T/not.litmus" "check final forall ($(rep 254 '!' '')(x == 1))"
gen "$T/par.litmus" "check final forall ($(rep 256 '(' '')x == 1$(rep 256 ')' ''))"
gen "$T/imp.litmus" "check final forall ($(rep 255 'x == 0' ' -> '))"
gen "$T/neg.litmus" "check final forall (x == $(rep 253 '-' '')x)"
for f in and not par imp neg; do
    case $f in
    neg) v=No st=1 ;;                   # a failing check: exit 1
    *) v=Ok st=0 ;;
    esac
    expect_rc $st "$GPMC" run "$T/$f.litmus" --model strict,hw
    for m in strict hw; do
        assert_grep "verdict of $f under $m" "^Verdict deep $m 0 $v -\$" \
            "$T/out"
    done
done
# One level deeper: exit 2, one message, nothing on stdout.
gen "$T/deeper.litmus" "check final forall ($(rep 256 'x == 1' ' && '))"
expect_rc 2 "$GPMC" run "$T/deeper.litmus" --model strict
assert_eq "deeper condition" "$(head -n 1 "$T/err")" \
    "$T/deeper.litmus:4:2568: error: condition nested too deeply (more than 256 levels)"
# and its excerpt: the source line clipped to the end around the column
assert_eq "deeper condition's excerpt" "$(wc -l <"$T/err")" 3
[ ! -s "$T/out" ] || fail "a refused file printed a report"

# The review's hostile inputs, at full size.
gen "$T/not75k.litmus" "check final forall ($(rep 75000 '!' '')(x == 1))"
expect_rc 2 "$GPMC" parse "$T/not75k.litmus"
assert_grep "75 k negations" 'condition nested too deeply' "$T/err"
printf 'test p\nparam N = %s1\n' "$(rep 200000 '-' '')" >"$T/minus.litmus"
expect_rc 2 "$GPMC" parse "$T/minus.litmus"
assert_eq "200 k minus signs" "$(head -n 1 "$T/err")" \
    "$T/minus.litmus:2:267: error: expression nested too deeply (more than 256 levels)"
assert_eq "200 k minus signs: one message" "$(grep -c ': error: ' "$T/err")" 1

# A file of 2000 bad lines. (A body past 2^20 instructions does not fit in
# the 4 MB the command line reads: tests/test_lit_sema.c has it.)
{
    printf 'test bad\n'
    awk 'BEGIN { for (i = 0; i < 2000; i++) print "bogus" }'
} >"$T/bad.litmus"
expect_rc 2 "$GPMC" parse "$T/bad.litmus"
assert_eq "error lines" "$(grep -c ': error: ' "$T/err")" 1001
assert_eq "lines with the excerpts" "$(wc -l <"$T/err")" 3001
assert_eq "last line" "$(tail -n 1 "$T/err")" \
    "$T/bad.litmus: error: too many errors; stopped after 1000"
