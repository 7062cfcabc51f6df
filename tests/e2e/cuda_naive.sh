#!/bin/sh
# --naive against the default mode on every CUDA test: each .litmus file
# with a `from` clause under litmus/suite and tests/data/ptx, under every
# model. Where the literal semantics finishes (within NAIVE_STATES states)
# the default mode (every reduction) and each reduction alone print the
# same outcome, Observation and Verdict lines. At least the six tests of
# tests/data/ptx are compared under every model.
. "$(dirname "$0")/lib.sh"
need clang
cd "$ROOT"
NAIVE_STATES=${NAIVE_STATES:-200000}
GPMC_CACHE=$T/cache
export GPMC_CACHE

verdicts() {
    grep -E '^(  [^ ].*  \([0-9]+\)|Observation .*|Verdict .*|States [a-z]+ [0-9]+)$' "$1" |
        sed -E 's/  \([0-9]+\)$//; s/^States ([a-z]+) [0-9]+$/States \1/'
}

compared=0
files=$(grep -l -E '^[[:space:]]*kernel .* from "' -r litmus/suite tests/data/ptx \
            --include='*.litmus' | sort)
[ -n "$files" ] || fail "no CUDA tests found"
for f in $files; do
    for m in strict epoch bepoch scoped bscoped hw; do
        try "$GPMC" run "$f" --model "$m" --naive --max-states "$NAIVE_STATES"
        [ "$rc" -le 1 ] || fail "$f $m --naive exited $rc: $(head -c 600 "$T/err")"
        if grep -q '^Status incomplete' "$T/out"; then
            continue                    # larger than naive can do here
        fi
        verdicts "$T/out" >"$T/naive"
        for r in "" "--no-por --no-slice" "--no-fuse --no-slice" \
                 "--no-fuse --no-por"; do
            # shellcheck disable=SC2086
            try "$GPMC" run "$f" --model "$m" $r
            [ "$rc" -le 1 ] || fail "$f $m $r exited $rc"
            grep -q '^Status incomplete' "$T/out" &&
                fail "$f $m $r: incomplete where naive finishes"
            verdicts "$T/out" >"$T/dflt"
            assert_same "$f $m ${r:-(all reductions)}" "$T/naive" "$T/dflt"
        done
        compared=$((compared + 1))
    done
done
[ "$compared" -ge 36 ] || fail "only $compared (test, model) compared with naive"
echo "$NAME: $compared (CUDA test, model) compared with naive" >&2
