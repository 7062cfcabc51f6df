#!/bin/sh
# `gpmc run --model hw`: every hw corpus test (litmus/suite/hw,
# tests/data/hw) passes and prints the same Observation and Verdict lines
# with --naive; --config wpq=volatile changes what clwb; sfence guarantees
# (exit 1, the Verdict line says why), and --config wt_ack=wpq what
# st.wt; sfence guarantees under it; the default-mode statistics of the
# measurement test are stable and below --naive's; a hw witness in text and
# JSON; both modes run a waiting kernel join as hardware events, the
# default mode only the ones the join needs.
. "$(dirname "$0")/lib.sh"
need python3
cd "$ROOT"

n=0
for f in litmus/suite/hw/*.litmus tests/data/hw/*.litmus; do
    [ -e "$f" ] || continue
    expect_rc 0 "$GPMC" run "$f" --model hw
    grep -E '^(Observation|Verdict) ' "$T/out" >"$T/a"
    [ -s "$T/a" ] || fail "$f: no Verdict line"
    expect_rc 0 "$GPMC" run "$f" --model hw --naive
    grep -E '^(Observation|Verdict) ' "$T/out" >"$T/b"
    assert_same "$f: --naive Observation/Verdict lines" "$T/b" "$T/a"
    n=$((n + 1))
done
[ "$n" -ge 30 ] || fail "only $n hw tests found"

# clwb; sfence: durable with the default (durable) WPQ; with a volatile one
# x's line may still wait in its controller's queue when f persists.
f=litmus/suite/hw/HW+clwb+sfence.litmus
expect_rc 0 "$GPMC" run "$f" --model hw
assert_grep "$f durable" '^Verdict HW+clwb+sfence hw 0 Ok Ok$' "$T/out"
expect_rc 1 "$GPMC" run "$f" --model hw --config wpq=volatile
assert_grep "$f volatile" '^Verdict HW+clwb+sfence hw 0 No Ok$' "$T/out"
assert_grep "$f volatile" '^Observation HW+clwb+sfence hw 0 Sometimes 1 3$' \
    "$T/out"

# st.wt; sfence with a volatile WPQ: durable under the default wt_ack = nvm,
# not when the WPQ acknowledges it.
f=litmus/suite/hw/HW+wt+vwpq.litmus
expect_rc 0 "$GPMC" run "$f" --model hw
assert_grep "$f nvm" '^Verdict HW+wt+vwpq hw 0 Ok Ok$' "$T/out"
expect_rc 1 "$GPMC" run "$f" --model hw --config wt_ack=wpq
assert_grep "$f wpq" '^Verdict HW+wt+vwpq hw 0 No Ok$' "$T/out"

# The measurement test of specs/hw.md: exact default-mode statistics (of
# the hw model itself: no reduction of the search).
f=tests/data/hw/big/HW+ckpt+kr4.litmus
expect_rc 0 "$GPMC" run "$f" --model hw --no-reduce
assert_grep "$f statistics" \
    '^Stats HW+ckpt+kr4 hw states 85934 transitions 142566 crash-points 52011 images 257 recoveries 514 ' \
    "$T/out"

# A witness: the steps to the crash point, then its image, in which f's
# line has been written back and x's has not. The clwb of f does not change
# the image, so fusion runs it in the same transition as the store; the
# witness, as short as --no-reduce's, crashes before it.
f=litmus/suite/hw/HW+clwb+nosfence.litmus
expect_rc 0 "$GPMC" run "$f" --model hw --json
python3 - "$T/out" <<'EOF' || fail "$f: JSON witness"
import json, sys
[c] = json.load(open(sys.argv[1]))
assert c["model"] == "hw" and c["status"] == "done", c
[v] = c["violations"]
assert v["image"] == "x=0; f=1", v["image"]
assert "3. k thread 0 line 26: st f, 1  -- f = 1\n" \
    "crash 1 after step 3\n" in v["witness"], v["witness"]
[cr] = v["witness_json"]["crashes"]
assert cr["after"] == 2, cr
EOF

# --naive: the join of k0 waits while hardware events complete its clwb;
# the witness shows those events.
cat >"$T/join.litmus" <<'EOF'
test J
pm x = 0
pm f = 0
kernel k0 grid 1 block 1 {
  st x, 1
  clwb x
}
kernel k1 grid 1 block 1 {
  st f, 1
}
check crash exists (f == 1 && x == 1)
EOF
expect_rc 0 "$GPMC" run "$T/join.litmus" --model hw --naive
assert_grep "naive join" \
    'clwb x  -- write-back request for line 0; kernel k0 ends; its join waits for outstanding requests$' \
    "$T/out"
assert_grep "naive join" \
    'write back line 0  -- line 0 (x = 1) written back, persistent; completes the write-back request of thread 0; kernel k0 ends; kernel k1 starts$' \
    "$T/out"
expect_rc 0 "$GPMC" run "$T/join.litmus" --model hw
assert_grep "default join" \
    'write back line 0  -- line 0 (x = 1) written back, persistent; completes the write-back request of thread 0; kernel k0 ends; kernel k1 starts$' \
    "$T/out"
