#!/bin/sh
# End-to-end tests: every tests/e2e/*.sh with $GPMC set to the binary. A
# test's standard error (the errors it provokes on purpose, its failure
# message) goes to $E2E_LOG/NAME.err (default: beside the binary, in log/),
# shown when the test fails.
set -eu
: "${GPMC:?set GPMC to the gpmc binary}"
GPMC=$(cd "$(dirname "$GPMC")" && pwd)/$(basename "$GPMC")
export GPMC
LOG=${E2E_LOG:-$(dirname "$GPMC")/log}
mkdir -p "$LOG"
fail=0
for t in tests/e2e/*.sh; do
    [ "$(basename "$t")" = lib.sh ] && continue
    [ -e "$t" ] || continue
    err=$LOG/$(basename "$t" .sh).err
    if sh "$t" 2>"$err"; then
        echo "ok   $t"
    else
        echo "FAIL $t (stderr: $err)"
        tail -n 40 "$err"
        fail=1
    fi
done
exit $fail
