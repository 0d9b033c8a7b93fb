#!/usr/bin/env python3
"""Measures what the adaptive race saves against fixed sampling, side by side in one run.

Builds a 48-candidate problem from the shipped element-wise kernels (configs/elementwise.json),
tunes its key with `--fixed` and adaptively (same maximum samples, the tool's default 60),
alternating, and prints:
- the wall-time ratio, and whether the adaptive winner is the fixed winner or tied with it;
- tuning wall time over the kernel time it had to spend (the `time` breakdown of `--json`), with
  where the rest went (target: <= 1.3 for kernels of >= 1 ms; these are 3 to 10 ms);
- what a hopeless candidate costs: tests/cli/problems/compare.json's kernels at n = 1M and 512K,
  the baseline against copies of it doing the same work 16, 32 and 64 times over (about 5x, 10x
  and 20-30x slower on lavapipe), their warm-up runs and samples per key (target: a candidate at
  least 20x slower than the best takes at most one sample beyond its warm-up).
- tuning wall / kernel time on the shipped configs/elementwise.json at n = 1048576 (10
  candidates; target <= 1.3), with where the rest went;
- identical copies: N copies of one 1.7 ms kernel (the element-wise scalar kernel at n = 1M),
  tuned adaptively `--identical-runs` times, on a quiet machine and again with one core held by
  a busy loop (`--no-load` leaves that out): in how many runs every copy is reported tied with
  the winner, and the most samples any copy took (target: all tied in >= 19 of 20 runs, each
  copy stopped in <= 20 samples).
Repeatability across runs is scripts/repeatability.py's job. `--repeats 0` and
`--identical-runs 0` leave their parts out (a reduced run on a busy machine).

Usage: scripts/bench-race.py [--spvtune build/default/app/spvtune] [--repeats 3] [--samples 60]
                             [--identical-runs 20] [--copies 8] [--no-load]
                             [--samples-per-submission K]
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
    return elapsed, key["winner"], tied, key


def hopeless_problem():
    """The baseline of compare.json against slower copies: same output, known extra work."""
    problem = json.loads((ROOT / "tests" / "cli" / "problems" / "compare.json").read_text())
    problem["name"] = "hopeless"
    problem["keys"] = {"list": [{"n": 1048576}, {"n": 524288}]}
    problem["settings"] = {}
    problem["candidates"] = [c for c in problem["candidates"] if c["name"] in ("base", "planted")]
    for candidate in problem["candidates"]:
        if candidate["name"] == "planted":
            candidate["grid"] = {"REPEAT": [16, 32, 64]}
    return problem


def hopeless_costs(spvtune, work):
    """Tunes hopeless_problem() adaptively; per key and slow candidate: warm-ups, samples, slowdown."""
    problem_file = work / "hopeless.json"
    problem_file.write_text(json.dumps(hopeless_problem()))
    report = work / "hopeless-report.json"
    subprocess.run([spvtune, "tune", str(problem_file),
                    "--kernel-dir", str(ROOT / "build" / "default" / "cli_test_kernels"),
                    "--cache-dir", str(work / "hopeless-cache"), "--retune", "--json", str(report),
                    "-q"], check=True)
    costs = []
    for key in json.loads(report.read_text())["problems"][0]["keys"]:
        measured = {c["name"]: c for c in key["candidates"] if c.get("samples_ns")}
        best = min(c["statistics"]["median_ns"] for c in measured.values())
        for name, candidate in measured.items():
            if name != "base":
                costs.append((name, len(candidate.get("warmup_ns", [])),
                              len(candidate["samples_ns"]),
                              candidate["statistics"]["median_ns"] / best))
    return costs


def identical_problem(copies):
    """N copies of one kernel under different names: the same work, the same SPIR-V."""
    problem = json.loads((ROOT / "configs" / "elementwise.json").read_text())
    scalar = next(c for c in problem["candidates"] if c["name"] == "scalar")
    del scalar["grid"]
    scalar["specialization"] = {"0": 256}
    scalar["workgroups"] = ["ceil_div(n, 256)", 1, 1]
    problem["name"] = "identical-copies"
    problem["keys"] = {"list": [{"n": 1048576}]}
    problem["candidates"] = [dict(scalar, name=f"copy{i}") for i in range(copies)]
    problem["reference"]["candidate"] = "copy0"
    problem.pop("settings", None)
    return problem


def identical_ties(spvtune, work, kernels, copies, runs):
    """Tunes identical_problem() `runs` times: per run, whether all copies tied and the most
    samples any copy took."""
    problem_file = work / "identical.json"
    problem_file.write_text(json.dumps(identical_problem(copies)))
    results = []
    for _ in range(runs):
        _, _, tied, key = tune(spvtune, problem_file, work, kernels)
        measured = [c for c in key["candidates"] if "statistics" in c]
        most = max(c["statistics"]["samples"] for c in measured)
        results.append((len(tied) == copies, most, [c.get("batch_runs") for c in measured]))
        print(f"identical copies: {len(tied)}/{copies} winner or tied, most samples {most},"
              f" batches {sorted(set(results[-1][2]))}, wall {key['time']['wall_s']:.2f} s")
    return results


def ties_line(label, ties):
    """The identical-copies target over identical_ties()' runs."""
    both = sum(t and m <= 20 for t, m, _ in ties)
    most = sorted(m for _, m, _ in ties)
    return (f"{label}: all tied in {sum(t for t, _, _ in ties)} of {len(ties)} runs; every copy"
            f" stopped in <= 20 samples in {sum(m <= 20 for m in most)}; both in {both}"
            f" (target >= 19 of 20); most samples of a copy: median {most[len(most) // 2]},"
            f" max {most[-1]}")


def overhead_line(label, time_):
    rest = {k: round(v, 2) for k, v in time_.items() if k not in ("wall_s", "kernel_s")}
    return (f"{label} wall / kernel time: {time_['wall_s']:.2f} s / {time_['kernel_s']:.2f} s"
            f" = {time_['wall_s'] / time_['kernel_s']:.2f} (target <= 1.3); the rest: {rest}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spvtune", default=str(ROOT / "build" / "default" / "app" / "spvtune"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--identical-runs", type=int, default=20)
    parser.add_argument("--copies", type=int, default=8)
    parser.add_argument("--no-load", action="store_true",
                        help="leave out the identical copies with one core held busy")
    parser.add_argument("--samples-per-submission", type=int, default=None,
                        help="passed to every tune (default: the tool's)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        work = pathlib.Path(scratch)
        problem_file = work / "elementwise-48.json"
        problem = large_problem()
        problem_file.write_text(json.dumps(problem))
        (work / "saxpy.spv").write_bytes((ROOT / "build" / "default" / "kernels" / "saxpy.spv").read_bytes())
        kernels = ["--kernel-dir", str(ROOT / "build" / "default" / "kernels")]
        if args.samples_per_submission is not None:
            kernels += ["--samples-per-submission", str(args.samples_per_submission)]
        samples = ["--samples", str(args.samples)]

        ratios = []
        agree = 0
        crawl_costs = []
        overheads = []
        for _ in range(args.repeats):
            fixed_s, fixed_winner, fixed_tied, _ = tune(args.spvtune, problem_file, work,
                                                        kernels + samples + ["--fixed"])
            adaptive_s, winner, _, key = tune(args.spvtune, problem_file, work, kernels + samples)
            ratios.append(adaptive_s / fixed_s)
            agree += winner == fixed_winner or winner in fixed_tied
            print(f"fixed {fixed_s:6.2f} s ({fixed_winner})  adaptive {adaptive_s:6.2f} s ({winner})"
                  f"  ratio {adaptive_s / fixed_s:.2f}")
            overheads.append(key["time"])
            crawl_costs += hopeless_costs(args.spvtune, work)
        if args.identical_runs:
            ties = identical_ties(args.spvtune, work, kernels, args.copies, args.identical_runs)
            print(ties_line(f"identical copies ({args.copies}), quiet", ties))
            if not args.no_load:
                with one_core_busy():
                    ties = identical_ties(args.spvtune, work, kernels, args.copies,
                                          args.identical_runs)
                print(ties_line(f"identical copies ({args.copies}), one core held busy", ties))
        shipped = ROOT / "configs" / "elementwise.json"
        for _ in range(max(1, args.repeats)):
            _, _, _, key = tune(args.spvtune, shipped, work, kernels + ["--key", "n=1048576"])
            print(overhead_line("configs/elementwise.json n=1048576:", key["time"]))
        if not ratios:
            return 0
        ratios.sort()
        print(f"adaptive / fixed wall time, median of {len(ratios)}: {ratios[len(ratios) // 2]:.2f}"
              f" (target <= 0.40); adaptive winner same as or tied with fixed: {agree}/{args.repeats}")
        for time_ in overheads:
            print(overhead_line("48 candidates, adaptive:", time_))
        print("slow candidates per key (warm-ups + samples, times slower than the best): " +
              ", ".join(f"{name} {w} + {n} at {slow:.1f}x" for name, w, n, slow in crawl_costs))
        hopeless = [n for _, _, n, slow in crawl_costs if slow >= 20]
        print(f"at least 20x slower: {len(hopeless)} measured, {sum(n <= 1 for n in hopeless)} of"
              " them with at most 1 sample beyond the warm-up (target: all)")


if __name__ == "__main__":
    sys.exit(main())
