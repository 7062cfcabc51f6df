#!/bin/sh
# bench/run.sh — gpmc against SPIN on the same state spaces, per state (see
# bench/README.md). Part of `make bench`; runs alone too.
#
# Every workload with a Promela twin is explored by gpmc in the mode whose
# state space equals the twin's (--no-reduce for the strict programs,
# --naive for P01) with --threads 1 and --threads 2 (the default, flat
# state store) and with --threads 1 --state tree, and by SPIN without
# partial-order reduction; the ratios of CPU time and peak RSS per state
# are taken from medians measured in this run, the tools taking turns. The
# same programs are also explored once in gpmc's default mode (every
# reduction) and by SPIN with its partial-order reduction: two different,
# reduced state spaces, shown for scale.
#
# Environment: GPMC (default ./gpmc), RUNS (default 3: each figure is the
# median of RUNS runs), ONLY (a workload name: run just that one), P01
# (default "5 6": threads and stores per thread of the P01 workload).
# Output: one table on stdout, bench/out/results.csv, raw logs in bench/out/.
# Exit status 1 when a workload fails or the two tools' state spaces differ.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH=$ROOT/bench
OUT=$BENCH/out
GPMC=${GPMC:-$ROOT/gpmc}
RUNS=${RUNS:-3}
ONLY=${ONLY:-}
P01=${P01:-"5 6"}
TIME=/usr/bin/time
CSV=$OUT/results.csv

# Workloads: name, litmus/pml file stem, model, parameters, the gpmc mode
# of the twin's state space. The strict rows and p01 have a Promela twin
# and are compared with SPIN; undo and pmp exercise the crash-image
# machinery, which SPIN has no counterpart for. p01's files are generated
# by bench/p01.sh (T threads, S stores each) into bench/out/.
set -- $P01
WORKLOADS="
arith   arith   strict N=3,K=2 no-reduce
mp      mp      strict P=3,K=2 no-reduce
barrier barrier strict N=7,R=2 no-reduce
atomic  atomic  strict N=4,K=2 no-reduce
p01     p01-$1-$2 epoch T=$1,S=$2 naive
undo    undo    strict N=4,K=2 no-reduce
undo    undo    epoch  N=4,K=2 no-reduce
undo    undo    bepoch N=4,K=2 no-reduce
pmp     pmp     epoch  P=2,K=6 no-reduce
pmp     pmp     bepoch P=2,K=6 no-reduce
"

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
    "$TIME" -f '%e %M %U %S' -o "$OUT/time.tmp" nice -n 10 "$@" >"$log" 2>"$log.err" || st=$?
    tail -n 1 "$OUT/time.tmp" | awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' >>"$times"
    return $st
}

# gpmc exits 1 when a check fails; only 2 and above are failures here.
gpmc_timed() {
    timed "$@" || [ $? -eq 1 ]
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

mb() {
    awk -v k="$1" 'BEGIN{ if (k=="-") print "-"; else printf "%.0f", k/1024 }'
}

# per_state KB STATES: bytes per state.
per_state() {
    awk -v k="$1" -v n="$2" 'BEGIN{ if (k=="-" || n+0==0) print "-"; else printf "%.0f", k*1024/n }'
}

# summary TIMES: "wall peak-kb cpu" medians.
summary() {
    echo "$(median "$1" 1) $(median "$1" 2) $(median "$1" 3)"
}

# compile DIR SPINFLAGS CCFLAGS DEFS PML: builds DIR/pan.
compile() {
    rm -rf "$1"
    mkdir -p "$1"
    # shellcheck disable=SC2086
    (cd "$1" && spin $2 $4 "$5" >spin.log 2>&1 && gcc $3 -o pan pan.c >>spin.log 2>&1) ||
        die "spin/gcc failed (see $1/spin.log)"
}

[ -x "$GPMC" ] || die "no gpmc binary at $GPMC (run make first)"
command -v spin >/dev/null 2>&1 || die "spin is missing (make bench installs it)"
[ -x "$TIME" ] || die "$TIME is missing (make bench installs it)"
mkdir -p "$OUT"
rm -f "$OUT"/*.log "$OUT"/*.log.err "$OUT"/*.times
set -- $P01
sh "$BENCH/p01.sh" "$1" "$2" "$OUT"

cat <<EOF
gpmc against SPIN $(spin -V | sed 's/Spin Version //; s/ --.*//') on equal state spaces; each figure is the median of $RUNS runs of
the whole process (/usr/bin/time: wall %e, cpu %U+%S, peak RSS %M), the tools taking turns.
  gpmc:   $GPMC run FILE.litmus --model MODEL --MODE --threads 1|2 $GPMC_FLAGS -D P=V ...
          (the flat state store; tree: the same with --threads 1 --state tree)
          (MODE no-reduce: strict persists each store at once, so the state is the threads
          and memory, as in Promela; naive: P01's twin, bench/p01.sh $P01)
  spin:   spin $SPIN_FLAGS -DP=V ... FILE.pml; gcc $CC_FLAGS -o pan pan.c; ./pan $PAN_FLAGS
  reduced, for scale: gpmc in its default mode (every reduction); SPIN with its defaults
          (spin $SPIN_POR_FLAGS; gcc $CC_POR_FLAGS): two different, smaller state spaces
  equal:  gpmc states == pan "states, stored", gpmc transitions == pan transitions - 1

EOF

echo "workload,model,params,mode,states,transitions,gpmc1_cpu_s,gpmc1_rss_kb,gpmc1_bytes_per_state,gpmc2_wall_s,gpmc2_cpu_s,gpmc2_rss_kb,spin_states,spin_transitions,spin_vector_bytes,spin_compile_s,spin_cpu_s,spin_rss_kb,spin_bytes_per_state,cpu1_ratio,rss1_ratio,cpu2_ratio,rss2_ratio,reduced_states,reduced_cpu_s,por_states,por_cpu_s,equal,tree_cpu_s,tree_rss_kb,tree_cpu_ratio,tree_rss_ratio" >"$CSV"

fmt='%-8s %-6s %-8s %9s %9s | %6s %5s %4s | %5s %6s %5s | %6s %5s %4s %5s | %5s %5s %5s %5s | %6s %5s %5s %5s | %8s %5s | %7s %5s | %s\n'
# shellcheck disable=SC2059
printf "$fmt" "" "" "" "" "" "gpmc 1 thread" "" "" "gpmc 2 threads" "" "" "SPIN (no POR)" "" "" "" "gpmc/SPIN" "" "" "" "tree store" "" "/SPIN" "" "gpmc reduced" "" "SPIN POR" "" ""
# shellcheck disable=SC2059
printf "$fmt" workload model params states trans cpu MB B/st wall cpu MB cpu MB B/st cc_s cpu1 mem1 cpu2 mem2 cpu MB cpu mem states cpu states cpu equal

echo "$WORKLOADS" | while read -r name stem model params mode; do
    [ -n "$name" ] || continue
    [ -z "$ONLY" ] || [ "$ONLY" = "$name" ] || continue
    tag=$name-$model
    if [ "$name" = p01 ]; then
        dir=$OUT gdefs="" sdefs=""
    else
        dir=$BENCH
        gdefs=$(echo "$params" | tr ',' '\n' | sed 's/^/-D /' | tr '\n' ' ')
        sdefs=$(echo "$params" | tr ',' '\n' | sed 's/^/-D/' | tr '\n' ' ')
    fi
    spin=''
    ccs=-
    if [ -f "$dir/$stem.pml" ]; then
        spin=yes
        t0=$(date +%s.%N)
        compile "$OUT/spin-$name" "$SPIN_FLAGS" "$CC_FLAGS" "$sdefs" "$dir/$stem.pml"
        t1=$(date +%s.%N)
        compile "$OUT/spinpor-$name" "$SPIN_POR_FLAGS" "$CC_POR_FLAGS" "$sdefs" "$dir/$stem.pml"
        ccs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}')
    fi

    # The tools take turns, so both see the same background load.
    i=0
    while [ $i -lt "$RUNS" ]; do
        for th in 1 2; do
            # shellcheck disable=SC2086
            gpmc_timed "$OUT/$tag.gpmc$th.log" "$OUT/$tag.gpmc$th.times" \
                "$GPMC" run "$dir/$stem.litmus" --model "$model" "--$mode" \
                --threads $th $GPMC_FLAGS $gdefs ||
                die "gpmc failed on $tag (see $OUT/$tag.gpmc$th.log)"
        done
        # shellcheck disable=SC2086
        gpmc_timed "$OUT/$tag.tree.log" "$OUT/$tag.tree.times" \
            "$GPMC" run "$dir/$stem.litmus" --model "$model" "--$mode" \
            --threads 1 --state tree $GPMC_FLAGS $gdefs ||
            die "gpmc failed on $tag (see $OUT/$tag.tree.log)"
        if [ -n "$spin" ]; then
            # shellcheck disable=SC2086
            (cd "$OUT/spin-$name" && timed "$OUT/$tag.pan.log" "$OUT/$tag.pan.times" ./pan $PAN_FLAGS) ||
                die "pan failed on $name (see $OUT/$tag.pan.log)"
        fi
        i=$((i + 1))
    done
    # shellcheck disable=SC2086
    gpmc_timed "$OUT/$tag.red.log" "$OUT/$tag.red.times" \
        "$GPMC" run "$dir/$stem.litmus" --model "$model" --threads 1 $GPMC_FLAGS $gdefs ||
        die "gpmc failed on $tag (see $OUT/$tag.red.log)"
    if [ -n "$spin" ]; then
        # shellcheck disable=SC2086
        (cd "$OUT/spinpor-$name" && timed "$OUT/$tag.por.log" "$OUT/$tag.por.times" ./pan $PAN_FLAGS) ||
            die "pan (POR) failed on $name (see $OUT/$tag.por.log)"
    fi

    for f in gpmc1 gpmc2 tree; do gpmc_ok "$OUT/$tag.$f.log"; done
    gpmc_ok "$OUT/$tag.red.log"
    [ "$(gpmc_counts "$OUT/$tag.gpmc1.log")" = "$(gpmc_counts "$OUT/$tag.gpmc2.log")" ] ||
        die "$tag: 1 and 2 threads count differently"
    [ "$(gpmc_counts "$OUT/$tag.gpmc1.log")" = "$(gpmc_counts "$OUT/$tag.tree.log")" ] ||
        die "$tag: the flat and tree stores count differently"
    # shellcheck disable=SC2046  # split into fields on purpose
    set -- $(gpmc_counts "$OUT/$tag.gpmc1.log") $(summary "$OUT/$tag.gpmc1.times") \
        $(summary "$OUT/$tag.gpmc2.times")
    gs=$1 gt=$2 g1kb=$4 g1cpu=$5 g2sec=$6 g2kb=$7 g2cpu=$8
    g1bps=$(per_state "$g1kb" "$gs")
    # shellcheck disable=SC2046
    set -- $(gpmc_counts "$OUT/$tag.red.log") $(summary "$OUT/$tag.red.times")
    rs=$1 rcpu=$5
    # shellcheck disable=SC2046
    set -- $(summary "$OUT/$tag.tree.times")
    tkb=$2 tcpu=$3

    ss=- st=- sv=- scpu=- skb=- sbps=-
    c1=- m1=- c2=- m2=- ps=- pcpu=- eq=- ct=- mt=-
    if [ -n "$spin" ]; then
        pan_ok "$OUT/$tag.pan.log"
        # shellcheck disable=SC2046  # split into fields on purpose
        set -- $(pan_counts "$OUT/$tag.pan.log") $(summary "$OUT/$tag.pan.times")
        ss=$1 st=$2 sv=$3 skb=$5 scpu=$6
        sbps=$(per_state "$skb" "$ss")
        c1=$(ratio "$g1cpu" "$scpu")
        m1=$(ratio "$g1kb" "$skb")
        c2=$(ratio "$g2cpu" "$scpu")
        m2=$(ratio "$g2kb" "$skb")
        ct=$(ratio "$tcpu" "$scpu")
        mt=$(ratio "$tkb" "$skb")
        if [ "$gs" -eq "$ss" ] && [ "$gt" -eq $((st - 1)) ]; then eq=yes; else eq=NO; fi
        pan_ok "$OUT/$tag.por.log"
        # shellcheck disable=SC2046  # split into fields on purpose
        set -- $(pan_counts "$OUT/$tag.por.log") $(summary "$OUT/$tag.por.times")
        ps=$1 pcpu=$6
    fi

    # shellcheck disable=SC2059
    printf "$fmt" "$name" "$model" "$params" "$gs" "$gt" "$g1cpu" "$(mb "$g1kb")" "$g1bps" \
        "$g2sec" "$g2cpu" "$(mb "$g2kb")" "$scpu" "$(mb "$skb")" "$sbps" "$ccs" \
        "$c1" "$m1" "$c2" "$m2" "$tcpu" "$(mb "$tkb")" "$ct" "$mt" "$rs" "$rcpu" "$ps" "$pcpu" "$eq"
    echo "$name,$model,$(echo "$params" | tr ',' ' '),$mode,$gs,$gt,$g1cpu,$g1kb,$g1bps,$g2sec,$g2cpu,$g2kb,$ss,$st,$sv,$ccs,$scpu,$skb,$sbps,$c1,$m1,$c2,$m2,$rs,$rcpu,$ps,$pcpu,$eq,$tcpu,$tkb,$ct,$mt" >>"$CSV"
    [ "$eq" != NO ] || echo "bench: $name: state spaces differ (gpmc $gs/$gt, pan $ss/$st)" >&2
done

rm -f "$OUT/time.tmp"
echo
echo "cpu: seconds (user + sys); wall: seconds; MB: peak RSS; B/st: peak RSS per state;"
echo "gpmc/SPIN: cpu and peak RSS of gpmc with 1 and 2 threads over SPIN's (no POR); tree store: gpmc"
echo "with --threads 1 --state tree, and over SPIN's; cc_s: spin -a + gcc."
echo "CSV: $CSV"
if grep -q ',NO$' "$CSV"; then
    echo "bench: some state spaces differ between gpmc and SPIN" >&2
    exit 1
fi
