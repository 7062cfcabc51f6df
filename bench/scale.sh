#!/bin/sh
# bench/scale.sh — how gpmc scales with threads (issue 10): states, CPU time
# and peak memory of the scalable families against threads, under each
# model, in the default mode, with each reduction off, with none
# (--no-reduce) and in --naive. Part of `make bench`; see bench/README.md.
#
# Environment: GPMC (default ./gpmc), FAMILIES (default "P01 CtaUndo"),
# MODELS (default all six), MAXT (default 8), MODES (default all below),
# CAP_STATES (default 3000000 per exploration), CAP_S (default 60: CPU
# seconds per run), CAP_KB (default 4000000: address space per run).
# A mode stops growing a family once a size exceeds a cap ("-" in the
# table). Output: a table on stdout, bench/out/scale.csv and, with
# gnuplot, bench/out/scale-FAMILY-MODEL.svg (states against threads).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/bench/out
GPMC=${GPMC:-$ROOT/gpmc}
FAMILIES=${FAMILIES:-"P01 CtaUndo"}
MODELS=${MODELS:-"strict epoch bepoch scoped bscoped hw"}
MAXT=${MAXT:-8}
MODES=${MODES:-"default no-fuse no-por no-slice no-reduce naive"}
CAP_STATES=${CAP_STATES:-3000000}
CAP_S=${CAP_S:-60}
CAP_KB=${CAP_KB:-4000000}
CSV=$OUT/scale.csv

# family FAMILY: "file parameter" of a family.
family() {
    case $1 in
    P01) echo "litmus/suite/scale/P01.litmus T" ;;
    CtaUndo) echo "litmus/suite/seeds/lin-cta-undo.litmus TPB" ;;
    *) echo "bench: unknown family $1" >&2; exit 1 ;;
    esac
}

flags() {
    case $1 in
    default) echo "" ;;
    naive) echo "--naive" ;;
    *) echo "--$1" ;;
    esac
}

[ -x "$GPMC" ] || { echo "bench: no gpmc binary at $GPMC" >&2; exit 1; }
mkdir -p "$OUT"
echo "family,model,mode,threads,states,transitions,images,cpu_s,peak_kb,status" >"$CSV"
printf '%-8s %-8s %-10s %3s %10s %9s %8s %9s  %s\n' family model mode T states images cpu_s peak_MB status

for fam in $FAMILIES; do
    set -- $(family "$fam")
    file=$1
    param=$2
    for model in $MODELS; do
        for mode in $MODES; do
            t=2
            while [ "$t" -le "$MAXT" ]; do
                # shellcheck disable=SC2046
                set +e
                ( ulimit -t "$CAP_S" -v "$CAP_KB"
                  exec /usr/bin/time -f 'TIME %U %S %M' "$GPMC" run "$ROOT/$file" \
                      --model "$model" -D "$param=$t" --max-states "$CAP_STATES" \
                      $(flags "$mode") ) >"$OUT/scale.log" 2>&1
                set -e
                stats=$(awk '/^Stats /{print $5, $7, $11}' "$OUT/scale.log" | tail -n 1)
                times=$(awk '/^TIME /{printf "%.2f %d", $2 + $3, $4}' "$OUT/scale.log" | tail -n 1)
                status=done
                if grep -q '^Status incomplete' "$OUT/scale.log"; then
                    status=incomplete
                elif [ -z "$stats" ]; then
                    status=cap
                fi
                [ -n "$stats" ] || stats="- - -"
                [ -n "$times" ] || times="- -"
                # shellcheck disable=SC2086
                set -- $stats $times
                printf '%-8s %-8s %-10s %3d %10s %9s %8s %9s  %s\n' "$fam" "$model" "$mode" "$t" \
                    "$1" "$3" "$4" "$(awk -v k="$5" 'BEGIN{ if (k=="-") print "-"; else printf "%.0f", k/1024 }')" "$status"
                echo "$fam,$model,$mode,$t,$1,$2,$3,$4,$5,$status" >>"$CSV"
                [ "$status" = done ] || break
                t=$((t + 1))
            done
        done
        if command -v gnuplot >/dev/null 2>&1; then
            svg=$OUT/scale-$fam-$model.svg
            plots=""
            for mode in $MODES; do
                grep "^$fam,$model,$mode," "$CSV" | awk -F, '$10=="done"{print $4, $5}' \
                    >"$OUT/scale-$mode.dat"
                [ -s "$OUT/scale-$mode.dat" ] || continue
                plots="$plots${plots:+, }'$OUT/scale-$mode.dat' using 1:2 with linespoints title '$mode'"
            done
            [ -z "$plots" ] || gnuplot -e "set terminal svg size 640,400; set output '$svg';
                set logscale y; set xlabel 'threads'; set ylabel 'states';
                set title '$fam under $model'; set key left top; plot $plots" 2>/dev/null || true
            rm -f "$OUT"/scale-*.dat
        fi
    done
done
rm -f "$OUT/scale.log"
echo "CSV: $CSV"
