#!/usr/bin/env python3
"""Tuning wall time with candidates in a worker process (the default) against --in-process.

Runs `spvtune tune PROBLEM --retune` both ways, alternating so that a machine busy with
something else slows both alike, each in a fresh cache directory, and prints each run, the
medians and their ratio (worker / in-process). The target: at most 2% more on the demo.
Wall time on a busy machine is noisy, so it also prints, from each run's --json report, the
time measuring calls spent outside the kernels per sample (the socket round trip shows
there) and the share of the wall time that is.

Usage: scripts/bench-worker.py [--runs N] [--binary PATH] [PROBLEM] [-- TUNE OPTIONS...]
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tune_once(binary, problem, extra, in_process):
    """Wall seconds, measuring overhead seconds and samples of one tune run."""
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
        overhead, samples = 0.0, 0
        for problem_report in json.loads(report.read_text())["problems"]:
            for key in problem_report["keys"]:
                overhead += key.get("time", {}).get("measuring_overhead_s", 0)
                for candidate in key.get("candidates", []):
                    samples += len(candidate.get("samples_ns", []))
                    samples += len(candidate.get("warmup_ns", []))
    return took, overhead, samples


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each mode (default 5)")
    parser.add_argument("--binary", default=str(ROOT / "build/default/app/spvtune"))
    parser.add_argument("problem", nargs="?", default=str(ROOT / "configs/demo.json"))
    parser.add_argument("extra", nargs="*", help="options for spvtune tune, after --")
    args = parser.parse_args()

    runs = {"worker": [], "in-process": []}
    tune_once(args.binary, args.problem, args.extra, False)  # warm the driver's caches first
    for run in range(args.runs):
        # Alternate which goes first, so neither always follows the other.
        order = [False, True] if run % 2 == 0 else [True, False]
        for in_process in order:
            mode = "in-process" if in_process else "worker"
            took, overhead, samples = tune_once(args.binary, args.problem, args.extra, in_process)
            runs[mode].append((took, overhead, samples))
            print(f"run {run + 1} {mode:>10}: {took:.3f} s, measuring overhead {overhead:.3f} s "
                  f"over {samples} samples", flush=True)
    medians = {}
    for mode, results in runs.items():
        wall = statistics.median(r[0] for r in results)
        per_sample = statistics.median(r[1] / max(r[2], 1) for r in results)
        overhead = statistics.median(r[1] for r in results)
        medians[mode] = (wall, per_sample, overhead)
        print(f"median {mode:>10}: {wall:.3f} s wall, {per_sample * 1e6:.0f} us measuring "
              f"overhead per sample ({overhead / wall * 100:.2f}% of the wall time)")
    worker, in_process = medians["worker"], medians["in-process"]
    extra = (worker[2] - in_process[2]) / in_process[0] * 100
    print(f"wall ratio worker / in-process {worker[0] / in_process[0]:.4f} "
          f"({(worker[0] / in_process[0] - 1) * 100:+.1f}%); extra measuring overhead of the "
          f"worker: {(worker[1] - in_process[1]) * 1e6:+.0f} us per sample, {extra:+.2f}% of "
          f"the in-process wall time")


if __name__ == "__main__":
    main()
