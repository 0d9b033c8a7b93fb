#!/usr/bin/env python3
"""How often the `spvtune compare` gate is wrong, against the targets of issue 30 (item 2). Not a
timed test: it prints counts, ratios and times.

1. Identical copies: the baseline and 6 copies of it (the same SPIR-V, the same dispatch) on both
   keys of the compare test problem, 12 arms per run; a run with any `faster` or `slower` call is
   a false alarm (target: at most 1 run in 20).
2. A contender about 10% slower (REPEAT=k+1 against REPEAT=k of a kernel that reads its input
   REPEAT times, k calibrated with long runs), gated with --fail-if-slower 5: the gate should fail
   in at least 19 runs of 20, and the contender never be called `faster`.
3. The same with a contender about 20% slower while another process holds one CPU core busy.
4. The identical copies of 1. again, with one CPU core held busy.

Uses tests/cli/problems/compare.json and its kernels from the default build, with the tool's
defaults (--budget 60, --inconclusive warn) unless told otherwise. Usage:
scripts/bench-compare.py [--runs 20] [--budget S] [--skip copies,copies-loaded,slower,loaded]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import time

from busy_core import one_core_busy

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "default"
COPIES = 6


def problem():
    """The compare problem with `planted` (tests/cli/kernels/scale_repeat.comp: x read REPEAT
    times per element) at every REPEAT from 1 to 16, and `copy1`..`copy6` of the baseline."""
    found = json.loads((ROOT / "tests" / "cli" / "problems" / "compare.json").read_text())
    candidates = found["candidates"]
    planted = next(c for c in candidates if c["name"] == "planted")
    planted["grid"] = {"REPEAT": list(range(1, 17))}
    copy = next(c for c in candidates if c["name"] == "copy")
    for i in range(1, COPIES + 1):
        candidates.append(dict(copy, name=f"copy{i}"))
    return found


def planted(repeat):
    return f"planted[REPEAT={repeat}]"


def compare(work, baseline, contenders, extra):
    """One compare run: its exit code, wall seconds and the JSON report's contenders."""
    problem_file = work / "problem.json"
    problem_file.write_text(json.dumps(problem()))
    report = work / "report.json"
    command = [str(BUILD / "app" / "spvtune"), "compare", str(problem_file), "--baseline",
               baseline, "--kernel-dir", str(BUILD / "cli_test_kernels"), "--json", str(report)]
    for name in contenders:
        command += ["--contender", name]
    start = time.monotonic()
    done = subprocess.run(command + extra, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    if done.returncode not in (0, 1):
        sys.exit(f"compare failed with exit code {done.returncode}: {' '.join(command + extra)}")
    found = json.loads(report.read_text())
    arms = [c for group in found["comparisons"] for key in group["keys"]
            for c in key["contenders"]]
    rounds = [key["rounds"] for group in found["comparisons"] for key in group["keys"]]
    return done.returncode, wall, arms, rounds, found["family"]["size"]


def calibrate(work, lows, target):
    """REPEAT=k+1 over REPEAT=k measured with long runs (300 rounds) on the first key, for each k
    in `lows`: the pair whose ratio is nearest `target`."""
    measured = []
    for low in lows:
        _, _, arms, _, _ = compare(work, planted(low), [planted(low + 1)],
                                   ["--key", "n=131072", "--samples", "300", "--min-samples",
                                    "300", "--budget", "600"])
        measured.append((low, arms[0]["ratio"]))
    print("  calibration (REPEAT=k+1 over REPEAT=k): " +
          ", ".join(f"k={k} -> {r:.3f}" for k, r in measured), flush=True)
    return min(measured, key=lambda m: abs(m[1] - target))


def gated_runs(work, args, label, target, lows):
    low, ratio = calibrate(work, lows, target)
    print(f"  contender {planted(low + 1)} against {planted(low)}: {ratio:.3f}x", flush=True)
    failures = 0
    faster = 0
    verdicts = {}
    walls = []
    for _ in range(args.runs):
        code, wall, arms, rounds, _ = compare(work, planted(low), [planted(low + 1)],
                                              ["--key", "n=131072", "--fail-if-slower", "5",
                                               *args.extra])
        walls.append(wall)
        failures += code == 1
        for arm in arms:
            verdicts[arm["verdict"]] = verdicts.get(arm["verdict"], 0) + 1
            faster += arm["verdict"] == "faster"
        print(f"    exit {code}, {wall:.1f} s, rounds {rounds}, "
              f"{[(a['verdict'], round(a['ratio'], 3)) for a in arms]}", flush=True)
    print(f"{label}, {ratio:.2f}x: gate failed in {failures}/{args.runs} runs (target >= 19/20), "
          f"called faster {faster} times (target 0); verdicts {verdicts}; "
          f"wall {min(walls):.1f}-{max(walls):.1f} s", flush=True)


def identical_copies(work, args, label):
    """Compares the baseline with its copies args.runs times; prints the runs with a false call."""
    copies = [f"copy{i}" for i in range(1, COPIES + 1)]
    false_runs = 0
    verdicts = {}
    walls = []
    for _ in range(args.runs):
        _, wall, arms, rounds, family = compare(work, "base", copies, args.extra)
        walls.append(wall)
        calls = [a for a in arms if a.get("verdict") in ("faster", "slower")]
        false_runs += bool(calls)
        for arm in arms:
            verdicts[arm["verdict"]] = verdicts.get(arm["verdict"], 0) + 1
        print(f"    {wall:.1f} s, rounds {rounds}, false calls "
              f"{[(a['name'], a['verdict'], round(a['ratio'], 3)) for a in calls]}", flush=True)
    print(f"{label} ({family} arms a run): runs with a false faster/slower call "
          f"{false_runs}/{args.runs} (target <= 1/20); verdicts {verdicts}; "
          f"wall {min(walls):.1f}-{max(walls):.1f} s", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--budget", type=float, help="--budget for every gated run")
    parser.add_argument("--skip", default="",
                        help="comma-separated: copies, copies-loaded, slower, loaded")
    args = parser.parse_args()
    args.extra = ["--budget", str(args.budget)] if args.budget else []
    skip = set(filter(None, args.skip.split(",")))

    with tempfile.TemporaryDirectory() as scratch:
        work = pathlib.Path(scratch)
        if "copies" not in skip:
            identical_copies(work, args, "identical copies")
        if "copies-loaded" not in skip:
            with one_core_busy():
                identical_copies(work, args, "identical copies, one core held busy")
        if "slower" not in skip:
            gated_runs(work, args, "10% slower contender, quiet", 1.10, (6, 8, 10, 12))
        if "loaded" not in skip:
            with one_core_busy():
                gated_runs(work, args, "20% slower contender, one core held busy", 1.20,
                           (2, 3, 4, 5))


if __name__ == "__main__":
    sys.exit(main())
