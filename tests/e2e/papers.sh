#!/bin/sh
# litmus/suite/papers: the transcriptions of the documents' code (issue 12)
# meet their hand-derived expectations under all six models: `gpmc suite`
# exits 0, every (file, model) passes, no check is incomplete or unexpected.
# Every file keeps the corpus conventions: it opens with its `// Source:`
# line, and every check is followed by an `expect` for all six models. The
# files small enough for the literal semantics print the same Observation and
# Verdict lines with --naive (test_chk_naive leaves papers/ out: most of it is
# beyond the naive explorer's default limits).
. "$(dirname "$0")/lib.sh"
dir=$ROOT/litmus/suite/papers

n=0
for f in "$dir"/*.litmus; do
    n=$((n + 1))
    head -1 "$f" | grep -q '^// Source: ' ||
        fail "$f: the first line is not '// Source: ...'"
    awk -v f="$f" '
        want && !/^  expect strict=(ok|no) epoch=(ok|no) bepoch=(ok|no) scoped=(ok|no) bscoped=(ok|no) hw=(ok|no)$/ {
            print f ": line " NR ": a check without all six expectations"; bad = 1 }
        { want = /^check / }
        END { exit bad }' "$f" >&2 || fail "$f: incomplete expectations"
done
[ "$n" -ge 35 ] || fail "only $n files in $dir"

# lin-fig2+vwpq's hw checks need DESIGN 4's wt_ack = nvm in the hierarchy
# (st.wt; sfence durable with a volatile WPQ). Until a gpmc implements it
# (the probe below fails), that file runs under the abstract models only.
cat >"$T/probe.litmus" <<'PROBE'
test WtAckProbe
config wpq = volatile
pm x = 0
pm f = 0
kernel k grid 1 block 1 {
  st.wt x, 1
  sfence
  st.wt f, 1
}
check crash ~exists (f == 1 && x == 0)
PROBE
mkdir "$T/papers"
cp "$dir"/*.litmus "$T/papers/"
runs=$((n * 6))
if ! "$GPMC" run "$T/probe.litmus" --model hw >/dev/null 2>&1; then
    echo "papers: this gpmc has no wt_ack = nvm: lin-fig2+vwpq skips hw" >&2
    rm "$T/papers/lin-fig2+vwpq.litmus"
    expect_rc 0 "$GPMC" run "$dir/lin-fig2+vwpq.litmus" \
        --model strict,epoch,bepoch,scoped,bscoped
    runs=$((runs - 6))
fi
expect_rc 0 "$GPMC" suite "$T/papers" --jobs 2 --db "$T/p.db"
assert_eq "suite summary" "$(tail -1 "$T/out")" "$runs passed, 0 failed"
assert_eq "checks not done" \
    "$(q "$T/p.db" "SELECT count(*) FROM checks WHERE status != 'done'")" 0
assert_eq "unexpected verdicts" "$(q "$T/p.db" "SELECT count(*) FROM unexpected")" 0
# The findings stay findings: each failing figure's target-model verdicts.
assert_eq "findings under hw" "$(q "$T/p.db" "SELECT count(*) FROM verdict_matrix
    WHERE model = 'hw' AND verdict = 'No' AND test IN ('Lin-Fig6', 'Lin-Fig7a',
    'Lin-Fig8', 'Lin-Fig8+fix1', 'GPM-Fig6-HCL-KVS', 'GPM-Fig6-HCL-KVS+skipdummy',
    'GPM-Fig6-HCL-KVS+skipdummy+logfirst', 'GPM-BFS', 'Recompute-KK',
    'Recompute-KK+next', 'Recompute-KK+next+guard')")" 12

for f in lin-fig2 lin-fig3 lin-fig4 lin-fig5 lin-fig6 lin-fig6+fix lin-fig7a \
    lin-fig7a+fix lin-fig7b lin-fig8 lin-fig8+fix1 lin-fig8+fix agpm-paths \
    agpm-switch agpm-switch-reread gpm-bfs gpm-bfs+fix gpm-checkpoint \
    gpm-conv-log preflush preflush-mt preflush-mt-elide; do
    try "$GPMC" run "$dir/$f.litmus"
    grep -E '^(Observation|Verdict) ' "$T/out" >"$T/a"
    [ -s "$T/a" ] || fail "$f: no Verdict line"
    try "$GPMC" run "$dir/$f.litmus" --naive
    grep -E '^(Observation|Verdict) ' "$T/out" >"$T/b"
    assert_same "$f: --naive Observation/Verdict lines" "$T/b" "$T/a"
done
