#!/bin/sh
# `make test` keeps the terminal for the tests' verdicts (issue 27: it
# printed 65 expected `error:` lines): a unit or end-to-end test's standard
# error goes to a log, TEST.err, shown only when the test fails. Checked
# on tests of its own: one that passes after printing an error on purpose,
# one that fails.
. "$(dirname "$0")/lib.sh"
need make
mkdir -p "$T/w/tests/e2e" "$T/u"
cat >"$T/w/tests/e2e/good.sh" <<'EOF2'
echo "x.litmus:1:1: error: expected on purpose" >&2
EOF2
cat >"$T/w/tests/e2e/bad.sh" <<'EOF2'
echo "bad: FAIL: what went wrong" >&2
exit 1
EOF2
cp "$ROOT/tests/e2e/lib.sh" "$T/w/tests/e2e/lib.sh"
(cd "$T/w" && E2E_LOG="$T/log" sh "$ROOT/tests/e2e.sh") >"$T/out" 2>"$T/err" &&
    fail "tests/e2e.sh passed with a failing test"
cat >"$T/want" <<EOF2
FAIL tests/e2e/bad.sh (stderr: $T/log/bad.err)
bad: FAIL: what went wrong
ok   tests/e2e/good.sh
EOF2
assert_same "e2e.sh's output" "$T/out" "$T/want"
[ ! -s "$T/err" ] || fail "e2e.sh wrote to stderr: $(cat "$T/err")"
assert_grep "the log" "^x.litmus:1:1: error: expected on purpose$" \
    "$T/log/good.err"

# make unit: the same for the cmocka binaries
printf '#!/bin/sh\necho "gpmc test: error: expected on purpose" >&2\n' \
    >"$T/u/t_good"
printf '#!/bin/sh\necho "[  FAILED  ] t_bad" >&2\nexit 1\n' >"$T/u/t_bad"
chmod +x "$T/u/t_good" "$T/u/t_bad"
try env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
    -C "$ROOT" unit TESTS="$T/u/t_good" BUILD="$T/b"
assert_eq "make unit, passing" "$rc" 0
assert_eq "its output" "$(cat "$T/out")" "== $T/u/t_good"
[ ! -s "$T/err" ] || fail "make unit showed a passing test's stderr"
assert_grep "the unit log" "^gpmc test: error: expected on purpose$" \
    "$T/b/log/t_good.err"
try env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
    -C "$ROOT" unit TESTS="$T/u/t_good $T/u/t_bad" BUILD="$T/b"
[ "$rc" != 0 ] || fail "make unit passed with a failing test"
assert_grep "the failure shown" '^\[  FAILED  \] t_bad$' "$T/err"
