#!/bin/sh
# bench/scale.sh — how gpmc scales with threads (issue 10): states, CPU time
# and peak memory of the suite's scalable families against threads, under
# each model, in the default mode, with each reduction off, with none
# (--no-reduce) and in --naive; then issue 10's 8-thread goal table. Part
# of `make bench`; see bench/README.md.
#
# A series (family, model, mode) grows T = 2, 3, ... MAXT and stops at the
# first size that ends incomplete or at a cap, or before a size its last
# two predict to pass a cap (states and CPU time grow about geometrically
# with threads): at most CAP_STATES states (--max-states), CAP_S CPU
# seconds and CAP_MB megabytes (--max-memory) per run. JOBS series run at
# once, each run on one explorer thread (--threads 1); figures are single
# runs (CPU time, user + sys, and peak RSS from /usr/bin/time).
#
# The goal table runs every model on P01 T=8 and Lin-CtaUndo TPB=8 in the
# default mode with --threads GOAL_THREADS (default 2), the median of
# GOAL_RUNS runs (default 3) where a run takes under GOAL_REPEAT seconds
# (default 15), one run otherwise, at most GOAL_S CPU seconds (default 70:
# past a minute the goal is missed anyway).
#
# The laws table (issue 15) measures P01-shaped programs of T threads x S
# stores (bench/p01.sh) under the abstract models, default mode and
# --naive, T = 2..LAWS_MAXT (default 5), S = 2..8, under the same caps.
#
# Environment: GPMC (default ./gpmc), FAMILIES (default every family
# below), MODELS (default all six), MODES (default all six), MAXT (8),
# CAP_STATES (2000000), CAP_S (5), CAP_MB (2000), JOBS (2), GOAL and LAWS
# (1: run that table, 0: not). Output: tables on stdout; bench/out/scale.csv,
# bench/out/goal.csv, bench/out/laws.csv, bench/out/growth.csv (the plot of
# `gpmc report html`)
# and, with gnuplot, bench/out/scale-FAMILY-MODEL.svg (states, CPU and
# memory against threads, one line per mode).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/bench/out
GPMC=${GPMC:-$ROOT/gpmc}
FAMILIES=${FAMILIES:-"P01 CtaUndo IdemCta LockLog"}
MODELS=${MODELS:-"strict epoch bepoch scoped bscoped hw"}
MODES=${MODES:-"default no-fuse no-por no-slice no-reduce naive"}
MAXT=${MAXT:-8}
CAP_STATES=${CAP_STATES:-2000000}
CAP_S=${CAP_S:-5}
CAP_MB=${CAP_MB:-2000}
JOBS=${JOBS:-2}
GOAL=${GOAL:-1}
GOAL_THREADS=${GOAL_THREADS:-2}
GOAL_RUNS=${GOAL_RUNS:-3}
GOAL_REPEAT=${GOAL_REPEAT:-15}
GOAL_S=${GOAL_S:-70}
LAWS=${LAWS:-1}
LAWS_MAXT=${LAWS_MAXT:-5}
CSV=$OUT/scale.csv
GCSV=$OUT/goal.csv
GROWTH=$OUT/growth.csv
LCSV=$OUT/laws.csv
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpmc-scale.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# family FAMILY: "file parameter" of a family (the scaled families of
# tests/e2e/scale_naive.sh).
family() {
    case $1 in
    P01) echo "litmus/suite/scale/P01.litmus T" ;;
    CtaUndo) echo "litmus/suite/seeds/lin-cta-undo.litmus TPB" ;;
    IdemCta) echo "litmus/suite/seeds/lin-idem-cta.litmus TPB" ;;
    LockLog) echo "litmus/suite/seeds/gpm-lock-log.litmus TPB" ;;
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

# measure LOG PATH PARAM T MODEL THREADS CPU_CAP STATES MB FLAGS...: one
# run under those caps; prints "states transitions images cpu_s peak_kb
# status".
measure() {
    log=$1 file=$2 param=$3 t=$4 model=$5 th=$6 cap=$7 maxs=$8 mem=$9
    shift 9
    set +e
    /usr/bin/time -f 'TIME %U %S %M' prlimit --cpu=$((cap * 2 + 5)) \
        --as=$(((mem * 2 + 1024) * 1048576)) nice -n 10 "$GPMC" run "$file" \
        --model "$model" -D "$param=$t" --threads "$th" \
        --max-states "$maxs" --max-memory "$mem"M "$@" >"$log" 2>&1
    set -e
    stats=$(awk '/^Stats /{print $5, $7, $11}' "$log" | tail -n 1)
    times=$(awk '/^TIME /{printf "%.2f %d", $2 + $3, $4}' "$log" | tail -n 1)
    status="done"
    if grep -q '^Status incomplete' "$log"; then
        status=incomplete
    elif [ -z "$stats" ]; then
        status=cap
    elif awk -v c="${times%% *}" -v m="$cap" 'BEGIN{exit !(c > m)}'; then
        status=cap
    fi
    echo "${stats:-- - -} ${times:-- -} $status"
}

# over STATES PREV_STATES CPU PREV_CPU: whether the next size, grown as
# the last two did (CPU at least doubling), passes a cap.
over() {
    awk -v s="$1" -v ps="$2" -v c="$3" -v pc="$4" -v cs="$CAP_STATES" -v cc="$CAP_S" 'BEGIN{
        c = c < 0.05 ? 0.05 : c; pc = pc < 0.05 ? 0.05 : pc
        gs = s / ps; gc = c / pc
        exit !(s * (gs > 1 ? gs : 1) > cs || c * (gc > 2 ? gc : 2) > cc) }'
}

# series FAMILY MODEL MODE: one series' rows of scale.csv on stdout.
series() {
    fam=$1 model=$2 mode=$3
    # shellcheck disable=SC2046
    set -- $(family "$fam")
    file=$1 param=$2
    t=2 ps=0 pc=0
    while [ "$t" -le "$MAXT" ]; do
        # shellcheck disable=SC2046
        set -- $(measure "$TMP/$fam-$model-$mode.log" "$ROOT/$file" "$param" "$t" \
            "$model" 1 "$CAP_S" "$CAP_STATES" "$CAP_MB" $(flags "$mode"))
        echo "$fam,$model,$mode,$t,$1,$2,$3,$4,$5,$6"
        [ "$6" = "done" ] || return 0
        if [ "$ps" != 0 ] && over "$1" "$ps" "$4" "$pc"; then
            t=$((t + 1))
            [ "$t" -gt "$MAXT" ] || echo "$fam,$model,$mode,$t,-,-,-,-,-,predicted"
            return 0
        fi
        ps=$1 pc=$4
        t=$((t + 1))
    done
}

[ -x "$GPMC" ] || { echo "bench: no gpmc binary at $GPMC" >&2; exit 1; }
mkdir -p "$OUT"

echo "Scaling: states, CPU seconds and peak RSS against threads (caps per run: $CAP_STATES states,"
echo "$CAP_S CPU s, $CAP_MB MB; one explorer thread; $JOBS series at once; single runs)."
echo "  $GPMC run FILE --model MODEL -D PARAM=T --threads 1 --max-states $CAP_STATES --max-memory ${CAP_MB}M [--naive|--no-...]"
echo

# The series, dealt to JOBS workers; each writes its own part, and the
# parts are put back in the order of the list.
n=0
for fam in $FAMILIES; do
    for model in $MODELS; do
        for mode in $MODES; do
            echo "$n $fam $model $mode" >>"$TMP/list.$((n % JOBS))"
            n=$((n + 1))
        done
    done
done
j=0
while [ $j -lt "$JOBS" ] && [ -f "$TMP/list.$j" ]; do
    ( while read -r k fam model mode; do
          series "$fam" "$model" "$mode" | sed "s/^/$k,/" >>"$TMP/part.$j"
      done <"$TMP/list.$j" ) &
    j=$((j + 1))
done
wait
echo "family,model,mode,threads,states,transitions,images,cpu_s,peak_kb,status" >"$CSV"
cat "$TMP"/part.* | sort -t, -k1,1n -k5,5n | cut -d, -f2- >>"$CSV"

printf '%-8s %-8s %-10s %3s %10s %9s %8s %9s  %s\n' family model mode T states images cpu_s peak_MB status
tail -n +2 "$CSV" | while IFS=, read -r fam model mode t states _ images cpu kb status; do
    printf '%-8s %-8s %-10s %3d %10s %9s %8s %9s  %s\n' "$fam" "$model" "$mode" "$t" \
        "$states" "$images" "$cpu" "$(awk -v k="$kb" 'BEGIN{ if (k=="-") print "-"; else printf "%.0f", k/1024 }')" "$status"
done
echo "(status: done; incomplete: a cap of gpmc ended it; cap: over $CAP_S CPU s or killed;"
echo " predicted: not run, the last two sizes predict a cap)"
echo "CSV: $CSV"

# growth.csv: the series `gpmc report html` plots (a subset: every family
# in the default mode, without reductions and in --naive, under the model
# of issue 10's figures for it).
echo "series,size,states,cpu_s,peak_kb,family,model,mode" >"$GROWTH"
for fam in $FAMILIES; do
    case $fam in P01) model=epoch ;; *) model=scoped ;; esac
    for mode in default no-reduce naive; do
        awk -F, -v f="$fam" -v m="$model" -v d="$mode" \
            '$1==f && $2==m && $3==d && $10=="done" {
                printf "%s %s %s,%s,%s,%s,%s,%s,%s,%s\n", f, m, d, $4, $5, $8, $9, f, m, d }' "$CSV" >>"$GROWTH"
    done
done
echo "Growth (gpmc report html): $GROWTH"

if command -v gnuplot >/dev/null 2>&1; then
    for fam in $FAMILIES; do
        for model in $MODELS; do
            plots=""
            for col in 5 8 9; do
                p=""
                for mode in $MODES; do
                    awk -F, -v f="$fam" -v m="$model" -v d="$mode" -v c="$col" \
                        '$1==f && $2==m && $3==d && $10=="done" { print $4, (c==9 ? $c/1024 : $c) }' \
                        "$CSV" >"$TMP/$mode.$col.dat"
                    [ -s "$TMP/$mode.$col.dat" ] || continue
                    p="$p${p:+, }'$TMP/$mode.$col.dat' using 1:2 with linespoints title '$mode'"
                done
                plots="$plots|$p"
            done
            echo "$plots" | grep -q "dat" || continue
            set -- "$(echo "$plots" | cut -d'|' -f2)" "$(echo "$plots" | cut -d'|' -f3)" \
                "$(echo "$plots" | cut -d'|' -f4)"
            gnuplot -e "set terminal svg size 1200,380; set output '$OUT/scale-$fam-$model.svg';
                set multiplot layout 1,3 title '$fam under $model (one explorer thread; caps $CAP_STATES states, $CAP_S s)';
                set logscale y; set format y '%g'; set xlabel 'threads'; set key left top; set xtics 1;
                set ylabel 'states'; plot ${1:-1/0 notitle};
                set ylabel 'CPU s'; plot ${2:-1/0 notitle};
                set ylabel 'peak MB'; plot ${3:-1/0 notitle};
                unset multiplot" 2>/dev/null || echo "bench: gnuplot failed on $fam $model" >&2
        done
    done
    echo "Plots: $OUT/scale-FAMILY-MODEL.svg"
fi

if [ "$GOAL" = 1 ]; then
# ---- the 8-thread goal (issue 10): every model under a minute in all ------
echo
echo "Goal: each model on P01 T=8 and Lin-CtaUndo TPB=8, default mode, --threads $GOAL_THREADS;"
echo "the six models together in under a minute per program. Median of $GOAL_RUNS runs where a run"
echo "takes under $GOAL_REPEAT s, else one run; at most $GOAL_S CPU s per run."
echo "program,model,states,transitions,images,cpu_s,peak_kb,status,runs" >"$GCSV"
for prog in P01 CtaUndo; do
    # shellcheck disable=SC2046
    set -- $(family "$prog")
    file=$1 param=$2
    for model in strict epoch bepoch scoped bscoped hw; do
        r=0
        : >"$TMP/goal.times"
        while [ $r -lt "$GOAL_RUNS" ]; do
            # shellcheck disable=SC2046
            set -- $(measure "$TMP/goal.log" "$ROOT/$file" "$param" 8 "$model" \
                "$GOAL_THREADS" "$GOAL_S" 200000000 8000)
            echo "$4 $5" >>"$TMP/goal.times"
            r=$((r + 1))
            [ "$6" = "done" ] || break
            awk -v c="$4" -v m="$GOAL_REPEAT" 'BEGIN{exit !(c < m)}' || break
        done
        cpu=$(cut -d' ' -f1 "$TMP/goal.times" | sort -g | sed -n "$(((r + 1) / 2))p")
        kb=$(cut -d' ' -f2 "$TMP/goal.times" | sort -g | sed -n "$(((r + 1) / 2))p")
        echo "$prog,$model,$1,$2,$3,$cpu,$kb,$6,$r" >>"$GCSV"
    done
done
printf '%-8s %-8s %10s %8s %9s %8s  %s\n' program model states cpu_s peak_MB runs status
tail -n +2 "$GCSV" | while IFS=, read -r prog model states _ _ cpu kb status runs; do
    printf '%-8s %-8s %10s %8s %9s %8s  %s\n' "$prog" "$model" "$states" "$cpu" \
        "$(awk -v k="$kb" 'BEGIN{ if (k=="-") print "-"; else printf "%.0f", k/1024 }')" "$runs" "$status"
done
for prog in P01 CtaUndo; do
    awk -F, -v p="$prog" '$1==p { n++; if ($8!="done") bad=1; else s+=$6 }
        END { if (bad) printf "%s: not met (a model did not finish within its cap)\n", p;
              else printf "%s: six models %.1f CPU s in all: %s\n", p, s, s < 60 ? "met" : "not met" }' "$GCSV"
done
echo "CSV: $GCSV"
fi

[ "$LAWS" = 1 ] || exit 0

# ---- laws (issue 15): P01-shaped programs, T threads x S stores ----------
# bench/p01.sh T S: states against T for S = 2..8 under the abstract
# models, default mode and --naive; `per thread` is states(T)/states(T-1)
# at the largest pair of sizes measured (a law E^T has it constant, E).
echo
echo "Laws: P01-shaped programs (bench/p01.sh T S: T threads x S stores, a pbar every 2), states"
echo "against T = 2..$LAWS_MAXT, S = 2..8; per thread = states(T)/states(T-1) at the last two sizes."
echo "model,mode,stores,threads,states,status" >"$LCSV"
for s in 2 3 4 5 6 7 8; do
    for t in $(seq 2 "$LAWS_MAXT"); do
        sh "$ROOT/bench/p01.sh" "$t" "$s" "$TMP"
    done
done
for model in strict epoch bepoch scoped bscoped; do
    for mode in default naive; do
        for s in 2 3 4 5 6 7 8; do
            t=2 ps=0 pc=0
            while [ "$t" -le "$LAWS_MAXT" ]; do
                # shellcheck disable=SC2046
                set -- $(measure "$TMP/laws.log" "$TMP/p01-$t-$s.litmus" T "$t" "$model" 1 \
                    "$CAP_S" "$CAP_STATES" "$CAP_MB" $(flags "$mode"))
                echo "$model,$mode,$s,$t,$1,$6" >>"$LCSV"
                [ "$6" = "done" ] || break
                [ "$ps" = 0 ] || ! over "$1" "$ps" "$4" "$pc" || break
                ps=$1 pc=$4
                t=$((t + 1))
            done
        done
    done
done
printf '%-8s %-8s' model mode
for s in 2 3 4 5 6 7 8; do printf ' %9s' "S=$s"; done
echo
for model in strict epoch bepoch scoped bscoped; do
    for mode in default naive; do
        printf '%-8s %-8s' "$model" "$mode"
        for s in 2 3 4 5 6 7 8; do
            printf ' %9s' "$(awk -F, -v m="$model" -v d="$mode" -v s="$s" \
                '$1==m && $2==d && $3==s && $6=="done" { p = q; q = $5; t = $4 }
                 END { if (p > 0) printf "%.2f@%d", q / p, t; else print "-" }' "$LCSV")"
        done
        echo
    done
done
echo "(per thread: states(T)/states(T-1) @T, the largest T measured under the caps)"
echo "CSV: $LCSV"
