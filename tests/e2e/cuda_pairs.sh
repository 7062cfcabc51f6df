#!/bin/sh
# litmus/suite/cuda: the documents' code as CUDA (issue 24). Every test there
# passes its hand-derived expectations under all six models, from the
# committed .ptx alone (clang hidden, an empty PTX cache that stays empty),
# and its verdicts equal those of its transcription in litmus/suite/papers
# (same file name), check by check and model by model, except for the
# differences listed below with their reason. The transcriptions' verdicts
# are their `expect` lines: papers.sh asserts that every papers/ check meets
# them, so reading them here spares a second run of those files.
. "$(dirname "$0")/lib.sh"
cuda=$ROOT/litmus/suite/cuda
papers=$ROOT/litmus/suite/papers

# FILE MODEL CHECK: where the CUDA test's verdict differs, and why. GPM's
# platform keeps PM in host memory over PCIe with DDIO off, where a GPU store
# to PM is written through and __threadfence_system waits for it (DESIGN 7,
# pm_path = pcie). The transcriptions write GPM's PM stores as st.wt, i.e. as
# pcie would; the CUDA tests run on the default path, l2, where those stores
# are cached and the fence waits for nothing. pm_path = pcie is not
# implemented yet: with it these three lines should go.
differ='gpm-checkpoint hw 0 pm_path
gpm-hcl-kvs+fix hw 0 pm_path
gpm-bfs+fix hw 0 pm_path'

n=0
for f in "$cuda"/*.litmus; do
    n=$((n + 1))
    b=$(basename "$f")
    head -1 "$f" | grep -q '^// Source: ' ||
        fail "$b: the first line is not '// Source: ...'"
    awk -v f="$b" '
        want && !/^  expect strict=(ok|no) epoch=(ok|no) bepoch=(ok|no) scoped=(ok|no) bscoped=(ok|no) hw=(ok|no)$/ {
            print f ": line " NR ": a check without all six expectations"; bad = 1 }
        { want = /^check / }
        END { exit bad }' "$f" >&2 || fail "$b: incomplete expectations"
    [ -f "$papers/$b" ] || fail "$b has no transcription $papers/$b"
    for cu in $(sed -n 's/.* from "\([^"]*\.cu\)" .*/\1/p' "$f" | sort -u); do
        p=$cuda/${cu%.cu}.ptx
        [ -f "$p" ] || fail "$b: $cu has no committed ${cu%.cu}.ptx"
        head -1 "$p" | grep -q "^// gpmc: sha256 [0-9a-f]* from $cu\$" ||
            fail "$b: ${cu%.cu}.ptx does not start with gpmc's header for $cu"
    done
done
[ "$n" -ge 22 ] || fail "only $n files in $cuda"

# Every check passes from the committed PTX: no clang, nothing compiled.
mkdir "$T/cache"
GPMC_CLANG=/nonexistent
GPMC_CACHE=$T/cache
export GPMC_CLANG GPMC_CACHE
expect_rc 0 "$GPMC" suite "$cuda" --jobs 2 --db "$T/c.db"
assert_eq "suite summary" "$(tail -1 "$T/out")" "$((n * 6)) passed, 0 failed"
assert_eq "PTX compiled" "$(ls "$T/cache" | wc -l | tr -d ' ')" 0
assert_eq "checks not done" \
    "$(q "$T/c.db" "SELECT count(*) FROM checks WHERE status != 'done'")" 0

# The pairs: FILE MODEL CHECK VERDICT, CUDA from the run, papers from expect.
q "$T/c.db" "SELECT t.path, c.model, r.cond_index, lower(r.verdict)
             FROM results r JOIN checks c ON c.check_id = r.check_id
             JOIN tests t ON t.test_id = c.test_id" |
    awk -F, '{ n = split($1, p, "/"); sub(/\.litmus$/, "", p[n])
               print p[n], $2, $3, $4 }' | LC_ALL=C sort >"$T/cu"
for f in "$cuda"/*.litmus; do
    b=$(basename "$f" .litmus)
    awk -v b="$b" '/^check / { k++ } /^  expect / {
        for (i = 2; i <= NF; i++) { split($i, kv, "="); print b, kv[1], k - 1, kv[2] } }' \
        "$papers/$b.litmus"
done | LC_ALL=C sort >"$T/lit"
assert_eq "checks of the pairs" "$(wc -l <"$T/cu")" "$(wc -l <"$T/lit")"
printf '%s\n' "$differ" >"$T/differ"
awk 'FILENAME == ARGV[1] { ok[$1 " " $2 " " $3] = 1; next }
     FILENAME == ARGV[2] { lit[$1 " " $2 " " $3] = $4; next }
     { key = $1 " " $2 " " $3
       if (!(key in lit)) { print "no transcription check for " key; bad = 1 }
       else if ((lit[key] != $4) != (key in ok)) {
           print key ": CUDA " $4 ", transcription " lit[key] \
               ((key in ok) ? " (a listed difference that is gone)" : "")
           bad = 1 }
       seen[key] = 1 }
     END { for (k in ok) if (!(k in seen)) { print "listed, not run: " k; bad = 1 }
           exit bad }' "$T/differ" "$T/lit" "$T/cu" >"$T/diff" ||
    fail "verdicts of the pairs: $(cat "$T/diff")"

# --naive: the CUDA tests the literal semantics explores within its default
# limits print the same Observation and Verdict lines in both modes (the
# others stop at --max-states there, as their transcriptions do).
for f in lin-fig5 lin-fig6 lin-fig6+fix lin-fig7a lin-fig7a+fix lin-fig7b \
    lin-fig8 lin-fig8+fix1 lin-fig8+fix gpm-bfs gpm-bfs+fix gpm-checkpoint; do
    try "$GPMC" run "$cuda/$f.litmus"
    grep -E '^(Observation|Verdict) ' "$T/out" >"$T/a"
    [ -s "$T/a" ] || fail "$f: no Verdict line"
    try "$GPMC" run "$cuda/$f.litmus" --naive
    grep -E '^(Observation|Verdict) ' "$T/out" >"$T/b"
    assert_same "$f: --naive Observation/Verdict lines" "$T/b" "$T/a"
done
assert_eq "PTX compiled by the --naive runs" "$(ls "$T/cache" | wc -l | tr -d ' ')" 0
