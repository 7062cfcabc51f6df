#!/bin/sh
# suite DIR (issue 27): a path as long as the system allows, or longer, is
# reported, never cut short (a path cut to 4095 bytes named its own
# directory again: endless recursion, SIGSEGV); a subdirectory that cannot
# be read is an error (exit 2, nothing checked), never skipped in silence.
. "$(dirname "$0")/lib.sh"
need python3
cd "$T"
SB=$ROOT/tests/data/naive/sb.litmus

# deep/…/x is 4094 bytes long, and holds a.litmus: cut to 4095 bytes,
# deep/…/x/a.litmus was deep/…/x/ again.
python3 - "$SB" <<'PY'
import os, sys
p = 'deep'
while len(p) < 4094 - 201:
    p += '/' + 'd' * 200
p += '/' + 'x' * (4094 - len(p) - 1)
os.makedirs(p)
top = os.getcwd()
os.chdir(p)
open('a.litmus', 'w').write(open(sys.argv[1]).read())
os.chdir(top)
open('deep/t.litmus', 'w').write(open(sys.argv[1]).read())
PY
expect_rc 2 "$GPMC" suite deep --model strict --db deep.db
assert_grep "the path too long" \
    '^gpmc suite: error: deep/d*/.*/x*/a\.litmus: cannot read: File name too long$' err
[ ! -s out ] || fail "suite checked something: $(head -c 300 out)"
[ ! -e deep.db ] || fail "suite wrote a database"

# An unreadable subdirectory, as a user whom permissions stop (nobody when
# we are root).
as_user() { "$@"; }
if [ "$(id -u)" = 0 ]; then
    need setpriv
    as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
fi
mkdir -p tree/ok tree/secret
cp "$SB" tree/ok/sb.litmus
cp "$SB" tree/secret/sb.litmus
chmod 755 "$T"
chmod 777 .
chmod 000 tree/secret
expect_rc 2 as_user "$GPMC" suite tree --model strict --db u.db
assert_grep "the unreadable directory" \
    '^gpmc suite: error: tree/secret: cannot read: Permission denied$' err
[ ! -s out ] || fail "suite checked something: $(head -c 300 out)"
chmod 755 tree/secret
expect_rc 0 as_user "$GPMC" suite tree --model strict --db u.db
assert_eq "the summary once readable" "$(tail -n 1 out)" "2 passed, 0 failed"
