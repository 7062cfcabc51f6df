#!/bin/sh
# gpmc report html: one self-contained page, opened in headless Chromium;
# the test asserts on the DOM Chromium builds from it: the verdict matrix
# with its classes (Unknown marked), links from cells to witnesses, each
# witness as inline SVG drawn by Graphviz, cost bars per model, and the
# state-space-growth plot from the bench's CSV (or a note without it).
. "$(dirname "$0")/lib.sh"
need python3
need dot
need chromium
cd "$T"

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
check recovered forall (f == 0 || out == 1) expect strict=ok epoch=no
LIT
expect_rc 0 "$GPMC" run mpr.litmus --model strict,epoch --db r.db
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

def within(e, tag, id=None):
    return any(p["tag"] == tag and (id is None or p["attrs"].get("id") == id)
               for p in e["parents"])

def cls(e):
    return e["attrs"].get("class", "").split()

# the matrix: a header per model; cells coloured by class
matrix = [e for e in E if e["tag"] == "table" and e["attrs"].get("id") == "matrix"]
assert len(matrix) == 1, "one matrix"
heads = [e["text"] for e in E if e["tag"] == "th" and within(e, "table", "matrix")]
assert heads == ["test", "config", "cond", "phase", "strict", "epoch", "bepoch",
                 "scoped", "bscoped", "hw"], heads
cells = [e for e in E if e["tag"] == "td" and within(e, "table", "matrix")]
unknown = [e for e in cells if "unknown" in cls(e)]
assert len(unknown) == 1 and unknown[0]["text"] == "Unknown!", unknown
ok = [e for e in cells if "ok" in cls(e)]
assert [e["text"] for e in ok] == ["Ok"], [e["text"] for e in ok]
no = [e for e in cells if "no" in cls(e)]
assert [e["text"] for e in no] == ["No"], [e["text"] for e in no]
# the epoch No has a witness: its cell links to it
links = [e for e in E if e["tag"] == "a" and within(e, "table", "matrix")]
assert len(links) == 1 and links[0]["text"] == "No", links
target = links[0]["attrs"]["href"][1:]
sections = [e for e in E if e["tag"] == "section" and e["attrs"].get("id") == target]
assert len(sections) == 1, target
# the witness: inline SVG drawn by Graphviz, with its nodes and edges
svgs = [e for e in E if e["tag"] == "svg" and within(e, "section", target)]
assert len(svgs) == 1, "one svg in " + target
nodes = [e for e in E if e["tag"] == "g" and "node" in cls(e) and within(e, "section", target)]
edges = [e for e in E if e["tag"] == "g" and "edge" in cls(e) and within(e, "section", target)]
assert len(nodes) == 6, "steps and the crash: %d nodes" % len(nodes)
assert any("rf d" in e["text"] for e in edges), "an rf edge from the image"
assert "counterexample of MPR under epoch" in sections[0]["text"]
# the failing checks: the incomplete one
failing = [e for e in E if e["tag"] == "tr" and within(e, "table", "failing-checks")]
assert len(failing) == 2 and "incomplete" in failing[1]["text"], \
    [e["text"] for e in failing]
# cost bars: a cycles bar per model of each test
bars = [e for e in E if e["tag"] == "span" and "cycles" in cls(e)]
assert len(bars) == 3, len(bars)
assert all("width:" in b["attrs"].get("style", "") for b in bars)
# the growth plot: a polyline per series
plot = [e for e in E if e["tag"] == "polyline" and within(e, "div", "growth-plot")]
assert len(plot) == 2, len(plot)
print("ok")
PY
python3 check.py r.dom >check.out 2>&1 || fail "DOM: $(tail -3 check.out)"

# without a bench: a note where the plot would be; the page goes to stdout
expect_rc 0 "$GPMC" report html --db r.db --bench nosuchdir
cp out r2.html
dom r2.html r2.dom
grep -q 'No plot: run <code>make bench</code>' r2.dom ||
    fail "no note for the missing bench plot"
