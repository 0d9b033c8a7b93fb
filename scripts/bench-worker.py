#!/usr/bin/env python3
"""Tuning wall time with candidates in a worker process (the default) against --in-process.

Runs `spvtune tune PROBLEM --retune` both ways, alternating so that a machine busy with
something else slows both alike, each in a fresh cache directory, and prints each run, the
medians and their ratio (worker / in-process). The target: at most 2% more on the demo.
Wall time on a busy machine is noisy, so it also prints, from each run's --json report, the
time measuring calls spent outside the kernels per sample (the socket round trip shows
there) and the share of the wall time that is, and the time of the checked runs (the output runs
of checks mode, outside their dispatches, which the report counts as kernel time; in a worker
they are compared there, so only a reference's outputs and a mismatch's cross the socket) with its ratio worker / in-process (target: at most 1.2).
The 48-candidate element-wise problem of scripts/bench-race.py: PROBLEM `elementwise-48`.

Usage: scripts/bench-worker.py [--runs N] [--binary PATH] [PROBLEM|elementwise-48]
                               [-- TUNE OPTIONS...]
"""

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def elementwise_48(scratch):
    """bench-race.py's 48-candidate problem, written to `scratch`; the kernel folder option."""
    spec = importlib.util.spec_from_file_location("bench_race", ROOT / "scripts/bench-race.py")
    bench_race = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_race)
    problem = Path(scratch) / "elementwise-48.json"
    problem.write_text(json.dumps(bench_race.large_problem()))
    return str(problem), ["--kernel-dir", str(ROOT / "build/default/kernels")]


def tune_once(binary, problem, extra, in_process):
    """Wall seconds, measuring overhead seconds, samples and checked-run seconds of one run."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        command = [binary, "tune", problem, "--retune", "-q", "--cache-dir", scratch,
                   "--json", str(report), *extra]
        if in_process:
            command.append("--in-process")
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        took = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"bench-worker: {' '.join(command)} exited {done.returncode}\n{done.stderr}")
        overhead, samples, checked = 0.0, 0, 0.0
        for problem_report in json.loads(report.read_text())["problems"]:
            for key in problem_report["keys"]:
                overhead += key.get("time", {}).get("measuring_overhead_s", 0)
                checked += key.get("time", {}).get("output_runs_s", 0)
                for candidate in key.get("candidates", []):
                    samples += len(candidate.get("samples_ns", []))
                    samples += len(candidate.get("warmup_ns", []))
    return took, overhead, samples, checked


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each mode (default 5)")
    parser.add_argument("--binary", default=str(ROOT / "build/default/app/spvtune"))
    parser.add_argument("problem", nargs="?", default=str(ROOT / "configs/demo.json"))
    parser.add_argument("extra", nargs="*", help="options for spvtune tune, after --")
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory()
    if args.problem == "elementwise-48":
        args.problem, kernels = elementwise_48(scratch.name)
        args.extra = kernels + args.extra

    runs = {"worker": [], "in-process": []}
    tune_once(args.binary, args.problem, args.extra, False)  # warm the driver's caches first
    for run in range(args.runs):
        # Alternate which goes first, so neither always follows the other.
        order = [False, True] if run % 2 == 0 else [True, False]
        for in_process in order:
            mode = "in-process" if in_process else "worker"
            result = tune_once(args.binary, args.problem, args.extra, in_process)
            runs[mode].append(result)
            took, overhead, samples, checked = result
            print(f"run {run + 1} {mode:>10}: {took:.3f} s, measuring overhead {overhead:.3f} s "
                  f"over {samples} samples, checked runs {checked:.3f} s", flush=True)
    medians = {}
    for mode, results in runs.items():
        wall = statistics.median(r[0] for r in results)
        per_sample = statistics.median(r[1] / max(r[2], 1) for r in results)
        overhead = statistics.median(r[1] for r in results)
        checked = statistics.median(r[3] for r in results)
        medians[mode] = (wall, per_sample, overhead, checked)
        print(f"median {mode:>10}: {wall:.3f} s wall, {per_sample * 1e6:.0f} us measuring "
              f"overhead per sample ({overhead / wall * 100:.2f}% of the wall time), checked "
              f"runs {checked:.3f} s")
    worker, in_process = medians["worker"], medians["in-process"]
    extra = (worker[2] - in_process[2]) / in_process[0] * 100
    print(f"wall ratio worker / in-process {worker[0] / in_process[0]:.4f} "
          f"({(worker[0] / in_process[0] - 1) * 100:+.1f}%); extra measuring overhead of the "
          f"worker: {(worker[1] - in_process[1]) * 1e6:+.0f} us per sample, {extra:+.2f}% of "
          f"the in-process wall time")
    print(f"checked runs worker / in-process {worker[3] / max(in_process[3], 1e-9):.3f} "
          f"(target: at most 1.2)")


if __name__ == "__main__":
    main()
