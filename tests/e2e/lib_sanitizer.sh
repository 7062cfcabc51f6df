#!/bin/sh
# lib.sh rejects the sanitizer's exit status wherever a test runs gpmc
# through try or expect_rc, even where the test would accept any failure;
# and scripts that accept "0 or 1" by hand reject it too.
. "$(dirname "$0")/lib.sh"

if (try sh -c 'echo "runtime error: boom" >&2; exit '"$SAN_EXIT") \
    2>"$T/fail.err"; then
    fail "try accepted exit $SAN_EXIT"
fi
assert_grep "the sanitizer failure is named" \
    "FAIL: sanitizer report (exit $SAN_EXIT) from .*runtime error: boom" \
    "$T/fail.err"
if (expect_rc 1 sh -c "exit $SAN_EXIT") 2>/dev/null; then
    fail "expect_rc 1 accepted exit $SAN_EXIT"
fi
try sh -c 'exit 1'
assert_eq "an ordinary failure" "$rc" 1
