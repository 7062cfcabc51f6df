# tests/e2e/lib.sh — helpers shared by the end-to-end tests (POSIX sh).
# A test sources it first: `. "$(dirname "$0")/lib.sh"`. It gets:
#   $GPMC   the binary under test (absolute), $ROOT the source tree,
#   $T      a fresh temporary directory, removed when the test exits,
#   $NAME   the test's name, used in every failure message.
# Every helper that finds a problem calls fail, which exits 1. A command run
# through try (and so expect_rc) that exits $SAN_EXIT fails the test.
# lib.sh is not a test itself: it exits at once when run directly.

case $0 in
*/lib.sh | lib.sh) exit 0 ;;
esac

set -eu
: "${GPMC:?set GPMC to the gpmc binary}"
NAME=$(basename "$0" .sh)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/gpmc-$NAME.XXXXXX")
BG=""                                   # process group to kill at exit

cleanup() {
    if [ -n "$BG" ]; then
        kill -s KILL -- "-$BG" 2>/dev/null || true
    fi
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP PIPE

fail() {
    printf '%s: FAIL: %s\n' "$NAME" "$*" >&2
    exit 1
}

# need TOOL: fail unless TOOL is on PATH.
need() {
    command -v "$1" >/dev/null 2>&1 || fail "this test needs '$1'"
}

# The status a sanitizer report ends a process with (the Makefile's asan
# target sets it): never a status any test accepts.
SAN_EXIT=${GPMC_SAN_EXIT:-99}

# try CMD...: runs CMD with stdout in $T/out, stderr in $T/err, status in $rc;
# fails at once when CMD ended in a sanitizer report.
try() {
    set +e
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    set -e
    [ "$rc" != "$SAN_EXIT" ] ||
        fail "sanitizer report (exit $rc) from '$*': $(head -c 2000 "$T/err")"
}

# expect_rc STATUS CMD...: try CMD and fail unless it exits with STATUS.
expect_rc() {
    want=$1
    shift
    try "$@"
    [ "$rc" = "$want" ] ||
        fail "'$*' exited $rc, expected $want; stderr: $(head -c 600 "$T/err")"
}

# assert_eq WHAT GOT EXPECTED
assert_eq() {
    [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# assert_same WHAT GOT_FILE EXPECTED_FILE: the files are byte-identical.
assert_same() {
    if ! cmp -s "$2" "$3"; then
        diff -u "$3" "$2" | head -40 >&2 || true
        fail "$1 differs from what was expected (diff above: - expected, + got)"
    fi
}

# assert_grep WHAT PATTERN FILE: some line of FILE matches PATTERN (BRE).
assert_grep() {
    grep -q -- "$2" "$3" ||
        fail "$1: no line matches '$2' in: $(head -c 600 "$3")"
}

# q DB SQL: the rows of a read-only query as CSV, without the header (a
# column named after a multi-line expression makes it a quoted, multi-line
# CSV field: it ends at the first newline after an even number of quotes).
# Use it in an assignment (x=$(q ...)) or redirect it, so a failure stops
# the test.
q() {
    if ! "$GPMC" query --db "$1" --csv "$2" >"$T/q.out" 2>"$T/q.err"; then
        fail "query on $1 failed: $2: $(cat "$T/q.err")"
    fi
    awk 'h { print; next } { n += gsub(/"/, "&"); h = n % 2 == 0 }' "$T/q.out"
}

# matrix DB FILE: the verdict matrix of DB, with its header, into FILE.
matrix() {
    "$GPMC" query --db "$1" --csv "SELECT * FROM verdict_matrix" >"$2" ||
        fail "cannot read verdict_matrix of $1"
}

# results_of DB FILE: every results row of the done checks of DB with its
# test path, model and config, sorted: what two databases of the same
# checks share.
results_of() {
    q "$1" "SELECT t.path, c.model, c.config, c.status, r.cond_index,
                   r.phase, r.verdict, coalesce(r.expected, '-'),
                   r.positive, r.negative
            FROM results r JOIN checks c ON c.check_id = r.check_id
            JOIN tests t ON t.test_id = c.test_id
            WHERE c.status = 'done'" | LC_ALL=C sort >"$2"
}

# shapes_of DB FILE: one line per check: test path, model, config, status and
# how many results, outcomes and violations rows it has, sorted.
shapes_of() {
    q "$1" "SELECT t.path, c.model, c.config, c.status,
              (SELECT count(*) FROM results x WHERE x.check_id = c.check_id),
              (SELECT count(*) FROM outcomes x WHERE x.check_id = c.check_id),
              (SELECT count(*) FROM violations x
                 WHERE x.check_id = c.check_id)
            FROM checks c JOIN tests t ON t.test_id = c.test_id" |
        LC_ALL=C sort >"$2"
}

# sound DB: the database is intact and holds whole checks only: SQLite's
# integrity check passes, and no row points at a check, test or run that
# is not there.
sound() {
    ok=$(q "$1" "PRAGMA integrity_check")
    assert_eq "integrity_check of $1" "$ok" "ok"
    for child in results outcomes violations costs; do
        n=$(q "$1" "SELECT count(*) FROM $child
                    WHERE check_id NOT IN (SELECT check_id FROM checks)")
        assert_eq "$child rows without a check in $1" "$n" 0
    done
    n=$(q "$1" "SELECT count(*) FROM checks
                WHERE test_id NOT IN (SELECT test_id FROM tests)
                   OR run_id NOT IN (SELECT run_id FROM runs)")
    assert_eq "checks without their test or run in $1" "$n" 0
}

# covered DB TOTAL: after a suite is finished (by --resume), every (test,
# model) of the TOTAL has a check and none is done twice.
covered() {
    n=$(q "$1" "SELECT count(DISTINCT test_id || ' ' || model) FROM checks")
    assert_eq "(test, model) pairs checked in $1" "$n" "$2"
    once_done "$1"
}

# once_done DB: no check is done twice for one test, model and config
# (--resume skips the done ones).
once_done() {
    n=$(q "$1" "SELECT count(*) FROM (SELECT 1 FROM checks
                WHERE status = 'done'
                GROUP BY test_id, model, config HAVING count(*) > 1)")
    assert_eq "checks done twice in $1" "$n" 0
}

# conds_of FILE...: for each FILE in order, how many `check` lines it has
# (counted in its canonical form, one gpmc parse for all).
conds_of() {
    "$GPMC" parse "$@" >"$T/parse.out" 2>"$T/parse.err" ||
        fail "gpmc parse: $(head -c 600 "$T/parse.err")"
    awk '/^test / { if (n++) print k; k = 0 } /^check / { k++ }
         END { if (n) print k }' "$T/parse.out"
}

# two_corpora DIR: two copies of the bundled corpus, DIR/a and DIR/b, so a
# suite takes long enough to be interrupted; each file of DIR/b ends with a
# comment, so its content (sha256), and hence its checks for --resume,
# differ from its twin's. Prints the number of files. papers/ and cuda/ are
# left out: each costs several times the rest together (papers.sh and
# cuda_pairs.sh run them).
two_corpora() {
    mkdir "$1"
    cp -R "$ROOT/litmus/suite" "$1/a"
    cp -R "$ROOT/litmus/suite" "$1/b"
    rm -rf "$1/a/papers" "$1/b/papers" "$1/a/cuda" "$1/b/cuda"
    find "$1/b" -name '*.litmus' -exec sh -c \
        'for f; do printf "// copy b\n" >>"$f"; done' sh {} +
    find "$1" -name '*.litmus' | wc -l
}

# wait_for FILE N PID: waits until FILE, the progress output of a suite
# (one line per check written), has N lines; fails if process PID ends
# first or 120 s pass. Cheaper than asking the database, so the polling
# does not slow the suite down.
wait_for() {
    end=$(($(date +%s) + 120))
    while [ "$(wc -l <"$1")" -lt "$2" ]; do
        kill -0 "$3" 2>/dev/null ||
            fail "the suite ended before $2 checks: it was too fast to interrupt"
        [ "$(date +%s)" -lt "$end" ] ||
            fail "the suite did not reach $2 checks within 120 s"
        sleep 0.05
    done
}

# canon FILE: FILE's canonical form (gpmc parse) without its test line and
# its expectations: two files of one program, however written and whatever
# they expect, give the same text.
canon() {
    "$GPMC" parse "$1" >"$T/canon.out" 2>"$T/canon.err" ||
        fail "gpmc parse $1: $(head -c 600 "$T/canon.err")"
    grep -v '^test ' "$T/canon.out" | sed 's/ expect .*//'
}
