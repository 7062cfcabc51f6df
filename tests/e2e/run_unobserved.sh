#!/bin/sh
# Programs whose crash images are all alike to the conditions: no PM at all,
# or PM that no condition or recovery reads. Under the abstract models the
# part of a state that decides its crash images is then only the pending
# stores, empty at first; it must still be a vector the checker can intern
# (a zero word stands in it: abs_model.c, REGION). Without it, the
# default mode aborted in the store on the first crash point.
. "$(dirname "$0")/lib.sh"
cd "$T"

cat >nopm.litmus <<'LIT'
test NoPM "no persistent memory, a recovery"
dram x = 0
kernel k grid 1 block 2 {
  st x, 1
}
recover {
  kernel r grid 1 block 1 {
    st x, 2
  }
}
check recovered forall (x == 2)
LIT
cat >unobs.litmus <<'LIT'
test Unobs "PM that no condition reads"
pm a[2] = 0
dram x = 0
kernel k grid 1 block 2 {
  st a[%tid], 1
  pbar
  st x, 1
}
check crash forall (1 == 1)
check final forall (x == 1)
LIT
for m in strict epoch bepoch scoped bscoped hw; do
    for mode in "" --naive; do
        expect_rc 0 "$GPMC" run nopm.litmus --model $m $mode
        assert_grep "NoPM $m $mode" "^Verdict NoPM $m 0 Ok -\$" out
        expect_rc 0 "$GPMC" run unobs.litmus --model $m $mode
        grep '^Verdict ' out >got
        printf '%s\n' "Verdict Unobs $m 0 Ok -" "Verdict Unobs $m 1 Ok -" >want
        assert_same "Unobs $m $mode" got want
    done
done
