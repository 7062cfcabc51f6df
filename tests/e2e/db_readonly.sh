#!/bin/sh
# The read side of a database filled by `gpmc suite`: `gpmc query` cannot
# change it, whatever the statement; `report` and `show` work on it and
# agree with the database.
. "$(dirname "$0")/lib.sh"
need python3
D=$T/d.db

try "$GPMC" suite "$ROOT/litmus/suite" --jobs 2 --db "$D"
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "suite exited $rc: $(head -c 600 "$T/err")"
# and one check that fails its expectation, so that something is unexpected
cat >"$T/fails.litmus" <<'EOF'
test Fails "two unordered stores, wrongly expected to persist in order"
pm x = 0
pm y = 0
kernel k grid 1 block 1 {
  st x, 1
  st y, 1
}
check crash ~exists (y == 1 && x == 0) expect epoch=ok
EOF
expect_rc 1 "$GPMC" run "$T/fails.litmus" --model epoch --db "$D"
[ ! -s "$D-wal" ] || fail "the writers left a non-empty WAL"

state() {
    sha256sum "$D" | cut -d' ' -f1
    for tb in meta runs tests checks results outcomes violations costs \
        sqlite_master; do
        q "$D" "SELECT '$tb', count(*) FROM $tb"
    done
    q "$D" "PRAGMA user_version"
    q "$D" "PRAGMA journal_mode"
}
state >"$T/state0"

# Statements that would write, each refused with exit 2 before any output.
refused() {
    expect_rc 2 "$GPMC" query --db "$D" "$1"
    [ ! -s "$T/out" ] || fail "refused statement printed rows: $1"
    assert_grep "refusal of: $1" '^gpmc: error: ' "$T/err"
}
while IFS= read -r sql; do
    refused "$sql"
done <<EOF
INSERT INTO meta VALUES ('k', 'v')
INSERT INTO checks SELECT * FROM checks
REPLACE INTO meta VALUES ('schema_version', '2')
INSERT INTO meta VALUES ('k', 'v') RETURNING *
UPDATE checks SET status = 'error'
DELETE FROM violations
WITH v AS (SELECT 1) DELETE FROM results
DROP TABLE meta
DROP VIEW verdict_matrix
DROP INDEX IF EXISTS nosuchindex
ALTER TABLE runs ADD COLUMN x
ALTER TABLE runs RENAME TO runs2
CREATE TABLE z(a)
CREATE TEMP TABLE z(a)
CREATE VIEW v AS SELECT 1
CREATE INDEX i ON checks(model)
CREATE TRIGGER tr AFTER INSERT ON meta BEGIN SELECT 1; END
ATTACH '$T/attached.db' AS a
DETACH main
PRAGMA journal_mode = DELETE
PRAGMA user_version = 5
PRAGMA main.user_version = 5
PRAGMA schema_version = 99
PRAGMA writable_schema = ON
PRAGMA wal_checkpoint(TRUNCATE)
PRAGMA page_size = 1024
PRAGMA auto_vacuum = FULL
PRAGMA query_only = 0
PRAGMA incremental_vacuum
PRAGMA optimize
VACUUM
VACUUM INTO '$T/vacuumed.db'
REINDEX
ANALYZE
BEGIN
BEGIN IMMEDIATE
COMMIT
SAVEPOINT s
SELECT load_extension('/nonexistent')
SELECT 1; DELETE FROM meta
SELECT 1; SELECT 2
EOF
[ ! -e "$T/attached.db" ] || fail "ATTACH created a file"
[ ! -e "$T/vacuumed.db" ] || fail "VACUUM INTO created a file"
# bad SQL is an input error too
expect_rc 2 "$GPMC" query --db "$D" "SELECT nosuchcolumn FROM checks"
assert_grep "bad SQL" '^gpmc: error: ' "$T/err"
state >"$T/state1"
assert_same "the database after the refused statements" "$T/state1" "$T/state0"
[ ! -s "$D-wal" ] || fail "a refused statement wrote to the WAL"

# Reading works, in every format.
assert_eq "integrity_check" "$(q "$D" "PRAGMA integrity_check")" ok
n=$(find "$ROOT/litmus/suite" -name '*.litmus' | wc -l)
assert_eq "checks" "$(q "$D" "SELECT count(*) FROM checks")" $((n * 6 + 1))
expect_rc 0 "$GPMC" query --db "$D" --json "SELECT model, count(*) AS n
    FROM checks GROUP BY model ORDER BY model"
python3 -c 'import json,sys; d = json.load(open(sys.argv[1]))
assert [r["model"] for r in d] == sorted(["strict", "epoch", "bepoch", "scoped", "bscoped", "hw"]), d
assert [r["n"] for r in d] == [int(sys.argv[2]) + (r["model"] == "epoch")
                               for r in d], d' "$T/out" "$n" ||
    fail "query --json: unexpected rows: $(head -c 300 "$T/out")"
# the table form: numbers right-aligned under a rule as wide as the column
expect_rc 0 "$GPMC" query --db "$D" "SELECT count(*) AS n FROM checks"
w6=$(printf '%d' $((n * 6 + 1)) | wc -c)
printf '%*s\n' "$w6" n >"$T/table.want"
printf '%*s\n' "$w6" '' | tr ' ' - >>"$T/table.want"
printf '%d\n' $((n * 6 + 1)) >>"$T/table.want"
assert_same "query table output" "$T/out" "$T/table.want"

# Reports: exit 0, and the summary line agrees with the views.
report() {
    expect_rc 0 "$GPMC" report "$1" --db "$D"
    tail -n 1 "$T/out"
}
rows=$(q "$D" "SELECT count(*) FROM (SELECT DISTINCT test, cond_index
                                     FROM verdict_matrix)")
verdicts=$(q "$D" "SELECT count(*) FROM verdict_matrix")
unexp=$(q "$D" "SELECT count(*) FROM unexpected")
[ "$unexp" -ge 1 ] || fail "Fails is not in the unexpected view"
unknown=$(q "$D" "SELECT count(*) FROM verdict_matrix WHERE verdict = 'Unknown'")
assert_eq "report verdicts summary" "$(report verdicts)" \
    "$rows rows, $verdicts verdicts: $((verdicts - unexp)) pass, $unexp unexpected (marked !), $unknown Unknown"
assert_eq "verdicts marked ! in report verdicts" \
    "$(grep -o '\(Ok\|No\|Unknown\)!' "$T/out" | wc -l)" "$unexp"
notdone=$(q "$D" "SELECT count(*) FROM latest_checks WHERE status <> 'done'")
s=$(report unexpected)
case $s in
"$unexp unexpected verdict"*", $notdone check"*" incomplete or failed") ;;
*) fail "report unexpected summary: '$s' ($unexp unexpected, $notdone not done)" ;;
esac
nchecks=$(q "$D" "SELECT count(*) FROM latest_checks")
s=$(report costs)
case $s in
"$nchecks checks; baseline: "*) ;;
*) fail "report costs summary: '$s' ($nchecks checks)" ;;
esac
dis=$(q "$D" "SELECT count(*) FROM model_disagreements")
[ "$dis" -gt 0 ] || fail "the corpus has no model disagreement"
s=$(report disagreements)
case $s in
"$dis disagreement"*) ;;
*) fail "report disagreements summary: '$s' ($dis disagreements)" ;;
esac
expect_rc 2 "$GPMC" report nosuchreport --db "$D"
expect_rc 2 "$GPMC" report verdicts --db "$T/missing.db"
[ ! -e "$T/missing.db" ] || fail "report created a missing database"

# show violation: the header and the witness are the violation's row, for
# one violation of each kind and depth.
q "$D" "SELECT min(violation_id), kind, depth FROM violations
        GROUP BY kind, depth ORDER BY kind, depth" >"$T/vios"
[ "$(wc -l <"$T/vios")" -ge 3 ] || fail "fewer than 3 kinds of violation"
while IFS=, read -r id kind depth; do
    expect_rc 0 "$GPMC" show violation "$id" --db "$D"
    assert_eq "first line of show violation $id" "$(head -n 1 "$T/out")" \
        "violation $id: $kind, depth $depth"
    "$GPMC" query --db "$D" --json \
        "SELECT witness FROM violations WHERE violation_id = $id" |
        python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)[0]["witness"])' \
            >"$T/witness.want"
    sed -n '/^witness:$/,$p' "$T/out" | tail -n +2 >"$T/witness.got"
    assert_same "witness of show violation $id" "$T/witness.got" \
        "$T/witness.want"
done <"$T/vios"
expect_rc 2 "$GPMC" show violation 999999 --db "$D"
expect_rc 2 "$GPMC" show violation 0 --db "$D"
expect_rc 2 "$GPMC" show check x --db "$D"

# show check ID --dot: one digraph per violation of the check, well formed.
id=$(q "$D" "SELECT check_id FROM violations GROUP BY check_id
             ORDER BY count(*) DESC, check_id LIMIT 1")
q "$D" "SELECT 'digraph violation_' || violation_id || ' {' FROM violations
        WHERE check_id = $id ORDER BY violation_id" >"$T/heads.want"
expect_rc 0 "$GPMC" show check "$id" --dot --db "$D"
grep '^digraph ' "$T/out" >"$T/heads.got" || true
assert_same "digraphs of show check $id --dot" "$T/heads.got" "$T/heads.want"
opened=$(tr -cd '{' <"$T/out" | wc -c)
closed=$(tr -cd '}' <"$T/out" | wc -c)
assert_eq "braces of the DOT output" "$opened" "$closed"
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg "$T/out" >/dev/null 2>"$T/dot.err" ||
        fail "dot rejects show --dot: $(head -3 "$T/dot.err")"
fi
expect_rc 0 "$GPMC" show check "$id" --db "$D"
case $(head -n 1 "$T/out") in
"check $id: "*) ;;
*) fail "show check $id starts with '$(head -n 1 "$T/out")'" ;;
esac
state >"$T/state2"
assert_same "the database after reports and shows" "$T/state2" "$T/state0"
