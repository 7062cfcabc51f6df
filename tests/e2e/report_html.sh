#!/bin/sh
# gpmc report html: one self-contained page, opened in headless Chromium;
# the test asserts on the DOM Chromium builds from it: the runs it covers,
# the verdict matrix with its classes (Unknown and vacuous marked) and
# every row's config, links from the cells that do not pass to their
# witnesses, drawn as inline SVG by Graphviz (and only those: a passing
# witness is named for `gpmc show`), cost charts with one scale and a
# labelled axis each, the configs, and the state-space-growth plot from the
# bench's CSV (or a note without it). Then: the dot processes run at once,
# --witnesses caps the drawings, and the page of the bundled suite stays
# small and quick.
. "$(dirname "$0")/lib.sh"
need python3
need dot
need chromium
cd "$T"

# Under epoch the flag can persist without the datum: recovery copies the
# datum it reads. The expectation says epoch holds: it does not pass.
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
  }
}
check recovered forall (f == 0 || out == 1) expect strict=ok epoch=ok
LIT
# Two unordered stores: the counterexample is expected (it passes). A final
# condition of a spin that never ends is vacuous; a volatile WPQ makes a
# second config.
cat >two.litmus <<'LIT'
test TWO "two unordered stores"
pm x = 0
pm y = 0
kernel k grid 1 block 1 { st x, 1; st y, 1 }
check crash ~exists (y == 1 && x == 0) expect strict=ok epoch=no bepoch=no scoped=no bscoped=no
LIT
cat >spin.litmus <<'LIT'
test SPIN "a thread that never ends"
config wpq = volatile
pm x = 0
kernel k grid 1 block 1 {
top:
  bra top
}
check final forall (x == 1)
LIT
expect_rc 1 "$GPMC" run mpr.litmus two.litmus --model strict,epoch --db r.db
expect_rc 1 "$GPMC" run spin.litmus --model strict --db r.db
# an incomplete check: Unknown
expect_rc 1 "$GPMC" run "$ROOT/bench/barrier.litmus" --model strict \
    --max-states 50 --db r.db
mkdir bench
printf 'series,size,states,seconds\nbarrier strict,4,120,0.1\nbarrier strict,6,4000,0.2\nbarrier strict,8,150000,3\nmp strict,2,50,0.1\nmp strict,3,9000,0.4\n' \
    >bench/growth.csv

expect_rc 0 "$GPMC" report html --db r.db -o r.html --bench bench
[ ! -s out ] || fail "report html -o wrote to stdout"
[ -s r.html ] || fail "no r.html"
# self-contained: nothing fetched
! grep -q '<script\|<link\|src=' r.html || fail "the page loads something"

dom() {
    timeout 120 chromium --headless --no-sandbox --disable-gpu \
        --user-data-dir="$T/chromium" --dump-dom "file://$T/$1" \
        >"$2" 2>"$T/chromium.err" ||
        fail "chromium could not render $1: $(tail -3 "$T/chromium.err")"
    [ -s "$2" ] || fail "chromium rendered nothing for $1"
}
dom r.html r.dom

# the ids of the configs: the most common one, and the volatile WPQ's
ref=$(q r.db "SELECT config FROM checks GROUP BY config
              ORDER BY count(*) DESC, config LIMIT 1")
refid=$(printf '%s' "$ref" | sha256sum | cut -c1-8)
vol=$(q r.db "SELECT DISTINCT c.config FROM checks c
              JOIN tests t ON t.test_id = c.test_id WHERE t.name = 'SPIN'")
volid=$(printf '%s' "$vol" | sha256sum | cut -c1-8)

cat >check.py <<'PY'
import sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    """Elements with their attributes and text, and their ancestors."""
    def __init__(self):
        super().__init__()
        self.stack, self.elems = [], []
    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "text": "",
             "parents": list(self.stack)}
        self.elems.append(e)
        if tag not in ("meta", "br", "circle", "polyline", "path", "polygon",
                       "ellipse", "rect", "line"):
            self.stack.append(e)
    def handle_endtag(self, tag):
        if any(e["tag"] == tag for e in self.stack):
            while self.stack.pop()["tag"] != tag:
                pass
    def handle_data(self, data):
        for e in self.stack:
            e["text"] += data

d = Dom()
d.feed(open(sys.argv[1]).read())
E = d.elems
refid, volid = sys.argv[2], sys.argv[3]

def within(e, tag, id=None):
    return any(p["tag"] == tag and (id is None or p["attrs"].get("id") == id)
               for p in e["parents"])

def cls(e):
    return e["attrs"].get("class", "").split()

def parent(e):
    return e["parents"][-1] if e["parents"] else None

# what the page covers: the runs its latest checks come from
summary = [e for e in E if e["attrs"].get("id") == "summary"]
assert ("4 tests (4 files), 6 latest checks, from 3 of the database's 3 runs"
        in summary[0]["text"]), summary[0]["text"]
runs = [e for e in E if e["tag"] == "tr" and within(e, "table", "runs")]
assert len(runs) == 4 and "gpmc run spin.litmus" in runs[2]["text"], \
    [e["text"] for e in runs]
# the matrix: a header per model; cells coloured by class
matrix = [e for e in E if e["tag"] == "table" and e["attrs"].get("id") == "matrix"]
assert len(matrix) == 1, "one matrix"
heads = [e["text"] for e in E if e["tag"] == "th" and within(e, "table", "matrix")]
assert heads == ["test", "config", "cond", "phase", "strict", "epoch", "bepoch",
                 "scoped", "bscoped", "hw"], heads
cells = [e for e in E if e["tag"] == "td" and within(e, "table", "matrix")]
# every row names its config: the id, and what sets it apart
rows = {}
for c in cells:
    rows.setdefault(id(parent(c)), []).append(c)
cfg = {r[0]["text"]: r[1]["text"] for r in rows.values()}
assert cfg == {"MPR": refid, "TWO": refid, "bench-barrier": refid,
               "SPIN": volid + " wpq=volatile"}, cfg
unknown = [e for e in cells if "unknown" in cls(e)]
assert len(unknown) == 1 and unknown[0]["text"] == "Unknown!", unknown
ok = [e for e in cells if "ok" in cls(e)]
assert [e["text"] for e in ok] == ["Ok", "Ok\u2205", "Ok"], [e["text"] for e in ok]
no = [e for e in cells if "no" in cls(e)]
assert [e["text"] for e in no] == ["No"], [e["text"] for e in no]
# the expected counterexample is not drawn: its cell names it for show
assert "gpmc show violation" in no[0]["attrs"]["title"], no[0]["attrs"]
vac = [e for e in cells if "vacuous" in cls(e)]
assert len(vac) == 1 and "vacuous" in vac[0]["attrs"]["title"], vac
# the epoch No that does not pass links to its witness; the other drawn is
# the spin's livelock, a runtime error that no check noerror covers
links = [e for e in E if e["tag"] == "a" and within(e, "table", "matrix")]
assert len(links) == 1 and links[0]["text"] == "No!", len(links)
target = links[0]["attrs"]["href"][1:]
sections = [e for e in E if e["tag"] == "section"]
assert [s["attrs"]["id"] for s in sections][0] == target, target
assert len(sections) == 2, len(sections)
assert "error of SPIN under strict" in sections[1]["text"]
# the witness: inline SVG drawn by Graphviz, with its nodes and edges
svgs = [e for e in E if e["tag"] == "svg" and within(e, "section", target)]
assert len(svgs) == 1, "one svg in " + target
nodes = [e for e in E if e["tag"] == "g" and "node" in cls(e) and within(e, "section", target)]
edges = [e for e in E if e["tag"] == "g" and "edge" in cls(e) and within(e, "section", target)]
assert len(nodes) == 6, "steps and the crash: %d nodes" % len(nodes)
assert any("rf d" in e["text"] for e in edges), "an rf edge from the image"
assert "counterexample of MPR under epoch" in sections[0]["text"]
assert "expected Ok: does not pass" in sections[0]["text"]
# the failing checks, each with links to its witnesses: the epoch one, the
# spin's livelock, the incomplete one
failing = [e for e in E if e["tag"] == "tr" and within(e, "table", "failing-checks")
           and within(e, "tbody")]
first = [[c for c in E if c["tag"] == "td" and parent(c) is r][0]["text"]
         for r in failing]
assert first == ["MPR", "SPIN", "bench-barrier"], \
    [e["text"] for e in failing]
flinks = [e for e in E if e["tag"] == "a" and within(e, "table", "failing-checks")]
assert [e["attrs"]["href"] for e in flinks] == [
    "#" + s["attrs"]["id"] for s in sections], len(flinks)
# cost charts: per test a chart of cycles and one of NVM writes, a bar per
# model, an axis (0, half, the round maximum) and its title
charts = [e for e in E if e["tag"] == "svg" and "chart" in cls(e)]
figs = [e for e in E if e["tag"] == "figure"]
assert [f["text"].split()[0] for f in figs] == ["MPR", "TWO", "bench-barrier"], \
    [f["text"][:40] for f in figs]
mpr = [c for c in charts if parent(c) is figs[0]]
assert len(mpr) == 2, len(mpr)
bars = [e for e in E if e["tag"] == "rect" and "cycles" in cls(e)
        and parent(e) is mpr[0]]
assert len(bars) == 2 and all(0 < float(b["attrs"]["width"]) <= 220 for b in bars), bars
ticks = [e["text"] for e in E if e["tag"] == "text" and "tick" in cls(e)
         and parent(e) is mpr[0]]
assert len(ticks) == 3 and ticks[0] == "0", ticks
axis = [e["text"] for e in E if e["tag"] == "text" and "axis" in cls(e)
        and parent(e) is mpr[0]]
assert axis == ["core cycles of the timed run"], axis
# the configs: each id with its config whole
clist = [e for e in E if e["tag"] == "tr" and within(e, "table", "config-list")
         and within(e, "tbody")]
assert sorted(e["attrs"]["id"] for e in clist) == sorted(
    ["config-" + refid, "config-" + volid]), [e["text"] for e in clist]
# the growth plot: a polyline per series
plot = [e for e in E if e["tag"] == "polyline" and within(e, "div", "growth-plot")]
assert len(plot) == 2, len(plot)
print("ok")
PY
python3 check.py r.dom "$refid" "$volid" >check.out 2>&1 ||
    fail "DOM: $(tail -3 check.out)"

# without a bench: a note where the plot would be; the page goes to stdout
expect_rc 0 "$GPMC" report html --db r.db --bench nosuchdir
cp out r2.html
dom r2.html r2.dom
grep -q 'No plot: run <code>make bench</code>' r2.dom ||
    fail "no note for the missing bench plot"

# The dot processes run at once: a dot that notes when it starts and ends,
# a second apart, before drawing; three witnesses go to two processes or
# more, all started before any ends.
cat >three.litmus <<'LIT'
test THREE "two unordered stores, no expectation"
pm x = 0
pm y = 0
kernel k grid 1 block 1 { st x, 1; st y, 1 }
check crash ~exists (y == 1 && x == 0)
LIT
expect_rc 1 "$GPMC" run three.litmus --model bepoch,scoped,bscoped --db w.db
mkdir bin
real_dot=$(command -v dot)
printf '#!/bin/sh\necho "start $$" >>"%s/dot.log"\nsleep 1\necho "end $$" >>"%s/dot.log"\nexec "%s" "$@"\n' \
    "$T" "$T" "$real_dot" >bin/dot
chmod +x bin/dot
expect_rc 0 env PATH="$T/bin:$PATH" "$GPMC" report html --db w.db -o w.html
n=$(grep -c '^start ' dot.log) || true
[ "$n" -ge 2 ] || fail "one dot process for three witnesses: $(cat dot.log)"
first_end=$(grep -n '^end ' dot.log | head -n 1 | cut -d: -f1)
[ "$first_end" -gt "$n" ] ||
    fail "the dot processes ran one after the other: $(cat dot.log)"
n=$(grep -c '<section class="witness"' w.html) || true
assert_eq "witnesses drawn" "$n" 3
n=$(grep -c '<svg' w.html) || true
[ "$n" -ge 3 ] || fail "the witnesses were not drawn"
# --witnesses caps what is drawn; the page says so
expect_rc 0 "$GPMC" report html --db w.db -o w1.html --witnesses 1
n=$(grep -c '<section class="witness"' w1.html) || true
assert_eq "witnesses drawn with --witnesses 1" "$n" 1
grep -q '1 drawn of 3 (at most 1' w1.html || fail "no word of the cap"
expect_rc 2 "$GPMC" report verdicts --db w.db --witnesses 1

# The bundled suite's page: under 2 MB and 5 s (it was 21 MB and 40 s,
# every witness drawn by one dot process).
expect_rc 0 "$GPMC" suite "$ROOT/litmus/suite" --jobs 2 --db s.db
start=$(date +%s%N)
expect_rc 0 "$GPMC" report html --db s.db -o s.html
ms=$((($(date +%s%N) - start) / 1000000))
size=$(wc -c <s.html)
[ "$size" -lt 2000000 ] || fail "the suite's page is $size bytes"
[ "$ms" -lt 5000 ] || fail "the suite's page took $ms ms"
