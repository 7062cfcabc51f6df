#!/bin/sh
# `make run` on a corpus of its own (RUN_SUITE, RUN_OUT, RUN_GPMC): quiet
# (the suite's lines go to a log, the verdict matrix to a file: issue 27,
# the bundled suite's was 283 rows on the terminal), the failing checks and
# the summary, the matrix's summary line and the HTML report's path; it
# fails when the suite fails, and passes when it passes.
. "$(dirname "$0")/lib.sh"
need make
mkdir "$T/c"
cat >"$T/c/t1.litmus" <<'LIT'
test T1 "two unordered stores"
pm x = 0
pm y = 0
kernel k grid 1 block 1 {
  st x, 1
  st y, 1
}
check crash ~exists (y == 1 && x == 0) expect strict=ok epoch=no bepoch=no scoped=no bscoped=no hw=no
LIT

run() {
    # a make of its own, not a sub-make of the one running the tests
    try env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
        -C "$ROOT" run RUN_GPMC="$GPMC" RUN_SUITE="$T/c" RUN_OUT="$T/o"
}
run
assert_eq "make run on a passing corpus" "$rc" 0
cat >"$T/want" <<EOF2
checking $T/c under every model into $T/o/gpmc.db (log: $T/o/suite.log)
6 passed, 0 failed
verdict matrix: $T/o/verdicts.txt (1 row, 6 verdicts: 6 pass, 0 unexpected (marked !), 0 Unknown)
HTML report: $T/o/report.html
EOF2
assert_same "make run output" "$T/out" "$T/want"
[ -s "$T/o/report.html" ] || fail "no HTML report"
assert_eq "lines in the log" "$(wc -l <"$T/o/suite.log")" 7

sed 's/^test T1 /test T1F /; s/hw=no/hw=ok/' "$T/c/t1.litmus" >"$T/c/t1f.litmus"
run
[ "$rc" != 0 ] || fail "make run passed with a failing suite"
assert_grep "the failing check" "^  $T/c/t1f\\.litmus hw check [0-9]*: cond 0: No, expected Ok\$" "$T/out"
assert_grep "the summary" '^11 passed, 1 failed$' "$T/out"
assert_grep "the matrix's summary" '^verdict matrix: .*/verdicts.txt (2 rows, 12 verdicts: 11 pass, 1 unexpected (marked !), 0 Unknown)$' "$T/out"
assert_grep "the matrix" '^T1F      0  crash  Ok      No     No      No      No       No!$' "$T/o/verdicts.txt"
assert_eq "lines on the terminal" "$(wc -l <"$T/out")" 7
assert_eq "the last line" "$(tail -n 1 "$T/out")" "HTML report: $T/o/report.html"
