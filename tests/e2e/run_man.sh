#!/bin/sh
# gpmc.1 renders without warnings and documents every command of DESIGN
# section 6, every option the commands accept, every model and the exit
# statuses. Skipped (with a note) only when neither groff nor man exists.
. "$(dirname "$0")/lib.sh"
page=$ROOT/gpmc.1
[ -f "$page" ] || fail "no man page at $page"

if command -v groff >/dev/null 2>&1; then
    LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -P-cbou "$page" >"$T/page" \
        2>"$T/warn" || fail "groff failed: $(head -3 "$T/warn")"
elif command -v man >/dev/null 2>&1; then
    MANWIDTH=80 MAN_KEEP_FORMATTING='' man --warnings -l "$page" \
        2>"$T/warn" | col -b >"$T/page" ||
        fail "man -l failed: $(head -3 "$T/warn")"
else
    echo "$NAME: skipped: neither groff nor man is installed" >&2
    exit 0
fi
[ ! -s "$T/warn" ] || fail "warnings while rendering gpmc.1: $(head -5 "$T/warn")"
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man --warnings -l "$page" >/dev/null 2>"$T/warn" ||
        fail "man -l gpmc.1 failed: $(head -3 "$T/warn")"
    [ ! -s "$T/warn" ] ||
        fail "man -l gpmc.1 warns: $(head -5 "$T/warn")"
fi

# section SECTION: the text of one section (heading lines are unindented)
section() {
    awk -v s="$1" '/^[A-Z]/ { on = ($0 == s); next } on' "$T/page"
}
for s in NAME SYNOPSIS DESCRIPTION COMMANDS MODELS "EXIT STATUS" FILES \
    EXAMPLES "SEE ALSO"; do
    grep -qx "$s" "$T/page" || fail "no $s section"
done
assert_grep "NAME line" '^       gpmc - ' "$T/page"

section SYNOPSIS >"$T/synopsis"
for c in run suite time query report show merge parse; do
    assert_grep "synopsis of $c" "^       gpmc $c " "$T/synopsis"
    assert_grep "COMMANDS entry of $c" "^   gpmc $c " "$T/page"
done

# every option a command's --help shows is in the page
"$GPMC" --help | awk '/^  [a-z]/ { print $1 }' >"$T/commands"
[ "$(wc -l <"$T/commands")" -ge 7 ] || fail "gpmc --help lists too few commands"
while read -r c; do
    "$GPMC" "$c" --help >"$T/help" 2>&1 || fail "gpmc $c --help failed"
    grep -o -- '--[a-z][a-z-]*\|-D' "$T/help" | sort -u >"$T/opts"
    while read -r o; do
        grep -q -- "$o" "$T/synopsis" ||
            fail "option $o of gpmc $c is not in the SYNOPSIS"
        grep -q -- "^       $o\\b\\|^       .*, $o\\b" "$T/page" ||
            grep -q -- "^   gpmc $c .*$o" "$T/page" ||
            fail "option $o of gpmc $c is not described"
    done <"$T/opts"
done <"$T/commands"

section MODELS >"$T/models"
for m in strict epoch bepoch scoped bscoped hw; do
    grep -q "^       $m\\( \\|$\\)" "$T/models" || fail "model $m is not described"
done
section "EXIT STATUS" >"$T/exit"
for x in 0 1 2 3; do
    grep -q "^       $x " "$T/exit" || fail "exit status $x is not described"
done
section FILES | grep -q 'results/gpmc.db' || fail "FILES does not name results/gpmc.db"
section EXAMPLES >"$T/examples"
for e in "gpmc run " "--shard 1/3" "gpmc merge " "gpmc query "; do
    grep -q -- "$e" "$T/examples" || fail "no example with '$e'"
done
section "SEE ALSO" | grep -q 'specs/' || fail "SEE ALSO does not point to specs/"
