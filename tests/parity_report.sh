#!/bin/sh
# parity_report.sh: cuemu-parity's reports for people (issue 17). A run
# with deliberately wrong kernels (a 2-D one, tests/parity/wrong_matrix,
# and a 1-D one, tests/parity/wrong_kernel) under two schedules writes an
# HTML page that is parsed here: the heat map of the 2-D output and the
# error profile of the 1-D one are present, self-contained, and agree with
# the table of differing elements and the case table; a run with a checker
# shows its report with source lines; GitHub's step summary and ::error
# annotations are written. When Debian's chromium is installed, the page
# is opened in it headless and the screenshot, kept as a CI artifact at
# tests/tmp/artifacts/parity-report.png, must show the heat map's colours.

srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
builddir=$(cd "$builddir" && pwd)
parity=$builddir/cuemu-parity
work=$builddir/tests/tmp/parity_report.$$
artifacts=$builddir/tests/tmp/artifacts
mkdir -p "$work" "$artifacts" || exit 1
trap 'rm -rf "$work"' EXIT
cd "$srcdir" || exit 1
PYTHON=${PYTHON:-python3}

# The runs here fail on purpose: they must not reach a real CI's step
# summary or annotations.
unset GITHUB_STEP_SUMMARY GITHUB_ACTIONS

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

html=$artifacts/parity-report.html
out=$work/run.out
GITHUB_STEP_SUMMARY=$work/summary.md GITHUB_ACTIONS=true \
  timeout 300 "$parity" --no-gpu --schedules forward,reverse --html "$html" \
  tests/parity/wrong_matrix tests/parity/wrong_kernel examples/saxpy >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "the run with wrong kernels exited $rc, not 1"
grep -qE "^cuemu-parity: 4 cases, 2 passed, 2 failed \(host 4 pass; emulated 2 pass 2 FAIL.*\) in [0-9.]+ s$" "$out" ||
  fail "no summary line"
grep -qF "::error file=tests/parity/wrong_matrix/wrong_matrix.parity.yaml,line=3,title=cuemu-parity%3A case wrong_matrix::MISMATCH: emulated (forward): output y differs from the host:" "$out" ||
  fail "no GitHub annotation for wrong_matrix"
grep -q "^::error .*wrong_kernel" "$out" || fail "no GitHub annotation for wrong_kernel"
grep -q "^::error .*saxpy" "$out" && fail "a passing case has an annotation"
grep -qF "### cuemu-parity: :x: 2 passed, 2 failed" "$work/summary.md" ||
  fail "no step summary heading"
grep -qE "^\| wrong_matrix \| pass \| FAIL \| - \| - \| - \| 1.67e\+03 ulp \| .* \| \*\*FAIL\*\* \|$" "$work/summary.md" ||
  fail "no step summary row for wrong_matrix"
grep -qF "y[63]: got 2.7278235, host 2.72782326 (1 ulp)" "$work/summary.md" ||
  fail "the step summary lacks the failure's details"

"$PYTHON" - "$html" <<'PYEOF' || fail "the HTML report is wrong"
import math, sys
from html.parser import HTMLParser

def num(text):
    return math.inf if text == "inf" else float(text)

class Page(HTMLParser):
    """Collects the case table, each differing output's table of elements
    and the marks of its picture."""
    def __init__(self):
        super().__init__()
        self.cases = {}          # name -> max ulps text of the case table
        self.diffs = []          # one per div.diff
        self.in_run = False
        self.run_text = ""
        self.pre = None
        self.messages = []
        self.tags = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        cls = a.get("class", "")
        if tag == "tr" and "data-case" in a:
            self.cases[a["data-case"]] = a["data-max-ulps"]
        if tag == "div" and cls == "diff":
            self.diffs.append({"attrs": a, "rows": [], "cells": [], "bins": [],
                               "svg": None})
        if tag == "tr" and "data-index" in a:
            self.diffs[-1]["rows"].append((int(a["data-index"]), num(a["data-ulps"])))
        if tag == "svg":
            self.diffs[-1]["svg"] = a
        if tag == "rect" and cls == "cell":
            self.diffs[-1]["cells"].append(a)
        if tag == "rect" and cls == "bin":
            self.diffs[-1]["bins"].append(a)
        if tag == "p" and a.get("id") == "run":
            self.in_run = True
        if tag == "pre" and cls == "message":
            self.pre = ""
    def handle_endtag(self, tag):
        if tag == "p":
            self.in_run = False
        if tag == "pre" and self.pre is not None:
            self.messages.append(self.pre)
            self.pre = None
    def handle_data(self, data):
        if self.in_run:
            self.run_text += data
        if self.pre is not None:
            self.pre += data

text = open(sys.argv[1], encoding="utf-8").read()
page = Page()
page.feed(text)

# Self-contained: nothing is fetched (the SVG namespace is a name, not a
# fetch), no script.
for tag, a in page.tags:
    assert tag not in ("script", "link", "img", "iframe"), tag
    for k in ("src", "href"):
        v = a.get(k, "")
        assert not v or v.startswith("#"), (tag, k, v)
assert "Schedules tried: forward,reverse" in page.run_text, page.run_text

assert set(page.cases) == {"saxpy", "saxpy_tiny", "wrong_kernel", "wrong_matrix"}, page.cases
matrix = [d for d in page.diffs if d["attrs"]["data-output"] == "y" and d["svg"]
          and d["svg"].get("class") == "heatmap"]
assert len(matrix) == 2, "one heat map per schedule of wrong_matrix"
for d in matrix:
    svg = d["svg"]
    rows, cols = int(svg["data-rows"]), int(svg["data-cols"])
    assert (rows, cols) == (48, 64), (rows, cols)
    cells = [(int(c["data-row0"]), int(c["data-row1"]), int(c["data-col0"]),
              int(c["data-col1"]), num(c["data-ulps"])) for c in d["cells"]]
    fails = {(int(c["data-row0"]), int(c["data-col0"])): int(c["data-fails"])
             for c in d["cells"]}
    # The failing elements of the cells are the output's differing ones.
    assert sum(fails.values()) == int(d["attrs"]["data-differing"]) == 792, \
        (sum(fails.values()), d["attrs"])
    # The cells cover the matrix exactly once.
    covered = sum((r1 - r0 + 1) * (c1 - c0 + 1) for r0, r1, c0, c1, _ in cells)
    assert covered == rows * cols, covered
    # Each listed element lies in a cell whose error is at least its own.
    assert len(d["rows"]) == 8, d["rows"]
    for index, ulps in d["rows"]:
        r, c = divmod(index, cols)
        cell = [(u, fails[(r0, c0)]) for r0, r1, c0, c1, u in cells
                if r0 <= r <= r1 and c0 <= c <= c1]
        assert len(cell) == 1 and cell[0][0] >= ulps > 0 and cell[0][1] > 0, \
            (index, ulps, cell)
    # The largest cell is the output's and the case's largest error.
    top = max(u for *_, u in cells)
    assert top == num(d["attrs"]["data-max-ulps"]), (top, d["attrs"])
    assert abs(top - num(page.cases["wrong_matrix"])) <= 1e-9 * top, (top, page.cases)
    # Where the kernel is wrong: the bottom-right quarter (hundreds of ulps)
    # and the last column (1 ulp); nowhere else.
    for r0, r1, c0, c1, u in cells:
        quarter = r1 >= 24 and c1 >= 32
        if quarter:
            assert u > 100, (r0, c0, u)
        elif c1 == 63:
            assert u == 1, (r0, c0, u)
        else:
            assert u == 0, (r0, c0, u)
    assert 500 < top < 5000, top

line = [d for d in page.diffs if d["svg"] and d["svg"].get("class") == "profile"]
assert len(line) == 2, "one error profile per schedule of wrong_kernel"
for d in line:
    assert int(d["svg"]["data-count"]) == 1000
    bins = [(int(b["data-first"]), int(b["data-last"]), num(b["data-ulps"])) for b in d["bins"]]
    assert sum(l - f + 1 for f, l, _ in bins) == 1000
    assert d["rows"] == [(999, d["rows"][0][1])], d["rows"]
    ulps = d["rows"][0][1]
    assert [u for f, l, u in bins if u] == [ulps], "only the bin of y[999] is off"
    assert [f <= 999 <= l for f, l, u in bins if u] == [True]
    assert sum(int(b["data-fails"]) for b in d["bins"]) == 1
    assert abs(ulps - num(page.cases["wrong_kernel"])) <= 1e-9 * ulps
assert any("y[999]: got 1.43804073, host 0.907636523" in m for m in page.messages)
print("the HTML report checks out:", len(page.diffs), "pictures")
PYEOF

# A checker's report, with its source lines, is on the page too.
timeout 300 "$parity" --no-gpu --check race --html "$work/race.html" \
  tests/parity/racy >"$work/race.out" 2>&1
grep -q "racecheck: race" "$work/race.html" || fail "the HTML report lacks the checker's report"
grep -q "racy.cu:11" "$work/race.html" || fail "the HTML report lacks the checker's source line"

# A real browser draws the page of the 2-D case; the screenshot shows the
# heat map's dark red (#800026 at its top).
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIP: no chromium: the page is not opened in a browser"
else
  shot=$artifacts/parity-report.png
  rm -f "$shot"
  timeout 300 "$parity" --no-gpu --html "$artifacts/parity-heatmap.html" \
    tests/parity/wrong_matrix >/dev/null 2>&1
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
    --hide-scrollbars --user-data-dir="$work/chromium" --window-size=900,1100 \
    --screenshot="$shot" "file://$artifacts/parity-heatmap.html" \
    >"$work/chromium.log" 2>&1
  [ -s "$shot" ] || fail "chromium wrote no screenshot ($(tail -n 3 "$work/chromium.log"))"
  "$PYTHON" - "$shot" <<'PYEOF' || fail "the screenshot does not show the heat map"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev, rows, i = bytearray(stride), [], 0
for y in range(h):
    f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
dark = sum(1 for line in rows for x in range(0, stride, bpp)
           if line[x] > 100 and line[x] < 200 and line[x + 1] < 40 and line[x + 2] < 80)
assert dark > 2000, "too few dark red heat-map pixels: %d" % dark
print("the screenshot shows", dark, "dark red pixels")
PYEOF
  echo "screenshot: $shot"
fi

if [ $failures -ne 0 ]; then
  echo "parity_report.sh: $failures failure(s); the runner's output:"
  cat "$out"
  exit 1
fi
echo "parity_report.sh: all checks passed"
exit 0
