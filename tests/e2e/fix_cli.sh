#!/bin/sh
# gpmc fix and tune at the edges: budgets spent (--max-candidates,
# --timeout) are reported as incomplete, never as "no fix exists"; usage
# and input errors exit 2 before any search; --db records the original's
# checks and every program checked, and merge keeps them.
. "$(dirname "$0")/lib.sh"
P=$ROOT/litmus/suite/papers

# ---- budgets ---------------------------------------------------------------
expect_rc 1 "$GPMC" fix "$P/lin-fig8.litmus" --model strict,hw \
    --max-candidates 20
assert_grep "candidates spent" \
    "^Search Lin-Fig8 incomplete: no fix found within 20 candidates (--max-candidates reached at size 1)$" \
    "$T/out"
[ "$(grep -c '^Fixed ' "$T/out")" = 0 ] || fail "a fix printed after an empty search"
expect_rc 1 "$GPMC" fix "$P/gpm-hcl-kvs.litmus" --model strict,hw --timeout 1 \
    --max-candidates 100000
assert_grep "time spent" \
    "^Search GPM-Fig6-HCL-KVS incomplete: no fix found within [0-9]* candidates (--timeout reached at size [12])$" \
    "$T/out"
# the space of one change searched to the end: complete, and still 1
expect_rc 1 "$GPMC" fix "$P/lin-fig8.litmus" --model strict,hw --max-size 1
assert_grep "size 1 complete" \
    "^Search Lin-Fig8 complete: no fix of size 1 or less among the changes the witnesses suggest (77 candidates)$" \
    "$T/out"

# a failed `exists` has no witness: nothing to guide the search
printf 'test Ex\npm x = 0\nkernel k grid 1 block 1 { st x, 1 }\ncheck final exists (x == 2)\n' \
    >"$T/ex.litmus"
expect_rc 1 "$GPMC" fix "$T/ex.litmus" --model strict
assert_grep "exists without a witness" \
    "^Search Ex incomplete: no witness to start from (only \`exists\` claims fail, and no execution shows where)$" \
    "$T/out"

# ---- usage and input errors --------------------------------------------------
for args in "" "a.litmus b.litmus" "--max-size 0 x.litmus" \
    "--max-size 9 x.litmus" "--max-candidates x x.litmus" "--show" \
    "--apply -1 x.litmus" "--nosuch x.litmus" "--model nosuch x.litmus" \
    "--json x.litmus"; do
    expect_rc 2 "$GPMC" fix $args
    [ ! -s "$T/out" ] || fail "fix $args printed on stdout"
    assert_grep "fix $args" "^gpmc fix: error: " "$T/err"
done
for args in "" "--exact 0 x.litmus" "--apply 1 x.litmus"; do
    expect_rc 2 "$GPMC" tune $args
    assert_grep "tune $args" "^gpmc tune: error: " "$T/err"
done
expect_rc 2 "$GPMC" fix "$T/missing.litmus"
assert_grep "missing file" "missing.litmus: error: cannot read" "$T/err"
printf 'test Bad\npm x = 0\nkernel k grid 1 block 1 { st y, 1 }\n' >"$T/bad.litmus"
expect_rc 2 "$GPMC" tune "$T/bad.litmus"
assert_grep "parse error" "^$T/bad.litmus:3:[0-9]*: error: " "$T/err"
cp "$P/lin-fig7a.litmus" "$T/f7.litmus"
expect_rc 2 "$GPMC" fix "$T/f7.litmus" --model strict,hw --apply 3
assert_grep "--apply beyond the fixes" \
    "^gpmc fix: error: --apply 3: 2 fixes found$" "$T/err"
assert_same "--apply 3 wrote nothing" "$T/f7.litmus" "$P/lin-fig7a.litmus"

# ---- --db ------------------------------------------------------------------
expect_rc 0 "$GPMC" fix "$T/f7.litmus" --model strict,hw --db "$T/f.db"
n=$(q "$T/f.db" "SELECT count(*), sum(state = 'holds'), min(seq), max(size)
                 FROM proposals WHERE command = 'fix'")
assert_eq "fix proposals: checked, holding, first seq, size" "$n" "48,2,1,1"
q "$T/f.db" "SELECT rank, size, cycles, state, changes FROM proposals
             WHERE rank IS NOT NULL ORDER BY rank" >"$T/ranks"
cat >"$T/want" <<'OUT'
1,1,7637,holds,"insert `bar.sync` before line 52 `st.wt data[%tid], r0` (kernel tx)"
2,1,7637,holds,"insert `bar.sync` before line 51 `add r0, r0, 1` (kernel tx)"
OUT
assert_same "the fixes in the database" "$T/ranks" "$T/want"
n=$(q "$T/f.db" "SELECT count(*) FROM proposals WHERE state = 'fails'
                 AND (witness IS NULL OR cycles IS NOT NULL)")
assert_eq "failing proposals have a witness and no cycles" "$n" 0
n=$(q "$T/f.db" "SELECT group_concat(model, ' ') FROM (SELECT c.model FROM
                 checks c JOIN runs r USING (run_id)
                 WHERE r.argv LIKE 'gpmc fix %' ORDER BY c.check_id)")
assert_eq "the original's checks" "$n" "strict hw"
expect_rc 0 "$GPMC" tune "$ROOT/tests/e2e/fix/gope-tree-kr.litmus" \
    --model scoped --db "$T/t.db"
n=$(q "$T/t.db" "SELECT count(*), sum(rank = 1), sum(state = 'holds')
                 FROM proposals WHERE command = 'tune'")
assert_eq "tune proposals: checked, the weakest, holding" "$n" "12,1,1"
expect_rc 0 "$GPMC" merge "$T/m.db" "$T/f.db" "$T/t.db"
n=$(q "$T/m.db" "SELECT count(*) FROM proposals")
assert_eq "merged proposals" "$n" 60
expect_rc 0 "$GPMC" merge "$T/m.db" "$T/f.db"
n=$(q "$T/m.db" "SELECT count(*) FROM proposals")
assert_eq "merging again adds nothing" "$n" 60
sound "$T/m.db"
