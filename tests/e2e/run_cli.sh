#!/bin/sh
# `gpmc run`: exit codes, the fixed Observation/Verdict lines of small tests
# whose outcomes are derived by hand below, run-to-run identical output,
# --json, notes on stderr, and the rows --db writes.
. "$(dirname "$0")/lib.sh"
need python3
ABS=strict,epoch,bepoch,scoped,bscoped
cd "$T"

# T1: two unordered stores of one thread. Crash points: before, between and
# after the stores. strict (every store depends on the older ones) allows
# the images {}, {x}, {x,y}: 3 outcomes, none with y=1 and x=0. The other
# models order nothing here: also {y}, 4 outcomes, one of them y=1, x=0.
# final: the one terminal state x=1, y=1. noerror: no error (P=0), one
# terminal state (N=1).
cat >t1.litmus <<'EOF'
test T1 "two unordered stores"
pm x = 0
pm y = 0
kernel k grid 1 block 1 {
  st x, 1
  st y, 1
}
check crash ~exists (y == 1 && x == 0) expect strict=ok epoch=no bepoch=no scoped=no bscoped=no
check final forall (x == 1 && y == 1)
check noerror
EOF

# T2: a pbar between the stores. Every model orders x before y (epoch and
# scoped force x, bepoch and bscoped put x in y's frontier; strict anyway):
# the crash outcomes are x,y = 00, 10, 11. Recovery copies y into z; a
# completed recovery always leaves z == y, and y is 0 or 1: 2 outcomes.
cat >t2.litmus <<'EOF'
test T2 "a persist barrier orders two stores of one thread; recovery copies y to z"
pm x = 0
pm y = 0
pm z = 0
kernel k grid 1 block 1 {
  st x, 1
  pbar
  st y, 1
}
recover {
  kernel fix grid 1 block 1 {
    ld r0, y
    st z, r0
  }
}
check crash ~exists (y == 1 && x == 0) expect strict=ok epoch=ok bepoch=ok scoped=ok bscoped=ok
check recovered forall (z == y)
EOF

cat >want <<'EOF'
Test T1 strict
Observation T1 strict 0 Never 0 3
Observation T1 strict 1 Always 1 0
Observation T1 strict 2 Never 0 1
Verdict T1 strict 0 Ok Ok
Verdict T1 strict 1 Ok -
Verdict T1 strict 2 Ok -
Test T1 epoch
Observation T1 epoch 0 Sometimes 1 3
Observation T1 epoch 1 Always 1 0
Observation T1 epoch 2 Never 0 1
Verdict T1 epoch 0 No No
Verdict T1 epoch 1 Ok -
Verdict T1 epoch 2 Ok -
Test T1 bepoch
Observation T1 bepoch 0 Sometimes 1 3
Observation T1 bepoch 1 Always 1 0
Observation T1 bepoch 2 Never 0 1
Verdict T1 bepoch 0 No No
Verdict T1 bepoch 1 Ok -
Verdict T1 bepoch 2 Ok -
Test T1 scoped
Observation T1 scoped 0 Sometimes 1 3
Observation T1 scoped 1 Always 1 0
Observation T1 scoped 2 Never 0 1
Verdict T1 scoped 0 No No
Verdict T1 scoped 1 Ok -
Verdict T1 scoped 2 Ok -
Test T1 bscoped
Observation T1 bscoped 0 Sometimes 1 3
Observation T1 bscoped 1 Always 1 0
Observation T1 bscoped 2 Never 0 1
Verdict T1 bscoped 0 No No
Verdict T1 bscoped 1 Ok -
Verdict T1 bscoped 2 Ok -
Test T2 strict
Observation T2 strict 0 Never 0 3
Observation T2 strict 1 Always 2 0
Verdict T2 strict 0 Ok Ok
Verdict T2 strict 1 Ok -
Test T2 epoch
Observation T2 epoch 0 Never 0 3
Observation T2 epoch 1 Always 2 0
Verdict T2 epoch 0 Ok Ok
Verdict T2 epoch 1 Ok -
Test T2 bepoch
Observation T2 bepoch 0 Never 0 3
Observation T2 bepoch 1 Always 2 0
Verdict T2 bepoch 0 Ok Ok
Verdict T2 bepoch 1 Ok -
Test T2 scoped
Observation T2 scoped 0 Never 0 3
Observation T2 scoped 1 Always 2 0
Verdict T2 scoped 0 Ok Ok
Verdict T2 scoped 1 Ok -
Test T2 bscoped
Observation T2 bscoped 0 Never 0 3
Observation T2 bscoped 1 Always 2 0
Verdict T2 bscoped 0 Ok Ok
Verdict T2 bscoped 1 Ok -
EOF

# --- exit 0, the fixed lines, the rows written --------------------------
expect_rc 0 "$GPMC" run t1.litmus t2.litmus --model $ABS --db r.db
grep -E '^(Test|Observation|Verdict) ' out >got
assert_same "Test/Observation/Verdict lines of T1 and T2" got want
[ ! -s err ] || fail "notes or errors on stderr: $(head -3 err)"
assert_grep "T1 epoch witness" \
    '^Witness counterexample (1 crash), violation [0-9][0-9]*:$' out
# --db prints the ids it stored: a Stored line per check, each witness's
# violation id, as in the database
awk '$1 == "Stored" { print $2 "," $3 "," $5 }' out | sort >stored.lines
q r.db "SELECT t.name, c.model, c.check_id FROM checks c
        JOIN tests t USING (test_id)" | sort >stored.rows
assert_same "Stored lines against the checks rows" stored.lines stored.rows
[ "$(wc -l <stored.lines)" = 10 ] || fail "Stored lines: $(cat stored.lines)"
awk '/^Test / { t = $2 " " $3 } /^Witness / { sub(":$", "", $NF); print t "," $NF }' out |
    tr ' ' , | sort >vio.lines
q r.db "SELECT t.name, c.model, v.violation_id FROM violations v
        JOIN checks c USING (check_id) JOIN tests t USING (test_id)" |
    sort >vio.rows
assert_same "violation ids printed against the violations rows" vio.lines \
    vio.rows
assert_grep "T1 epoch crash image" '^    image: x=0; y=1$' out

assert_eq "runs" "$(q r.db "SELECT count(*), status, finished_at IS NOT NULL,
                              argv LIKE 'gpmc run %' FROM runs")" "1,done,1,1"
assert_eq "tests" "$(q r.db "SELECT group_concat(name || '/' || path || '/' ||
                               params, ' ') FROM tests")" \
    "T1/t1.litmus/ T2/t2.litmus/"
sha=$(sha256sum t1.litmus | cut -d' ' -f1)
assert_eq "sha256 of t1.litmus" \
    "$(q r.db "SELECT sha256 FROM tests WHERE name = 'T1'")" "$sha"
assert_eq "checks" "$(q r.db "SELECT count(*), sum(status = 'done')
                              FROM checks")" "10,10"
config='bus_bytes=32;controllers=8;core_ghz=1.8;crash_depth=2;cta_per_sm=32;dram_read_ns=160;dram_write_ns=160;icnt_ghz=1.4;l1_kb=24;l2_kb=2048;l2_partitions=16;line_bytes=128;mem_ghz=1.2;naive=0;nvm_banks=16;nvm_read_ns=160;nvm_write_ns=480;pcie_gbps=12;pcie_ns=1000;pm_path=l2;preset=lin;row_bytes=2048;row_hit_ns=15;sms=20;threads_per_sm=2048;wpq=durable;wpq_entries=64;wpq_high=54;wpq_low=32;wt_ack=nvm'
assert_eq "configs" "$(q r.db "SELECT DISTINCT config FROM checks")" "$config"
# results: 3 per T1 check, 2 per T2 check; outcomes: T1 strict 1 final +
# 3 crash, the other T1 checks 1 + 4, every T2 check 3 crash + 2 recovered
assert_eq "results rows" "$(q r.db "SELECT count(*) FROM results")" 25
assert_eq "noerror results rows (quant and cond NULL)" \
    "$(q r.db "SELECT count(*), sum(quant IS NULL AND cond IS NULL)
               FROM results WHERE phase = 'noerror'")" "5,5"
assert_eq "outcomes rows" "$(q r.db "SELECT count(*) FROM outcomes")" 49
assert_eq "crash outcomes of T1 epoch" "$(q r.db "SELECT group_concat(state, '|')
    FROM (SELECT o.state FROM outcomes o JOIN checks c USING (check_id)
          JOIN tests t USING (test_id)
          WHERE t.name = 'T1' AND c.model = 'epoch' AND o.phase = 'crash'
          ORDER BY o.state)")" "x=0; y=0|x=0; y=1|x=1; y=0|x=1; y=1"
# one counterexample per No: T1's check 0 under the four relaxed models
assert_eq "violations" "$(q r.db "SELECT group_concat(c.model || ':' ||
    v.cond_index || ':' || v.kind || ':' || v.depth || ':' || v.image, ' ')
    FROM (SELECT * FROM violations ORDER BY check_id) v
    JOIN checks c USING (check_id)")" \
    "epoch:0:counterexample:1:x=0; y=1 bepoch:0:counterexample:1:x=0; y=1 scoped:0:counterexample:1:x=0; y=1 bscoped:0:counterexample:1:x=0; y=1"
# the rows say what the printed lines say
awk '$1 == "Observation" { print $2 "," $3 "," $4 "," $6 "," $7 }' out |
    sort >obs.lines
q r.db "SELECT t.name, c.model, r.cond_index, r.positive, r.negative
        FROM results r JOIN checks c USING (check_id)
        JOIN tests t USING (test_id)" | sort >obs.rows
assert_same "results rows against the Observation lines" obs.rows obs.lines
awk '$1 == "Verdict" { e = $6 == "-" ? "" : $6
                       print $2 "," $3 "," $4 "," $5 "," e }' out |
    sort >verdict.lines
q r.db "SELECT test, model, cond_index, verdict, expected
        FROM verdict_matrix" | sort >verdict.rows
assert_same "verdict_matrix against the Verdict lines" verdict.rows \
    verdict.lines

# --- the same output every time, apart from Time lines -------------------
files="t1.litmus t2.litmus $(find "$ROOT/litmus/suite/models" -name '*.litmus' |
    LC_ALL=C sort)"
try "$GPMC" run $files
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "run over the corpus exited $rc"
grep -v '^Time ' out >out1
cp err err1
try "$GPMC" run $files
grep -v '^Time ' out >out2
assert_same "second run's output (without Time lines)" out2 out1
assert_same "second run's stderr" err err1
ntime=$(grep -c '^Time ' out)
nfiles=$(echo $files | wc -w)
assert_eq "Time lines (one per file and model)" "$ntime" $((nfiles * 6))

# --- --json ----------------------------------------------------------------
cat >json_check.py <<'EOF'
import json, sys
# argv: a --json output, the text output of the same run, the expected
# number of checks; prints the JSON without timing figures.
with open(sys.argv[1]) as f:
    data = json.load(f)
assert isinstance(data, list), "not an array"
assert len(data) == int(sys.argv[3]), "%d objects, expected %s" % (len(data), sys.argv[3])
lines = []
for c in data:
    lines.append("Test %s %s" % (c["test"], c["model"]))
    for r in c["results"]:
        lines.append("Verdict %s %s %d %s %s" % (c["test"], c["model"],
                     r["cond_index"], r["verdict"], r["expected"] or "-"))
    c["stats"].pop("elapsed_ms")
with open(sys.argv[2]) as f:
    text = [l.rstrip("\n") for l in f if l.startswith(("Test ", "Verdict "))]
assert lines == text, "JSON verdicts differ from the text output"
json.dump(data, sys.stdout, sort_keys=True)
EOF
try "$GPMC" run $files --json
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "run --json exited $rc"
python3 -m json.tool out >/dev/null 2>json.err ||
    fail "run --json is not valid JSON: $(head -c 300 json.err)"
mv out json1
python3 json_check.py json1 out1 $((nfiles * 6)) >json1.fixed 2>json.err ||
    fail "run --json: $(tail -n 1 json.err)"
try "$GPMC" run $files --json
python3 json_check.py out out1 $((nfiles * 6)) >json2.fixed 2>json.err ||
    fail "second run --json: $(tail -n 1 json.err)"
assert_same "second run's --json (without elapsed_ms)" json2.fixed json1.fixed
expect_rc 2 "$GPMC" run t1.litmus nonexistent.litmus --json --model strict
python3 -m json.tool out >/dev/null 2>json.err ||
    fail "run --json with a missing file is not valid JSON: $(head -c 300 json.err)"

# --- exit 1: a failed expectation, an incomplete check, an unexpected error
sed 's/^test T1 /test T1F /; s/expect strict=ok/expect strict=no/' t1.litmus \
    >t1f.litmus
expect_rc 1 "$GPMC" run t1f.litmus --model strict
assert_grep "mismatch" '^Expected No: MISMATCH$' out
assert_grep "Verdict line of a mismatch" '^Verdict T1F strict 0 Ok No$' out
expect_rc 0 "$GPMC" run t1f.litmus --model epoch

cat >t3.litmus <<'EOF'
test T3 "two threads store N values each"
param N = 2
pm a[N] = 0
pm b[N] = 0
kernel k grid 1 block 2 {
  thread 0 {
    st a[0], 1
    st a[N-1], 2
  }
  thread 1 {
    st b[0], 1
    st b[N-1], 2
    pbar.wg
  }
}
check final forall (a[0] == 1 && b[N-1] == 2)
EOF
expect_rc 0 "$GPMC" run t3.litmus --model epoch
expect_rc 1 "$GPMC" run t3.litmus --model epoch --max-states 5 --no-reduce \
    --db inc.db
assert_grep "incomplete status" '^Status incomplete: max-states (5) reached$' out
assert_eq "incomplete check row" "$(q inc.db "SELECT status, error FROM checks")" \
    "incomplete,max-states (5) reached"

# notes go to stderr, once per check, never to stdout
expect_rc 0 "$GPMC" run t3.litmus --model epoch,bepoch
printf '%s\n' \
    "t3.litmus: note: epoch has one thread-local barrier: pbar.wg and pbar.kr act as pbar" \
    "t3.litmus: note: bepoch has one thread-local barrier: pbar.wg and pbar.kr act as pbar" \
    >notes.want
assert_same "notes on stderr" err notes.want
! grep -q 'note:' out || fail "a note went to stdout"

# -D, --crash-depth and --naive are part of the recorded config
expect_rc 0 "$GPMC" run t3.litmus --model epoch -D N=3 --crash-depth 3 --naive \
    --db d.db
assert_grep "-D N=3 folded into the condition" \
    '^Check 0 final forall (a\[0\] == 1 && b\[2\] == 2)$' out
assert_eq "params and config with -D N=3" \
    "$(q d.db "SELECT t.params, c.config FROM checks c JOIN tests t USING (test_id)")" \
    "N=3,N=3;$(echo "$config" | sed 's/crash_depth=2/crash_depth=3/; s/naive=0/naive=1/')"

# a runtime error fails the run unless a `check noerror` expects it
cat >e.litmus <<'EOF'
test E "a failed assert, and no check noerror"
pm x = 0
kernel k grid 1 block 1 {
  ld r0, x
  assert r0 == 1
}
check final forall (x == 0)
EOF
expect_rc 1 "$GPMC" run e.litmus --model strict
assert_grep "count of errors" '^Errors 1$' out
assert_grep "error listed with file:line" '^  assert: .*e\.litmus:5\b' out
{ cat e.litmus; echo "check noerror expect strict=no epoch=no bepoch=no scoped=no bscoped=no"; } |
    sed 's/^test E /test E2 /' >e2.litmus
expect_rc 0 "$GPMC" run e2.litmus --model strict
# no terminal state: final is forall over nothing (Ok, 0 0); one error
grep -E '^(Observation|Verdict) ' out >got
printf '%s\n' "Observation E2 strict 0 Never 0 0" \
    "Observation E2 strict 1 Always 1 0" "Verdict E2 strict 0 Ok -" \
    "Verdict E2 strict 1 No No" >want.e2
assert_same "Observation/Verdict lines of E2" got want.e2

# --- exit 2: parse errors, all of a file, nothing written -----------------
printf 'test B\npm x = 0\nkernel k grid 1 block 1 {\n  st y, 1\n  st x 1\n}\n' \
    >bad.litmus
expect_rc 2 "$GPMC" run bad.litmus --db new.db
[ ! -s out ] || fail "output for a file that does not parse: $(head -3 out)"
assert_eq "error lines" "$(grep -c ': error: ' err)" 2
assert_eq "error lines with their excerpts" "$(wc -l <err)" 6
assert_grep "first error" '^bad\.litmus:4:6: error: ' err
assert_grep "second error" '^bad\.litmus:5:8: error: ' err
[ ! -e new.db ] || fail "a run whose only file does not parse created its --db"
before=$(sha256sum r.db)
expect_rc 2 "$GPMC" run bad.litmus --db r.db
assert_eq "sha256 of r.db after a parse error" "$(sha256sum r.db)" "$before"
# the other files are still checked and stored, the bad one is not
expect_rc 2 "$GPMC" run bad.litmus t1.litmus --model strict --db mixed.db
assert_grep "the good file is still checked" '^Verdict T1 strict 0 Ok Ok$' out
assert_eq "tests stored when one file does not parse" \
    "$(q mixed.db "SELECT group_concat(name) FROM tests")" "T1"
expect_rc 2 "$GPMC" run nonexistent.litmus
assert_grep "missing file" '^nonexistent\.litmus: error: ' err

# --- exit 2: usage errors, nothing on stdout -------------------------------
usage() {
    expect_rc 2 "$GPMC" run "$@"
    [ ! -s out ] || fail "'run $*' printed on stdout: $(head -2 out)"
    assert_grep "'run $*'" '^gpmc run: error: ' err
}
usage
usage t1.litmus --bogus
usage --bogus t1.litmus
usage t1.litmus --model
usage t1.litmus --model nosuchmodel
usage t1.litmus --model strict,nosuchmodel
usage t1.litmus --crash-depth 0
usage t1.litmus --crash-depth x
usage t1.litmus --max-states 0
usage t1.litmus --max-steps -1
usage t1.litmus --timeout 0
usage t1.litmus --timeout nan
usage t1.litmus --max-states 99999999999999999999
usage t1.litmus -D
usage t1.litmus -D N
usage t1.litmus -D N=x
usage t1.litmus -D N=99999999999999999999
usage t1.litmus --jobs 2
usage t1.litmus --shard 1/2
usage t1.litmus --resume
usage t1.litmus --db /nonexistent/dir/r.db
[ ! -e /nonexistent/dir/r.db ]
