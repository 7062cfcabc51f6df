#!/bin/sh
# Scaled families against --naive: P01, Lin-CtaUndo, Lin-IdemCta and
# GPM-LockLog at 2, 3, 4 and 5 threads, under every model. At every size
# the literal semantics finishes (within NAIVE_STATES states), the default
# mode (every reduction) and each reduction alone (fusion, partial-order
# reduction, projection) print the same outcome, Observation and Verdict
# lines. The default mode must finish wherever
# naive does, and at least a dozen sizes must be compared per model. Under
# hw the default mode stores no more states than naive (issue 15), with
# every reduction, each alone and none (--no-reduce, also compared).
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
NAIVE_STATES=${NAIVE_STATES:-40000}

# The lines that must agree: outcomes (without counts), Observation, Verdict.
verdicts() {
    grep -E '^(  [^ ].*  \([0-9]+\)|Observation .*|Verdict .*|States [a-z]+ [0-9]+)$' "$1" |
        sed -E 's/  \([0-9]+\)$//; s/^States ([a-z]+) [0-9]+$/States \1/'
}

# The states of the main program and every recovery (the Stats line).
states() {
    sed -n 's/^Stats .* states \([0-9]*\) .*/\1/p' "$1"
}

compared=0
for fam in scale/P01:T seeds/lin-cta-undo:TPB seeds/lin-idem-cta:TPB \
           seeds/gpm-lock-log:TPB; do
    f=litmus/suite/${fam%%:*}.litmus
    p=${fam##*:}
    for n in 2 3 4 5; do
        for m in strict epoch bepoch scoped bscoped hw; do
            try "$GPMC" run "$f" --model "$m" -D "$p=$n" --naive \
                --max-states "$NAIVE_STATES"
            if grep -q '^Status incomplete' "$T/out"; then
                continue                # larger than naive can do here
            fi
            [ "$rc" -le 1 ] || fail "$f $p=$n $m --naive exited $rc"
            verdicts "$T/out" >"$T/naive"
            naive_states=$(states "$T/out")
            unreduced=""
            [ "$m" = hw ] && unreduced=--no-reduce
            for r in "" "--no-por --no-slice" "--no-fuse --no-slice" \
                     "--no-fuse --no-por" $unreduced; do
                # shellcheck disable=SC2086
                try "$GPMC" run "$f" --model "$m" -D "$p=$n" $r
                [ "$rc" -le 1 ] || fail "$f $p=$n $m $r exited $rc"
                if grep -q '^Status incomplete' "$T/out"; then
                    fail "$f $p=$n $m $r: incomplete where naive finishes"
                fi
                verdicts "$T/out" >"$T/dflt"
                assert_same "$f $p=$n $m ${r:-(all reductions)}" \
                    "$T/naive" "$T/dflt"
                if [ "$m" = hw ] &&
                   [ "$(states "$T/out")" -gt "$naive_states" ]; then
                    fail "$f $p=$n hw ${r:-(all reductions)}:" \
                        "$(states "$T/out") states, naive $naive_states"
                fi
            done
            compared=$((compared + 1))
        done
    done
done
[ "$compared" -ge 50 ] || fail "only $compared sizes compared with naive"
echo "$NAME: $compared (family, size, model) compared with naive" >&2
