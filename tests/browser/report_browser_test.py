#!/usr/bin/env python3
"""Renders the HTML report of a real tune run in headless Chromium, as a reader would open it.

Tunes tests/cli/problems/grid2.json on the default device with --json and --html, then has
Chromium load the page with scripts and the network out of reach, dump the DOM it built and take
a screenshot. Fails when Chromium is missing (scripts/install-deps.sh installs it), when the page
logs any console message (a refused fetch, a parse error), when the rendered charts do not have
one bar per measured candidate, one dot per sample and one heatmap cell per grid point drawn, or when
the screenshot is not a PNG of the requested size.

Then measures the layout as Chromium draws it, in a page written by spvtune report from that run
(its winner renamed to a long name of capitals) and a compare report with a warning naming
options: a copy of the page with a measuring script added (and the policy that forbids scripts
taken out) reports every chart text that reaches past its chart's edges, which clip it, and every
option name broken across lines in a narrow window.

Usage: report_browser_test.py SPVTUNE PROBLEM_DIR KERNEL_DIR [--keep DIR]
"""
import html
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

WIDTH, HEIGHT = 1000, 1400


def chromium_binary():
    for name in (os.environ.get("SPVTUNE_CHROMIUM", ""), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    sys.exit("FAIL: chromium is not installed; scripts/install-deps.sh installs it "
             "(Debian package 'chromium')")


def run_chromium(chromium, page, scratch, extra):
    # The network is closed here and must stay unused: no QUIC, no background fetches, no
    # component updates; a fresh profile each time.
    profile = tempfile.mkdtemp(dir=scratch)
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
               *extra, "file://" + page]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        sys.exit("FAIL: chromium exited with %d:\n%s" % (done.returncode, done.stderr))
    return done


class ChartCounter(html.parser.HTMLParser):
    """Counts, per chart (an <svg class="chart ...">), its bars, dots and cells."""

    def __init__(self):
        super().__init__()
        self.charts = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "script":
            self.scripts += 1
        if tag == "svg" and "chart" in classes:
            self.charts.append({"kind": classes[1], "bars": 0, "dots": 0, "cells": 0})
        elif self.charts and tag == "rect" and "bar" in classes:
            self.charts[-1]["bars"] += 1
        elif self.charts and tag == "rect" and "cell" in classes:
            self.charts[-1]["cells"] += 1
        elif self.charts and tag == "circle":
            self.charts[-1]["dots"] += 1


# Appended to a copy of a page: lists what the layout got wrong in <pre id="measured">, as JSON.
MEASURE_SCRIPT = """<script>
window.addEventListener("load", function () {
  var found = {clipped: [], broken: [], options: 0};
  document.querySelectorAll("svg.chart").forEach(function (svg) {
    var width = svg.viewBox.baseVal.width, height = svg.viewBox.baseVal.height;
    svg.querySelectorAll("text").forEach(function (text) {
      var box = text.getBBox();
      if (box.x < -0.5 || box.x + box.width > width + 0.5 || box.y < -0.5 ||
          box.y + box.height > height + 0.5) {
        found.clipped.push(text.textContent);
      }
    });
  });
  document.querySelectorAll("code.option").forEach(function (code) {
    found.options += 1;
    if (code.getClientRects().length > 1) {
      found.broken.push(code.textContent);
    }
  });
  var out = document.createElement("pre");
  out.id = "measured";
  out.textContent = JSON.stringify(found);
  document.body.appendChild(out);
});
</script>"""

# A compare report whose warning names options, as compare --json writes its noise warning.
NOISY_COMPARE = {
    "schema_version": 1, "command": "compare", "mode": "candidates", "device": "d",
    "hardware": {"identity": "d-id"}, "threshold": 0.05, "fail_if_slower": None,
    "warnings": ["n=4096: the baseline's samples vary by 9.1% (robust coefficient of "
                 "variation), too much to settle a \u00b15% threshold within 10 samples: raise "
                 "--samples or --min-sample-ms, widen --threshold, or quiet the machine"],
    "comparisons": [],
    "summary": {"faster": 0, "slower": 0, "equivalent": 0, "inconclusive": 0,
                "wrong_output": 0, "skipped": 0, "failed": 0, "regressions": 0, "exit_code": 0},
}


def measure_layout(spvtune, chromium, report, scratch):
    """What measuring the page of `report` and NOISY_COMPARE in Chromium finds wrong."""
    long_winner = "W" * 24  # bold capitals: the widest label a narrow column would clip
    for key in (k for problem in report["problems"] for k in problem["keys"]):
        for candidate in key["candidates"]:
            if candidate["name"] == key.get("winner"):
                candidate["name"] = key["winner"] = long_winner
    inputs = []
    for name, content in (("renamed.json", report), ("noisy.json", NOISY_COMPARE)):
        inputs.append(os.path.join(scratch, name))
        with open(inputs[-1], "w") as f:
            json.dump(content, f)
    page = os.path.join(scratch, "measured.html")
    written = subprocess.run([spvtune, "report", *inputs, "-o", page], capture_output=True,
                             text=True, timeout=120)
    if written.returncode != 0:
        return ["spvtune report exited with %d:\n%s" % (written.returncode, written.stderr)]
    with open(page) as f:
        text = f.read()
    policy = text.index('<meta http-equiv="Content-Security-Policy"')
    text = text[:policy] + text[text.index(">", policy) + 1:]
    with open(page, "w") as f:
        f.write(text.replace("</body>", MEASURE_SCRIPT + "</body>"))
    # Narrow, so that the warning wraps.
    dumped = run_chromium(chromium, page, scratch, ["--dump-dom", "--window-size=420,900"])
    start = dumped.stdout.find('<pre id="measured">')
    if start < 0:
        return ["the measuring script wrote nothing"]
    found = json.loads(html.unescape(
        dumped.stdout[start + len('<pre id="measured">'):dumped.stdout.index("</pre>", start)]))
    failures = []
    if found["clipped"]:
        failures.append("chart texts past their chart's edge: %s" % found["clipped"])
    if found["options"] != 3:
        failures.append("%d option names set as code, expected 3" % found["options"])
    if found["broken"]:
        failures.append("option names broken across lines: %s" % found["broken"])
    return failures


def png_size(path):
    with open(path, "rb") as png:
        header = png.read(24)
    if header[:8] != b"\x89PNG\r\n\x1a\n" or header[12:16] != b"IHDR":
        sys.exit("FAIL: %s is not a PNG" % path)
    return struct.unpack(">II", header[16:24])


def main():
    spvtune, problem_dir, kernel_dir = sys.argv[1:4]
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
    chromium = chromium_binary()
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        report_json = os.path.join(scratch, "report.json")
        page = os.path.join(scratch, "report.html")
        tuned = subprocess.run(
            [spvtune, "tune", os.path.join(problem_dir, "grid2.json"), "--kernel-dir", kernel_dir,
             "--cache-dir", os.path.join(scratch, "cache"), "--json", report_json, "--html",
             page], capture_output=True, text=True, timeout=600)
        if tuned.returncode != 0:
            sys.exit("FAIL: spvtune tune exited with %d:\n%s%s" %
                     (tuned.returncode, tuned.stdout, tuned.stderr))
        with open(report_json) as f:
            report = json.load(f)

        dumped = run_chromium(chromium, page, scratch, ["--dump-dom"])
        console = [line for line in dumped.stderr.splitlines() if ":CONSOLE" in line]
        if console:
            failures.append("the page logged to the console:\n  " + "\n  ".join(console))
        counter = ChartCounter()
        counter.feed(dumped.stdout)
        if counter.scripts:
            failures.append("the page has %d <script> elements" % counter.scripts)

        keys = [key for problem in report["problems"] for key in problem["keys"]]
        candidate_charts = [c for c in counter.charts if c["kind"] == "candidates"]
        heatmaps = [c for c in counter.charts if c["kind"] == "heatmap"]
        if len(candidate_charts) != len(keys):
            failures.append("%d candidate charts for %d keys" % (len(candidate_charts), len(keys)))
        for key, chart in zip(keys, candidate_charts):
            measured = [c for c in key["candidates"] if "statistics" in c]
            samples = sum(len(c.get("samples_ns", [])) for c in key["candidates"])
            if chart["bars"] != len(measured) or chart["dots"] != samples:
                failures.append("key %s: %d bars and %d dots rendered, expected %d and %d" %
                                (key["key"], chart["bars"], chart["dots"], len(measured), samples))
        # A heatmap spans the rows and the columns where one of the key's candidates lies
        # (at most 100 of each).
        expected_cells = []
        for problem in report["problems"]:
            grids = [f for f in problem["families"] if len(f["grid"]) == 2]
            for key in problem["keys"]:
                for family in grids:
                    rows, columns = (g["parameter"] for g in family["grid"])
                    points = [c["point"] for c in key["candidates"]
                              if c.get("family") == family["name"]]
                    if points:
                        expected_cells.append(min(100, len({p[rows] for p in points})) *
                                              min(100, len({p[columns] for p in points})))
        if [h["cells"] for h in heatmaps] != expected_cells:
            failures.append("heatmap cells %s, expected %s" %
                            ([h["cells"] for h in heatmaps], expected_cells))

        screenshot = os.path.join(scratch, "report.png")
        run_chromium(chromium, page, scratch, ["--screenshot=" + screenshot,
                                               "--window-size=%d,%d" % (WIDTH, HEIGHT),
                                               "--hide-scrollbars"])
        if not os.path.exists(screenshot):
            failures.append("chromium wrote no screenshot")
        elif png_size(screenshot) != (WIDTH, HEIGHT):
            failures.append("screenshot of %s pixels, expected %s" %
                            (png_size(screenshot), (WIDTH, HEIGHT)))
        failures += measure_layout(spvtune, chromium, report, scratch)
        if keep:
            os.makedirs(keep, exist_ok=True)
            for name in ("report.html", "report.json", "report.png", "measured.html"):
                if os.path.exists(os.path.join(scratch, name)):
                    shutil.copy(os.path.join(scratch, name), keep)

    if failures:
        sys.exit("FAIL:\n" + "\n".join(failures))
    print("ok: %d candidate charts, %d heatmaps rendered; screenshot %dx%d" %
          (len(candidate_charts), len(heatmaps), WIDTH, HEIGHT))


if __name__ == "__main__":
    main()
