#!/bin/sh
# Hostile databases and queries (issue 14): `query` stops at its time limit
# and always prints valid JSON; `merge` refuses a doctored input with exit 2
# (a corrupt page and dangling ids included), never hangs, and leaves OUT
# as it was.
. "$(dirname "$0")/lib.sh"
need sqlite3
D=$T/d.db
expect_rc 0 "$GPMC" run "$ROOT/tests/data/naive/sb.litmus" --model strict \
    --db "$D"

# An endless recursive query ends at --timeout, exit 2, with no rows.
endless="WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)
         SELECT count(*) FROM r"
expect_rc 2 "$GPMC" query --db "$D" --timeout 0.3 "$endless"
assert_grep "timeout message" \
    '^gpmc: error: query: timed out after 0.3 s (see --timeout)$' "$T/err"
[ ! -s "$T/out" ] || fail "a timed-out query printed rows"
expect_rc 2 "$GPMC" query --db "$D" --timeout 0 "SELECT 1"
expect_rc 2 "$GPMC" query --db "$D" --timeout=x "SELECT 1"
expect_rc 0 "$GPMC" query --db "$D" --timeout=5 "SELECT 1"

# Invalid UTF-8 in the database comes out of --json as U+FFFD.
expect_rc 0 "$GPMC" query --db "$D" --json \
    "SELECT CAST(X'FF41C3' AS TEXT) AS t, 'caf' || char(233) AS u"
printf '[\n{"t":"\\ufffdA\\ufffd","u":"caf\303\251"}\n]\n' >"$T/want"
assert_same "--json of invalid UTF-8" "$T/out" "$T/want"

# merge: every doctored input is exit 2, and OUT stays absent.
bad() {
    cp "$D" "$T/bad.db"
    sqlite3 "$T/bad.db" "$1" || fail "sqlite3 could not run: $1"
    expect_rc 2 "$GPMC" merge "$T/out.db" "$D" "$T/bad.db"
    assert_grep "merge of a doctored input ($1)" "$2" "$T/err"
    [ ! -e "$T/out.db" ] || fail "merge left OUT behind after: $1"
}
bad "ALTER TABLE runs RENAME TO r0; CREATE VIEW runs AS
     WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)
     SELECT i AS run_id, 'x' AS started_at, NULL AS finished_at,
     'x' AS argv, 'x' AS version, 'x' AS host, 'done' AS status FROM r" \
    'not a gpmc results database'
bad "UPDATE checks SET model = X'00FF'" 'model is blob, not TEXT'
bad "UPDATE checks SET states = 'lots'" 'states is text, not INTEGER'
bad "UPDATE checks SET test_id = 42" 'refers to a missing tests row'
bad "UPDATE meta SET value = '01' WHERE key = 'schema_version'" \
    'schema version 01, this gpmc writes version 1'

# A corrupt page: exit 2, not 3.
cp "$D" "$T/bad.db"
size=$(wc -c <"$T/bad.db")
[ "$size" -ge 32768 ] || fail "the database is too small to corrupt a page"
head -c 4096 /dev/zero | tr '\0' '\245' >"$T/junk"
dd if="$T/junk" of="$T/bad.db" bs=4096 seek=5 count=1 conv=notrunc 2>/dev/null
expect_rc 2 "$GPMC" merge "$T/out.db" "$D" "$T/bad.db"
[ ! -e "$T/out.db" ] || fail "merge left OUT behind after a corrupt page"

# An existing OUT is left byte for byte as it was.
expect_rc 0 "$GPMC" merge "$T/out.db" "$D"
cp "$T/out.db" "$T/kept.db"
expect_rc 2 "$GPMC" merge "$T/out.db" "$T/bad.db"
assert_same "OUT after a refused merge" "$T/out.db" "$T/kept.db"
expect_rc 2 "$GPMC" merge --timeout -1 "$T/out.db" "$D"
