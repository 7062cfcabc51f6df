#!/bin/sh
# bench/paper.sh — the documents' claims against gpmc's timing model
# (`make paper`; specs/timing.md, "Reproducing the documents").
#
# Runs the sweeps of litmus/suite/perf at the sizes below, writes their data
# to specs/paper/*.dat, draws each sweep as specs/paper/*.svg with gnuplot,
# and rewrites the claims table of specs/timing.md (between the
# `<!-- paper:begin -->` and `<!-- paper:end -->` lines) from the template
# bench/paper/claims.md.in, whose @NAME@ fields this script computes.
# Every run is deterministic: the same build gives the same table.
# Environment: GPMC (default ./gpmc). Takes a few minutes on two cores.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GPMC=${GPMC:-$ROOT/gpmc}
PERF=$ROOT/litmus/suite/perf
OUT=$ROOT/specs/paper
SPEC=$ROOT/specs/timing.md
TEMPLATE=$ROOT/bench/paper/claims.md.in
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT"

# The sizes (specs/timing.md says why each is what it is).
BTREE_SIZE="-D TPB=128 -D LEVELS=4 -D WORK=16"
BTREE_CTAS="10 20 40 80"
LBM_SIZE="-D TPB=32 -D Q=6 -D FLOPS=20"
LBM_CTAS="320 640 1024"
UNDO_SIZE="-D CTAS=40 -D TPB=128"
UNDO_ITEMS="4 8 16 32 64"
MM_SIZE="-D RB=4 -D TILES=2"
MM_N="16 32 64"

timed() {  # out-file args...
    out=$1
    shift
    nice -n 10 "$GPMC" time "$@" > "$out" || {
        echo "paper: gpmc time $* failed" >&2
        cat "$out" >&2
        exit 1
    }
}

# Metric column COL of TEST under MODEL in a `gpmc time` table.
get() {  # file test model col
    awk -v t="$2" -v m="$3" -v c="$4" '$1 == t && $2 == m { print $c }' "$1"
}

# a / b with DIGITS decimals.
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%.*f", d, a / b }'; }
# (a / b - 1) as a signed percentage.
over() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", 100 * (a / b - 1) }'; }
yes_if() { if awk "BEGIN { exit !($1) }"; then echo yes; else echo no; fi; }

sub=$tmp/fields
: > "$sub"
field() { printf '%s\t%s\n' "$1" "$2" >> "$sub"; }

# ---- Gope et al.: B+tree, CTA vs kernel scope, over the tree size --------
printf '# ctas wg_scoped kr_scoped wg_bscoped kr_bscoped wg_hw kr_hw (overhead %%)\n' > "$OUT/btree.dat"
for c in $BTREE_CTAS; do
    timed "$tmp/bt$c" "$PERF"/btree+*.litmus -D CTAS="$c" $BTREE_SIZE \
        --model scoped,bscoped,hw
    line=$c
    for m in scoped bscoped hw; do
        b=$(get "$tmp/bt$c" BTREE+base $m 3)
        for v in wg kr; do
            x=$(get "$tmp/bt$c" "BTREE+$v" $m 3)
            line="$line $(awk -v a="$x" -v b="$b" 'BEGIN { printf "%.2f", 100 * (a / b - 1) }')"
        done
    done
    echo "$line" >> "$OUT/btree.dat"
done
bt=$tmp/bt80
b=$(get "$bt" BTREE+base scoped 3)
wg=$(get "$bt" BTREE+wg scoped 3)
kr=$(get "$bt" BTREE+kr scoped 3)
bwg=$(get "$bt" BTREE+wg bscoped 3)
bkr=$(get "$bt" BTREE+kr bscoped 3)
bb=$(get "$bt" BTREE+base bscoped 3)
field GOPE_WG "$(over "$wg" "$b")"
field GOPE_KR "$(over "$kr" "$b")"
field GOPE_KR_DIR "$(yes_if "$kr / $b - 1 >= 0.25 && $kr > $wg")"
field GOPE_WG_DIR "$(yes_if "$wg > $b && $wg < $kr")"
all_kr_gt=yes
while read -r c s1 s2 b1 b2 h1 h2; do
    case $c in \#*) continue ;; esac
    for p in "$s1 $s2" "$b1 $b2" "$h1 $h2"; do
        set -- $p
        [ "$(yes_if "$2 > $1")" = yes ] || all_kr_gt=no
    done
done < "$OUT/btree.dat"
field GOPE_EVERY "$all_kr_gt"
field GOPE_WG_RANGE "$(awk '!/^#/ { printf "%s%.1f%%", (NR > 2 ? " / " : ""), $2 }' "$OUT/btree.dat")"
field GOPE_KR_RANGE "$(awk '!/^#/ { printf "%s%.1f%%", (NR > 2 ? " / " : ""), $3 }' "$OUT/btree.dat")"
field GOPE_FLAT "$(awk '!/^#/ { if (NR == 2) { w0 = $2; k0 = $3 } w = $2; k = $3 }
    END { print (w - w0 < 5 && w < 5 && k > k0) ? "yes" : "no" }' "$OUT/btree.dat")"
field GOPE_SB_WG "$(over "$bwg" "$bb") vs $(over "$wg" "$b")"
field GOPE_SB_KR "$(over "$bkr" "$bb") vs $(over "$kr" "$b")"
field GOPE_SB_DIR "$(yes_if "($wg / $b) / ($bwg / $bb) < 1.05")"

# ---- Lin et al.: lbm, persistency models and their implementations -------
printf '# ctas wt clwb ctawt ctaclwb epoch kernel idem undo (cycles / base, hw)\n' > "$OUT/lbm.dat"
for c in $LBM_CTAS; do
    timed "$tmp/lbm$c" "$PERF"/lbm+*.litmus -D CTAS="$c" $LBM_SIZE --model hw
    b=$(get "$tmp/lbm$c" LBM+base hw 3)
    line=$c
    for v in wt clwb ctawt ctaclwb epoch kernel idem undo; do
        line="$line $(ratio "$(get "$tmp/lbm$c" "LBM+$v" hw 3)" "$b" 3)"
    done
    echo "$line" >> "$OUT/lbm.dat"
done
timed "$tmp/lbms" "$PERF"/lbm+base.litmus "$PERF"/lbm+epoch.litmus \
    "$PERF"/lbm+undo.litmus "$PERF"/lbm+idem.litmus -D CTAS=1024 $LBM_SIZE \
    --model scoped
L=$tmp/lbm1024
b=$(get "$L" LBM+base hw 3)
for v in wt clwb ctawt ctaclwb epoch kernel idem undo; do
    eval "lin_$v=$(get "$L" "LBM+$v" hw 3)"
    field "LIN_$(echo "$v" | tr a-z A-Z)" "$(over "$(get "$L" "LBM+$v" hw 3)" "$b")"
done
strict=$lin_wt
[ "$lin_clwb" -lt "$strict" ] && strict=$lin_clwb
cta=$lin_ctaclwb
[ "$lin_ctawt" -lt "$cta" ] && cta=$lin_ctawt
field LIN_STRICT_DIR "$(yes_if "$strict > $cta && $strict > $lin_epoch")"
field LIN_KERNEL_DIR "$(yes_if "$cta > $lin_kernel")"
field LIN_KERNEL_PBAR "$(yes_if "$lin_epoch > $lin_kernel")"
field LIN_WT_DIR "$(yes_if "$lin_wt < $lin_clwb && $lin_ctaclwb < $lin_ctawt")"
sb=$(get "$tmp/lbms" LBM+base scoped 3)
su=$(get "$tmp/lbms" LBM+undo scoped 3)
si=$(get "$tmp/lbms" LBM+idem scoped 3)
se=$(get "$tmp/lbms" LBM+epoch scoped 3)
field LIN_UNDO_S "$(over "$su" "$sb")"
field LIN_IDEM_S "$(over "$si" "$sb")"
field LIN_UNDO_E "$(over "$su" "$se")"
field LIN_IDEM_DIR "$(yes_if "($si - $sb) < 0.5 * ($su - $sb) && ($lin_idem - $b) < 0.5 * ($lin_undo - $b)")"
field LIN_WAVES "$(awk '!/^#/ { printf "%s%s: %.2f / %.2f", (NR > 2 ? "; " : ""), $1, $6, $7 }' "$OUT/lbm.dat")"

# ---- AGPM: the log on the non-temporal (st.wt) or cached (clwb) path -----
printf '# items wt clwb (cycles / base, hw)\n' > "$OUT/undo.dat"
wins_wt=0
wins_clwb=0
for i in $UNDO_ITEMS; do
    timed "$tmp/u$i" "$PERF"/undo+*.litmus $UNDO_SIZE -D ITEMS="$i" --model hw
    b=$(get "$tmp/u$i" UNDO+base hw 3)
    w=$(get "$tmp/u$i" UNDO+wt hw 3)
    c=$(get "$tmp/u$i" UNDO+clwb hw 3)
    echo "$i $(ratio "$w" "$b" 3) $(ratio "$c" "$b" 3)" >> "$OUT/undo.dat"
    if [ "$w" -lt "$c" ]; then wins_wt=$((wins_wt + 1)); else wins_clwb=$((wins_clwb + 1)); fi
done
field AGPM_SWEEP "$(awk '!/^#/ { printf "%s%s: %s / %s", (NR > 2 ? "; " : ""), $1, $2, $3 }' "$OUT/undo.dat")"
field AGPM_DIR "$(yes_if "$wins_wt > 0 && $wins_clwb > 0")"
field AGPM_BEST "$(awk '!/^#/ { a = $2 < $3 ? $2 : $3; b = $2 < $3 ? $3 : $2; s = 100 * (1 - a / b); if (s > m) m = s } END { printf "%.1f%%", m }' "$OUT/undo.dat")"

# ---- Elnawawy et al.: NVM writes of undo logging and Recompute ------------
printf '# n undo_epoch recompute_epoch undo_hw recompute_hw (NVM writes / base)\n' > "$OUT/mm.dat"
for n in $MM_N; do
    timed "$tmp/mm$n" "$PERF"/mm+*.litmus -D N="$n" $MM_SIZE --model epoch,hw
    line=$n
    for m in epoch hw; do
        b=$(get "$tmp/mm$n" MM+base $m 8)
        line="$line $(ratio "$(get "$tmp/mm$n" MM+undo $m 8)" "$b") $(ratio "$(get "$tmp/mm$n" MM+recompute $m 8)" "$b")"
    done
    echo "$line" >> "$OUT/mm.dat"
done
M=$tmp/mm64
mb=$(get "$M" MM+base epoch 8)
mu=$(get "$M" MM+undo epoch 8)
mr=$(get "$M" MM+recompute epoch 8)
hb=$(get "$M" MM+base hw 8)
field MM_UNDO "$(ratio "$mu" "$mb")x (epoch), $(ratio "$(get "$M" MM+undo hw 8)" "$hb")x (hw)"
field MM_REC "$(ratio "$mr" "$mb")x (epoch), $(ratio "$(get "$M" MM+recompute hw 8)" "$hb")x (hw)"
field MM_DIR "$(yes_if "$mu >= 1.8 * $mb && $mr <= 1.2 * $mb && $mr >= $mb")"
field MM_CYC "$(over "$(get "$M" MM+undo epoch 3)" "$(get "$M" MM+base epoch 3)") / $(over "$(get "$M" MM+recompute epoch 3)" "$(get "$M" MM+base epoch 3)")"

# ---- Monotonicity: no variant faster than its family's baseline -----------
slow=""
for f in "$tmp"/bt80 "$tmp"/lbm320 "$tmp"/lbm640 "$tmp"/lbm1024 "$tmp"/lbms "$tmp"/u* "$tmp"/mm*; do
    slow="$slow$(awk '$1 ~ /\+base$/ { b[$2] = $3 } $1 !~ /\+base$/ && NR > 1 { v[$1 " " $2] = $3 }
        END { for (k in v) { split(k, a, " "); if (v[k] < b[a[2]]) printf "%s %s; ", a[1], a[2] } }' "$f")"
done
field MONO_DIR "$( [ -z "$slow" ] && echo yes || echo no)"
field MONO_LIST "$( [ -z "$slow" ] && echo "none" || echo "$slow")"

# ---- plots ---------------------------------------------------------------
gnuplot <<GP
set terminal svg size 640,400 font "sans,12"
set key top left
set grid
set output "$OUT/btree.svg"
set title "B+tree insertion: persist-barrier overhead over no barrier (Gope et al.)"
set xlabel "CTAs (one subtree each)"
set ylabel "overhead (%)"
plot "$OUT/btree.dat" using 1:2 with linespoints title "pbar.wg, scoped", \
     "" using 1:3 with linespoints title "pbar.kr, scoped", \
     "" using 1:4 with linespoints title "pbar.wg, bscoped", \
     "" using 1:5 with linespoints title "pbar.kr, bscoped", \
     "" using 1:6 with linespoints title "pbar.wg, hw", \
     "" using 1:7 with linespoints title "pbar.kr, hw"
set output "$OUT/lbm.svg"
set title "lbm: cycles over no persistency, hw (Lin et al.)"
set xlabel "CTAs (640 resident at once)"
set ylabel "cycles / LBM+base"
set logscale y
plot "$OUT/lbm.dat" using 1:2 with linespoints title "strict, st.wt", \
     "" using 1:3 with linespoints title "strict, clwb", \
     "" using 1:4 with linespoints title "CTA epoch, st.wt", \
     "" using 1:5 with linespoints title "CTA epoch, clwb", \
     "" using 1:6 with linespoints title "CTA epoch, pbar.wg", \
     "" using 1:7 with linespoints title "kernel epoch", \
     "" using 1:8 with linespoints title "idempotent", \
     "" using 1:9 with linespoints title "CTA undo log"
unset logscale y
set output "$OUT/undo.svg"
set title "Undo log path: cycles over in-place updates, hw (AGPM)"
set xlabel "items per thread"
set ylabel "cycles / UNDO+base"
set logscale x 2
plot "$OUT/undo.dat" using 1:2 with linespoints title "log by st.wt", \
     "" using 1:3 with linespoints title "log by st + clwb"
unset logscale x
set output "$OUT/mm.svg"
set title "Tiled MM: NVM writes over the baseline (Elnawawy et al.)"
set xlabel "matrix size N"
set ylabel "NVM writes / MM+base"
plot "$OUT/mm.dat" using 1:2 with linespoints title "undo log, epoch", \
     "" using 1:3 with linespoints title "Recompute, epoch", \
     "" using 1:4 with linespoints title "undo log, hw", \
     "" using 1:5 with linespoints title "Recompute, hw"
GP

# ---- the table -------------------------------------------------------------
awk -F '\t' 'NR == FNR { val[$1] = $2; next }
    { line = $0
      while (match(line, /@[A-Z_]+@/)) {
          k = substr(line, RSTART + 1, RLENGTH - 2)
          if (!(k in val)) { print "paper: no value for " k > "/dev/stderr"; exit 1 }
          line = substr(line, 1, RSTART - 1) val[k] substr(line, RSTART + RLENGTH)
      }
      print line }' "$sub" "$TEMPLATE" > "$tmp/table"
awk -v table="$tmp/table" '
    /^<!-- paper:begin -->$/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
    /^<!-- paper:end -->$/ { skip = 0 }
    !skip { print }' "$SPEC" > "$tmp/spec"
grep -q '^<!-- paper:end -->$' "$tmp/spec" || { echo "paper: no paper markers in $SPEC" >&2; exit 1; }
cp "$tmp/spec" "$SPEC"
echo "paper: wrote $SPEC and $OUT/*.svg"
