#!/bin/sh
# report html -o PATH (issue 27): only a regular file is written (through a
# temporary file renamed over it), or standard output for `-`; a device, a
# FIFO, a directory or a link to one is refused with exit 2 and left as it
# was, never replaced by a regular file.
. "$(dirname "$0")/lib.sh"
cd "$T"
expect_rc 0 "$GPMC" run "$ROOT/tests/data/naive/sb.litmus" --model strict \
    --db d.db

expect_rc 0 "$GPMC" report html --db d.db -o -
grep -q '^<!DOCTYPE html>' out || fail "-o - did not write the page to stdout"
[ ! -e ./- ] || fail "-o - made a file named -"
cp out page.want

refused() {
    expect_rc 2 "$GPMC" report html --db d.db -o "$1"
    assert_grep "report html -o $1" "^gpmc: error: $1: $2" err
    [ ! -s out ] || fail "report html -o $1 wrote to stdout"
}
mkfifo fifo
refused fifo 'is a FIFO, not a regular file'
[ -p fifo ] || fail "-o fifo replaced the FIFO"
mkdir dir
refused dir 'is a directory'
[ -d dir ] || fail "-o dir replaced the directory"
ln -s /dev/null null.link
refused null.link 'is a symbolic link to something not a regular file'
[ -L null.link ] || fail "-o null.link replaced the link"
[ -c /dev/null ] || fail "/dev/null is no longer a device"
ln -s nowhere dangling.link
refused dangling.link 'is a symbolic link to nothing'
# a device node of our own (root only), the same as /dev/null
if mknod null.dev c 1 3 2>/dev/null; then
    refused null.dev 'is a character device, not a regular file'
    [ -c null.dev ] || fail "-o null.dev replaced the device"
fi
[ -z "$(find . -name '*.tmp-*')" ] || fail "temporary files left: $(ls)"

# A regular file is replaced whole; through a link, the link's target is,
# and the link stays.
echo old >page.html
ln -s page.html page.link
expect_rc 0 "$GPMC" report html --db d.db -o page.link
[ -L page.link ] || fail "-o page.link replaced the link"
assert_same "the page written through a link" page.html page.want
expect_rc 0 "$GPMC" report html --db d.db -o new.html
assert_same "the page written to a new file" new.html page.want
