#!/bin/sh
# End-to-end tests: every tests/e2e/*.sh with $GPMC set to the binary.
set -eu
: "${GPMC:?set GPMC to the gpmc binary}"
GPMC=$(cd "$(dirname "$GPMC")" && pwd)/$(basename "$GPMC")
export GPMC
fail=0
for t in tests/e2e/*.sh; do
    [ "$(basename "$t")" = lib.sh ] && continue
    [ -e "$t" ] || continue
    if sh "$t"; then echo "ok   $t"; else echo "FAIL $t"; fail=1; fi
done
exit $fail
