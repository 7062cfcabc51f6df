#!/bin/sh
# gpmc parse: the canonical form of every bundled litmus file is a fixed
# point of the printer; -D and --config apply; bad input gives
# file:line:col messages on stderr, nothing on stdout, and exit status 2.
set -eu
: "${GPMC:?set GPMC to the gpmc binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "parse_roundtrip: $*" >&2; exit 1; }

# litmus/suite/cuda is left out until the printer shows a kernel compiled
# from PTX as its `from "FILE" ENTRY(ARGS)` (issue 24); it prints the lowered
# instructions now, which are not litmus.
n=0
for f in $(find litmus/suite tests/data/lit -name '*.litmus' \
               -not -path 'litmus/suite/cuda/*' 2>/dev/null | sort); do
    "$GPMC" parse "$f" > "$tmp/a.litmus" || fail "$f does not parse"
    "$GPMC" parse "$tmp/a.litmus" > "$tmp/b.litmus" ||
        fail "the canonical form of $f does not parse"
    cmp -s "$tmp/a.litmus" "$tmp/b.litmus" || fail "$f: not a fixed point"
    n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n litmus files found"

# Options: -D overrides a param, --config a key (and so the layout).
cat > "$tmp/opt.litmus" <<'LIT'
test opt
param N = 2
pm a[N]
LIT
"$GPMC" parse -D N=0x10 --config line_bytes=64 "$tmp/opt.litmus" > "$tmp/out"
printf 'test opt\n\nparam N = 16\n\nconfig line_bytes = 64\n\npm a[16] = 0\n' \
    > "$tmp/want"
cmp -s "$tmp/out" "$tmp/want" || fail "-D/--config output differs"
"$GPMC" parse -DN=3 --config=wpq=volatile "$tmp/opt.litmus" > "$tmp/out"
grep -q '^param N = 3$' "$tmp/out" || fail "-DN=3 not applied"
grep -q '^config wpq = volatile$' "$tmp/out" || fail "--config= not applied"

# Two files: both printed, a blank line between.
"$GPMC" parse "$tmp/opt.litmus" "$tmp/opt.litmus" > "$tmp/out"
[ "$(grep -c '^test opt$' "$tmp/out")" -eq 2 ] || fail "two files"

# Errors: every one, in order, with positions; exit 2; stdout empty.
cat > "$tmp/bad.litmus" <<'LIT'
test bad
pm x[0]
kernel k grid 1 block 1 {
    st y, 1
    mov r32, 1
}
check crash exists (x == 1) expect hw=maybe
LIT
check_error() {
    want_file=$1
    shift
    set +e
    "$GPMC" parse "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "exit status $rc, not 2, for: $*"
    [ ! -s "$tmp/out" ] || fail "output on stdout for: $*"
    cmp -s "$tmp/err" "$want_file" || {
        cat "$tmp/err" >&2
        fail "wrong messages for: $*"
    }
}
cat > "$tmp/want" <<EOF2
$tmp/bad.litmus:2:6: error: size of 'x' must be positive, got 0
$tmp/bad.litmus:4:8: error: undefined location 'y'
$tmp/bad.litmus:5:9: error: register 'r32' out of range (r0..r31)
$tmp/bad.litmus:7:39: error: expected 'ok' or 'no' for model 'hw', found 'maybe'
EOF2
check_error "$tmp/want" "$tmp/bad.litmus"
# A good file next to a bad one: still nothing on stdout.
check_error "$tmp/want" "$tmp/opt.litmus" "$tmp/bad.litmus"

printf "%s: error: -D M: no param named 'M'\n" "$tmp/opt.litmus" > "$tmp/want"
check_error "$tmp/want" -D M=1 "$tmp/opt.litmus"
printf "%s: error: --config sms=0: sms must be an integer from 1 to 1048576, got '0'\n" \
    "$tmp/opt.litmus" > "$tmp/want"
check_error "$tmp/want" --config sms=0 "$tmp/opt.litmus"
printf "%s: error: cannot read: No such file or directory\n" "$tmp/none.litmus" \
    > "$tmp/want"
check_error "$tmp/want" "$tmp/none.litmus"

# Usage errors exit 2 too.
for args in "" "-D N" "-D N=x $tmp/opt.litmus" "--config sms $tmp/opt.litmus" \
            "--frob $tmp/opt.litmus"; do
    set +e
    # shellcheck disable=SC2086
    "$GPMC" parse $args > /dev/null 2>&1
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "usage error '$args' exited $rc"
done
"$GPMC" parse --help | grep -q '^usage: gpmc parse' || fail "--help"
