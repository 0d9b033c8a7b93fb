#!/usr/bin/env python3
"""Tunes problem files several times from scratch and checks that every run picks, per key, the
same winner as the first run or one the run reports as tied with it.

Usage: scripts/repeatability.py [--runs N] [--spvtune PATH] [PROBLEM.json ...]
Defaults: 10 runs, build/default/app/spvtune, every configs/*.json. Prints one line per key
(the winners seen and how often) and exits 1 when a run picked a winner neither the same as nor
tied with the first run's. Each run uses a fresh cache directory, so every key is measured.
"""

import argparse
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tune(spvtune, problems, scratch, run):
    cache_dir = os.path.join(scratch, f"cache-{run}")
    report = os.path.join(scratch, f"report-{run}.json")
    command = [spvtune, "tune", *problems, "--cache-dir", cache_dir, "--json", report, "-q"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"run {run + 1}: {' '.join(command)} exited {done.returncode}\n{done.stderr}")
    with open(report, encoding="utf-8") as file:
        return json.load(file)


def winners(report):
    """(problem, key) -> (winner, names reported tied with it)."""
    out = {}
    for problem in report["problems"]:
        for key in problem["keys"]:
            if "winner" not in key:
                continue
            tied = {c["name"] for c in key["candidates"] if c.get("status") == "tied"}
            out[(problem["name"], json.dumps(key["key"], sort_keys=True))] = (key["winner"], tied)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--spvtune", default=os.path.join(ROOT, "build/default/app/spvtune"))
    parser.add_argument("problems", nargs="*")
    args = parser.parse_args()
    problems = args.problems or sorted(glob.glob(os.path.join(ROOT, "configs/*.json")))

    with tempfile.TemporaryDirectory(prefix="spvtune-repeat-") as scratch:
        runs = [winners(tune(args.spvtune, problems, scratch, i)) for i in range(args.runs)]

    failures = 0
    for address, (first, first_tied) in sorted(runs[0].items()):
        seen = collections.Counter()
        for i, run in enumerate(runs):
            winner, tied = run.get(address, (None, set()))
            seen[winner] += 1
            agrees = winner == first or winner in first_tied or first in tied
            if not agrees:
                failures += 1
                print(f"  run {i + 1}: {address[0]} {address[1]}: {winner}, "
                      f"neither {first} nor tied with it")
        summary = ", ".join(f"{name} x{count}" for name, count in seen.most_common())
        print(f"{address[0]} {address[1]}: {summary}")
    print(f"{len(runs[0])} keys, {args.runs} runs: "
          f"{'every winner the same or tied' if failures == 0 else f'{failures} disagreements'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
