#!/bin/sh
# bench/time.sh — how long `gpmc time` takes at the documents' sizes (issue
# 25): each row times one workload under one model, single run, CPU time
# (user + sys) and peak RSS from /usr/bin/time. Part of `make bench`; see
# bench/README.md, "Timing runs".
#
# Rows: bench/ctas.litmus (one-thread CTAs: dispatch and joins) at 10^5 and
# 10^6 CTAs, and litmus/suite/perf/lbm+base.litmus with Parboil lbm's shape
# (120-thread CTAs, 19 values per cell) at 800 CTAs, 1,800 CTAs and the
# document's 120 x 120 x 150 grid: 18,000 CTAs of 120 threads (2.16 M
# threads). Environment: GPMC (default ./gpmc), FULL (1: include the
# 18,000-CTA row, about 4 CPU minutes and 4 GB; default 1), MODEL (hw).
# Output: a table on stdout and bench/out/time.csv.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/bench/out
GPMC=${GPMC:-$ROOT/gpmc}
FULL=${FULL:-1}
MODEL=${MODEL:-hw}
mkdir -p "$OUT"
CSV=$OUT/time.csv
echo "workload,params,model,cycles,cpu_s,rss_mb,status" > "$CSV"
printf '%-10s %-44s %-6s %12s %8s %8s\n' workload params model cycles cpu_s rss_mb

row() {  # name file params...
    name=$1 file=$2
    shift 2
    log=$OUT/time-$name-$(echo "$*" | tr ' =' '_-').log
    st=ok
    /usr/bin/time -f '%U %S %M' -o "$log.t" "$GPMC" time "$file" "$@" \
        --model "$MODEL" --csv > "$log" 2>&1 || st=fail
    cyc=$(awk -F, 'NR == 2 { print $3 }' "$log")
    cpu=$(awk '{ printf "%.1f", $1 + $2 }' "$log.t")
    rss=$(awk '{ printf "%d", $3 / 1024 }' "$log.t")
    printf '%-10s %-44s %-6s %12s %8s %8s\n' "$name" "$*" "$MODEL" "${cyc:--}" \
        "$cpu" "$rss"
    echo "$name,$*,$MODEL,${cyc:-},$cpu,$rss,$st" >> "$CSV"
    [ "$st" = ok ] || { cat "$log" >&2; exit 1; }
}

LBM="-D TPB=120 -D Q=19 -D FLOPS=20"
row ctas "$ROOT/bench/ctas.litmus" -D CTAS=100000
row ctas "$ROOT/bench/ctas.litmus" -D CTAS=1000000
row lbm "$ROOT/litmus/suite/perf/lbm+base.litmus" -D CTAS=800 $LBM
row lbm "$ROOT/litmus/suite/perf/lbm+base.litmus" -D CTAS=1800 $LBM
if [ "$FULL" = 1 ]; then
    row lbm "$ROOT/litmus/suite/perf/lbm+base.litmus" -D CTAS=18000 $LBM
fi
