#!/bin/sh
# bench/run.sh — gpmc's performance benchmarks, measured against SPIN on the
# same state spaces (see bench/README.md). Run from anywhere: `make bench`.
#
# Environment: GPMC (default ./gpmc), RUNS (default 5: each figure is the
# median of RUNS runs), ONLY (a workload name: run just that one).
# Output: one table on stdout, bench/out/results.csv, raw logs in bench/out/.
# Exit status 1 when a workload fails or the two tools' state spaces differ.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH=$ROOT/bench
OUT=$BENCH/out
GPMC=${GPMC:-$ROOT/gpmc}
RUNS=${RUNS:-5}
ONLY=${ONLY:-}
TIME=/usr/bin/time
CSV=$OUT/results.csv

# Workloads: name, litmus/pml file stem, model, parameters. Strict rows have
# a Promela twin bench/STEM.pml and are compared with SPIN; the others
# exercise the crash-image machinery, which SPIN has no counterpart for.
WORKLOADS='
arith   arith   strict N=3,K=2
mp      mp      strict P=3,K=2
barrier barrier strict N=7,R=2
atomic  atomic  strict N=4,K=2
undo    undo    strict N=4,K=2
undo    undo    epoch  N=4,K=2
undo    undo    bepoch N=4,K=2
pmp     pmp     epoch  P=2,K=6
pmp     pmp     bepoch P=2,K=6
'

GPMC_FLAGS="--max-states 100000000"
SPIN_FLAGS="-o1 -o3 -a"
SPIN_POR_FLAGS="-a"
CC_FLAGS="-O2 -DSAFETY -DNOREDUCE -DMEMLIM=8192"
CC_POR_FLAGS="-O2 -DSAFETY -DMEMLIM=8192"
PAN_FLAGS="-m100000"

die() {
    echo "bench: $*" >&2
    exit 1
}

need_spin() {
    command -v spin >/dev/null 2>&1 && return 0
    echo "bench: installing spin" >&2
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO=sudo; fi
    $SUDO apt-get install -y -qq spin >/dev/null 2>&1 ||
        { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq spin; } ||
        die "cannot install spin (apt-get install spin)"
}

# median FILE COLUMN: the median of column COLUMN of FILE's lines.
median() {
    n=$(wc -l <"$1")
    cut -d' ' -f"$2" "$1" | sort -g | sed -n "$(((n + 1) / 2))p"
}

# timed LOG TIMES CMD...: runs CMD with stdout to LOG, appending
# "wall-seconds peak-kb cpu-seconds" to TIMES. Returns CMD's status.
timed() {
    log=$1
    times=$2
    shift 2
    st=0
    "$TIME" -f '%e %M %U %S' -o "$OUT/time.tmp" "$@" >"$log" 2>"$log.err" || st=$?
    tail -n 1 "$OUT/time.tmp" | awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' >>"$times"
    return $st
}

# Fails unless a gpmc log is a complete exploration.
gpmc_ok() {
    if grep -q '^Status incomplete' "$1"; then die "$(grep '^Status' "$1") ($1)"; fi
    grep -q '^Stats ' "$1" || die "no Stats line in $1"
}

# Prints "states transitions" of a gpmc log.
gpmc_counts() {
    awk '/^Stats /{print $5, $7}' "$1"
}

# Fails unless a pan log is a complete, error-free search.
pan_ok() {
    grep -q 'errors: 0' "$1" || die "pan found errors ($1)"
    if grep -q 'max search depth too small' "$1"; then die "pan depth limit hit ($1)"; fi
    grep -q 'states, stored' "$1" || die "cannot read $1"
}

# Prints "stored transitions vector-bytes" of a pan log.
pan_counts() {
    awk '/^State-vector/{v=$2} /states, stored/{s=$1}
         /transitions \(= stored\+matched\)/{t=$1}
         END{printf "%d %d %d\n", s, t, v}' "$1"
}

# ratio A B: A/B with two decimals, "-" when either is missing.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN{ if (a=="" || b=="" || a=="-" || b=="-" || b+0==0) print "-"; else printf "%.2f", a/b }'
}

rate() {
    awk -v n="$1" -v s="$2" 'BEGIN{ if (s+0==0) print "-"; else printf "%.0f", n/s }'
}

mb() {
    awk -v k="$1" 'BEGIN{ printf "%.0f", k/1024 }'
}

[ -x "$GPMC" ] || die "no gpmc binary at $GPMC (run make first)"
need_spin
[ -x "$TIME" ] || die "$TIME is missing (apt-get install time)"
mkdir -p "$OUT"
rm -f "$OUT"/*.log "$OUT"/*.log.err "$OUT"/*.times

cat <<EOF
gpmc benchmarks against SPIN $(spin -V | sed 's/Spin Version //; s/ --.*//'); each figure is the median of $RUNS runs of the
whole process (/usr/bin/time: wall %e, cpu %U+%S, peak RSS %M), the tools taking turns.
  gpmc:   $GPMC run bench/NAME.litmus --model MODEL $GPMC_FLAGS -D P=V ...
  spin:   spin $SPIN_FLAGS -DP=V ... bench/NAME.pml      (-o1: no dead-variable reset, -o3: no statement merging)
          gcc $CC_FLAGS -o pan pan.c
          ./pan $PAN_FLAGS
  spin+POR (SPIN's defaults, a different, reduced state space):
          spin $SPIN_POR_FLAGS -DP=V ... bench/NAME.pml; gcc $CC_POR_FLAGS -o pan pan.c; ./pan $PAN_FLAGS
  equal:  gpmc states == pan "states, stored" and gpmc transitions == pan transitions - 1
          (pan counts the initial state as a transition)

EOF

echo "workload,model,params,states,transitions,gpmc_wall_s,gpmc_cpu_s,gpmc_states_per_s,gpmc_rss_kb,gpmc_bytes_per_state,spin_states,spin_transitions,spin_vector_bytes,spin_compile_s,spin_wall_s,spin_cpu_s,spin_states_per_s,spin_rss_kb,spin_bytes_per_state,wall_ratio,cpu_ratio,rss_ratio,por_states,por_transitions,por_wall_s,por_cpu_s,por_rss_kb,equal" >"$CSV"

fmt='%-8s %-6s %-8s %8s %9s | %5s %5s %8s %5s | %5s %5s %8s %5s %5s | %5s %5s %5s | %7s %5s | %s\n'
# shellcheck disable=SC2059
printf "$fmt" "" "" "" "" "" gpmc "" "" "" "SPIN" "" "" "" "" "gpmc/SPIN" "" "" "SPIN+POR" "" ""
# shellcheck disable=SC2059
printf "$fmt" workload model params states trans wall cpu states/s MB wall cpu states/s MB cc_s wall cpu mem states wall equal

# compile DIR SPINFLAGS CCFLAGS DEFS PML: builds DIR/pan.
compile() {
    rm -rf "$1"
    mkdir -p "$1"
    # shellcheck disable=SC2086
    (cd "$1" && spin $2 $4 "$5" >spin.log 2>&1 && gcc $3 -o pan pan.c >>spin.log 2>&1) ||
        die "spin/gcc failed (see $1/spin.log)"
}

# summary TIMES: "wall peak-kb cpu" medians.
summary() {
    echo "$(median "$1" 1) $(median "$1" 2) $(median "$1" 3)"
}

echo "$WORKLOADS" | while read -r name stem model params; do
    [ -n "$name" ] || continue
    [ -z "$ONLY" ] || [ "$ONLY" = "$name" ] || continue
    tag=$name-$model
    gdefs=$(echo "$params" | tr ',' '\n' | sed 's/^/-D /' | tr '\n' ' ')
    sdefs=$(echo "$params" | tr ',' '\n' | sed 's/^/-D/' | tr '\n' ' ')
    spin=''
    ccs=-
    if [ "$model" = strict ] && [ -f "$BENCH/$stem.pml" ]; then
        spin=yes
        t0=$(date +%s.%N)
        compile "$OUT/spin-$name" "$SPIN_FLAGS" "$CC_FLAGS" "$sdefs" "$BENCH/$stem.pml"
        t1=$(date +%s.%N)
        compile "$OUT/spinpor-$name" "$SPIN_POR_FLAGS" "$CC_POR_FLAGS" "$sdefs" "$BENCH/$stem.pml"
        ccs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}')
    fi

    # The tools take turns, so both see the same background load.
    i=0
    while [ $i -lt "$RUNS" ]; do
        # shellcheck disable=SC2086
        timed "$OUT/$tag.gpmc.log" "$OUT/$tag.gpmc.times" \
            "$GPMC" run "$BENCH/$stem.litmus" --model "$model" $GPMC_FLAGS $gdefs ||
            die "gpmc failed on $tag (see $OUT/$tag.gpmc.log)"
        if [ -n "$spin" ]; then
            # shellcheck disable=SC2086
            (cd "$OUT/spin-$name" && timed "$OUT/$tag.pan.log" "$OUT/$tag.pan.times" ./pan $PAN_FLAGS) ||
                die "pan failed on $name (see $OUT/$tag.pan.log)"
            # shellcheck disable=SC2086
            (cd "$OUT/spinpor-$name" && timed "$OUT/$tag.por.log" "$OUT/$tag.por.times" ./pan $PAN_FLAGS) ||
                die "pan (POR) failed on $name (see $OUT/$tag.por.log)"
        fi
        i=$((i + 1))
    done

    gpmc_ok "$OUT/$tag.gpmc.log"
    # shellcheck disable=SC2046  # split into fields on purpose
    set -- $(gpmc_counts "$OUT/$tag.gpmc.log") $(summary "$OUT/$tag.gpmc.times")
    gs=$1 gt=$2 gsec=$3 gkb=$4 gcpu=$5
    grate=$(rate "$gs" "$gsec")
    gbps=$(awk -v k="$gkb" -v n="$gs" 'BEGIN{printf "%.0f", k*1024/n}')

    ss=- st=- sv=- ssec=- scpu=- srate=- skb=- sbps=- smb=-
    trat=- crat=- mrat=- ps=- pt=- psec=- pcpu=- pkb=- eq=-
    if [ -n "$spin" ]; then
        pan_ok "$OUT/$tag.pan.log"
        # shellcheck disable=SC2046  # split into fields on purpose
        set -- $(pan_counts "$OUT/$tag.pan.log") $(summary "$OUT/$tag.pan.times")
        ss=$1 st=$2 sv=$3 ssec=$4 skb=$5 scpu=$6
        srate=$(rate "$ss" "$ssec")
        smb=$(mb "$skb")
        sbps=$(awk -v k="$skb" -v n="$ss" 'BEGIN{printf "%.0f", k*1024/n}')
        trat=$(ratio "$gsec" "$ssec")
        crat=$(ratio "$gcpu" "$scpu")
        mrat=$(ratio "$gkb" "$skb")
        if [ "$gs" -eq "$ss" ] && [ "$gt" -eq $((st - 1)) ]; then eq=yes; else eq=NO; fi
        pan_ok "$OUT/$tag.por.log"
        # shellcheck disable=SC2046  # split into fields on purpose
        set -- $(pan_counts "$OUT/$tag.por.log") $(summary "$OUT/$tag.por.times")
        ps=$1 pt=$2 psec=$4 pkb=$5 pcpu=$6
    fi

    # shellcheck disable=SC2059
    printf "$fmt" "$name" "$model" "$params" "$gs" "$gt" "$gsec" "$gcpu" "$grate" "$(mb "$gkb")" \
        "$ssec" "$scpu" "$srate" "$smb" "$ccs" "$trat" "$crat" "$mrat" "$ps" "$psec" "$eq"
    echo "$name,$model,$(echo "$params" | tr ',' ' '),$gs,$gt,$gsec,$gcpu,$grate,$gkb,$gbps,$ss,$st,$sv,$ccs,$ssec,$scpu,$srate,$skb,$sbps,$trat,$crat,$mrat,$ps,$pt,$psec,$pcpu,$pkb,$eq" >>"$CSV"
    [ "$eq" != NO ] || echo "bench: $name: state spaces differ (gpmc $gs/$gt, pan $ss/$st)" >&2
done

rm -f "$OUT/time.tmp"
echo
echo "wall, cpu: seconds (cpu = user + sys); MB: peak RSS; gpmc/SPIN: ratios to SPIN without POR;"
echo "cc_s: spin -a + gcc for the no-POR pan (not included in SPIN's wall); SPIN+POR: its own, smaller space."
echo "CSV: $CSV"
if grep -q ',NO$' "$CSV"; then
    echo "bench: some state spaces differ between gpmc and SPIN" >&2
    exit 1
fi
