#!/bin/sh
# The databases a command reads are its inputs (issue 27): `query`,
# `report`, `show` and `merge`'s inputs are never written, even when an
# earlier (or doctored) gpmc's views would have been brought up to date;
# what is wrong with a file (corrupt, in a directory that cannot be
# written, refused rows) is an input error, exit 2, that says so; `--db ''`
# is refused rather than stored nowhere; a test name of megabytes is
# clipped in text tables.
. "$(dirname "$0")/lib.sh"
need sqlite3
cd "$T"
SB=$ROOT/tests/data/naive/sb.litmus

# --db '' (and :memory:) would store into a private temporary database.
for cmd in run suite time; do
    for db in '' ':memory:'; do
        expect_rc 2 "$GPMC" $cmd "$SB" --model strict --db "$db"
        assert_grep "$cmd --db '$db'" \
            "^gpmc $cmd: error: --db needs the name of a file, got '$db'\$" err
        [ ! -s out ] || fail "$cmd --db '$db' printed a report"
    done
done
expect_rc 2 "$GPMC" query --db '' "SELECT 1"

expect_rc 0 "$GPMC" run "$SB" --model strict,epoch --db d.db
expect_rc 2 "$GPMC" merge '' d.db
assert_grep "merge ''" "^gpmc: error: the database needs a file name" err
expect_rc 1 "$GPMC" run "$ROOT/bench/barrier.litmus" --model strict \
    --max-states 50 --db d.db

# An input whose verdict_matrix is another view: read as gpmc reads it
# (its own views), and left byte for byte as it was.
cp d.db in.db
sqlite3 in.db "DROP VIEW verdict_matrix;
               CREATE VIEW verdict_matrix AS SELECT 1 AS x"
sum0=$(md5sum <in.db)
matrix d.db want.csv
matrix in.db got.csv
assert_same "verdict_matrix of the doctored input" got.csv want.csv
for c in "report verdicts" "report unexpected" "show check 1"; do
    expect_rc 0 "$GPMC" $c --db in.db
    cp out got
    expect_rc 0 "$GPMC" $c --db d.db
    assert_same "$c on the doctored input" got out
done
expect_rc 0 "$GPMC" merge m.db in.db
matrix m.db got.csv
assert_same "verdict_matrix of the merge of the doctored input" got.csv \
    want.csv
assert_eq "md5 of the input after query, report, show and merge" \
    "$(md5sum <in.db)" "$sum0"
assert_eq "the input's own view" \
    "$(sqlite3 in.db "SELECT sql FROM sqlite_schema
                      WHERE name = 'verdict_matrix'")" \
    "CREATE VIEW verdict_matrix AS SELECT 1 AS x"

# A row the schema refuses, written past its CHECK constraints: exit 2.
cp d.db bad.db
sqlite3 bad.db "PRAGMA ignore_check_constraints = 1;
                UPDATE results SET verdict = 'Maybe'"
expect_rc 2 "$GPMC" merge m2.db bad.db
assert_grep "merge of a refused verdict" \
    "^gpmc: error: bad.db: a row that gpmc's schema refuses (CHECK constraint failed: verdict IN ('Ok', 'No', 'Unknown'))\$" \
    err
[ ! -e m2.db ] || fail "a refused merge left its output"

# A zeroed page (the root page of a table every command reads): every
# reader and writer says the file is corrupt, exit 2.
for table in checks results; do
    page=$(sqlite3 d.db "SELECT rootpage FROM sqlite_schema
                         WHERE name = '$table'")
    cp d.db z.db
    dd if=/dev/zero of=z.db bs=4096 seek=$((page - 1)) count=1 conv=notrunc \
        2>/dev/null
    for c in "report verdicts" "report unexpected" "report html" \
        "show check 1"; do
        expect_rc 2 "$GPMC" $c --db z.db
        assert_grep "$c on a zeroed page of $table" \
            '^gpmc: error: z.db: corrupt database (database disk image is malformed)$' err
    done
    expect_rc 2 "$GPMC" query --db z.db "SELECT * FROM $table"
    assert_grep "query on a zeroed page of $table" \
        '^gpmc: error: .*malformed' err
    expect_rc 2 "$GPMC" merge zm.db z.db
    expect_rc 2 "$GPMC" run "$SB" --model strict --db z.db
    assert_grep "run into a zeroed page of $table" 'z.db: corrupt database' err
done

# A database in a directory that cannot be written (run as nobody when we
# are root, whom permissions do not stop): read as it is, and a writer is
# told why it cannot write.
as_user() { "$@"; }
if [ "$(id -u)" = 0 ]; then
    need setpriv
    as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
fi
chmod 755 "$T"
mkdir ro
cp d.db ro/d.db
chmod 644 ro/d.db
chmod 555 ro
expect_rc 0 as_user "$GPMC" query --db ro/d.db --csv "SELECT * FROM verdict_matrix"
assert_same "verdict_matrix read in a read-only directory" out want.csv
expect_rc 0 as_user "$GPMC" report verdicts --db ro/d.db
expect_rc 2 as_user "$GPMC" run "$SB" --model strict --db ro/d.db
assert_grep "a writer of a read-only file" \
    "^gpmc run: error: ro/d.db: cannot write: the file is read-only\$" err
chmod 666 ro/d.db
expect_rc 2 as_user "$GPMC" run "$SB" --model strict --db ro/d.db
assert_grep "a writer in a read-only directory" \
    "^gpmc run: error: ro/d.db: cannot write: its directory is not writable (SQLite keeps ro/d.db-wal and ro/d.db-shm beside it)\$" \
    err
[ -z "$(ls ro | grep -v '^d.db$')" ] || fail "files appeared in ro/: $(ls ro)"
chmod 755 ro

# A test name of 3.9 MB: clipped to 80 characters in text tables (the
# table was as wide as the name, on every row: 897 MB for `report costs`),
# whole in CSV.
python3 -c '
print("test " + "L" * 3900000 + "+base \"long\"")
print("pm x = 0")
print("kernel k grid 1 block 1 { st x, 1 }")
print("check crash forall (x == 0 || x == 1)")' >long.litmus
expect_rc 0 "$GPMC" run long.litmus --model all --db long.db
expect_rc 0 "$GPMC" report costs --db long.db
[ "$(wc -c <out)" -lt 2000 ] || fail "report costs printed $(wc -c <out) bytes"
assert_eq "the clipped name" "$(sed -n 3p out | cut -c1-80)" \
    "$(printf '%077d...' 0 | tr 0 L)"
for r in verdicts unexpected disagreements; do
    expect_rc 0 "$GPMC" report $r --db long.db
    [ "$(wc -c <out)" -lt 2000 ] || fail "report $r printed $(wc -c <out) bytes"
done
expect_rc 0 "$GPMC" report costs --db long.db --csv
[ "$(wc -c <out)" -gt 23400000 ] || fail "--csv clipped the name"
