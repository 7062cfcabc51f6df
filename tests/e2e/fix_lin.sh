#!/bin/sh
# gpmc fix on Lin et al.'s Fig. 7a and Fig. 8 (litmus/suite/papers): the
# documented fixes (the +fix files) are found and verified, Fig. 7a's at
# size 1, Fig. 8's only at size 2 (no single change fixes both of its
# holes); the fixes applied hold under strict and hw, --naive included.
. "$(dirname "$0")/lib.sh"
P=$ROOT/litmus/suite/papers

# ---- Fig. 7a: one bar.sync after the flag -----------------------------------
cp "$P/lin-fig7a.litmus" "$T/f7.litmus"
expect_rc 0 "$GPMC" fix "$T/f7.litmus" --model strict,hw
assert_grep "Fig. 7a fails first" \
    "^  fails: check 0 (recovered forall (data == {5, 7} || data == {6, 8})) is No under strict$" "$T/out"
assert_grep "Fig. 7a search" \
    "^Search Lin-Fig7a found 2 fixes of size 1 among 48 candidates$" "$T/out"
grep '^Fixed ' "$T/out" >"$T/fixed"
printf 'Fixed Lin-Fig7a 1 1 7637\nFixed Lin-Fig7a 2 1 7637\n' >"$T/want"
assert_same "Fig. 7a fixes" "$T/fixed" "$T/want"
# Fix 2 is the documented one, as a diff of the file
sed -n '/^Fix 2:/,/^Fixed/p' "$T/out" | sed '$d' >"$T/fix2"
cat >"$T/want" <<OUT
Fix 2: 1 change, cycles strict 2601 hw 5036 (total 7637, +1 against the original)
  insert \`bar.sync\` before line 51 \`add r0, r0, 1\` (kernel tx)
--- $T/f7.litmus
+++ $T/f7.litmus
@@ -48,6 +48,7 @@
   st.wt inTx, 1
   membar.gl
 upd:
+  bar.sync
   add r0, r0, 1
   st.wt data[%tid], r0
   membar.gl
OUT
assert_same "Fig. 7a fix 2" "$T/fix2" "$T/want"
# the diff is a patch: applied with patch(1), it gives what --apply writes
cp "$T/f7.litmus" "$T/p7.litmus"
sed -n '/^--- /,$p' "$T/fix2" | sed "s|$T/f7.litmus|$T/p7.litmus|" |
    patch -s "$T/p7.litmus" || fail "patch refused fix 2's diff"
expect_rc 0 "$GPMC" fix "$T/f7.litmus" --model strict,hw --apply 2
assert_grep "--apply says so" "applied fix 2 to $T/f7.litmus" "$T/err"
assert_grep "--apply notes the stale expectations" \
    "note: .*expect" "$T/err"
assert_same "--apply 2 and patch" "$T/f7.litmus" "$T/p7.litmus"
canon "$T/f7.litmus" >"$T/a"
canon "$P/lin-fig7a+fix.litmus" >"$T/b"
assert_same "Fig. 7a fixed and lin-fig7a+fix.litmus" "$T/a" "$T/b"
# (run exits 1: the file still expects the bug, `expect strict=no … hw=no`)
for naive in "" --naive; do
    expect_rc 1 "$GPMC" run "$T/f7.litmus" --model strict,hw $naive
    grep '^Verdict .* 0 ' "$T/out" | cut -d' ' -f3,5 >"$T/v"
    printf 'strict Ok\nhw Ok\n' >"$T/want"
    assert_same "fixed Fig. 7a verdicts $naive" "$T/v" "$T/want"
done
# once fixed, nothing is left to fix
expect_rc 0 "$GPMC" fix "$T/f7.litmus" --model strict,hw
assert_grep "nothing to fix" "^Search Lin-Fig7a complete: nothing to fix$" \
    "$T/out"

# ---- Fig. 8: two holes, no fix of size 1 --------------------------------------
cp "$P/lin-fig8.litmus" "$T/f8.litmus"
expect_rc 0 "$GPMC" fix "$T/f8.litmus" --model strict,hw --max-candidates 300 \
    --show 20
assert_grep "size 1 searched to the end" \
    "^gpmc fix: size 1: 123 of 123 candidates, 0 holding" "$T/err"
assert_grep "Fig. 8 search" \
    "^Search Lin-Fig8 found 18 fixes of size 2 among 300 candidates (--max-candidates reached before size 2 was searched to the end)$" \
    "$T/out"
grep -c '^Fixed Lin-Fig8 [0-9]* 2 ' "$T/out" >"$T/n"
echo 18 >"$T/want"
assert_same "18 fixes of size 2" "$T/n" "$T/want"
assert_grep "the cheapest costs what the original does" \
    "^Fixed Lin-Fig8 1 2 11985$" "$T/out"
# the documented fix: bar.sync after upd: and after next:
rank=$(awk '/^Fix [0-9]+:/ { n = $2; sub(":", "", n); c = "" }
            /^  insert/ { c = c $0 "\n" }
            /^---/ && c == "  insert `bar.sync` before line 63 `ld r3, acc[%tid]` (kernel loop)\n  insert `bar.sync` before line 71 `add r1, r1, 1` (kernel loop)\n" { print n }' "$T/out")
[ -n "$rank" ] || fail "the documented Fig. 8 fix is not among the fixes"
assert_grep "the documented fix costs more than the cheapest" \
    "^Fixed Lin-Fig8 $rank 2 11989$" "$T/out"
expect_rc 0 "$GPMC" fix "$T/f8.litmus" --model strict,hw --max-candidates 300 \
    --apply "$rank"
canon "$T/f8.litmus" >"$T/a"
canon "$P/lin-fig8+fix.litmus" >"$T/b"
assert_same "Fig. 8 fixed and lin-fig8+fix.litmus" "$T/a" "$T/b"
# the cheapest fix, applied, holds too (--naive agrees)
cp "$P/lin-fig8.litmus" "$T/c8.litmus"
expect_rc 0 "$GPMC" fix "$T/c8.litmus" --model strict,hw --max-candidates 300 \
    --apply 1
expect_rc 1 "$GPMC" run "$T/c8.litmus" --model strict,hw --naive
grep '^Verdict ' "$T/out" | cut -d' ' -f3-5 >"$T/v"
printf 'strict 0 Ok\nstrict 1 Ok\nhw 0 Ok\nhw 1 Ok\n' >"$T/want"
assert_same "cheapest Fig. 8 fix under --naive" "$T/v" "$T/want"
