#!/bin/sh
# Reports and witnesses from real runs: report --csv/--json agree with the
# views, unexpected names the check and violation ids that `show` opens,
# query reads its SQL from stdin with -, and show --dot draws a witness
# with its title, thread clusters, program order, reads-from (also from
# the crash image into recovery) and persist-order edges, numbered as the
# text, that Graphviz renders.
. "$(dirname "$0")/lib.sh"
need python3
need dot
cd "$T"

# Message passing with a persisted flag: under epoch the flag can persist
# without the datum, and recovery copies the datum it reads.
cat >mpr.litmus <<'LIT'
test MPR "message passing persisted; recovery copies the flag's datum"
pm d = 0
pm f = 0
pm out = 0
kernel k grid 1 block 2 {
  thread 0 { st d, 1; st f, 1 }
  thread 1 { ld r0, f; ld r1, d }
}
recover {
  kernel fix grid 1 block 1 {
    ld r0, f
    ld r1, d
    st out, r1
    ld r2, out
  }
}
check recovered forall (f == 0 || out == 1) expect strict=ok
check final forall (1:r0 == 0 || 1:r1 == 1)
LIT
expect_rc 1 "$GPMC" run mpr.litmus --model strict,epoch --db r.db
cat >witness.want <<'OUT'
Witness counterexample (1 crash), violation 1:
  main program:
    1. k thread 0 line 6: st d, 1  -- d = 1 [#1]
    2. k thread 0 line 6: st f, 1  -- f = 1 [#2]
  crash 1 after step 2: image includes #2 f = 1; lacks #1 d = 1
    image: d=0; f=1; out=0
  recovery 1:
    3. fix thread 0 line 11: ld r0, f  -- r0 = 1 (f)
    4. fix thread 0 line 12: ld r1, d  -- r1 = 0 (d)
    5. fix thread 0 line 13: st out, r1  -- out = 0 [#3]
    6. fix thread 0 line 14: ld r2, out  -- r2 = 0 (out)
  recovered: f=1; out=0
OUT
sed -n '/^Witness /,/^  recovered: /p' out >witness.got
assert_same "the epoch witness" witness.got witness.want

expect_rc 0 "$GPMC" show violation 1 --dot --db r.db
cp out v1.dot
# the title: the violation, the check line, verdict and outcome
assert_grep "title" '^  label="violation 1: counterexample of MPR under epoch (check 2)\\ncondition 0: recovered forall (f == 0 || out == 1): No (expected none)\\noutcome: f=1; out=0";$' v1.dot
# clusters: main and recovery, a cluster per thread inside each
for c in 'subgraph cluster_main {' 'subgraph cluster_main_t0 {' \
    'subgraph cluster_recovery {' 'subgraph cluster_recovery_t0 {'; do
    assert_grep "cluster $c" "^ *$c\$" v1.dot
done
# the steps, numbered as in the text
assert_grep "step 1" '^      s0 \[label="1: T0 k:6\\nst d, 1\\nd = 1\\nstore #1", style=filled, fillcolor=lightpink\];$' v1.dot
assert_grep "step 6" '^      s5 \[label="6: T0 fix:14\\nld r2, out\\nr2 = 0 (out)"\];$' v1.dot
assert_grep "crash" '^  crash \[shape=octagon, label="crash after step 2\\npersisted: #2\\nlost: #1"\];$' v1.dot
grep -E '^  [a-z0-9]+ -> [a-z0-9]+ ' v1.dot | sed 's/, color=.*//; s/ \[style=bold\];//' >edges
cat >edges.want <<'OUT'
  s0 -> s1 [label="po"];
  s2 -> s3 [label="po"];
  s3 -> s4 [label="po"];
  s4 -> s5 [label="po"];
  crash -> s2 [label="rf f"
  crash -> s3 [label="rf d"
  s4 -> s5 [label="rf out"
  s1 -> crash
  crash -> s2
  s1 -> crash [label="persisted"
  s0 -> crash [label="lost"
OUT
assert_same "po, rf, crash and persist-order edges" edges edges.want
dot -Tsvg v1.dot >v1.svg 2>dot.err || fail "dot -Tsvg: $(cat dot.err)"
grep -q '<svg' v1.svg || fail "dot wrote no SVG"

# reads-from between threads in the main program: the final counterexample
# does not exist here (check 1 holds), so take an example instead
cat >rf.litmus <<'LIT'
test RF "a load reads the other thread's store"
pm x = 0
kernel k grid 1 block 2 {
  thread 0 { st x, 1 }
  thread 1 { ld r0, x }
}
check final exists (1:r0 == 1)
LIT
expect_rc 0 "$GPMC" run rf.litmus --model strict --db rf.db
expect_rc 0 "$GPMC" report unexpected --status --db rf.db
expect_rc 0 "$GPMC" show check 1 --dot --db rf.db
assert_grep "rf between threads" '^  s0 -> s1 \[label="rf x"' out
assert_grep "the outcome in the title" 'outcome: 1:r0=1";$' out

# report unexpected names the check and the violation that show opens
expect_rc 0 "$GPMC" report unexpected --db r.db
assert_grep "unexpected row with ids" \
    '^MPR   epoch     0  recovered  No       -             2  1$' out
expect_rc 0 "$GPMC" show violation 1 --db r.db
assert_grep "show violation" '^  check      2$' out
expect_rc 0 "$GPMC" show check 2 --db r.db
assert_grep "show check" '^check 2: MPR under epoch, done$' out

# --csv and --json carry what the views say: a row per model, the verdict
# clean, with its expectation and whether it passes; the config by its id
# (report configs maps it back), not its 400 characters on every row
expect_rc 0 "$GPMC" report verdicts --db r.db --csv
config=$(q r.db "SELECT DISTINCT config FROM checks")
id=$(printf '%s' "$config" | sha256sum | cut -c1-8)
assert_eq "verdicts --csv" "$(cat out)" \
"test,path,config_id,cond,phase,model,verdict,expected,pass
MPR,mpr.litmus,$id,0,recovered,strict,Ok,Ok,1
MPR,mpr.litmus,$id,0,recovered,epoch,No,,0
MPR,mpr.litmus,$id,1,final,strict,Ok,,1
MPR,mpr.litmus,$id,1,final,epoch,Ok,,1"
expect_rc 0 "$GPMC" report configs --db r.db --csv
assert_eq "configs --csv" "$(cat out)" "config_id,tests,config
$id,1,$config"
expect_rc 0 "$GPMC" report verdicts --db r.db --json
python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))
assert [(r["model"], r["cond"], r["verdict"], r["pass"]) for r in rows] == [
    ("strict", 0, "Ok", 1), ("epoch", 0, "No", 0), ("strict", 1, "Ok", 1),
    ("epoch", 1, "Ok", 1)], rows
assert all(r["config_id"] == sys.argv[2] for r in rows), rows' out "$id" ||
    fail "verdicts --json: $(cat out)"
# run --json gives the image the text witness shows, for a recovered
# counterexample too (the crash image its recovery started on)
expect_rc 1 "$GPMC" run mpr.litmus --model epoch --json
python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))[0]["violations"]
assert [(x["kind"], x["image"]) for x in v] == [
    ("counterexample", "d=0; f=1; out=0")], v' out ||
    fail "run --json image: $(cat out)"
# --status: exit 1 when the report has rows (here the epoch verdict that
# does not pass), 0 when not; a mistyped report or kind is named
expect_rc 1 "$GPMC" report unexpected --status --db r.db
assert_grep "the rows still print" '^MPR   epoch     0  recovered  No ' out
expect_rc 0 "$GPMC" report unexpected --db r.db
expect_rc 1 "$GPMC" report disagreements --status --db r.db
expect_rc 2 "$GPMC" report html --status --db r.db
expect_rc 2 "$GPMC" report verdcts --db r.db
assert_grep "did you mean" \
    "^gpmc: error: report: unknown report 'verdcts' (did you mean verdicts?)$" err
expect_rc 2 "$GPMC" show violaton 1 --db r.db
assert_grep "did you mean" \
    "^gpmc: error: show: unknown kind 'violaton' (did you mean violation?)$" err
expect_rc 0 "$GPMC" report unexpected --db r.db --json
python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))
assert [(r["model"], r["cond"], r["verdict"], r["check"], r["violation"])
        for r in rows] == [("epoch", 0, "No", 2, "1")], rows' out ||
    fail "unexpected --json: $(cat out)"
expect_rc 0 "$GPMC" report costs --db r.db --json
python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["model"] for r in rows] == ["strict", "epoch"], rows
assert all(isinstance(r["cycles"], int) for r in rows), rows' out ||
    fail "costs --json: $(cat out)"
expect_rc 2 "$GPMC" report verdicts --db r.db --csv --json
expect_rc 2 "$GPMC" report verdicts --db r.db -o x.html

# query - reads the statement from standard input
printf 'SELECT model, verdict\nFROM verdict_matrix\nWHERE cond_index = 0;\n' >q.sql
try "$GPMC" query --db r.db --csv - <q.sql
assert_eq "query - exit" "$rc" 0
assert_eq "query -" "$(cat out)" "model,verdict
strict,Ok
epoch,No"
printf 'DELETE FROM checks' >d.sql
try "$GPMC" query --db r.db - <d.sql
assert_eq "query - refuses a write" "$rc" 2
assert_grep "refusal" '^gpmc: error: query refused: ' err
head -c 1048577 /dev/zero | tr '\0' ' ' >huge.sql
try "$GPMC" query --db r.db - <huge.sql
assert_eq "query - bounds its input" "$rc" 2
assert_grep "bound" 'longer than 1 MB' err

# The witness JSON names the word each step read and wrote: a failing CAS
# only reads, a succeeding one reads and writes, shared words carry their
# CTA.
cat >cas.litmus <<'LIT'
test CAS "a failing and a succeeding cas"
pm x = 0
shared s = 0
kernel k grid 2 block 1 {
  atom.cas r0, x, 5, 7
  atom.cas r1, x, 0, 9
  st s, 1
  ld r2, s
}
check final exists (x == 9)
LIT
expect_rc 0 "$GPMC" run cas.litmus --model strict --json
python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))[0]["violations"][0]["witness_json"]
got = [(s.get("reads"), s.get("writes"), s.get("space")) for s in w["steps"]]
assert got == [("x", None, "pm"), ("x", "x", "pm"), (None, "s@cta0", "shared"),
               ("s@cta0", None, "shared"), ("x", None, "pm"), ("x", None, "pm"),
               (None, "s@cta1", "shared"), ("s@cta1", None, "shared")], got' out ||
    fail "reads and writes of the witness steps"
