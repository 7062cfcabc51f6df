#!/bin/sh
# gpmc tune on Gope et al.'s B+tree: a kernel-scope barrier over one CTA's
# leaves weakens to pbar.wg, not to pbar (the leaves are CTA-local, written
# by several threads); the barrier before the root needs pbar.kr; in
# Alg. 2 every barrier is necessary, each with the witness that breaks
# without it. A test that fails is refused; a spent budget is reported.
. "$(dirname "$0")/lib.sh"
E=$ROOT/tests/e2e/fix
S=$ROOT/litmus/suite

# ---- Gope-Tree+kr: pbar.kr at both levels ---------------------------------------
cp "$E/gope-tree-kr.litmus" "$T/kr.litmus"
expect_rc 0 "$GPMC" tune "$T/kr.litmus" --model scoped,bscoped,hw
sed -n '/^Greedy/,/^Exact/p' "$T/out" >"$T/greedy"
cat >"$T/want" <<'OUT'
Greedy, in program order (instruction 1 first), one step at a time:
  1. `pbar.kr` -> `pbar.wg` at line 21 `pbar.kr` (kernel insert, every thread body): every check holds; cycles 3395 -> 3395 (saves 0)
  2. `pbar.wg` -> `pbar` at line 21 `pbar.kr` (kernel insert, every thread body): check 0 (crash ~exists (in0 != 0 && (leaf0 == 0 || leaf1 == 0) || in1 != 0 && (leaf2 == 0 || leaf3 == 0))) is No under scoped
  3. `pbar.kr` -> `pbar.wg` at line 24 `pbar.kr` (kernel insert, every thread body): check 1 (crash ~exists (root != 0 && (in0 == 0 || in1 == 0))) is No under scoped
Exact: the greedy result is the cheapest correct among the 16 combinations (7 cheaper ones checked)
OUT
assert_same "Gope-Tree+kr greedy steps" "$T/greedy" "$T/want"
grep '^Necessary \|^Tuned ' "$T/out" >"$T/lines"
cat >"$T/want" <<'OUT'
Necessary Gope-Tree+kr 21 pbar.wg pbar scoped
Necessary Gope-Tree+kr 24 pbar.kr pbar.wg scoped
Tuned Gope-Tree+kr 1 3395 3395 exact complete
OUT
assert_same "Gope-Tree+kr necessary and tuned" "$T/lines" "$T/want"
# the witness of pbar at level 1: the image holds in0 and lacks leaf1,
# written by the other thread of the CTA
assert_grep "pbar's witness" \
    "crash 1 after step 6: image includes #3 in0 = 1; lacks #2 leaf1 = 11" \
    "$T/out"
# --apply: the weakest program is gope-tree.litmus
expect_rc 0 "$GPMC" tune "$T/kr.litmus" --model scoped,bscoped,hw --apply
assert_grep "--apply says so" "wrote the weakest program to $T/kr.litmus" \
    "$T/err"
canon "$T/kr.litmus" >"$T/a"
canon "$S/seeds/gope-tree.litmus" >"$T/b"
assert_same "Gope-Tree+kr tuned and gope-tree.litmus" "$T/a" "$T/b"
# tuned again: nothing is left to weaken
expect_rc 0 "$GPMC" tune "$T/kr.litmus" --model scoped,bscoped,hw
assert_grep "a fixed point" "^Tuned Gope-Tree+kr 0 3395 3395 exact complete$" \
    "$T/out"

# ---- Gope Alg. 2: every barrier is necessary, under hw too ------------------------
expect_rc 0 "$GPMC" tune "$S/papers/gope-alg2.litmus" --model hw
grep '^Necessary \|^Tuned \|^Weakest' "$T/out" >"$T/lines"
cat >"$T/want" <<'OUT'
Weakest correct program: hw 4300 (total 4300): the original (no weakening keeps every check)
Necessary Gope-Alg2 74 pbar.wg pbar hw
Necessary Gope-Alg2 81 pbar.kr pbar.wg hw
Necessary Gope-Alg2 84 pbar none hw
Tuned Gope-Alg2 0 4300 4300 exact complete
OUT
assert_same "Gope-Alg2 under hw" "$T/lines" "$T/want"

# ---- greedy only, and a spent budget ------------------------------------------
expect_rc 0 "$GPMC" tune "$E/gope-tree-kr.litmus" --model scoped,bscoped,hw \
    --exact 15
assert_grep "exact skipped" \
    "^Exact: skipped (16 combinations, --exact 15)$" "$T/out"
assert_grep "greedy result" "^Tuned Gope-Tree+kr 1 3395 3395 greedy complete$" \
    "$T/out"
expect_rc 1 "$GPMC" tune "$E/gope-tree-kr.litmus" --model scoped,bscoped,hw \
    --max-candidates 2
assert_grep "budget in greedy" "^  the budget ran out" "$T/out"
assert_grep "level 2 not known" \
    "^  line 24 \`pbar.kr\` (kernel insert, every thread body): not known (the budget ran out)$" \
    "$T/out"
assert_grep "incomplete" "^Tuned Gope-Tree+kr 1 3395 3395 greedy incomplete$" \
    "$T/out"

# ---- a test that fails is refused --------------------------------------------
expect_rc 1 "$GPMC" tune "$S/papers/lin-fig7a.litmus" --model strict,hw
assert_grep "tune refuses a failing test" \
    "^  tune needs a program whose checks hold (gpmc fix proposes one)$" \
    "$T/out"
assert_grep "its line" "^Tuned Lin-Fig7a 0 7636 7636 none incomplete$" \
    "$T/out"
