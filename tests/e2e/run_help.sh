#!/bin/sh
# Help texts: `gpmc --help` and `gpmc COMMAND --help` exit 0 and print a
# usage line on stdout; an unknown command or option exits 2 with an error
# on stderr and nothing on stdout.
. "$(dirname "$0")/lib.sh"

for h in --help help; do
    expect_rc 0 "$GPMC" $h
    assert_eq "first line of gpmc $h" "$(head -n 1 "$T/out")" \
        "usage: gpmc COMMAND [ARGS]"
    [ ! -s "$T/err" ] || fail "gpmc $h wrote to stderr: $(head -2 "$T/err")"
done
awk '/^  [a-z]/ { print $1 }' "$T/out" >"$T/commands"
# the commands of DESIGN section 6 (time: once it is built) and parse
for c in run suite query report show merge parse; do
    grep -qx "$c" "$T/commands" || fail "gpmc --help does not list $c"
done

expect_rc 0 "$GPMC" --version
case $(cat "$T/out") in
"gpmc "[0-9]*.[0-9]*.[0-9]*) ;;
*) fail "gpmc --version printed '$(cat "$T/out")'" ;;
esac

expect_rc 2 "$GPMC"
[ ! -s "$T/out" ] || fail "gpmc without a command printed on stdout"
assert_grep "gpmc without a command" '^usage: gpmc COMMAND' "$T/err"

for c in nosuchcommand --nosuchoption -x RUN; do
    expect_rc 2 "$GPMC" "$c"
    [ ! -s "$T/out" ] || fail "gpmc $c printed on stdout"
    assert_grep "gpmc $c" "^gpmc: error: unknown command '$c'$" "$T/err"
done

while read -r c; do
    for h in --help -h; do
        expect_rc 0 "$GPMC" "$c" "$h"
        assert_grep "gpmc $c $h" "^usage: gpmc $c " "$T/out"
        [ ! -s "$T/err" ] ||
            fail "gpmc $c $h wrote to stderr: $(head -2 "$T/err")"
        [ "$(wc -l <"$T/out")" -ge 2 ] ||
            fail "gpmc $c $h prints only a usage line"
    done
    # --help wins over the other arguments
    expect_rc 0 "$GPMC" "$c" x.litmus --help
    assert_grep "gpmc $c x.litmus --help" "^usage: gpmc $c " "$T/out"
    # an unknown option, before or after the other arguments
    for args in "--nosuchoption" "x.litmus --nosuchoption" \
        "--nosuchoption x.litmus"; do
        expect_rc 2 "$GPMC" "$c" $args
        [ ! -s "$T/out" ] || fail "gpmc $c $args printed on stdout"
        assert_grep "gpmc $c $args" \
            "^gpmc\\( $c\\)\\?: error: .*unknown option.*--nosuchoption" "$T/err"
    done
    # a command that takes arguments says so when it gets none
    case $c in
    report | show | merge | query | run | suite | parse)
        expect_rc 2 "$GPMC" "$c"
        [ ! -s "$T/out" ] || fail "gpmc $c without arguments printed on stdout"
        assert_grep "gpmc $c without arguments" "^gpmc\\( $c\\)\\?: error: " "$T/err"
        ;;
    esac
done <"$T/commands"
