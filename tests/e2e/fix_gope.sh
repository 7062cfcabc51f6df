#!/bin/sh
# gpmc fix on Gope et al.'s B+tree seeds (litmus/suite/seeds/gope-tree*):
# a thread-scope barrier over a CTA's leaves is widened to pbar.wg, a
# CTA-scope barrier before the root to pbar.kr; each fix is the robust
# gope-tree.litmus, and the cheapest of its search.
. "$(dirname "$0")/lib.sh"
S=$ROOT/litmus/suite/seeds
canon "$S/gope-tree.litmus" >"$T/tree"

# ---- Gope-Tree-wi: pbar over the leaves of several threads -------------------
cp "$S/gope-tree-wi.litmus" "$T/wi.litmus"
expect_rc 0 "$GPMC" fix "$T/wi.litmus" --model scoped,bscoped,hw --show 1
assert_grep "wi: the level-1 check fails under scoped" \
    "^  fails: check 0 (crash ~exists (in0 != 0 && (leaf0 == 0 || leaf1 == 0) || in1 != 0 && (leaf2 == 0 || leaf3 == 0))) is No under scoped$" \
    "$T/out"
assert_grep "wi: search" \
    "^Search Gope-Tree-wi found 5 fixes of size 1 among 65 candidates$" "$T/out"
sed -n '/^Fix 1:/,/^---/p' "$T/out" | sed '$d' >"$T/fix1"
cat >"$T/want" <<'OUT'
Fix 1: 1 change, cycles scoped 375 bscoped 122 hw 2898 (total 3395, -1400 against the original)
  `pbar` -> `pbar.wg` at line 40 `pbar` (kernel insert, every thread body)
OUT
assert_same "wi: fix 1" "$T/fix1" "$T/want"
grep '^Fixed ' "$T/out" | cut -d' ' -f3- >"$T/fixed"
printf '1 1 3395\n2 1 3684\n3 1 3684\n4 1 5051\n5 1 5054\n' \
    >"$T/want"
assert_same "wi: fixes and their cycles" "$T/fixed" "$T/want"
# every thread body's pbar is widened: the diff changes four lines
assert_eq "wi: lines changed" "$(grep -c '^+    pbar.wg$' "$T/out")" 4
expect_rc 0 "$GPMC" fix "$T/wi.litmus" --model scoped,bscoped,hw --apply 1
canon "$T/wi.litmus" >"$T/a"
assert_same "wi fixed and gope-tree.litmus" "$T/a" "$T/tree"

# ---- Gope-Tree-wg-root: pbar.wg before a root over two CTAs -------------------
cp "$S/gope-tree-wg-root.litmus" "$T/root.litmus"
expect_rc 0 "$GPMC" fix "$T/root.litmus" --model scoped,bscoped,hw --show 1
assert_grep "wg-root: the level-2 check fails under scoped" \
    "^  fails: check 1 (crash ~exists (root != 0 && (in0 == 0 || in1 == 0))) is No under scoped$" \
    "$T/out"
assert_grep "wg-root: fix 1 widens the second barrier" \
    '^  `pbar.wg` -> `pbar.kr` at line 43 `pbar.wg` (kernel insert, every thread body)$' \
    "$T/out"
assert_grep "wg-root: search" \
    "^Search Gope-Tree-wg-root found 6 fixes of size 1 among 149 candidates$" \
    "$T/out"
assert_grep "wg-root: the cheapest fix costs nothing more" \
    "^Fixed Gope-Tree-wg-root 1 1 3395$" "$T/out"
expect_rc 0 "$GPMC" fix "$T/root.litmus" --model scoped,bscoped,hw --apply 1
canon "$T/root.litmus" >"$T/a"
assert_same "wg-root fixed and gope-tree.litmus" "$T/a" "$T/tree"
# (run exits 1: the file still expects the bug under scoped, bscoped, hw)
expect_rc 1 "$GPMC" run "$T/root.litmus" --model scoped,bscoped,hw --naive
grep '^Verdict ' "$T/out" | cut -d' ' -f3-5 >"$T/v"
printf 'scoped 0 Ok\nscoped 1 Ok\nbscoped 0 Ok\nbscoped 1 Ok\nhw 0 Ok\nhw 1 Ok\n' \
    >"$T/want"
assert_same "wg-root fixed, under --naive" "$T/v" "$T/want"
