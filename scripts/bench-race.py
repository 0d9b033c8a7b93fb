#!/usr/bin/env python3
"""Measures what the adaptive race saves against fixed sampling, side by side in one run.

Builds a 48-candidate problem from the shipped element-wise kernels (configs/elementwise.json),
tunes its key with `--fixed` and adaptively (same maximum samples), alternating, and prints the
wall-time ratio and whether the adaptive winner is the fixed winner or tied with it. Then tunes
adaptively N more times and prints how often the winner agrees (repeatability).

Usage: scripts/bench-race.py [--spvtune build/default/app/spvtune] [--repeats 3] [--samples 30]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def large_problem():
    problem = json.loads((ROOT / "configs" / "elementwise.json").read_text())
    grids = {
        "scalar": {"WG": [16, 32, 64, 128, 256, 512, 1024]},
        "multi": {"WG": [32, 64, 128, 256, 512], "ELEMS": [1, 2, 4, 8, 16]},
        "vec4": {"WG": [32, 64, 128, 256], "VECS": [1, 2, 4, 8]},
    }
    for candidate in problem["candidates"]:
        candidate["grid"] = grids[candidate["name"]]
    problem["name"] = "elementwise-48"
    problem["keys"] = {"list": [{"n": 1048576}]}
    return problem


def tune(spvtune, problem_file, work, extra):
    report = work / "report.json"
    cache = work / "cache"
    start = time.monotonic()
    subprocess.run([spvtune, "tune", str(problem_file), "--cache-dir", str(cache), "--retune",
                    "--json", str(report), "-q"] + extra, check=True)
    elapsed = time.monotonic() - start
    key = json.loads(report.read_text())["problems"][0]["keys"][0]
    tied = {c["name"] for c in key["candidates"] if c.get("status") in ("winner", "tied")}
    return elapsed, key["winner"], tied


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spvtune", default=str(ROOT / "build" / "default" / "app" / "spvtune"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--samples", type=int, default=30)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        work = pathlib.Path(scratch)
        problem_file = work / "elementwise-48.json"
        problem = large_problem()
        problem_file.write_text(json.dumps(problem))
        (work / "saxpy.spv").write_bytes((ROOT / "build" / "default" / "kernels" / "saxpy.spv").read_bytes())
        kernels = ["--kernel-dir", str(ROOT / "build" / "default" / "kernels")]
        samples = ["--samples", str(args.samples)]

        ratios = []
        agree = 0
        for _ in range(args.repeats):
            fixed_s, fixed_winner, fixed_tied = tune(args.spvtune, problem_file, work,
                                                     kernels + samples + ["--fixed"])
            adaptive_s, winner, _ = tune(args.spvtune, problem_file, work, kernels + samples)
            ratios.append(adaptive_s / fixed_s)
            agree += winner == fixed_winner or winner in fixed_tied
            print(f"fixed {fixed_s:6.2f} s ({fixed_winner})  adaptive {adaptive_s:6.2f} s ({winner})"
                  f"  ratio {adaptive_s / fixed_s:.2f}")
        ratios.sort()
        print(f"adaptive / fixed wall time, median of {len(ratios)}: {ratios[len(ratios) // 2]:.2f}"
              f" (target <= 0.40); adaptive winner same as or tied with fixed: {agree}/{args.repeats}")


if __name__ == "__main__":
    sys.exit(main())
