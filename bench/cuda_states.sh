#!/bin/sh
# cuda_states.sh [GPMC] — the state-count table of issue 24: for every CUDA
# test of litmus/suite/cuda and its transcription in litmus/suite/papers (same
# file name), the states each explores under each model (default options:
# reductions on, --crash-depth 2) and the ratio CUDA / transcription. Prints
# a markdown table (bench/README.md, "CUDA against its transcription").
# Runs without clang: the .cu files' committed .ptx are used.
set -eu
gpmc=${1:-./gpmc}
root=$(cd "$(dirname "$0")/.." && pwd)
models="strict epoch bepoch scoped bscoped hw"
states() {   # FILE MODEL
    "$gpmc" run "$1" --model "$2" 2>/dev/null |
        awk '$1 == "Stats" { print $5 }'
}
printf '| test |'
for m in $models; do printf ' %s |' "$m"; done
printf '\n|---|'
for m in $models; do printf -- '---|'; done
printf '\n'
for cu in "$root"/litmus/suite/cuda/*.litmus; do
    f=$(basename "$cu")
    lit=$root/litmus/suite/papers/$f
    [ -f "$lit" ] || continue
    printf '| %s |' "${f%.litmus}"
    for m in $models; do
        a=$(states "$cu" "$m")
        b=$(states "$lit" "$m")
        r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')
        printf ' %s / %s (%s) |' "$a" "$b" "$r"
    done
    printf '\n'
done
