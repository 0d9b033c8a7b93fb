#!/usr/bin/env python3
"""How often `spvtune compare` is wrong: false verdicts on an identical copy, and how often it
catches a contender about 10% slower. Not a timed test: it prints counts and ratios.

1. An identical copy of the baseline (the same SPIR-V, the same dispatch) is compared N times;
   a `faster` or `slower` verdict is a false call (target: at most 1 in 20 at 95%).
2. A contender made slower by dispatching extra, empty workgroups is calibrated to about 10%
   slower (measured with long runs of 300 rounds, nudged until one confirms 1.09..1.12), then
   compared N times at a 5% threshold: it should be
   called `slower` in at least 19 of 20 runs.

Uses the compare test problem (tests/cli/problems/compare.json) and its kernels from the
default build, with the tool's default sample budget (60 per arm). Usage: scripts/bench-compare.py [--runs 20] [--key n=131072]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "default"


def problem_with_repeats():
    """The compare problem with `planted` (tests/cli/kernels/scale_repeat.comp: x read REPEAT
    times per element) at every REPEAT from 1 to 16: REPEAT=k+1 does one more read than k."""
    problem = json.loads((ROOT / "tests" / "cli" / "problems" / "compare.json").read_text())
    planted = next(c for c in problem["candidates"] if c["name"] == "planted")
    planted["grid"] = {"REPEAT": list(range(1, 17))}
    return problem


def planted(repeat):
    return f"planted[REPEAT={repeat}]"


# The tool's default sample budget (60), not the test problem's smaller one.
DEFAULT_SAMPLES = ["--samples", "60"]


def compare(work, problem, contender, key, threshold, extra=DEFAULT_SAMPLES, baseline="base"):
    problem_file = work / "problem.json"
    problem_file.write_text(json.dumps(problem))
    report = work / "report.json"
    subprocess.run([str(BUILD / "app" / "spvtune"), "compare", str(problem_file), "--baseline",
                    baseline, "--contender", contender, "--key", key, "--threshold",
                    str(threshold), "--kernel-dir", str(BUILD / "cli_test_kernels"), "--json",
                    str(report), *extra],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    found = json.loads(report.read_text())["comparisons"][0]["keys"][0]["contenders"][0]
    return found["verdict"], found["ratio"], found["ratio_low"], found["ratio_high"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--key", default="n=131072")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        work = pathlib.Path(scratch)
        false_calls = 0
        verdicts = {}
        for _ in range(args.runs):
            verdict, *_ = compare(work, problem_with_repeats(), "copy", args.key, 5)
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
            false_calls += verdict in ("faster", "slower")
        print(f"identical copy, {args.runs} runs at a 5% threshold: {verdicts}; "
              f"false faster/slower calls: {false_calls}/{args.runs} (target <= 1/20)")

        # The same kernel doing about 10% more real work: REPEAT=k+1 against REPEAT=k, for the k
        # whose ratio long runs measure closest to 1.10. Unlike idle padding workgroups (tried
        # first: 1.04x to 1.22x from one process to the next), real reads cost the same each run.
        problem = problem_with_repeats()
        long_run = ["--samples", "300", "--min-samples", "300"]
        measured = []
        for repeat in (6, 8, 10, 12):
            _, ratio, *_ = compare(work, problem, planted(repeat + 1), args.key, 5, long_run,
                                   planted(repeat))
            measured.append((repeat, ratio))
        print("calibration (REPEAT=k+1 over REPEAT=k): " +
              ", ".join(f"k={k} -> {r:.3f}" for k, r in measured))
        repeat, ratio = min(measured, key=lambda m: abs(m[1] - 1.10))
        print(f"contender: {planted(repeat + 1)} against {planted(repeat)}, ratio {ratio:.3f}")

        caught = 0
        verdicts = {}
        for _ in range(args.runs):
            verdict, *_ = compare(work, problem, planted(repeat + 1), args.key, 5, DEFAULT_SAMPLES,
                                  planted(repeat))
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
            caught += verdict == "slower"
        print(f"contender {ratio:.2f}x, {args.runs} runs at a 5% threshold: {verdicts}; "
              f"called slower: {caught}/{args.runs} (target >= 19/20)")


if __name__ == "__main__":
    sys.exit(main())
